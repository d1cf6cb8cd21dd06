"""The lobby's "Online now" (issue 69 item 1), in the browser: a player who opens any page
is listed on another player's lobby, by name, linking to his profile, "in the lobby"; when
he takes a seat in a room his line says he plays that game, live (the lobby socket's
``online`` messages), and links to the room; a player the reader follows is marked. On a
laptop and on a phone."""

from __future__ import annotations

import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot

VIEWPORTS = pytest.mark.parametrize(
    ("width", "height"), [(1366, 800), (390, 844)], ids=["laptop", "phone"]
)


def logged_in(
    open_page: OpenPage, server: Server, name: str, width: int, height: int, follows: str = ""
) -> Page:
    """A browser of its own holding a new account's session (following ``follows``, if
    given), on the lobby."""
    cookie = session_cookie(server.base, name)
    if follows:
        path = f"/api/following/{urllib.parse.quote(follows)}"
        request = urllib.request.Request(
            server.base + path, headers={"cookie": cookie}, method="PUT"
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 204
    page = open_page("/", viewport={"width": width, "height": height})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": server.base}]
    )
    page.goto("/")
    return page


@VIEWPORTS
def test_the_lobby_lists_a_player_online_and_shows_him_playing_once_he_sits(
    open_page: OpenPage, server: Server, shot: Shot, width: int, height: int
) -> None:
    name = f"Orla {width}"
    player = logged_in(open_page, server, name, width, height)
    # The watcher follows her: her line is marked.
    watcher = logged_in(open_page, server, f"Wren {width}", width, height, follows=name)
    line = watcher.locator(f"#online-list li[data-name='{name}']")
    expect(line.locator(".online-status")).to_have_text("in the lobby")
    expect(line.locator("a.online-name")).to_have_attribute(
        "href", f"/players/{name.replace(' ', '%20')}"
    )
    expect(watcher.locator("#online-summary")).to_contain_text(" online")
    expect(line.locator(".online-friend")).to_have_text("followed")
    # He sits at a Light Speed table: the watcher's lobby says so without a reload.
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    player.goto(f"/rooms/{room}")
    player.click(".seat[data-seat='0'] .take-seat")
    player.wait_for_selector("button#ready")
    status = line.locator(".online-status")
    expect(status).to_have_text("playing Light Speed")
    expect(status).to_have_attribute("href", f"/rooms/{room}")
    watcher.locator("#online-panel").scroll_into_view_if_needed()
    shot(watcher, "online-playing")
    # The whole panel inside the screen's width (a phone too).
    box = watcher.locator("#online-panel").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
