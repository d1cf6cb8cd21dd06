"""Faster Than Light, what a newcomer must reach without hunting for it (issue 20, walk-s8
items 3, 11 and 14): the tutorial's launch step on a phone has its action beside "Play the
turn"; the room's order field shows its whole example beside "Launch (10 left)" on a
laptop; a replay on a phone frames its pieces, those near the table's edges too."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._duel import start_duel
from tests.browser.ftl.test_ftl_replay import play_duel

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}


def in_window(page: Page, selector: str, size: dict[str, int]) -> bool:
    found = page.locator(selector).bounding_box()
    return (
        found is not None
        and found["y"] >= 0
        and found["y"] + found["height"] <= size["height"]
        and found["x"] >= 0
        and found["x"] + found["width"] <= size["width"]
    )


def test_the_launch_step_on_a_phone_has_its_action_beside_play(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/tutorial?game=ftl", viewport=PHONE, is_mobile=True, has_touch=True)
    page.wait_for_selector("body[data-step='ftl-launch']")
    # The step's two buttons on the first screen, together: no scrolling down to the ship's
    # row under the board and back up to Play.
    assert in_window(page, "#lesson-launch", PHONE) and in_window(page, "#play-turn", PHONE)
    assert page.locator("#play-turn").is_disabled()
    page.tap("#lesson-launch")
    page.wait_for_selector("#play-turn:not([disabled])")
    assert "L" in page.inner_text(".plot-row[data-piece='red'] .plot-note")
    shot(page, "launch")
    page.tap("#play-turn")
    page.wait_for_selector("body[data-done='yes']", timeout=30_000)
    assert page.locator(".ftl-pieces .ftl-piece[data-piece='red-m1']").count() == 1


#: The order field's room for text, and the width its placeholder needs in its own font.
PLACEHOLDER = """(input) => {
  const style = getComputedStyle(input);
  const probe = document.createElement('span');
  probe.style.cssText = 'position: absolute; visibility: hidden; white-space: pre';
  probe.style.font = style.font;
  probe.style.letterSpacing = style.letterSpacing;
  probe.textContent = input.placeholder;
  document.body.append(probe);
  const needs = probe.getBoundingClientRect().width;
  probe.remove();
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { needs, room, text: input.placeholder };
}"""


def test_the_order_field_shows_its_whole_example_on_a_laptop(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    start_duel(page, "Ann", "greedy")
    field = page.locator(".plot-row[data-kind='ship'] .plot-order")
    fit: dict[str, Any] = field.evaluate(PLACEHOLDER)
    assert fit["text"] == "R+45 · S2.5 · L"
    assert fit["needs"] <= fit["room"], fit  # was cut to "R+45 · S"
    # Launch stays a whole button in the row, in the side column.
    launch = page.locator(".plot-row[data-kind='ship'] .plot-launch")
    assert "Launch (10 left)" in launch.inner_text()
    side = page.locator(".side").bounding_box()
    box = launch.bounding_box()
    assert side is not None and box is not None
    assert box["x"] + box["width"] <= side["x"] + side["width"]
    shot(page, "orders")


def play_to_the_edges(server: Server) -> dict[str, Any]:
    """Ann against the random bot on a 48 in table, her ship turned to the right-hand edge
    and sprinting there (it starts 18 in below the centre); the stored match."""
    orders = {1: ["ann:R+45"], 2: ["ann:R+45"], 3: ["ann:S8"], 4: ["ann:S8"], 5: ["ann:S3"]}
    return play_duel(server, orders)


#: The pieces on the table whose middle is outside the board's box on the screen.
OUT_OF_VIEW = """() => {
  const board = document.querySelector('#table, .table-wrap svg').getBoundingClientRect();
  return [...document.querySelectorAll('.ftl-pieces .ftl-piece')].filter((g) => {
    const b = g.getBoundingClientRect();
    const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
    return x < board.left || x > board.right || y < board.top || y > board.bottom;
  }).map((g) => g.dataset.piece);
}"""


def test_a_replay_on_a_phone_frames_every_piece(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    stored = play_to_the_edges(server)
    page = open_page(f"/replay/{stored['id']}", viewport=PHONE, has_touch=True, is_mobile=True)
    page.wait_for_selector(".ftl-turns > li")
    page.click("[data-step='first']")  # the start, the playing stopped
    page.wait_for_function(
        "() => document.querySelector('.ftl-position').textContent.startsWith('Start')"
    )
    board = page.locator(".table-wrap").first
    board.scroll_into_view_if_needed()
    assert page.evaluate(OUT_OF_VIEW) == []
    shot(page, "start")
    page.click("[data-step='last']")
    assert page.get_attribute("body", "data-phase") == "over"
    board.scroll_into_view_if_needed()
    assert page.evaluate(OUT_OF_VIEW) == []
    shot(page, "end")
    # Every turn's end, stepping back (at once): Ann's ship on its way to the right-hand edge
    # never leaves the screen.
    for _ in range(4):
        where = page.inner_text(".ftl-position")
        page.click("[data-step='back']")
        page.wait_for_function(
            "(was) => document.querySelector('.ftl-position').textContent !== was", arg=where
        )
        board.scroll_into_view_if_needed()
        assert page.evaluate(OUT_OF_VIEW) == [], page.inner_text(".ftl-position")
