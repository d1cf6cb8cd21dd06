"""The browser's pages: every page is the one head (``web/head.html``: its title, the
shell's stylesheet, the page's script) followed by the page's own body
(``web/<name>.html``), composed when served. A room page also names the game its room
plays (``<html data-game="...">``), so that it loads only that game's module. A page is
written in the reader's language (``<html lang="fr">``, its words from the catalogs:
:mod:`spacetable.i18n.html`); the languages the switch offers are on ``<html>`` too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from importlib import resources
from string import Template

import orjson
from starlette.requests import HTTPConnection

from spacetable import i18n
from spacetable.i18n import N_, choose, language_names, translator
from spacetable.i18n.html import translate_html

WEB = resources.files("spacetable") / "web"


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its body's file under ``web/``, its title and its script under ``web/js/``."""

    body: str
    title: str
    script: str


#: Every page by name.
PAGES: dict[str, Page] = {
    "lobby": Page("index.html", N_("spacetable — space battles at one table"), "pages/lobby.js"),
    "room": Page("room.html", N_("Room — spacetable"), "pages/room.js"),
    "matches": Page("matches.html", N_("Finished matches — spacetable"), "pages/matches.js"),
    "replay": Page("replay.html", N_("Replay — spacetable"), "pages/replay.js"),
    "referee": Page("referee.html", N_("Referee sandbox — spacetable"), "pages/referee.js"),
    "tutorial": Page("tutorial.html", N_("Learn by playing — spacetable"), "pages/tutorial.js"),
    "rules": Page("rules.html", N_("How to play — spacetable"), "pages/rules.js"),
}


@functools.cache
def _read(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


@functools.cache
def _body(name: str, lang: str) -> str:
    return translate_html(_read(name), translator(lang).messages)


@functools.cache
def _languages(languages: tuple[str, ...]) -> str:
    """The switch's languages, each with its own name, as the page's ``data-languages``."""
    return escape(orjson.dumps(language_names(languages)).decode())


def compose(
    name: str, *, game: str | None = None, lang: str = "en", node: str | None = None
) -> str:
    """The HTML of page ``name`` (a key of :data:`PAGES`) in language ``lang``; ``game``
    is the key of the game the page shows, if it is known before the page loads;
    ``node``, the balancer's name for the server process that holds the page's room."""
    page = PAGES[name]
    attrs = f' data-game="{escape(game)}"' if game else ""
    attrs += f' data-node="{escape(node)}"' if node else ""
    attrs += f' data-languages="{_languages(i18n.LANGUAGES)}"'
    head = Template(_read("head.html")).substitute(
        lang=escape(lang),
        html_attrs=attrs,
        title=escape(translator(lang).gettext(page.title)),
        script=escape(page.script),
    )
    return head + _body(page.body, lang)


def reader_language(connection: HTTPConnection) -> str:
    """The language of a request or socket: ``?lang=`` in its link, else the one the
    reader picked on the page's switch (the ``lang`` cookie), else ``Accept-Language``."""
    return choose(
        connection.query_params.get("lang"),
        connection.cookies.get("lang"),
        connection.headers.get("accept-language"),
    )
