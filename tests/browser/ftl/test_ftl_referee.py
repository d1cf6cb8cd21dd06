"""The referee sandbox's Faster Than Light mode, as a referee uses it: import a turn file,
resolve it and read where every piece stands, what was destroyed and the account; type
orders (a bad one is flagged at once, naming the piece and the order); go on to the next
turn; export a turn file and get back the one imported; a refused file changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests._paths import ROOT
from tests.browser.conftest import SCREENSHOTS, OpenPage, Server, Shot, save_screenshot
from tests.browser.ftl._boxes import label_boxes, overlapping

EXAMPLES = ROOT / "examples"
FTL_EXAMPLES = sorted(EXAMPLES.glob("ftl-*.json"))


def inches(value: float) -> str:
    """A length as the page writes it: at most two decimals, no trailing zeros."""
    shown = round(value * 100) / 100 + 0.0
    return f"{shown:g}"


def row(page: Page, piece: str) -> str:
    return f"#ftl-piece-list [data-piece='{piece}']"


def open_ftl(open_page: OpenPage, **options: Any) -> Page:
    """The referee page switched to Faster Than Light by its game menu."""
    page = open_page("/referee", **options)
    page.wait_for_selector(".add-ship")  # the laser sandbox is up
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector(f"{row(page, 'red')} .order-input")
    return page


def import_turn(page: Page, path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    page.set_input_files("#ftl-import-file", str(path))
    last = data["pieces"][-1]["id"]
    page.wait_for_selector(row(page, last))
    return data


def resolve(page: Page) -> list[str]:
    """Press Resolve, wait for the turn to play out, return the account's lines."""
    page.click("#ftl-resolve")
    page.wait_for_selector("body[data-phase=over]", timeout=30_000)
    return page.locator("#ftl-account li").all_inner_texts()


#: For every frame in which red's ship moved (until the turn is over): whether its shape is
#: the element it was (moved in place) or a new one.
WATCH_RED = """() => {
  const frames = window.redWatched = [];
  let last = null;
  const look = () => {
    const shape = document.querySelector(".ftl-pieces [data-piece='red']");
    const transform = shape && shape.getAttribute("transform");
    if (last && shape && transform !== last.transform) {
      frames.push(shape === last.shape);
    }
    if (shape) last = { shape, transform };
    if (document.body.dataset.phase !== "over") requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def test_an_imported_turn_is_resolved_and_told(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_ftl(open_page)
    shot(page, "start")
    data = import_turn(page, EXAMPLES / "ftl-sprint-hits-missile.json")
    assert page.input_value(f"{row(page, 'red')} .order-input") == "S8"
    assert page.input_value(f"{row(page, 'blue-m2')} .order-input") == "S6"
    shot(page, "imported")

    page.evaluate(WATCH_RED)
    lines = resolve(page)  # with its animation, as a referee watches it
    shot(page, "resolved")
    # red's ship glides along its tape, moved where it is frame by frame: not a board
    # drawn again at every frame (it was: each frame made every piece and label anew).
    moved_in_place = page.evaluate("window.redWatched")
    assert len(moved_in_place) >= 3, moved_in_place
    assert moved_in_place.count(False) <= 1, moved_in_place
    assert lines[:2] == ["red wrote: S8.", "blue wrote: L, blue-m2 S6."]
    assert (
        "At 5.12 in, red's ship touches blue's missile blue-m3: the missile is removed "
        "and red's ship takes a hit." in lines
    )
    assert "blue's missile blue-m3 is removed: spent in the contact." in lines
    # The contact's distance stays clear of the pieces where the turn left them and of
    # their labels (it sat over blue's ship when it was put by the contact alone).
    distance = label_boxes(page, ".ftl-contact .distance")
    assert [text for text, _ in distance] == ["5.12 in"]
    pieces = label_boxes(page, ".ftl-pieces .ftl-piece .footprint")
    labels = label_boxes(page, ".ftl-labels .ftl-label")
    assert [pair for pair in overlapping(distance + pieces + labels) if "5.12 in" in pair] == []
    burst = [("burst", box) for _, box in label_boxes(page, ".ftl-contact polygon")]
    assert len(burst) == 1 and overlapping(burst + labels) == []  # no name over the burst

    # Every piece where the engine put it; the missile red ran into is gone.
    expected = server.api("/api/resolve", data)["result"]["pieces"]
    for piece_id, piece in expected.items():
        where = page.inner_text(f"{row(page, piece_id)} .piece-where")
        if piece["on_table"]:
            assert where.startswith(f"({inches(piece['x'])}, {inches(piece['y'])}) in"), where
            assert page.locator(f".ftl-pieces [data-piece='{piece_id}']").count() == 1
        else:
            assert where == "removed"
            assert page.locator(f".ftl-pieces [data-piece='{piece_id}']").count() == 0
    assert "1 hit" in page.inner_text(f"{row(page, 'red')} .piece-where")
    assert page.get_attribute(".ftl-labels [data-piece='red'] .hit-pips", "data-hits") == "1"


def test_a_collision_removes_both_ships_and_ends_in_a_draw(open_page: OpenPage, shot: Shot) -> None:
    page = open_ftl(open_page, reduced_motion="reduce")
    import_turn(page, EXAMPLES / "ftl-collision.json")
    lines = resolve(page)
    assert (
        "At 5.37 in, red's ship touches blue's ship: the ships collide: both are removed." in lines
    )
    assert lines[-1] == "Game over: no ship is left on the table, a draw."
    assert page.locator(".ftl-pieces .ftl-piece").count() == 0
    assert page.text_content(".ftl-end-banner") == "Draw"
    assert page.is_disabled("#ftl-next")
    shot(page, "draw")


def test_typed_orders_are_checked_resolved_and_the_next_turn_goes_on(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_ftl(open_page, reduced_motion="reduce")
    # A new sandbox: red at (0, -18) facing up the table, blue at (0, 18) facing down.
    assert page.inner_text(f"{row(page, 'red')} .piece-where").startswith("(0, -18) in · 0°")
    red_order = f"{row(page, 'red')} .order-input"
    page.fill(red_order, "R+10")
    problem = f"{row(page, 'red')} .order-problem"
    assert page.inner_text(problem) == (
        "piece 'red': 'R+10': a rotation is a multiple of 15 degrees from -180 to +180"
    )
    assert page.get_attribute(red_order, "aria-invalid") == "true"
    shot(page, "bad-order")
    page.click("#ftl-resolve")  # refused here, before the server is asked
    assert page.inner_text("#ftl-error").startswith("piece 'red': 'R+10'")
    assert page.get_attribute("body", "data-phase") == "lobby"

    page.fill(red_order, "s8")
    assert page.is_hidden(problem)
    page.fill(f"{row(page, 'blue')} .order-input", "L S3")
    assert "S3 will be ignored" in page.inner_text(f"{row(page, 'blue')} .order-note")
    lines = resolve(page)
    assert "red wrote: s8." in lines
    assert "blue's ship: the second order S3 is ignored." in lines
    assert "Launch: blue's ship puts missile blue-m1 on the table at (0, 16.75) (9 left)." in lines
    assert page.inner_text(f"{row(page, 'red')} .piece-where").startswith("(0, -10) in")
    assert page.locator(".ftl-pieces [data-piece='blue-m1']").count() == 1
    assert page.locator("#ftl-history .ftl-turns > li").count() == 1
    shot(page, "turn-1")

    page.click("#ftl-next")
    assert "Turn 2" in page.inner_text("#ftl-status")
    assert page.input_value(red_order) == ""
    assert page.inner_text(f"{row(page, 'blue')} .piece-where").endswith("9 left")
    page.fill(f"{row(page, 'blue-m1')} .order-input", "L")
    assert page.inner_text(f"{row(page, 'blue-m1')} .order-problem") == (
        "piece 'blue-m1': 'blue-m1' cannot launch ('L'): only ships launch missiles"
    )
    page.fill(f"{row(page, 'blue-m1')} .order-input", "S8")
    lines = resolve(page)
    assert lines == ["red wrote: no orders.", "blue wrote: blue-m1 S8.",
                     "Sprint: blue's missile blue-m1 sprints 8 in.",
                     "blue's missile blue-m1 jumps to (0, 8.75)."]  # fmt: skip
    assert page.inner_text(f"{row(page, 'blue-m1')} .piece-where") == "(0, 8.75) in · 180°"
    assert page.locator("#ftl-history .ftl-turns > li").count() == 2


def test_pieces_are_placed_by_hand_and_turned_with_keys(open_page: OpenPage, shot: Shot) -> None:
    page = open_ftl(open_page, reduced_motion="reduce")
    page.select_option("#ftl-owner", "blue")
    page.click("#ftl-add-missile")
    assert page.locator(row(page, "blue-m1")).count() == 1
    assert page.inner_text(f"{row(page, 'blue')} .piece-where").endswith("9 left")
    # The new missile is selected: type its post, turn it with the keyboard.
    page.fill("#ftl-selected-fields input[data-field='x']", "3")
    page.press("#ftl-selected-fields input[data-field='x']", "Tab")
    page.fill("#ftl-selected-fields input[data-field='y']", "-4.5")
    page.press("#ftl-selected-fields input[data-field='y']", "Tab")
    page.locator("#ftl-table").click(position={"x": 5, "y": 5})  # empty space: nothing selected
    page.click(f"{row(page, 'blue-m1')} .piece-pick")
    page.keyboard.press("e")
    page.keyboard.press("e")
    assert page.inner_text(f"{row(page, 'blue-m1')} .piece-where") == "(3, -4.5) in · 210°"
    # Drag it 2 in to the right: the post snaps to quarter inches.
    piece = page.locator(".ftl-pieces [data-piece='blue-m1']")
    box = piece.bounding_box()
    assert box is not None
    scale = page.evaluate("document.querySelector('#ftl-table').getScreenCTM().a")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 2 * scale, y, steps=4)
    page.mouse.up()
    assert page.inner_text(f"{row(page, 'blue-m1')} .piece-where") == "(5, -4.5) in · 210°"
    # Red's knob, dragged round to the left of the ship: it turns a quarter to port.
    page.click(f"{row(page, 'red')} .piece-pick")
    knob = page.locator(".rotate-handle .rotate-knob").nth(1).bounding_box()
    assert knob is not None
    post = page.evaluate(
        "() => { const p = new DOMPoint(0, 18).matrixTransform("
        "document.querySelector('#ftl-table').getScreenCTM()); return [p.x, p.y]; }"
    )
    page.mouse.move(knob["x"] + knob["width"] / 2, knob["y"] + knob["height"] / 2)
    page.mouse.down()
    page.mouse.move(post[0] - 80, post[1] + 10, steps=5)
    page.mouse.up()
    assert page.inner_text(f"{row(page, 'red')} .piece-where").startswith("(0, -18) in · 270°")
    shot(page, "placed")


@pytest.mark.parametrize("example", FTL_EXAMPLES, ids=[p.stem for p in FTL_EXAMPLES])
def test_export_gives_back_the_file_imported(
    open_page: OpenPage, example: Path, tmp_path: Path
) -> None:
    page = open_ftl(open_page)
    data = import_turn(page, example)
    with page.expect_download() as download:
        page.click("#ftl-export")
    saved = tmp_path / "exported.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text(encoding="utf-8")) == data


def test_a_refused_file_leaves_the_table_as_it_was(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    page = open_ftl(open_page)
    import_turn(page, EXAMPLES / "ftl-collision.json")
    bad = json.loads((EXAMPLES / "ftl-launch-and-turn.json").read_text(encoding="utf-8"))
    bad["orders"][1]["order"] = "R+10"
    path = tmp_path / "bad-order.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#ftl-import-file", str(path))
    page.wait_for_selector("#ftl-error:not([hidden])")
    assert page.inner_text("#ftl-error") == (
        "bad-order.json: piece 'blue': 'R+10': a rotation is a multiple of 15 degrees "
        "from -180 to +180"
    )
    ids = page.locator("#ftl-piece-list .ftl-piece-row").evaluate_all(
        "rows => rows.map(r => r.dataset.piece)"
    )
    assert ids == ["red", "blue", "blue-m1"]
    assert page.input_value(f"{row(page, 'red')} .order-input") == "S7.5"
    shot(page, "refused")


def test_a_laser_table_imported_here_goes_back_to_light_speed(open_page: OpenPage) -> None:
    page = open_ftl(open_page, reduced_motion="reduce")
    page.set_input_files("#ftl-import-file", str(EXAMPLES / "fig1-sample-game.json"))
    page.wait_for_selector(".table-card[data-card='red-moth']", state="attached")
    assert page.input_value("#ruleset") == "lightspeed"
    assert page.is_hidden("#ftl-referee")
    assert page.is_visible("#table")


def test_the_referee_on_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_ftl(open_page, viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    import_turn(page, EXAMPLES / "ftl-two-tapes-one-ship.json")
    shot(page, "imported")
    lines = resolve(page)
    assert "blue's ship is removed: destroyed by its third hit." in lines
    assert page.locator(".ftl-pieces [data-piece='blue']").count() == 0
    shot(page, "resolved")
    save_screenshot(page, str(SCREENSHOTS / "test_the_referee_on_a_phone-page.png"), full_page=True)


@pytest.mark.parametrize(
    "size", [{"width": 1366, "height": 800}, {"width": 390, "height": 844}], ids=["laptop", "phone"]
)
def test_the_end_of_the_game_shows_over_the_table(
    open_page: OpenPage, shot: Shot, size: dict[str, int]
) -> None:
    """Issue 20 item 22: the end of the game, who won, how and what to do next, on a card
    over the board (it was a line at the foot of the account, screens down on a phone)."""
    page = open_ftl(open_page, viewport=size, reduced_motion="reduce")
    import_turn(page, EXAMPLES / "ftl-collision.json")
    resolve(page)
    card = page.locator("#ftl-end-card")
    card.wait_for(state="visible")
    assert page.inner_text("#ftl-end-card #winner") == "Draw"
    assert page.inner_text("#ftl-end-reason") == "Game over: no ship is left on the table, a draw."
    for selector in ("#ftl-end-card #winner", "#ftl-end-edit", "#ftl-end-export"):
        box = page.locator(selector).bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], selector
    # The board's banner says the same under the card: it waits while the card is open.
    assert page.locator(".ftl-end-banner").is_hidden()
    shot(page, f"end-{size['width']}")
    # Folded to look at the board; then back to editing from the card: the turn is taken back.
    page.click("#ftl-end-card .end-card-fold")
    assert page.locator("#ftl-end-reason").is_hidden()
    assert page.text_content(".ftl-end-banner") == "Draw"
    assert page.locator(".ftl-end-banner").is_visible()
    page.click("#ftl-end-card .end-card-fold")  # "Show the result"
    page.click("#ftl-end-edit")
    card.wait_for(state="hidden")
    assert page.get_attribute("body", "data-phase") == "lobby"
    assert page.locator(".ftl-pieces [data-piece='blue']").count() == 1
    # A turn that does not end the game shows no card.
    for piece in ("red", "blue", "blue-m1"):
        page.fill(f"{row(page, piece)} .order-input", "")
    resolve(page)
    assert card.is_hidden()


def on_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    """The client pixel of the table point (x, y) inches (the board is not turned)."""
    point = page.evaluate(
        "([x, y]) => { const p = new DOMPoint(x, -y).matrixTransform("
        "document.querySelector('#ftl-table').getScreenCTM()); return [p.x, p.y]; }",
        [x, y],
    )
    return point[0], point[1]


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "phone"])
def test_a_click_picks_the_piece_under_it_and_again_the_next(
    open_page: OpenPage, shot: Shot, touch: bool
) -> None:
    """Issue 20 item 4 in the referee's editor: a click on a ship picks the ship, not the
    missile in front of it, and pieces laid on each other are picked in turn by clicking
    again, as in the room (games/ftl/picking.js)."""
    size = {"width": 390, "height": 844} if touch else {"width": 1366, "height": 800}
    page = open_ftl(open_page, viewport=size, has_touch=touch, reduced_motion="reduce")

    def press(x: float, y: float) -> None:
        # A phone's page scrolls down to the side's buttons: the board back in view first.
        page.locator("#table-wrap").scroll_into_view_if_needed()
        at = on_screen(page, x, y)
        if touch:
            page.touchscreen.tap(*at)
        else:
            page.mouse.click(*at)

    def selected() -> str | None:
        picked: str | None = page.evaluate(
            "document.querySelector('#ftl-piece-list li.selected')?.dataset.piece ?? null"
        )
        return picked

    # Red's ship stands at (0, -18) facing up the table; its missile goes just ahead of its nose.
    page.select_option("#ftl-owner", "red")
    page.click("#ftl-add-missile")
    assert selected() == "red-m1"
    press(0, -17.6)  # the ship's body, just behind its nose
    assert selected() == "red"
    # The missile laid on the ship: the one on top, then the other, then round again.
    page.click(f"{row(page, 'red-m1')} .piece-pick")
    for field, value in (("x", "0"), ("y", "-18")):
        page.fill(f"#ftl-selected-fields input[data-field='{field}']", value)
        page.press(f"#ftl-selected-fields input[data-field='{field}']", "Tab")
    press(10, 10)  # empty space: nothing picked
    assert selected() is None
    picked = []
    for _ in range(3):
        press(0, -18)
        picked.append(selected())
    assert picked == ["red-m1", "red", "red-m1"]
    assert page.text_content(".ftl-board .pick-note") == "1 of 2 here: click again for the next"
    press(0, -18)
    assert selected() == "red"
    shot(page, "picked-under")
    # The ship picked from under its missile is the one dragged; the missile stays.
    if not touch:
        scale = page.evaluate("document.querySelector('#ftl-table').getScreenCTM().a")
        x, y = on_screen(page, 0, -18)
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 2 * scale, y, steps=4)
        page.mouse.up()
        assert page.inner_text(f"{row(page, 'red')} .piece-where").startswith("(2, -18) in")
        assert page.inner_text(f"{row(page, 'red-m1')} .piece-where").startswith("(0, -18) in")
        assert selected() == "red"
