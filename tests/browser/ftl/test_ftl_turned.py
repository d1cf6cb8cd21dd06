"""Your side at the bottom in Faster Than Light: the second player, whose ship starts at the
top of the table, sees the board turned half a turn, with his ship at the bottom; a button
turns it back and the choice survives a reload; plotting by drag on the turned board sends
the order he drew, and the log tells positions as he sees them. The replay shows the
viewer's own side at the bottom, or the side he picks."""

from __future__ import annotations

import math

from playwright.sync_api import Page

from tests.browser._play import box_of, centre_of, on_screen
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl.test_ftl_room import (
    order_of,
    ready_pair,
    rulebook_room,
    seated_pair,
    take_seat,
    wait_turn,
)

#: The log's fastest animation speed.
FASTEST = "8"
#: The FTL board's drawing, whose points are inches (turned with the board, or not).
BOARD = "#table .ftl-view"


def on_board(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where the table point (x, y) in inches is on the page, turned board or not."""
    return on_screen(page, x, y, BOARD)


def ship_y(page: Page, player: str) -> float:
    """The middle of ``player``'s ship on the screen, in CSS pixels from the top."""
    return centre_of(page, f".ftl-pieces .ftl-piece[data-piece='{player}'] .footprint")[1]


def duel(server: Server, open_page: OpenPage, **options: object) -> tuple[Page, Page]:
    """Ann (seat 1, her ship at the table's bottom) and Bob (seat 2, at its top), ready."""
    ann, bob = seated_pair(server, open_page, options)
    ready_pair(ann, bob)
    for page in (ann, bob):
        page.select_option("#turn-speed", FASTEST)
    return ann, bob


def test_each_player_sees_his_ship_at_the_bottom_and_may_turn_the_board(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = duel(server, open_page)
    # Ann's ship starts at the table's bottom: her board is as the table is laid out.
    assert ship_y(ann, "ann") > ship_y(ann, "bob")
    assert ann.get_attribute("#turn-board", "aria-pressed") == "false"
    # Bob's starts at the top: his board is turned, his ship at the bottom of his screen.
    assert ship_y(bob, "bob") > ship_y(bob, "ann")
    assert bob.get_attribute("#turn-board", "aria-pressed") == "true"
    assert "Turn the board around" in (bob.get_attribute("#turn-board", "title") or "")
    # The edge marks count in his frame: 24 at the right of his screen, -24 at the left.
    marks = bob.locator(".edge-labels text").evaluate_all(
        "ts => ts.map(t => { const b = t.getBoundingClientRect();"
        " return [t.textContent, b.x, b.y]; })"
    )
    bottom = max(y for _, _, y in marks)
    by_text = {text: x for text, x, y in marks if y > bottom - 2}  # the row along the bottom
    assert by_text["-24"] < by_text["0"] < by_text["24 in"]
    # Text stays upright: the ids read left to right (an upside-down text has no other box,
    # so check the turn the page gives it undoes the board's).
    assert bob.locator(".ftl-label[data-piece='bob']").evaluate(
        "g => getComputedStyle(g).transform"
    ) not in ("none", "")
    shot(bob, "turned")

    # He turns it back: his ship goes to the top. The choice holds after a reload.
    bob.click("#turn-board")
    assert bob.get_attribute("#turn-board", "aria-pressed") == "false"
    assert ship_y(bob, "bob") < ship_y(bob, "ann")
    bob.reload()
    wait_turn(bob, 1)
    assert bob.get_attribute("#turn-board", "aria-pressed") == "false"
    assert ship_y(bob, "bob") < ship_y(bob, "ann")
    bob.click("#turn-board")
    assert ship_y(bob, "bob") > ship_y(bob, "ann")
    bob.reload()
    wait_turn(bob, 1)
    assert bob.get_attribute("#turn-board", "aria-pressed") == "true"
    assert ship_y(bob, "bob") > ship_y(bob, "ann")


def test_a_turned_board_plots_what_is_drawn_and_tells_it_as_seen(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = duel(server, open_page)
    # Bob (ship at (0, 18), heading 180: pointing up his screen) drags the ring a quarter
    # turn clockwise on his screen: R+90, clockwise on the table too.
    mx, my = centre_of(bob, ".plot-ring-mark")
    cx, cy = on_board(bob, 0, 18)
    assert my < cy  # the ring's mark (where he faces) is above his ship on his screen
    radius = math.hypot(mx - cx, my - cy)
    bob.mouse.move(mx, my)
    bob.mouse.down()
    for step in range(1, 13):
        a = math.radians(90) * step / 12
        bob.mouse.move(cx + radius * math.sin(a), cy - radius * math.cos(a))
    bob.mouse.up()
    assert order_of(bob, "bob") == "R+90"
    # Then he drags the sprint arrow instead, up his screen to 5 in ahead of the nose.
    bob.fill(".plot-row[data-piece='bob'] .plot-order", "")
    hx, hy = centre_of(bob, ".plot-arrow-hit")
    tx, ty = on_board(bob, 0, 17.25 - 5)  # the nose is at y = 17.25
    assert ty < cy and hy < cy
    bob.mouse.move(hx, hy)
    bob.mouse.down()
    bob.mouse.move((hx + tx) / 2, (hy + ty) / 2, steps=4)
    bob.mouse.move(tx, ty, steps=4)
    bob.mouse.up()
    assert order_of(bob, "bob") == "S5"
    tape = box_of(bob, ".plot-tape[data-piece='bob'] line")
    assert tape["y"] + tape["height"] < cy  # drawn up his screen
    shot(bob, "dragged")
    bob.click("#submit-plot")
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "R+45")
    ann.click("#submit-plot")
    for page in (ann, bob):
        wait_turn(page, 2)
    # The piece went where he dragged it: 5 in toward the centre, its post at (0, 13).
    # Bob's log tells it in his frame, Ann's in hers; her rotation likewise.
    assert "bob's ship jumps to (0, 13)." in ann.inner_text("#turn-log")
    bob_log = bob.inner_text("#turn-log")
    assert "bob's ship jumps to (0, -13)." in bob_log
    assert "turns 45° clockwise, now facing 45°." in ann.inner_text("#turn-log")
    assert "turns 45° clockwise, now facing 225°." in bob_log
    assert bob.get_attribute(".ftl-pieces .ftl-piece[data-piece='bob']", "transform") == (
        "translate(0 -13) rotate(-180)"
    )
    # Turned back, his log tells the table's frame.
    bob.click("#turn-board")
    assert "bob's ship jumps to (0, 13)." in bob.inner_text("#turn-log")


def test_the_replay_shows_the_viewers_side_at_the_bottom(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = duel(server, open_page, turn_limit=1)
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "S2")
    ann.click("#submit-plot")
    bob.fill(".plot-row[data-piece='bob'] .plot-order", "L")
    bob.click("#submit-plot")
    bob.wait_for_selector("#end-panel #winner", timeout=30_000)
    href = bob.get_attribute("#replay-link", "href")
    assert href is not None

    # Bob played it: his side is at the bottom of his replay.
    bob.goto(href)
    bob.wait_for_selector("body[data-phase=over]", timeout=30_000)
    assert bob.input_value("#bottom-side") == "bob"
    assert ship_y(bob, "bob") > ship_y(bob, "ann")
    shot(bob, "replay-turned")
    # Someone who did not play sees the first player's side at the bottom, and may pick
    # the other's; the choice holds after a reload.
    guest = open_page(href)
    guest.wait_for_selector("body[data-phase=over]", timeout=30_000)
    assert guest.input_value("#bottom-side") == "ann"
    assert ship_y(guest, "ann") > ship_y(guest, "bob")
    guest.select_option("#bottom-side", "bob")
    assert ship_y(guest, "bob") > ship_y(guest, "ann")
    guest.reload()
    guest.wait_for_selector("body[data-phase=over]", timeout=30_000)
    assert guest.input_value("#bottom-side") == "bob"
    assert ship_y(guest, "bob") > ship_y(guest, "ann")


def test_a_ship_on_the_right_edge_sees_the_board_turned_a_quarter(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    # Four seats: the fourth starts on the table's right edge, (18, 0), facing its centre.
    dee = open_page(f"/rooms/{rulebook_room(server, 4)}")
    take_seat(dee, "dee", 3)
    for seat in (0, 1, 2):
        dee.click(f".seat[data-seat='{seat}'] .add-bot")
        dee.wait_for_selector(f".seat[data-seat='{seat}'][data-kind='bot']")
    dee.click("button#ready")
    wait_turn(dee, 1)
    assert dee.get_attribute("#turn-board", "data-turned") == "90"
    # Her ship is the lowest on her screen, facing up it; the ship across the table is the
    # highest, and the two at her left and right stand level.
    ships = dee.locator(".ftl-pieces .ftl-piece.ship").evaluate_all(
        "gs => Object.fromEntries(gs.map(g => {"
        " const b = g.querySelector('.footprint').getBoundingClientRect();"
        " return [g.dataset.piece, [b.x + b.width / 2, b.y + b.height / 2]]; }))"
    )
    across = next(p for p in ships if p != "dee" and abs(ships[p][0] - ships["dee"][0]) < 2)
    assert ships["dee"][1] == max(y for _, y in ships.values())
    assert ships[across][1] == min(y for _, y in ships.values())
    hx, hy = centre_of(dee, ".plot-arrow-hit")
    assert hy < ships["dee"][1] and abs(hx - ships["dee"][0]) < 2  # her sprint arrow points up
    # Told in her frame: her ship stands at (0, -18), heading 0 (up her screen).
    title = dee.locator(".ftl-pieces .ftl-piece[data-piece='dee'] title").text_content() or ""
    assert "at (0, -18) in, facing 0°" in title
    shot(dee, "quarter")
