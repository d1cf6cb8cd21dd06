"""The Faster Than Light board under a player's hands: last turn's tapes never take the
pointer from the plot's handles; the board zooms at the pointer (wheel, pinch), pans (drag,
arrow keys) and frames the player's own pieces, turned or not; a click picks the piece under
it by its own shape and a second click at the same spot the next one there; labels stay
short and apart; on a phone the board comes into view when a turn plays out."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.browser._play import box_of
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._boxes import label_boxes, overlapping
from tests.browser.ftl.test_ftl_room import (
    LAPTOP,
    centre_of,
    order_of,
    ready_pair,
    seated_pair,
    wait_turn,
)
from tests.browser.ftl.test_ftl_turned import on_board

#: The log's fastest animation speed.
FASTEST = "8"


def duel(server: Server, open_page: OpenPage, **context: Any) -> tuple[Page, Page]:
    """Ann (her ship at the table's bottom, heading up) and Bob (at its top), ready to plot
    turn 1 on the rulebook's 48 x 48 in table; ``context`` goes to both pages."""
    ann, bob = seated_pair(server, open_page, **context)
    ready_pair(ann, bob)
    for page in (ann, bob):
        page.select_option("#turn-speed", FASTEST)
    return ann, bob


def plot(page: Page, orders: dict[str, str]) -> None:
    """Type ``orders`` (piece id -> order) and submit the plot."""
    for piece, order in orders.items():
        page.fill(f".plot-row[data-piece='{piece}'] .plot-order", order)
    page.click("#submit-plot")


def play_turn(ann: Page, bob: Page, turn: int, ann_orders: dict[str, str]) -> None:
    """Ann plots ``ann_orders``, Bob does nothing; both wait for turn ``turn + 1``."""
    plot(ann, ann_orders)
    plot(bob, {})
    for page in (ann, bob):
        wait_turn(page, turn + 1)


def grab_and_drag(page: Page, handle: str, to: tuple[float, float]) -> None:
    """Press the mouse on the middle of ``handle`` and drag it to the table point ``to``."""
    hx, hy = centre_of(page, handle)
    tx, ty = on_board(page, *to)
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move((hx + tx) / 2, (hy + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    page.mouse.up()


def test_last_turns_tape_never_takes_the_sprint_arrow_from_the_player(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = duel(server, open_page)
    # Turn 1: Ann launches; turn 2: her missile sprints straight ahead of her ship.
    play_turn(ann, bob, 1, {"ann": "L"})
    play_turn(ann, bob, 2, {"ann-m1": "S8"})
    # The missile's faded tape lies on the board, along her ship's line ahead.
    tape = ".ftl-tape[data-piece='ann-m1'] .tape-line"
    ann.wait_for_selector(tape, state="attached")
    ann.click(".plot-row[data-piece='ann'] .plot-pick")
    knob = ann.locator(".plot-arrow-hit")
    kx, ky = centre_of(ann, ".plot-arrow-hit")
    # The arrow's head sits on that old tape ...
    tape_box = box_of(ann, tape)
    assert tape_box["y"] <= ky <= tape_box["y"] + tape_box["height"]
    assert knob.count() == 1
    # ... yet what the pointer finds there is the arrow, and a drag sprints the ship.
    on_top = ann.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.getAttribute('class')", [kx, ky]
    )
    assert on_top == "plot-arrow-hit"
    grab_and_drag(ann, ".plot-arrow-hit", (0, -17.25 + 3))  # her ship's nose is at y = -17.25
    assert order_of(ann, "ann") == "S3"
    assert ann.locator(".plot-tape[data-piece='ann']").count() == 1
    shot(ann, "sprint-over-old-tape")
    # A slow drag (40 moves of the pointer over 3 inches) draws the plot again when its
    # order changes, half an inch at a time, not at every move (it was 42 times).
    ann.evaluate(COUNT_PLOT_DRAWS)
    hx, hy = centre_of(ann, ".plot-arrow-hit")
    ann.mouse.move(hx, hy)
    ann.mouse.down()
    ann.mouse.move(*on_board(ann, 0, -17.25 + 4.5), steps=20)
    # The panel says the order the drag makes now, not the one it had when it began.
    assert ann.inner_text(".plot-row[data-piece='ann'] .plot-note") == "S4.5: sprint 4.5 in"
    shot(ann, "slow-drag")
    ann.mouse.move(*on_board(ann, 0, -17.25 + 6), steps=20)
    ann.mouse.up()
    assert order_of(ann, "ann") == "S6"
    draws = ann.evaluate("window.plotDraws")
    assert draws <= 9, draws  # the press, S3.5 to S6 (six), the lift


#: Counts the times the plot's ghosts (tapes, ghost pieces, order texts) are drawn again.
COUNT_PLOT_DRAWS = """() => {
  window.plotDraws = 0;
  new MutationObserver(() => { window.plotDraws += 1; })
    .observe(document.querySelector(".plot-ghosts"), { childList: true });
}"""


def footprint(piece: str) -> str:
    return f".ftl-pieces .ftl-piece[data-piece='{piece}'] .footprint"


def width_of(page: Page, selector: str) -> float:
    box = box_of(page, selector)
    return max(box["width"], box["height"])


def near(a: tuple[float, float], b: tuple[float, float], within: float = 2.5) -> bool:
    return abs(a[0] - b[0]) <= within and abs(a[1] - b[1]) <= within


def wait_wider(page: Page, selector: str, than: float) -> None:
    page.wait_for_function(
        """([sel, than]) => { const b = document.querySelector(sel)?.getBoundingClientRect();
          return b && Math.max(b.width, b.height) > than; }""",
        arg=[selector, than],
    )


def inside(page: Page, selector: str, box_of: str = "#table") -> bool:
    """Whether the middle of ``selector`` lies inside the box of ``box_of`` on the page."""
    x, y = centre_of(page, selector)
    box = page.locator(box_of).bounding_box()
    assert box is not None
    in_x = box["x"] <= x <= box["x"] + box["width"]
    return bool(in_x and box["y"] <= y <= box["y"] + box["height"])


def test_the_board_zooms_at_the_pointer_pans_and_frames_my_pieces(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    desk = {"viewport": {"width": 1366, "height": 800}}
    ann, bob = duel(server, open_page, **desk)
    shot(ann, "start")
    # The zoom row is a strip under the board: it covers no edge mark and no piece.
    row, board = ann.locator(".ftl-zoom").bounding_box(), ann.locator("#table").bounding_box()
    assert row is not None and board is not None
    assert row["y"] >= board["y"] + board["height"] - 1

    # The wheel zooms in at the pointer: her ship stays under it and grows.
    ship = footprint("ann")
    at, size = centre_of(ann, ship), width_of(ann, ship)
    ann.mouse.move(*at)
    for _ in range(3):
        ann.mouse.wheel(0, -120)
    wait_wider(ann, ship, size * 1.6)
    assert near(centre_of(ann, ship), at)
    assert ann.get_attribute("#table", "data-zoomed") == "true"
    # A drag on the table pans: the ship follows the pointer; no order comes of it.
    ex, ey = on_board(ann, 6, -10)
    ann.mouse.move(ex, ey)
    ann.mouse.down()
    ann.mouse.move(ex + 120, ey - 60, steps=6)
    ann.mouse.up()
    assert near(centre_of(ann, ship), (at[0] + 120, at[1] - 60))
    assert order_of(ann, "ann") == ""
    # The arrow keys pan too (the board has the focus): the table slides right under "←".
    ann.focus("#table")
    before = centre_of(ann, ship)
    ann.keyboard.press("ArrowLeft")
    assert centre_of(ann, ship)[0] > before[0] + 50
    # Dragging the sprint arrow plots, it does not pan.
    before = centre_of(ann, ship)
    grab_and_drag(ann, ".plot-arrow-hit", (0, -17.25 + 2))
    assert order_of(ann, "ann") == "S2"
    assert near(centre_of(ann, ship), before)
    # "Mine" frames her own pieces: her ship in the middle, Bob's far off the view.
    ann.click(".ftl-zoom [data-zoom='table']")
    whole = width_of(ann, ship)
    ann.click(".ftl-zoom [data-zoom='mine']")
    wait_wider(ann, ship, whole * 2.5)
    (sx, sy), box = centre_of(ann, ship), ann.locator("#table").bounding_box()
    assert box is not None
    assert abs(sx - (box["x"] + box["width"] / 2)) < box["width"] * 0.15
    assert abs(sy - (box["y"] + box["height"] / 2)) < box["height"] * 0.2
    assert not inside(ann, footprint("bob"))
    shot(ann, "mine")

    # The same on Bob's turned board (his ship at the bottom): the wheel keeps his ship
    # under the pointer, a drag moves it with the pointer, "Mine" frames it.
    assert bob.get_attribute("#turn-board", "aria-pressed") == "true"
    his = footprint("bob")
    at, size = centre_of(bob, his), width_of(bob, his)
    bob.mouse.move(*at)
    for _ in range(2):
        bob.mouse.wheel(0, -120)
    wait_wider(bob, his, size * 1.3)
    assert near(centre_of(bob, his), at)
    ex, ey = on_board(bob, -6, 10)
    bob.mouse.move(ex, ey)
    bob.mouse.down()
    bob.mouse.move(ex - 80, ey + 40, steps=5)
    bob.mouse.up()
    assert near(centre_of(bob, his), (at[0] - 80, at[1] + 40))
    bob.click(".ftl-zoom [data-zoom='mine']")
    assert inside(bob, his) and not inside(bob, footprint("ann"))
    shot(bob, "turned-mine")


def selected(page: Page) -> str:
    return page.get_attribute(".plot-row.selected", "data-piece") or ""


def test_a_click_picks_the_piece_under_it_and_labels_keep_apart(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = duel(server, open_page, viewport={"width": 1366, "height": 800})
    # Three launches: three missiles stacked just ahead of Ann's ship.
    for turn in (1, 2, 3):
        play_turn(ann, bob, turn, {"ann": "L"})
    names = sorted(t for t, _ in label_boxes(ann, ".ftl-labels .piece-id"))
    assert names == ["ann", "bob", "m1", "m2", "m3"]  # short labels
    assert overlapping(label_boxes(ann, ".ftl-labels .ftl-label")) == []
    shot(ann, "stacked")
    # A click on her ship picks the ship, not the missiles in front of it.
    ann.click(".plot-row[data-piece='ann-m1'] .plot-pick")
    ann.mouse.click(*centre_of(ann, footprint("ann")))
    assert selected(ann) == "ann"
    # On the stack: the topmost missile, then click after click the others there.
    stack = centre_of(ann, footprint("ann-m3"))
    picked = []
    for _ in range(4):
        ann.mouse.click(*stack)
        picked.append(selected(ann))
    assert picked[0] == "ann-m3"
    assert sorted(picked) == ["ann", "ann-m1", "ann-m2", "ann-m3"]
    assert "of 4 here: click again for the next" in (ann.text_content(".pick-note") or "")
    ann.mouse.click(*stack)
    assert selected(ann) == "ann-m3"  # round again
    # Zoomed in, the labels still keep apart.
    ann.click(".ftl-zoom [data-zoom='mine']")
    ann.wait_for_selector("#table[data-zoomed='true']")
    assert overlapping(label_boxes(ann, ".ftl-labels .ftl-label")) == []
    shot(ann, "stacked-zoomed")
    # The side panel's list reaches every piece: the last row scrolls into view and takes a click.
    ann.click(".plot-row[data-piece='ann-m3'] .plot-pick")
    assert selected(ann) == "ann-m3"


def test_hit_warnings_and_order_texts_never_overlap(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, bob = seated_pair(server, open_page, {"table_size_in": [12, 12]}, viewport=LAPTOP)
    ready_pair(ann, bob)
    # Ann's ship sprints its 8 in straight at Bob's: the tape crosses his ship ("hit?"), and
    # the ghost ends on it with its order text ("S8").
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "S8")
    ann.wait_for_selector(".plot-label.maybe")
    texts = label_boxes(ann, ".plot-label") + label_boxes(ann, ".ftl-labels .ftl-label")
    assert {"S8", "hit?"} <= {t for t, _ in texts}
    assert overlapping(texts) == []
    shot(ann, "hit-and-order")
    # On a phone's width the board is smaller: still apart, and zoomed in too.
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.click(".ftl-zoom button[aria-label='show the whole table']")
    for _ in range(2):
        texts = label_boxes(ann, ".plot-label") + label_boxes(ann, ".ftl-labels .ftl-label")
        assert {"S8", "hit?"} <= {t for t, _ in texts}
        assert overlapping(texts) == []
        shot(ann, "hit-and-order-phone")
        ann.click(".ftl-zoom button[aria-label='zoom in']")


def test_on_a_phone_the_zoom_row_covers_nothing_and_two_fingers_zoom(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    ann, _bob = duel(server, open_page, **phone)
    shot(ann, "start")
    # The zoom row covers no edge mark: it sits under the board.
    row, board = ann.locator(".ftl-zoom").bounding_box(), ann.locator("#table").bounding_box()
    assert row is not None and board is not None
    assert row["y"] >= board["y"] + board["height"] - 1
    # One row of buttons on the phone (Measure used to wrap to a row alone).
    tops = ann.eval_on_selector_all(
        ".ftl-zoom button", "bs => bs.map((b) => b.getBoundingClientRect().top)"
    )
    assert len(tops) == 6 and max(tops) - min(tops) < 2, tops
    marks = label_boxes(ann, ".edge-labels text")
    strip = {"x": row["x"], "y": row["y"], "width": row["width"], "height": row["height"]}
    assert marks and not [p for p in overlapping([("zoom row", strip), *marks]) if "zoom row" in p]
    # Two fingers spread apart on her ship: the board zooms in about them.
    ship = footprint("ann")
    (x, y), size = centre_of(ann, ship), width_of(ann, ship)
    cdp = ann.context.new_cdp_session(ann)

    def touch(kind: str, spread: float) -> None:
        fingers = [{"x": x - spread, "y": y, "id": 0}, {"x": x + spread, "y": y, "id": 1}]
        points = [] if kind == "touchEnd" else fingers
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    for d in (30, 45, 60, 80):
        touch("touchMove", d)
    touch("touchEnd", 80)
    wait_wider(ann, ship, size * 2.5)
    assert near(centre_of(ann, ship), (x, y), within=6)
    shot(ann, "pinched")


def test_on_a_phone_the_plot_bar_launches_the_selected_ship(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    """A phone's plot bar along the bottom of the screen holds Launch for the selected ship
    (its row, with its own Launch, is screens down the page); a laptop's has none."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    ann, _bob = duel(server, open_page, **phone)
    launch = ann.locator("#plot-bar #bar-launch")
    assert launch.inner_text() == "Launch (10 left)"
    box = launch.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    # Submit's words on one line beside it (they took three, the plot's count beside them).
    submit = ann.locator("#plot-bar #submit-plot")
    assert submit.inner_text() == "Submit plot: do nothing"
    assert submit.evaluate("b => b.getClientRects()[0].height") <= 46
    launch.tap()
    assert order_of(ann, "ann") == "L"
    assert "on" in (launch.get_attribute("class") or "")
    shot(ann, "bar-launch")
    ann.set_viewport_size({"width": 1366, "height": 800})
    assert launch.is_hidden()  # the ship's row, with its Launch, is in sight


def test_on_a_phone_the_board_comes_into_view_as_the_turn_plays_out(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    ann, bob = duel(server, open_page, **phone)
    ann.select_option("#turn-speed", "1")
    # She plots and submits far down the page: the board is out of sight ...
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "S1")
    ann.tap("#submit-plot")
    top = ann.evaluate("document.querySelector('#table').getBoundingClientRect().top")
    assert top < 0
    # Bob has not plotted: her bar says the plot is sent, on screen, and offers it back.
    ann.wait_for_selector("#unplot:visible")
    assert ann.inner_text("#plot-count") == "Plot sent."
    sent = ann.locator("#plot-count").bounding_box()
    assert sent is not None and 0 <= sent["y"] <= 844, sent
    shot(ann, "sent")
    # ... and comes back into view as the turn plays out.
    plot(bob, {})
    ann.wait_for_function(
        """() => { const r = document.querySelector('#table').getBoundingClientRect();
          return document.body.dataset.phase === 'resolving'
            && r.top >= -1 && r.bottom <= innerHeight + 1; }"""
    )
    shot(ann, "turn-in-view")
    wait_turn(ann, 2)
