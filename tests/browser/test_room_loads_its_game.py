"""A room page loads its own game's code and builds its own table, and nothing of the
other games: an FTL or a hex fleet room fetches no laser-game module and has no card hand
bar; a Light Speed room fetches no FTL or hex fleet module."""

from __future__ import annotations

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
    """The games whose modules the page fetched (``/static/js/games/<key>/``)."""
    urls: list[str] = page.evaluate(LOADED)
    paths = [url.split("/static/js/games/")[1] for url in urls if "/static/js/games/" in url]
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
