"""The browser's pages: every page is the one head (``web/head.html``: its title, the
shell's stylesheet, the page's script) followed by the page's own body
(``web/<name>.html``), composed when served. A room page also names the game its room
plays (``<html data-game="...">``), so that it loads only that game's module.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from importlib import resources
from string import Template

WEB = resources.files("spacetable") / "web"


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its body's file under ``web/``, its title and its script under ``web/js/``."""

    body: str
    title: str
    script: str


#: Every page by name.
PAGES: dict[str, Page] = {
    "lobby": Page("index.html", "spacetable — space battles at one table", "pages/lobby.js"),
    "room": Page("room.html", "Room — spacetable", "pages/room.js"),
    "matches": Page("matches.html", "Finished matches — spacetable", "pages/matches.js"),
    "replay": Page("replay.html", "Replay — spacetable", "pages/replay.js"),
    "referee": Page("referee.html", "Referee sandbox — spacetable", "pages/referee.js"),
    "tutorial": Page("tutorial.html", "Learn in 2 minutes — spacetable", "pages/tutorial.js"),
    "rules": Page("rules.html", "How to play — spacetable", "pages/rules.js"),
}


@functools.cache
def _read(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def compose(name: str, *, game: str | None = None) -> str:
    """The HTML of page ``name`` (a key of :data:`PAGES`); ``game`` is the key of the
    game the page shows, if it is known before the page loads."""
    page = PAGES[name]
    attrs = f' data-game="{escape(game)}"' if game else ""
    head = Template(_read("head.html")).substitute(
        html_attrs=attrs, title=escape(page.title), script=escape(page.script)
    )
    return head + _read(page.body)
