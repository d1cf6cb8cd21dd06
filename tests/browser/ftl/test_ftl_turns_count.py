"""FTL's "Turns" navigator counts the match's turns, not those the page saw (issue 67
item 15): Bob comes back to his correspondence room at turn 3 (turns 1 and 2 played while
his page was closed, Ann letting turn 2 run out); he plots turns 3 and 4, Ann lets both
run out, and at her third in a row the match ends on the timeout. The page saw turn 3
alone: its navigator read "Turn 3 of 1"; it reads "Turn 3 of 3", and its start "Before
turn 3". The timeout that loses the match is told by the end card alone (a toast over it
said "the turn passes"). The clock is the server's, moved past each deadline."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_my_games import _seated

HOUR = 3600


def _plot_nothing(page: Page, turn: int) -> None:
    page.wait_for_function(f"document.body.dataset.turn === '{turn}'")
    page.locator("#submit-plot").click()
    expect(page.locator("#submit-plot")).to_be_hidden()


def test_the_turns_navigator_counts_the_match_s_turns_after_a_timeout(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann, bob = "Ann Count", "Bob Count"
    cookies = {name: session_cookie(server.base, name) for name in (ann, bob)}
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 1})["id"]
    clients = {name: _seated(server, room, cookies[name]) for name in (ann, bob)}
    for client in clients.values():
        client.wait(lambda m: m["type"] == "state" and m["turn"] == 1)
        client.send(type="plot", orders=[])
    clients[bob].wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    clients[ann].close()  # Ann goes away for good
    clients[bob].send(type="plot", orders=[])
    clients[bob].wait(lambda m: m["type"] == "room" and m["correspondence"]["waiting"] == [ann])
    server.advance(HOUR + 1)  # her turn 2 runs out
    clients[bob].wait(lambda m: m["type"] == "state" and m["turn"] == 3)
    clients[bob].close()

    page = open_page("/?lang=en", viewport={"width": 1366, "height": 800})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookies[bob].split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/rooms/{room}?lang=en")
    page.select_option("#turn-speed", "8")
    _plot_nothing(page, 3)
    server.advance(HOUR + 1)  # her turn 3 runs out: the page sees it played
    _plot_nothing(page, 4)
    server.advance(HOUR + 1)  # her third in a row: she loses
    expect(page.locator(".match-end #end-reason")).to_be_visible()
    # The card says how it ended; no toast over it says "the turn passes" (it did).
    assert "timeouts in a row: 3" not in page.inner_text("#message")
    expect(page.locator(".ftl-position")).to_have_text("Turn 3 of 3")
    page.click(".ftl-stepper [data-step='first']")
    expect(page.locator(".ftl-position")).to_have_text("Before turn 3")
    expect(page.locator("#history-banner-text")).to_have_text("Before turn 3 — history, read only")
    shot(page, "over")
