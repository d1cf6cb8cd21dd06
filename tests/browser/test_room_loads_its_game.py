"""A room page loads its own game's code and builds its own table, and nothing of the
other games: an FTL or a hex fleet room fetches no laser-game module and has no card hand
bar; a Light Speed room fetches no FTL or hex fleet module. A second room page takes its
scripts and stylesheets from the browser's cache, without asking the server again
(server/http/assets.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Server

LOADED = "performance.getEntriesByType('resource').map((entry) => entry.name)"


def _open_room(open_page: OpenPage, server: Server, options: dict[str, object]) -> Page:
    room = server.api("/api/rooms", options)
    page = open_page(f"/rooms/{room['id']}")
    page.wait_for_selector("#seat-panel .seat")
    page.wait_for_selector("#table")
    return page


def _game_modules(page: Page) -> set[str]:
    """The games whose modules the page fetched (``/static/v-<version>/js/games/<key>/``)."""
    urls: list[str] = page.evaluate(LOADED)
    paths = [url.split("/js/games/")[1] for url in urls if "/js/games/" in url]
    return {path.split("/")[0] for path in paths if "/" in path}


def test_every_game_names_its_browser_module(server: Server) -> None:
    for entry in server.api("/api/games"):
        assert entry["client"] == f"/static/js/games/{entry['key']}/index.js"


@pytest.mark.parametrize(
    ("options", "game"),
    [
        ({"ruleset": "ftl", "seats": 2}, "ftl"),
        ({"ruleset": "hexfleet", "seats": 2, "scenario": "duel"}, "hexfleet"),
    ],
)
def test_a_turn_based_room_loads_no_laser_code(
    open_page: OpenPage, server: Server, options: dict[str, object], game: str
) -> None:
    page = _open_room(open_page, server, options)
    assert _game_modules(page) == {game}
    assert page.locator("#hand-bar").count() == 0
    assert page.locator("#stop-banner").count() == 0
    assert page.locator("#fleet-panel").count() == 0


def test_a_light_speed_room_loads_no_turn_based_game(open_page: OpenPage, server: Server) -> None:
    page = _open_room(open_page, server, {"ruleset": "lightspeed", "seats": 2})
    assert _game_modules(page) == {"lightspeed", "lasers"}
    assert page.locator("#hand-bar").count() == 1


#: The page's scripts and stylesheets: address, bytes over the network (0 when the
#: browser's cache had it), bytes of the file.
FILES = """performance.getEntriesByType('resource')
  .filter((entry) => new URL(entry.name).pathname.startsWith('/static/'))
  .map((entry) => [new URL(entry.name).pathname, entry.transferSize, entry.decodedBodySize])"""


def test_a_second_room_page_asks_the_server_for_none_of_its_files(
    open_page: OpenPage, server: Server
) -> None:
    first = _open_room(open_page, server, {"ruleset": "ftl", "seats": 2})
    prefix = first.evaluate("document.querySelector('link[rel=stylesheet]').getAttribute('href')")
    prefix = prefix.removesuffix("/css/page.css")
    assert re.fullmatch(r"/static/v-[0-9a-f]{12}", prefix), prefix
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})
    first.goto(f"{server.base}/rooms/{room['id']}")
    first.wait_for_selector("#seat-panel .seat")
    files: list[tuple[str, int, int]] = first.evaluate(FILES)
    scripts = [f for f in files if f[0].endswith((".js", ".css"))]
    assert len(scripts) > 20, files  # the shell's modules, the game's, the stylesheets
    # Every one at this version's address: none loaded a second time at its plain one.
    assert all(path.startswith(prefix + "/") for path, _, _ in scripts), scripts
    # From the browser's cache: no bytes over the network, not even a "not modified".
    asked = [path for path, sent, size in scripts if sent != 0 or size == 0]
    assert asked == [], asked
