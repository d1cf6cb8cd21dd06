"""The FTL plot timer keeps what the player wrote (issue 20, FTL item 7): at the deadline
the order typed or dragged but never submitted is his plot, not "no orders"; the
countdown never shows more than the room's timer (the server holds a turn's timer back
while the last turn plays out: tests/server/rooms/test_server_ftl.py).

The deadline comes when the test moves the server's clock past it (``Server.advance``),
never while the page is still being written to or reloaded, however busy the machine."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser._play import answer_name
from tests.browser.conftest import OpenPage, Server, Shot, handled, room_socket, sent
from tests.browser.ftl._duel import wait_turn

#: The room's plot timer (s). It runs out when the test moves the server's clock.
TIMER_S = 60
FIELD = ".plot-row[data-piece='ann'] .plot-order"


def seconds_shown(page: Page) -> float:
    page.wait_for_selector("#countdown:not([hidden])")
    return float(page.get_attribute("#countdown", "data-seconds-left") or "nan")


def test_at_the_deadline_the_draft_is_plotted(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "plot_timer_s": TIMER_S})
    ann = open_page(f"/rooms/{room['id']}?bots=1:random", viewport={"width": 1366, "height": 800})
    answer_name(ann, "ann")
    ann.wait_for_selector("button#ready")
    ann.click("button#ready")
    wait_turn(ann, 1)
    assert 0 < seconds_shown(ann) <= TIMER_S
    with room_socket(ann).expect_event("framesent", sent("draft")):
        ann.fill(FIELD, "R+30")  # typed, never submitted: the page sends it as the draft
    assert ann.get_attribute(".plot-row[data-piece='ann']", "data-order") == "R+30"
    shot(ann, "timer-desktop")
    # The draft left the page; the clock is moved once the server has it (the clock's
    # request comes on another connection, which could overtake the draft's frame).
    handled(ann)
    server.advance(TIMER_S)
    wait_turn(ann, 2)
    # The timer ran out: the draft was Ann's plot, revealed and played.
    assert "R+30" in ann.inner_text(".ftl-turns > li[data-turn='1'] .ftl-orders")
    assert "ann wrote: R+30." in ann.inner_text("#turn-log")
    assert "now facing 30°" in ann.inner_text("#turn-log")
    # Turn 2's countdown starts once turn 1 has played out, and never shows more than the timer.
    assert 0 < seconds_shown(ann) <= TIMER_S
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.locator("#table-wrap").scroll_into_view_if_needed()
    shot(ann, "timer-phone")


def test_a_draft_survives_a_reload_and_is_plotted_at_the_deadline(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 20 item 7: a plot typed (or dragged) but not submitted comes back when the page
    is reloaded, still unsent (Submit sends it); at the deadline it is the player's plot."""
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "plot_timer_s": TIMER_S})
    ann = open_page(f"/rooms/{room['id']}?bots=1:random", viewport={"width": 390, "height": 844})
    answer_name(ann, "ann")
    ann.wait_for_selector("button#ready")
    ann.click("button#ready")
    wait_turn(ann, 1)
    with room_socket(ann).expect_event("framesent", sent("draft")):
        ann.fill(FIELD, "R+30")
    assert ann.get_attribute(".plot-row[data-piece='ann']", "data-order") == "R+30"
    ann.reload()
    wait_turn(ann, 1)
    row = ".plot-row[data-piece='ann']"
    ann.wait_for_selector(f"{row}[data-order='R+30']")
    assert ann.input_value(FIELD) == "R+30"
    # Back as written, not sent: Submit is still to press, and Ann's seat has not plotted.
    assert ann.is_visible("#submit-plot")
    assert ann.inner_text("#submit-plot") == "Submit plot (1 order)"
    assert ann.get_attribute(".player[data-player='ann']", "data-plotted") == "false"
    shot(ann, "restored-phone")
    server.advance(TIMER_S)
    wait_turn(ann, 2)
    assert "ann wrote: R+30." in ann.inner_text("#turn-log")
    # Turn 2 starts from nothing: the kept draft was turn 1's.
    assert ann.input_value(FIELD) == ""
