"""The tutorial, done as a newcomer does it: the card in hand moved, turned to aim and put
down, the battle watched, the score read; then a Faster Than Light missile turned with the
ring and sprinted with the arrow into Blue's ship; and the way to a first match. On a
laptop with the mouse, and on a phone-sized screen with the buttons and the keyboard."""

from __future__ import annotations

import math

from playwright.sync_api import Page

from tests.browser._play import on_screen
from tests.browser.conftest import OpenPage, Shot
from tests.browser.test_rules_page import serious_violations

PHONE = {"width": 390, "height": 844}
FASTEST = "8"


def step_is(page: Page, step: str) -> None:
    page.wait_for_selector(f"body[data-step='{step}']")


def wait_done(page: Page, timeout: float = 30_000) -> None:
    page.wait_for_selector("body[data-done='yes']", timeout=timeout)
    assert page.locator("#next").is_enabled() or page.locator("#next").is_hidden()


def status(page: Page) -> str:
    return page.inner_text("#step-status")


def hand(page: Page) -> dict[str, float]:
    data = page.locator("#hand").evaluate(
        "h => ({x: +h.dataset.x, y: +h.dataset.y, rotation: +h.dataset.rotation})"
    )
    return {k: float(v) for k, v in data.items()}


def on_board(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where an FTL table point (inches, +y up) is on the page."""
    point = page.evaluate(
        """([x, y]) => {
          const m = document.querySelector('#ftl-board').getScreenCTM();
          const p = new DOMPoint(x, -y).matrixTransform(m);
          return [p.x, p.y];
        }""",
        [x, y],
    )
    return float(point[0]), float(point[1])


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def watch_the_battle(page: Page) -> None:
    page.click("#fire")
    page.wait_for_selector("#battle-speed")
    page.select_option("#battle-speed", FASTEST)
    wait_done(page, timeout=60_000)


def answer_the_score(page: Page) -> None:
    """The quiz asks Red's score: the panel shows the kill piles and rocks but neither the
    totals nor the winner until the right answer (it would give the answer away)."""
    step_is(page, "score")
    page.wait_for_selector("#score-panel .kill-pile")
    assert page.locator("#score-panel #winner").count() == 0
    assert set(page.locator("#score-panel .total").all_inner_texts()) == {"?"}
    red = int(page.get_attribute("#score-panel .score[data-player='Red']", "data-score") or "-1")
    wrong = page.locator(f".answer:not([data-answer='{red}'])").first
    wrong.click()
    assert "Not " in status(page)
    assert page.get_attribute("body", "data-done") == "no"
    assert page.locator("#score-panel #winner").count() == 0
    page.click(f".answer[data-answer='{red}']")
    wait_done(page)
    assert status(page).startswith("Right")
    assert page.inner_text("#score-panel .score[data-player='Red'] .total") == str(red)
    page.wait_for_selector("#score-panel #winner")


def through_the_tutorial_to_the_first_match(page: Page, shot: Shot | None = None) -> None:
    """From the lobby, as a newcomer: a name, "New here? Learn in 2 minutes", every step of
    the tutorial with the mouse, then "Play your first match": in a room with the beginner
    bot, before Ready. ``shot`` keeps screenshots of the steps."""

    def keep(name: str) -> None:
        if shot is not None:
            shot(page, name)

    page.fill("#name", "Newcomer")
    page.locator("#name").dispatch_event("change")
    page.click("#learn a.learn-start")
    page.wait_for_url("**/tutorial")
    step_is(page, "move")
    page.wait_for_selector("#hand[data-ship='moth']")
    assert page.locator("#next").is_disabled()
    keep("1-move")
    # A click too early does not put the card down: the page says what to do first.
    sx, sy = on_screen(page, 0, -120)
    page.mouse.move(sx, sy, steps=5)
    page.mouse.click(sx, sy)
    assert "Not yet" in status(page)
    wait_done(page)
    page.click("#next")

    step_is(page, "turn")
    assert page.get_attribute("body", "data-done") == "no"  # it points at nothing yet
    page.mouse.move(sx, sy)
    for _ in range(2):  # two notches up: 30 degrees counter-clockwise, towards the Sidewinder
        page.mouse.wheel(0, -100)
    wait_done(page)
    assert hand(page)["rotation"] == 30
    assert page.locator(".tutorial-aim.aimed").count() == 1
    keep("2-aimed")
    page.click("#next")

    step_is(page, "place")
    page.mouse.move(sx, sy)
    page.mouse.click(sx, sy)
    wait_done(page)
    assert page.locator(".table-card[data-card='red-moth']").count() == 1
    # Put down as aimed: the page says so (it used to say "not aimed any more").
    assert status(page) == "Down, and aimed at the Sidewinder.", status(page)
    page.click("#next")

    step_is(page, "battle")
    watch_the_battle(page)
    assert "destroyed the Sidewinder" in status(page)
    keep("4-battle")
    page.click("#next")

    answer_the_score(page)
    assert "Red wins" in status(page)
    keep("5-score")
    page.click("#next")

    # Faster Than Light: turn the missile 45 degrees counter-clockwise with the ring.
    step_is(page, "ftl-turn")
    page.wait_for_selector(".plot-ring-mark")
    assert page.locator("#play-turn").is_disabled()
    mx, my = centre_of(page, ".plot-ring-mark")
    cx, cy = on_board(page, 2, -3)
    radius = math.hypot(mx - cx, my - cy)
    page.mouse.move(mx, my)
    page.mouse.down()
    for step in range(1, 13):
        a = math.radians(-45) * step / 12
        page.mouse.move(cx + radius * math.sin(a), cy - radius * math.cos(a))
    page.mouse.up()
    assert page.get_attribute(".plot-row[data-piece='red-m1']", "data-order") == "R-45"
    assert page.locator("#play-turn").is_enabled()
    keep("6-ring")
    page.click("#play-turn")
    wait_done(page)
    assert page.locator("#turn-log li").count() >= 1
    page.click("#next")

    # ... then sprint it with the arrow until its tape reaches Blue's ship.
    step_is(page, "ftl-sprint")
    page.wait_for_selector(".plot-arrow-hit")
    hx, hy = centre_of(page, ".plot-arrow-hit")
    tx, ty = on_board(page, -3.2, 2.2)
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    order = page.get_attribute(".plot-row[data-piece='red-m1']", "data-order") or ""
    assert order.startswith("S")
    assert page.locator(".plot-tape").count() == 1
    keep("7-tape")
    page.click("#play-turn")
    wait_done(page)
    assert "Hit!" in status(page)
    assert page.get_attribute(".ftl-label[data-piece='blue'] .hit-pips", "data-hits") == "1"
    keep("7-hit")
    page.click("#next")

    step_is(page, "ready")
    assert page.locator("#play-first").is_visible()
    assert page.locator("a[href='/rules']").count() >= 1
    keep("8-ready")
    page.click("#play-first")
    page.wait_for_url("**/rooms/*?join=1&bots=1:beginner")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.wait_for_selector("button#ready")


def test_a_newcomer_learns_both_games_then_meets_the_beginner_bot(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/")
    through_the_tutorial_to_the_first_match(page, shot)
    assert page.locator(".seat[data-seat='0']").inner_text().startswith("Newcomer")
    assert "Beginner" in page.locator(".seat[data-seat='1'] .bot-about").inner_text()
    shot(page, "9-first-match")


def test_the_tutorial_on_a_phone_with_buttons_and_keys(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/tutorial", viewport=PHONE, is_mobile=True, has_touch=True)
    step_is(page, "move")
    page.wait_for_selector("#hand[data-ship='moth']")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "1-move")
    # The keyboard moves the card while the table has the focus.
    page.focus("#table")
    for _ in range(7):
        page.keyboard.press("Shift+ArrowLeft")
    wait_done(page)
    page.click("#next")
    step_is(page, "turn")
    # The hand bar's buttons turn it.
    for _ in range(24):
        if page.get_attribute("body", "data-done") == "yes":
            break
        page.click("#turn-left")
    wait_done(page)
    shot(page, "2-aimed")
    page.click("#next")
    step_is(page, "place")
    page.click("#place-card")
    wait_done(page)
    assert "not aimed" not in status(page), status(page)
    page.click("#next")
    step_is(page, "battle")
    watch_the_battle(page)
    shot(page, "4-battle")
    page.click("#next")
    answer_the_score(page)
    page.click("#next")
    step_is(page, "ftl-turn")
    page.wait_for_selector(".plot-ring-mark")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "6-ftl")


def test_skipping_to_faster_than_light_and_typing_the_orders(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/tutorial")
    step_is(page, "move")
    page.click("#skip-ftl")
    step_is(page, "ftl-turn")
    assert page.locator("#table").is_hidden()
    # A link can start there too.
    step_is(open_page("/tutorial?game=ftl"), "ftl-turn")
    assert page.locator("#skip-ftl").is_hidden()
    order = page.locator(".plot-order[data-piece='red-m1']")
    # A turn that misses is named, and Play waits for one that aims at Blue's ship.
    order.fill("R-30")
    assert "points it away" in status(page)
    assert page.locator("#play-turn").is_disabled()
    order.fill("R-45")
    assert page.locator("#play-turn").is_enabled()
    page.click("#play-turn")
    wait_done(page)
    page.click("#next")
    step_is(page, "ftl-sprint")
    order = page.locator(".plot-order[data-piece='red-m1']")
    order.fill("S4")
    assert "stops short" in status(page)
    assert page.locator("#play-turn").is_disabled()
    order.fill("S7.5")
    page.click("#play-turn")
    wait_done(page)
    assert "Hit!" in status(page)
    page.click("#next")
    step_is(page, "ready")
    assert page.locator("#plot-panel").is_hidden()
    assert serious_violations(page) == []
    shot(page, "ready")


def test_every_kind_of_tutorial_step_has_no_serious_accessibility_problem(
    open_page: OpenPage,
) -> None:
    page = open_page("/tutorial")
    step_is(page, "move")
    page.wait_for_selector("#hand[data-ship='moth']")
    assert serious_violations(page) == []
    page.click("#skip-ftl")
    step_is(page, "ftl-turn")
    page.wait_for_selector(".plot-ring-mark")
    assert serious_violations(page) == []
