"""The hex fleet room around a salvo, as a newcomer met it (issue 20, walk-s8 items 7 to 10):
the board keeps its size while the cards show (beside it on a laptop, under it on a phone);
after "Fire…" the targets to pick are in sight on a laptop; a salvo brought into view never
leaves the board half empty; the end says "strength left" as the players' rows do."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser._play import box_of
from tests.browser.conftest import OpenPage, Server, Shot

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
#: A duel on a small board (the two heavies 7 hexes apart: the first ship activated can fire
#: at once), with a fixed seed: the same chits and cards on every run.
DUEL = {"ruleset": "hexfleet", "scenario": "duel", "board": [10, 8], "seed": 11}

#: The board's size on the screen: a hex's width, the smallest hex number, the board's box,
#: the page's scroll.
BOARD_SIZE = """() => {
  const hex = document.querySelector('.hex-hexes .hex polygon').getBoundingClientRect();
  const labels = [...document.querySelectorAll('.hex:not(.occupied) .hex-label')]
    .map((t) => t.getBoundingClientRect().height);
  const board = document.querySelector('#table').getBoundingClientRect();
  const map = document.querySelector('#table .hex-hexes').getBoundingClientRect();
  return { hex: hex.width, label: Math.min(...labels), board: [board.width, board.height],
           map: [map.left, map.right, map.top, map.bottom] };
}"""


def seat_both(page: Page, server: Server, **options: object) -> None:
    """Hot seat: Red and Blue at this screen in a new room of ``options``; returns once a
    ship is activated."""
    room = server.api("/api/rooms", {**DUEL, **options})
    page.goto(f"{server.base}/")
    page.evaluate("localStorage.setItem('spacetable.name', 'Red')")
    page.goto(f"{server.base}/rooms/{room['id']}?hotseat=Red,Blue")
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    page.click("button#ready")
    page.wait_for_selector("#hex-controls:not([hidden]) #controls-title", timeout=60_000)


def fire_a_salvo(page: Page) -> None:
    page.click("#fire")
    page.click(".target-button")
    page.click("#confirm-fire")
    page.wait_for_selector(".hx-tray #hex-cards.hx-done")


def box(page: Page, selector: str) -> dict[str, float]:
    return box_of(page, selector)


@pytest.mark.parametrize("size", ["1366x800", "390x844"])
def test_the_board_keeps_its_size_while_a_salvos_cards_show(
    open_page: OpenPage, server: Server, shot: Shot, size: str
) -> None:
    phone = size == "390x844"
    page = open_page("/", viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    seat_both(page, server)
    before = page.evaluate(BOARD_SIZE)
    shot(page, "before")
    fire_a_salvo(page)
    after: dict[str, Any] = page.evaluate(BOARD_SIZE)
    # The same hexes at the same size, the numbers as readable (they fell to 6 px).
    assert abs(after["hex"] - before["hex"]) < 1 and after["label"] >= 10, (before, after)
    assert abs(after["board"][1] - before["board"][1]) < 1, (before, after)
    tray = box(page, ".hx-tray")
    # A heavy ship's eight fire cards whole in the tray (the damage cards may scroll in it on
    # a phone), the tray in the window with the board.
    cards = page.locator(".hx-tray .hx-fire-cards .hx-card").evaluate_all(
        "cs => cs.map((c) => c.getBoundingClientRect())"
        ".map((b) => [b.left, b.top, b.right, b.bottom])"
    )
    assert len(cards) == 8
    for left, top, right, bottom in cards:
        assert tray["x"] - 1 <= left and right <= tray["x"] + tray["width"] + 1, (tray, cards)
        assert tray["y"] - 1 <= top and bottom <= tray["y"] + tray["height"] + 1, (tray, cards)
    window = (PHONE if phone else DESKTOP)["height"]
    assert tray["y"] >= 0 and tray["y"] + tray["height"] <= window, tray
    ships = page.locator(".hex-ships .ship .ship-hit").evaluate_all(
        "ss => ss.map((s) => s.getBoundingClientRect())"
        ".map((b) => [b.left + b.width / 2, b.top + b.height / 2])"
    )
    board = box(page, "#table")
    assert board["y"] >= 0, board
    for x, y in ships:
        # Both ships on the board and none under the cards.
        assert board["x"] <= x <= board["x"] + board["width"], (board, ships)
        across = tray["x"] <= x <= tray["x"] + tray["width"]
        assert not (across and tray["y"] <= y <= tray["y"] + tray["height"]), (tray, ships)
    if phone:
        assert tray["y"] >= board["y"] + board["height"] - 1  # under the board, not over it
    else:
        # Issue 36 item 12: the map stays where it was, whole (it jumped to the board's left
        # edge, its first column cut), and the cards beside it, not over it.
        left, right, top, bottom = after["map"]
        assert left >= 0 and right <= DESKTOP["width"], after
        assert abs(left - before["map"][0]) <= 2, (before, after)
        apart = (
            tray["x"] >= right - 1
            or tray["x"] + tray["width"] <= left + 1
            or tray["y"] >= bottom - 1
            or tray["y"] + tray["height"] <= top + 1
        )
        assert apart, (tray, after)
    shot(page, "salvo")


def test_after_fire_the_targets_to_pick_are_in_sight_on_a_laptop(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    seat_both(page, server)
    page.click("#fire")
    page.wait_for_selector(".target-button")
    for selector in (".target-button", "#action-message"):
        found = box(page, selector)
        bottom = found["y"] + found["height"]
        assert found["y"] >= 0 and bottom <= DESKTOP["height"], (selector, found)
    shot(page, "aim")


#: How much taller a phone's room may grow when a target's panel opens: its title, the odds
#: and one row of buttons (Fire, Hail, Cancel). The page without it is about 1,860 px (the
#: header, the board at 60% of the window, the action bar, players, cup, legend, log); the
#: panel made it 2,190 (330 px more: the moving words, turn buttons and arc's words stayed,
#: the buttons on two rows) and pushed Fire under the fold.
PANEL_MOST = 200
#: The tallest the page may then be: under 2,000 px (2.4 windows).
PHONE_PAGE_MOST = 2000


#: Whether the element is in the window, its middle not under anything else (a bar).
IN_SIGHT = """(selector) => {
  const b = document.querySelector(selector).getBoundingClientRect();
  const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  const shown = b.top >= 0 && b.bottom <= innerHeight && Boolean(top?.closest(selector));
  return { shown, box: [b.top, b.bottom], over: top?.id || top?.className || null };
}"""


def test_on_a_phone_fire_is_in_reach_once_a_target_is_picked(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    seat_both(page, server)
    page.click("#fire")
    page.wait_for_selector(".target-button")
    hint = page.inner_text("#action-message")
    without = page.evaluate("document.scrollingElement.scrollHeight")
    page.click(".target-button")
    page.wait_for_selector("#aim-panel #confirm-fire")
    shot(page, "aim")
    # Issue 36 item 13: the hint said "click a lit ship" after one was picked.
    assert page.inner_text("#action-message") != hint, hint
    for selector in ("#confirm-fire", "#end-activation"):
        # In the window and not under the chat's bar at its foot.
        seen = page.evaluate(IN_SIGHT, selector)
        assert seen["shown"], (selector, seen)
    height = page.evaluate("document.scrollingElement.scrollHeight")
    assert height - without <= PANEL_MOST and height <= PHONE_PAGE_MOST, (without, height)


#: A board of 10 x 8 hexes in a phone-sized box, zoomed in, then asked to show two hexes of
#: its bottom row: how far the map's bottom edge is above the box's, as a share of the box.
EMPTY_BELOW = """async () => {
  const { HexBoard } = await import('/static/js/games/hexfleet/board.js');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.style.cssText = 'position: fixed; left: 0; top: 0; width: 390px; height: 400px';
  document.body.append(svg);
  const board = new HexBoard(svg, { width: 10, height: 8 });
  board.fit();
  board.zoom(2.5);
  board.bringIntoView([[2, 7], [5, 7]]);
  const map = board.layers.hexes.getBoundingClientRect();
  const shown = svg.getBoundingClientRect();
  return (shown.bottom - map.bottom) / shown.height;
}"""


def test_a_salvo_at_the_board_edge_does_not_leave_the_board_half_empty(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    empty = page.evaluate(EMPTY_BELOW)
    # The view stays on the map: no band of empty space under its last row (it was half the
    # board; a few pixels of margin and the letterbox of a board wider than the box remain).
    assert empty <= 0.08, empty
    shot(page, "edge")


def test_the_end_says_strength_left_as_the_players_rows_do(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    seat_both(page, server, turn_limit=1)
    while page.get_attribute("body", "data-phase") != "over":
        before = int(page.get_attribute("body", "data-version") or 0)
        page.click("#end-activation")
        page.wait_for_function(
            f"() => document.body.dataset.phase === 'over'"
            f" || Number(document.body.dataset.version || 0) > {before}"
        )
        page.wait_for_selector("body[data-phase=over], #end-activation:not([disabled])")
    page.wait_for_selector("#end-panel .end-strength")
    end = page.inner_text("#end-panel")
    rows = page.inner_text("#players")
    assert "Strength left: Red 100%, Blue 100%." in end, end
    assert rows.count("strength left 100%") == 2, rows
    assert "ystems left" not in end + rows
    shot(page, "end")


def test_on_a_phone_the_cards_and_the_ships_buttons_are_on_screen_after_a_salvo(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 36 item 13: after a salvo the tray, Hail and End activation were under the fold
    (End activation 1,280 px down a 2,200 px page). The ship's buttons are a bar along the
    bottom of the screen, the tray whole above it, nothing of them under the chat's bar."""
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    seat_both(page, server)
    fire_a_salvo(page)
    # The page scrolls the cards into view: wait until the tray stands whole above the bar.
    page.wait_for_function(
        """() => {
            const tray = document.querySelector('.hx-tray')?.getBoundingClientRect();
            const bar = document.querySelector('#hex-controls .action-bar')
                ?.getBoundingClientRect();
            return tray && bar && tray.top >= 0 && tray.bottom <= bar.top + 1;
        }"""
    )
    shot(page, "fired")
    for selector in ("#hail", "#end-activation", "#raise-shields", "#jump", "#turn-left"):
        seen = page.evaluate(IN_SIGHT, selector)
        assert seen["shown"], (selector, seen)
    bar = box(page, "#hex-controls .action-bar")
    chat = box(page, ".chat")
    tray = box(page, ".hx-tray")
    assert bar["y"] + bar["height"] <= chat["y"] + 1, (bar, chat)
    assert tray["y"] >= 0 and tray["y"] + tray["height"] <= bar["y"] + 1, (tray, bar)
    # Every button of the bar whole in the window, none over another.
    buttons = page.locator("#hex-controls .action-bar button").evaluate_all(
        "bs => bs.map((b) => b.getBoundingClientRect())"
        ".map((r) => [r.left, r.top, r.right, r.bottom])"
    )
    assert len(buttons) == 8  # turning in place heads the bar: the ship can still turn
    for i, (left, top, right, bottom) in enumerate(buttons):
        assert left >= 0 and right <= PHONE["width"] and top >= 0 and bottom <= PHONE["height"]
        for other in buttons[i + 1 :]:
            assert right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top, (
                buttons[i],
                other,
            )
    # The page's last control is not hidden under the bars: the page keeps room for them.
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = page.locator("#hex-legend").bounding_box()
    assert last is not None and last["y"] + last["height"] <= bar["y"] + 1, (last, bar)
