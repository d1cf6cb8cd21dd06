"""On a 390 x 844 phone nothing a player taps lies under something else (issue 19's phone
leftovers, fixed in the shell for every game): the chat, folded to a bar or open, leaves
the Leave and Place buttons free; a notice ("bob declined the draw") never lies over the
rematch's Decline; FTL's end card sits above the chat bar with Rematch and "Watch the
replay" in sight; the zoom row of the hex board and of the laser table is a strip under the
board, never over it (on a laptop too), and the hex fleet's bar of the active ship's buttons
never over that row. Each is checked by bounding boxes and by the button
taking the tap."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Page

from tests._server import Client
from tests.browser._play import answer_name
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._duel import start_duel

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}


LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 800}}


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}


def _apart(page: Page, one: str, other: str) -> None:
    """``one`` and ``other`` do not overlap on screen, and ``one`` takes a tap."""
    a, b = _box(page, one), _box(page, other)
    overlap = (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )
    assert not overlap, (one, a, other, b)
    page.locator(one).click(trial=True, timeout=3000)  # nothing else takes the tap


def _in_sight(page: Page, selector: str) -> None:
    box = _box(page, selector)
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)


def _ws_client(server: Server, room: str) -> Client:
    urls = SimpleNamespace(ws=server.base.replace("http://", "ws://"))
    return Client(urls, room)  # type: ignore[arg-type]


def _ann_in_a_light_speed_room(server: Server, open_page: OpenPage, link: str) -> Page:
    room = server.api("/api/rooms", {"seats": 2})
    page = open_page(f"/rooms/{room['id']}?{link}", **PHONE)
    answer_name(page, "ann")
    page.wait_for_selector("button#ready")
    return page


def test_the_chat_bar_leaves_the_buttons_free(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    page = _ann_in_a_light_speed_room(server, open_page, "join=1&bots=1:easy")
    page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    page.tap("button#ready")
    page.wait_for_selector("body[data-phase=fast]")
    # Folded, the bar never lies over a button scrolled into view.
    for button in ("#place-card", "#leave-match", "#resign"):
        page.locator(button).scroll_into_view_if_needed()
        _apart(page, button, "#chat")
    # The Leave button just above the bar stays in sight above the open chat.
    page.evaluate("document.querySelector('#leave-match').scrollIntoView({block: 'end'})")
    _apart(page, "#leave-match", "#chat")
    page.tap("#chat summary")
    page.wait_for_selector("#chat[open] .chat-input")
    page.wait_for_function(
        """() => document.querySelector('#leave-match').getBoundingClientRect().bottom
                 <= document.querySelector('#chat').getBoundingClientRect().top"""
    )
    _apart(page, "#leave-match", "#chat")
    _in_sight(page, "#leave-match")
    shot(page, "chat-open")
    page.locator("#place-card").scroll_into_view_if_needed()
    _apart(page, "#place-card", "#chat")


def test_a_notice_never_lies_over_the_rematch_decline(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    page = _ann_in_a_light_speed_room(server, open_page, "join=1")
    room = page.url.split("/rooms/")[1].split("?")[0]
    bob = _ws_client(server, room)
    try:
        bob.send(type="join", name="bob")
        bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        bob.send(type="ready")
        # Bob's ready redraws the seat panel: tap once the page shows it, not while the
        # panel may move under the finger (the tap was lost once under load).
        page.wait_for_function(
            """() => document.querySelector('.seat[data-seat="1"] .seat-state')
              ?.textContent === 'ready'"""
        )
        page.tap("button#ready")
        page.wait_for_selector("body[data-phase=fast]")
        page.locator("#offer-draw").tap()
        bob.wait_type("draw_offer")
        # Bob declines, resigns and asks for a rematch at once: the notice of the draw
        # declined is still on show when Ann is asked.
        bob.send(type="answer_draw", accept=False)
        bob.send(type="resign")
        bob.send(type="rematch")
        page.wait_for_selector("#decline-rematch:visible")
        page.wait_for_selector("#message:visible")
        assert "declined the draw" in page.inner_text("#message")
        # The notice checks what it covers on its own timer: wait until it has moved off.
        page.wait_for_function(
            """() => {
              const [a, b] = ["#decline-rematch", "#message"].map(
                (s) => document.querySelector(s).getBoundingClientRect());
              return a.bottom <= b.top || b.bottom <= a.top
                || a.right <= b.left || b.right <= a.left;
            }"""
        )
        _apart(page, "#decline-rematch", "#message")
        _apart(page, "#accept-rematch", "#message")
        _in_sight(page, "#decline-rematch")
        shot(page, "rematch-asked")
        page.tap("#decline-rematch")
        page.wait_for_selector("#decline-rematch", state="hidden")
        bob.wait_type("rematch_declined")
    finally:
        bob.close()


def test_the_ftl_end_card_on_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", **PHONE)
    start_duel(page, "cat", "easy", turn_limit=1)
    page.fill(".plot-row[data-piece='cat'] .plot-order", "S3")
    page.tap("#submit-plot")
    page.wait_for_selector(".end-card #rematch", timeout=60_000)
    # The card slides in: measure it once its transitions are over.
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    _apart(page, "#rematch", "#chat")
    _apart(page, "#replay-link", "#chat")
    _in_sight(page, "#rematch")
    _in_sight(page, "#replay-link")
    # "Watch the replay" lies in the card's own view, not below its fold.
    card, link = _box(page, ".end-card"), _box(page, "#replay-link")
    assert link["y"] + link["height"] <= card["y"] + card["height"], (link, card)
    shot(page, "ftl-end")


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("game", ["hexfleet", "lightspeed"])
def test_the_zoom_row_lies_under_the_board(
    server: Server, open_page: OpenPage, shot: Shot, game: str, size: str
) -> None:
    # issue 20 item 4: the hex row lay over the top rows of hexes on a phone, the laser
    # row over the table's bottom right corner.
    body = {"seats": 2} if game == "lightspeed" else {"ruleset": "hexfleet", "seats": 2}
    room = server.api("/api/rooms", body)
    page = open_page(
        f"/rooms/{room['id']}?join=1&bots=1:easy", **(PHONE if size == "phone" else LAPTOP)
    )
    answer_name(page, "ann")
    page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    page.click("button#ready")
    page.wait_for_selector(
        "body[data-phase=fast]" if game == "lightspeed" else "body[data-phase=activation]"
    )
    row = ".zoom-controls" if game == "lightspeed" else ".hex-zoom"
    page.locator(row).scroll_into_view_if_needed()
    _apart(page, row, "#table")
    strip, board = _box(page, row), _box(page, "#table")
    assert strip["y"] >= board["y"] + board["height"] - 1, (strip, board)  # under it
    # Its buttons take the tap: the whole-board button is not under anything.
    page.locator(f"{row} button").nth(2).click(trial=True, timeout=3000)
    shot(page, f"{game}-{size}")


def test_the_hex_action_bar_leaves_the_zoom_row_free(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    """Issue 67 item 22: on a phone the bar of the active ship's buttons, fixed along the
    screen's bottom, lay over the board's zoom row as the activation opened, when the
    lines over the board were many (seed 6: turn 1's blank came out first, which is said
    over the board as Ann's first activation opens)."""
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "seed": 6})
    page = open_page(f"/rooms/{room['id']}?join=1&bots=1:easy", **PHONE)
    answer_name(page, "ann")
    page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    page.click("button#ready")
    page.wait_for_selector("#hex-controls:not([hidden]) .action-bar", timeout=60_000)
    assert page.locator("#hex-blank-first").is_visible()
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    bar = "#hex-controls .action-bar"
    # As the activation opens, and with the zoom row scrolled to: the row in sight, free.
    for scrolled in (False, True):
        if scrolled:
            page.evaluate("window.scrollTo(0, 0)")
            page.locator(".hex-zoom").scroll_into_view_if_needed()
        _apart(page, ".hex-zoom", bar)
        _apart(page, ".hex-zoom", "#chat")
        _in_sight(page, ".hex-zoom")
        for i in range(page.locator(".hex-zoom button").count()):
            page.locator(".hex-zoom button").nth(i).click(trial=True, timeout=3000)
        shot(page, "hex-bar-scrolled" if scrolled else "hex-bar-opening")
