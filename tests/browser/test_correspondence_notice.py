"""A correspondence move calls the player back (issue 37 item 4): Bob has plotted and left
his FTL room's tab hidden behind another; then Ann plots, the turn is played, and
his tab says it is his turn: its title, and the browser's notification (allowed). On a
laptop and on a phone. The notification is a stub in the page (headless Chromium shows
none), the tab hidden as the browser hides it (tests/browser/ftl/test_ftl_hidden_tab.py).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl.test_ftl_hidden_tab import SET_HIDDEN
from tests.browser.test_my_games import _seated, _waiting_on

#: The browser's notifications, allowed, each one shown kept in ``window.notices``.
NOTIFICATIONS = """() => {
  window.notices = [];
  window.Notification = class {
    static permission = "granted";
    static requestPermission() { return Promise.resolve("granted"); }
    constructor(title, options) { window.notices.push({ title, body: options?.body }); }
    close() {}
  };
}"""


@pytest.mark.parametrize(("width", "height"), [(1366, 800), (390, 844)], ids=["laptop", "phone"])
def test_a_correspondence_move_calls_the_hidden_tab_back(
    open_page: OpenPage, server: Server, shot: Shot, width: int, height: int
) -> None:
    ann, bob = f"Ann {width}", f"Bob {width}"
    cookies = {name: session_cookie(server.base, name) for name in (ann, bob)}
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 24})["id"]
    clients = {name: _seated(server, room, cookies[name]) for name in (ann, bob)}
    clients[bob].wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    clients[bob].send(type="plot", orders=[])  # Bob plots turn 1 and closes his socket
    clients[bob].wait(_waiting_on(ann))
    clients[bob].close()

    page = open_page("/", viewport={"width": width, "height": height})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookies[bob].split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/rooms/{room}")
    page.locator("#correspondence").wait_for(state="visible")  # he sits, waiting on Ann
    page.wait_for_function("document.body.dataset.turn === '1'")
    page.evaluate(NOTIFICATIONS)
    plain = page.title()
    page.evaluate(SET_HIDDEN, True)  # he goes to another tab

    clients[ann].send(type="plot", orders=[])
    clients[ann].wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    clients[ann].close()
    page.wait_for_function("window.notices.length > 0")
    assert page.evaluate("window.notices") == [
        {"title": "▶ Your turn", "body": "Turn 2: plot your orders."}
    ]
    assert page.title().startswith("▶ Your turn") and page.title() != plain
    assert page.get_attribute("body", "data-calling") == "true"

    page.evaluate(SET_HIDDEN, False)  # he comes back: the tab is as it was
    assert page.title() == plain
    assert page.get_attribute("body", "data-calling") is None
    assert page.get_attribute("body", "data-phase") == "plot"
    # Ann closed her socket: in a room of days a turn that is no alarm, plainly "offline"
    # (not "disconnected" in red, as in a live match).
    absent = page.locator(f"#players .player[data-player='{ann}']")
    expect(absent.locator(".offline")).to_have_text("offline")
    assert absent.locator(".away").count() == 0
    page.locator("#submit-plot").scroll_into_view_if_needed()
    shot(page, "his-turn")
