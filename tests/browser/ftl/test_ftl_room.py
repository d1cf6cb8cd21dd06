"""Faster Than Light in the browser, as people play it: two players plot in secret with the
ring, the sprint arrow, the Launch button and typed orders, watch each turn play out, and
one flies off the table; a player takes on a bot created from the lobby, on a phone, with
the board and Submit on screen together."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from playwright.sync_api import Page

from tests.browser._play import centre_of as centre_of  # (FTL tests import it from here)
from tests.browser._play import end_in_sight, on_screen
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._duel import fill_duel_form
from tests.browser.ftl._duel import wait_turn as wait_turn  # (FTL tests import it from here)

#: The log's fastest animation speed.
FASTEST = "8"
#: A laptop's page.
LAPTOP = {"width": 1366, "height": 800}


def take_seat(page: Page, name: str, seat: int) -> None:
    page.wait_for_selector("#seat-panel .take-seat")
    page.fill("#player-name", name)
    page.click(f".seat[data-seat='{seat}'] .take-seat")
    page.wait_for_selector("button#ready")


def rulebook_room(server: Server, seats: int, **options: object) -> str:
    """A new room on the rulebook's 48 x 48 in table (a room's default is smaller), whose
    plot timer never runs out during a test: its id."""
    settings = {"ruleset": "ftl", "seats": seats, "plot_timer_s": 600, "table_size_in": [48, 48]}
    return str(server.api("/api/rooms", {**settings, **options})["id"])


def seated_pair(
    server: Server,
    open_page: OpenPage,
    options: Mapping[str, object] | None = None,
    **context: Any,
) -> tuple[Page, Page]:
    """Ann in seat 1 (her ship at the table's bottom) of a new :func:`rulebook_room` with
    ``options``, and Bob, come by its share link, in seat 2 (at its top); neither ready
    yet. ``context`` (a viewport...) goes to both pages."""
    ann = open_page(f"/rooms/{rulebook_room(server, 2, **(options or {}))}", **context)
    take_seat(ann, "ann", 0)
    bob = open_page(ann.input_value("#share-link"), **context)
    take_seat(bob, "bob", 1)
    return ann, bob


def ready_pair(ann: Page, bob: Page) -> None:
    """Both players of :func:`seated_pair` say they are ready; wait until both plot turn 1."""
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):
        wait_turn(page, 1)


def order_of(page: Page, piece: str) -> str:
    """The order the plotter holds for ``piece`` ("" for none), as the server reads it."""
    return page.get_attribute(f".plot-row[data-piece='{piece}']", "data-order") or ""


def drag_ring(page: Page, post: tuple[float, float], clockwise_deg: float) -> None:
    """Grab the ring where it points (straight ahead of the piece at ``post``, heading 0 or
    180) and drag it ``clockwise_deg`` round, the way a person turns it."""
    mx, my = centre_of(page, ".plot-ring-mark")
    cx, cy = on_screen(page, *post)
    radius = math.hypot(mx - cx, my - cy)
    start = math.atan2(mx - cx, -(my - cy))  # screen angle clockwise from up
    page.mouse.move(mx, my)
    page.mouse.down()
    for step in range(1, 13):
        a = start + math.radians(clockwise_deg) * step / 12
        page.mouse.move(cx + radius * math.sin(a), cy - radius * math.cos(a))
    page.mouse.up()


def drag_sprint(page: Page, to: tuple[float, float]) -> None:
    """Grab the sprint arrow's head and drag it to the table point ``to``."""
    hx, hy = centre_of(page, ".plot-arrow-hit")
    tx, ty = on_screen(page, *to)
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move((hx + tx) / 2, (hy + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    page.mouse.up()


def piece_post(page: Page, piece: str) -> str:
    """The transform that puts ``piece`` on the board (its post and heading)."""
    return page.get_attribute(f".ftl-pieces .ftl-piece[data-piece='{piece}']", "transform") or ""


def test_two_players_duel_until_one_leaves_the_table(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    # The rulebook's table (a room's default is smaller): the moves below are measured on it.
    ann, bob = seated_pair(server, open_page)
    assert "Faster Than Light: 2 seats, 48 x 48 in table" in bob.inner_text("#seat-panel")
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):
        wait_turn(page, 1)
        page.select_option("#turn-speed", FASTEST)
        assert "Plot your orders: drag the ring to turn" in page.inner_text("#status")
        assert page.is_visible("#countdown")  # the room's plot timer
    shot(ann, "plotting")

    # Turn 1. Ann turns her ship with the ring, then thinks better of it and presses Launch:
    # the launch replaces the turn (one order per piece), and its ghost shows the missile.
    drag_ring(ann, (0, -18), 45)
    assert order_of(ann, "ann") == "R+45"
    assert ann.input_value(".plot-row[data-piece='ann'] .plot-order") == "R+45"
    ann.click(".plot-row[data-piece='ann'] .plot-launch")
    assert order_of(ann, "ann") == "L"
    assert "replaces R+45: one order per piece" in ann.inner_text(".plot-row[data-piece='ann']")
    assert ann.locator(".plot-ghost[data-piece='ann-m1']").count() == 1
    ann.click("#submit-plot")
    # Bob sees that Ann has plotted, never what: no ghost, no missile, no log.
    bob.wait_for_selector(".players li[data-player='ann'][data-plotted='true']")
    assert "plotted" in bob.inner_text(".players li[data-player='ann']")
    assert bob.locator("[data-piece='ann-m1'], [data-ghost-of='ann']").count() == 0
    assert "ann" not in bob.inner_text("#turn-log")
    # Bob types his order as the rulebook prints it, after a slip the field refuses at once.
    field = ".plot-row[data-piece='bob'] .plot-order"
    bob.fill(field, "R-50")
    assert "'R-50': a rotation is a multiple of 15 degrees" in bob.inner_text(
        ".plot-row[data-piece='bob'] .plot-note"
    )
    assert bob.is_disabled("#submit-plot")
    bob.fill(field, "R\u201345")
    assert order_of(bob, "bob") == "R-45"
    shot(bob, "typed")
    bob.click("#submit-plot")
    for page in (ann, bob):
        wait_turn(page, 2)
        log = page.inner_text("#turn-log")
        assert "ann wrote: L." in log and "bob wrote: R-45." in log
        assert "Launch: ann's ship puts missile ann-m1 on the table" in log
        assert "Rotation: bob's ship turns 45° counter-clockwise" in log
        assert page.locator(".ftl-pieces .ftl-piece[data-piece='ann-m1']").count() == 1
    assert ann.inner_text(".players li[data-player='ann'] .ship-missiles") == "9 missiles"

    # Turn 2. Bob sprints, then takes his plot back before Ann's is in. Ann turns her ship
    # about with the ring and sends her missile ahead with the arrow; Bob sprints further.
    bob.fill(field, "S1")
    bob.click("#submit-plot")
    ann.wait_for_selector(".players li[data-player='bob'][data-plotted='true']")
    bob.click("#unplot")
    bob.wait_for_selector("#submit-plot:visible")
    ann.wait_for_selector(".players li[data-player='bob'][data-plotted='false']")
    drag_ring(ann, (0, -18), 180)
    assert order_of(ann, "ann") == "R+180"
    ann.click(".plot-row[data-piece='ann-m1'] .plot-pick")
    drag_sprint(ann, (0, -16.5 + 5))  # the missile's nose is at y = -16.5
    assert order_of(ann, "ann-m1") == "S5"
    assert ann.locator(".plot-tape[data-piece='ann-m1']").count() == 1
    shot(ann, "dragged")
    ann.click("#submit-plot")
    bob.fill(field, "S2")
    before = piece_post(ann, "bob")
    bob.click("#submit-plot")
    for page in (ann, bob):
        wait_turn(page, 3)
    assert "bob's ship jumps to (1.41, 16.59)." in ann.inner_text("#turn-log")
    # Bob's board is turned (his ship started at the top): his log tells it as he sees it.
    assert "bob's ship jumps to (-1.41, -16.59)." in bob.inner_text("#turn-log")
    assert piece_post(ann, "bob") != before
    assert "ann's missile ann-m1 jumps to (0, -11.75)." in ann.inner_text("#turn-log")

    # Turn 3. Ann sprints her ship off the table's edge; Bob launches.
    ann.click(".plot-row[data-piece='ann'] .plot-pick")
    drag_sprint(ann, (0, -18.75 - 6.5))
    assert order_of(ann, "ann") == "S6.5"
    ann.click("#submit-plot")
    bob.click(".plot-row[data-piece='bob'] .plot-launch")
    bob.click("#submit-plot")
    for page in (ann, bob):
        page.wait_for_selector("#end-panel #winner", timeout=30_000)
        assert "ends off the table" in page.inner_text("#turn-log")
        assert page.get_attribute("#winner", "data-winner") == "bob"
    assert ann.inner_text("#winner") == "bob wins"
    assert bob.inner_text("#winner") == "You win"
    assert "bob has the last ship on the table, after 3 turns." in bob.inner_text("#end-panel")
    assert bob.locator(".ftl-turns > li").count() == 3  # the turn history
    # Her card says why she is out, in the words her replay uses.
    assert bob.inner_text(".players li[data-player='ann'] .plot-state") == "out: off the table"
    shot(ann, "lost")
    shot(bob, "won")

    # The stored match is the one played; both ask for a rematch and a new one begins.
    href = bob.get_attribute("#replay-link", "href")
    assert href is not None and href.startswith("/replay/")
    stored = server.api(f"/api/matches/{href.rsplit('/', 1)[-1]}")
    assert stored["ruleset"] == "ftl" and stored["result"]["winner"] == "bob"
    replay = open_page(href, reduced_motion="reduce")
    replay.wait_for_selector("body[data-phase=over]", timeout=30_000)
    assert replay.inner_text(".players li[data-player='ann'] .ship-state") == "out: off the table"
    replay.close()
    ann.click("#rematch")
    bob.click("#rematch")
    for page in (ann, bob):
        wait_turn(page, 1)
        assert page.is_hidden("#end-panel")
        assert page.locator(".ftl-pieces .ftl-piece").count() == 2


def test_a_phone_player_takes_on_a_bot_from_the_lobby(open_page: OpenPage, shot: Shot) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    page = open_page("/", **phone)
    fill_duel_form(page, "cat", "hard", turn_limit=2)
    shot(page, "lobby")
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    # The room seats us and the bot; we only have to say we are ready.
    page.wait_for_selector(".seat[data-seat='1'][data-kind='bot']")
    assert "2-turn limit" in page.inner_text("#seat-panel")
    page.click("button#ready")
    wait_turn(page, 1)
    # The bot's name says what it is, once (it read "hard bot hard bot", issue 36 item 18).
    bot = page.locator("#players .player").nth(1).inner_text()
    assert bot.count("hard bot") == 1, bot
    page.select_option("#turn-speed", FASTEST)
    page.fill(".plot-row[data-piece='cat'] .plot-order", "S3")
    # The board in view, Submit is on screen with it, on the chat's bar, and says the plot.
    page.evaluate("document.querySelector('#table-wrap').scrollIntoView({block: 'start'})")
    board, submit, chat = (box_of(page, s) for s in ("#table-wrap", "#submit-plot", "#chat"))
    seen = min(board["y"] + board["height"], submit["y"]) - max(board["y"], 0)
    assert seen >= 0.9 * board["height"], (board, submit)
    assert submit["y"] + submit["height"] <= chat["y"] <= 844, (submit, chat)
    assert page.inner_text("#plot-count") == "Pieces ordered: 1/1"
    shot(page, "plotting")
    # The bot may have plotted first (it thinks for under a second here): then the turn
    # plays out at once, and "Plot sent." never shows. A phone's sent plot is seen with a
    # player who has not plotted yet (test_ftl_board.py, the board coming into view).
    page.tap("#submit-plot")
    wait_turn(page, 2)
    # The chat and "Tell me when it is my turn" are still there to tap.
    page.locator("#chat summary").click(trial=True, timeout=3000)
    page.locator("#notify-turn").scroll_into_view_if_needed()
    page.locator("#notify-turn").click(trial=True, timeout=3000)
    assert "cat wrote: S3." in page.inner_text("#turn-log")
    page.tap(".plot-row[data-piece='cat'] .plot-launch")
    page.tap("#submit-plot")
    page.wait_for_selector("#end-panel #winner", timeout=30_000)
    end_in_sight(page)  # the end card over the board, not screens down the page
    assert page.inner_text("#winner") == "Draw"
    assert "The turn limit is reached, after 2 turns." in page.inner_text("#end-panel")
    shot(page, "draw")


def box_of(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return {key: float(box[key]) for key in ("x", "y", "width", "height")}


def test_a_room_waiting_for_its_players_shows_its_own_table(
    server: Server, open_page: OpenPage
) -> None:
    """A room with the default options (as the tutorial's "Play your first match" opens)
    shows the table its match will be played on while it waits, not the rulebook's 48 in:
    the same table as "Play a bot" and "Create a room" (issue 36 item 16)."""
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    default = server.api("/api/games")
    ftl = next(game for game in default if game["key"] == "ftl")
    width, height = ftl["options"]["properties"]["table_size_in"]["default"]
    page = open_page(f"/rooms/{room}", viewport=LAPTOP)
    take_seat(page, "Ann", 0)
    edge = page.locator(".ftl-board .table-edge")
    assert (edge.get_attribute("width"), edge.get_attribute("height")) == (
        f"{width:g}",
        f"{height:g}",
    )
    assert f"{width:g} x {height:g} in table" in page.inner_text("#seat-panel")
