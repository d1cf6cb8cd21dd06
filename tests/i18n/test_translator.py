"""The message catalogs as Python reads them (spacetable.i18n): French words, CLDR plurals,
numbers written the reader's way, the reader's language chosen from his request, and a
third language added with one catalog file and one line in the list."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from spacetable import i18n
from spacetable.i18n import (
    ENGLISH,
    Translator,
    choose,
    client_catalog,
    plural_categories,
    read_catalog,
    translator,
)
from spacetable.i18n.html import translate_html
from spacetable.server.http import pages
from tests._server import running_server

FRENCH = translator("fr")


def test_french_words_plurals_and_numbers() -> None:
    assert FRENCH.gettext("Create a room") == "Créer une salle"
    assert FRENCH.gettext("Winner: {player}", player="Ann") == "Vainqueur\u00a0: Ann"
    rocks = ("{ship} takes {n} rock from {source}.", "{ship} takes {n} rocks from {source}.")
    assert FRENCH.ngettext(*rocks, 1, ship="A", source="B") == "A prend 1 minerai sur B."
    assert FRENCH.ngettext(*rocks, 0, ship="A", source="B") == "A prend 0 minerai sur B."
    assert FRENCH.ngettext(*rocks, 2, ship="A", source="B") == "A prend 2 minerais sur B."
    assert ENGLISH.ngettext(*rocks, 0, ship="A", source="B") == "A takes 0 rocks from B."
    assert FRENCH.number(2.5) == "2,5" and ENGLISH.number(2.5) == "2.5"
    assert FRENCH.number(1234.5) == "1\u202f234,5"
    # A message the catalog lacks is told in English, never as an id.
    assert FRENCH.gettext("No such message {x}", x=3) == "No such message 3"


def test_the_reader_language_comes_from_the_link_then_the_switch_then_the_browser() -> None:
    assert choose(None, None, "fr-FR,fr;q=0.9,en;q=0.8") == "fr"
    assert choose(None, None, "de-DE,de;q=0.9,fr;q=0.5,en;q=0.3") == "fr"
    assert choose(None, None, "de, en;q=0.5, fr;q=0.7") == "fr"
    assert choose(None, None, "de") == "en" and choose() == "en"
    assert choose(None, "en", "fr") == "en"
    assert choose("fr", "en", "en") == "fr"
    assert choose("xx", None, "fr") == "fr"


def test_pages_translate_their_text_and_attributes_but_not_code_or_names() -> None:
    html = (
        '<p title="Your name">Who are you?</p><a translate="no">Lobby</a>'
        "<code>Lobby</code><script>let x = 'Lobby' < 2;</script>\n  <b> Lobby </b>"
    )
    out = translate_html(html, FRENCH.messages)
    assert out == (
        '<p title="Votre nom">Qui êtes-vous\u00a0?</p><a translate="no">Lobby</a>'
        "<code>Lobby</code><script>let x = 'Lobby' < 2;</script>\n  <b> Accueil </b>"
    )


def test_the_client_gets_plurals_by_cldr_category() -> None:
    catalog = client_catalog(FRENCH)
    assert catalog["plurals"] == ["one", "many", "other"]
    forms = catalog["messages"]["{ship} takes {n} rock from {source}."]
    assert forms["one"] == "{ship} prend {n} minerai sur {source}."
    assert forms["other"] == "{ship} prend {n} minerais sur {source}."


GERMAN_PO = r"""msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "Create a room"
msgstr "Einen Raum eröffnen"

msgid "Lobby"
msgstr "Eingangshalle"

msgid "{ship} takes {n} rock from {source}."
msgid_plural "{ship} takes {n} rocks from {source}."
msgstr[0] "{ship} nimmt {n} Stein von {source}."
msgstr[1] "{ship} nimmt {n} Steine von {source}."
"""


def test_a_language_is_one_catalog_file_and_one_line_in_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    for lang in ("fr",):  # the catalogs that are there stay
        (locale / lang / "LC_MESSAGES").mkdir(parents=True)
        source = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "spacetable.po"
        (locale / lang / "LC_MESSAGES" / "spacetable.po").write_bytes(source.read_bytes())
    # The one file...
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "de" / "LC_MESSAGES" / "spacetable.po").write_text(GERMAN_PO, encoding="utf-8")
    # ... and the one line.
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, "de"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    translator.cache_clear()
    pages._body.cache_clear()
    try:
        german = Translator("de", read_catalog("de", locale))
        rocks = ("{ship} takes {n} rock from {source}.", "{ship} takes {n} rocks from {source}.")
        assert german.ngettext(*rocks, 2, ship="A", source="B") == "A nimmt 2 Steine von B."
        assert plural_categories("de") == ("one", "other")
        assert choose(None, None, "de-DE,de;q=0.9,fr;q=0.5") == "de"
        page = pages.compose("lobby", lang="de")
        assert '<html lang="de"' in page and "<h1>Eingangshalle</h1>" in page
        assert "Deutsch" in page  # the switch offers it by its own name
        assert client_catalog(translator("de"))["messages"]["Lobby"] == "Eingangshalle"
    finally:
        translator.cache_clear()
        pages._body.cache_clear()


def _get(url: str, **headers: str) -> str:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        text: str = response.read().decode()
        return text


def test_the_server_writes_each_page_in_the_reader_language(tmp_path: Path) -> None:
    with running_server(tmp_path / "m.db") as server:
        base = server.http
        assert '<html lang="fr"' in _get(base + "/", **{"Accept-Language": "fr-FR,fr;q=0.9"})
        assert "<h1>Accueil</h1>" in _get(base + "/?lang=fr")
        assert '<html lang="en"' in _get(base + "/?lang=en", **{"Accept-Language": "fr"})
        assert '<html lang="en"' in _get(
            base + "/", **{"Accept-Language": "fr", "Cookie": "lang=en"}
        )
        french = json.loads(_get(base + "/i18n/fr.json"))
        assert french["lang"] == "fr" and french["messages"]["Lobby"] == "Accueil"
        games = json.loads(_get(base + "/api/games", **{"Accept-Language": "fr"}))
        lightspeed = next(g for g in games if g["key"] == "lightspeed")
        assert lightspeed["options"]["properties"]["seats"]["title"] == "Joueurs"
        assert lightspeed["bot_descriptions"]["beginner"].startswith("Débutant")
        try:
            _get(base + "/i18n/xx.json")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
        else:
            raise AssertionError("an unknown language is served")
