"""``spacetable catalogs``: find every message the code uses, with Babel, and bring the
catalogs up to date.

Messages the code uses and a catalog lacks are added untranslated, those the code no
longer uses are dropped (docs/translating.md). tests/i18n/test_catalogs.py fails when a
catalog is not up to date or leaves a message untranslated.

What is searched (:data:`METHOD_MAP`): the Python package (``tr.gettext(...)``,
``tr.ngettext(...)``, ``N_(...)``), the browser's modules (``t(...)``, ``tn(...)``), the
pages whose HTML is translated (:data:`PAGES`, read by :mod:`spacetable.i18n.html`) and
the games' listings (:mod:`spacetable.i18n.schemas`: titles, bots, room options).
"""

from __future__ import annotations

from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from babel.plural import to_gettext

from spacetable import i18n
from spacetable.i18n import DOMAIN, SOURCE

#: The package folder that is searched.
PACKAGE = Path(__file__).resolve().parent.parent

#: The pages whose HTML body is translated (the others are still English only).
PAGES: tuple[str, ...] = (
    "web/index.html",
    "web/room.html",
    "web/tutorial.html",
    "web/matches.html",
    "web/referee.html",
    "web/replay.html",
    "web/rules.html",
    "web/login.html",
    "web/signup.html",
    "web/profile.html",
    "web/leaderboard.html",
    "web/mygames.html",
    "web/friends.html",
    "web/tournaments.html",
    "web/tournament.html",
    "web/tournamenttable.html",
    "web/deleteaccount.html",
    "web/missing.html",
    "web/noplayer.html",
    "web/admin.html",
    "web/settings.html",
    "web/verifyemail.html",
    "web/resetpassword.html",
    "web/unsubscribe.html",
)

#: The functions whose first arguments are messages (and second, for plurals).
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "gettext": None,
    "N_": None,
    "ngettext": (1, 2),
    "t": None,
    "tn": (1, 2),
    "tParts": None,
    "tnParts": (1, 2),
    "phrase": None,
    "phrase_n": (1, 2),
    "refusal": None,
}

METHOD_MAP: list[tuple[str, str]] = [
    ("**.py", "python"),
    ("web/**.js", "javascript"),
    *((page, "spacetable.i18n.html:extract") for page in PAGES),
]


def catalog_path(lang: str, root: Path = PACKAGE) -> Path:
    """Where ``lang``'s catalog lies in a source checkout."""
    return root / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def template(root: Path = PACKAGE) -> Catalog:
    """Every message the code under ``root`` uses, each with where it is used."""
    # Every game's listing and resources: all the games load, only for this command.
    from spacetable.i18n.schemas import listing_messages, resource_messages
    from spacetable.registry import games

    catalog = Catalog(domain=DOMAIN, project="spacetable", charset="utf-8")
    found = extract_from_dir(
        root,
        METHOD_MAP,
        options_map={"web/**.js": {"encoding": "utf-8", "parse_template_string": True}},
        keywords=KEYWORDS,
        directory_filter=lambda path: "__pycache__" not in path,
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for game in games():
        for message in listing_messages(game.to_json()):
            catalog.add(message, None, [(f"registry:{game.rules.key}", 0)])
        for name, function in game.resources:
            for message in resource_messages(function()):
                catalog.add(message, None, [(f"registry:{game.rules.key}/{name}", 0)])
    return catalog


def update(lang: str, root: Path = PACKAGE) -> Catalog:
    """``lang``'s catalog brought up to the code's messages, written back."""
    path = catalog_path(lang, root)
    if path.is_file():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="spacetable")
    # CLDR's plural rule, as the browser's Intl.PluralRules applies it.
    catalog.mime_headers = [("Plural-Forms", to_gettext(Locale.parse(lang).plural_form))]
    catalog.update(template(root), no_fuzzy_matching=True, update_creation_date=False)
    catalog.copyright_holder = "the spacetable contributors"
    catalog.msgid_bugs_address = "https://github.com/spacetable (issues)"
    catalog.obsolete.clear()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, include_lineno=False, sort_output=True)
    return catalog


def catalogs() -> None:
    """Bring every language's catalog up to the messages the code uses (for translators:
    docs/translating.md) and say how many each still lacks."""
    for lang in i18n.LANGUAGES:
        if lang == SOURCE:
            continue
        catalog = update(lang)
        missing = [m.id for m in catalog if m.id and not all(_strings(m.string))]
        # Babel marks a message fuzzy when its id changes shape (a message made plural keeps
        # its old translation as the first form): the tests count it as untranslated.
        fuzzy = [m.id for m in catalog if m.id and m.fuzzy and all(_strings(m.string))]
        said = f"{len(missing)} untranslated"
        if fuzzy:
            said += f", {len(fuzzy)} fuzzy (check each, then remove its '#, fuzzy' mark)"
        print(f"{catalog_path(lang)}: {len(catalog)} messages, {said}")


def _strings(value: object) -> list[str]:
    if isinstance(value, tuple | list):
        return [str(v) for v in value]
    return [str(value or "")]
