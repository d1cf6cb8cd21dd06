"""The tutorial, done as a newcomer does it: the card in hand moved, turned to aim and put
down, the battle watched, the score read, and the way to a first Light Speed match; then a
Faster Than Light missile launched, turned with the ring and sprinted with the arrow into
Blue's ship, Blue's missile dodged by a sprint, and a first FTL duel. Each game's lesson
ends with a first match of that game; only the last one completes the tutorial. On a laptop
with the mouse, and on a phone-sized screen with the buttons and the keyboard."""

from __future__ import annotations

import math

from playwright.sync_api import Page

from tests.browser._play import answer_name, centre_of, on_screen
from tests.browser.conftest import OpenPage, Shot
from tests.browser.test_rules_page import serious_violations

PHONE = {"width": 390, "height": 844}
FASTEST = "8"
#: The tutorial's FTL board, whose points are inches.
FTL_BOARD = "#ftl-board"


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
    """From the lobby, as a newcomer: a name, "New here? Learn by playing", every step of
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

    # Light Speed's lesson ends with its first match; the tutorial goes on to the next game.
    step_is(page, "ready")
    assert page.locator("#play-first").is_visible()
    assert page.inner_text("#play-first") == "Play your first match"
    assert page.locator("a[href='/rules#lightspeed']").count() == 1
    assert page.locator("#next").is_enabled()
    assert "Faster Than Light" in page.inner_text("#step-text")
    # Stellar Conflict, with no lesson of its own, says what it adds to Light Speed.
    assert "Stellar Conflict has no lesson of its own" in page.inner_text("#step-text")
    assert "Tutorial complete" not in status(page)
    assert page.get_attribute("body", "data-complete") != "yes"
    keep("8-ready")
    page.click("#play-first")
    page.wait_for_url("**/rooms/*?join=1&bots=1:beginner")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.wait_for_selector("button#ready")


def test_a_newcomer_learns_light_speed_then_meets_the_beginner_bot(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/")
    through_the_tutorial_to_the_first_match(page, shot)
    assert page.locator(".seat[data-seat='0']").inner_text().startswith("Newcomer")
    assert "Beginner" in page.locator(".seat[data-seat='1'] .bot-about").inner_text()
    shot(page, "9-first-match")


def drag(page: Page, start: tuple[float, float], points: list[tuple[float, float]]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for point in points:
        page.mouse.move(*point)
    page.mouse.up()


def no_slip(page: Page) -> None:
    """The step names no wrong count of games (there are four)."""
    text = page.inner_text("#step-text").lower()
    assert "both games" not in text and "two games" not in text, text


def test_faster_than_light_from_the_launch_to_a_first_duel(open_page: OpenPage, shot: Shot) -> None:
    """Launch (the order of a first turn), the ring, the arrow, a dodge by sprinting (a
    sprinting piece cannot be hit), then a first FTL duel against the greedy bot."""
    page = open_page("/tutorial?game=ftl", viewport={"width": 1366, "height": 800})
    step_is(page, "ftl-launch")
    no_slip(page)
    page.wait_for_selector(".plot-row[data-piece='red']")
    assert page.locator(".plot-row[data-piece='red-m1']").count() == 0  # no missile yet
    assert page.locator("#play-turn").is_disabled()
    assert "Launch" in status(page)
    page.click(".plot-row[data-piece='red'] .plot-launch")
    assert page.get_attribute(".plot-row[data-piece='red']", "data-order") == "L"
    assert page.locator("#play-turn").is_enabled()
    shot(page, "1-launch")
    page.click("#play-turn")
    wait_done(page)
    assert "on the table, just ahead of your ship (9 missiles left)" in status(page)
    page.wait_for_selector(".ftl-piece[data-piece='red-m1']")
    page.wait_for_selector(".ftl-piece[data-piece='blue-m1']")
    page.click("#next")

    step_is(page, "ftl-turn")
    no_slip(page)
    page.wait_for_selector(".plot-ring-mark")
    mx, my = centre_of(page, ".plot-ring-mark")
    cx, cy = on_screen(page, 2, -3, FTL_BOARD)
    radius = math.hypot(mx - cx, my - cy)
    arc = [math.radians(-45) * k / 12 for k in range(1, 13)]
    drag(page, (mx, my), [(cx + radius * math.sin(a), cy - radius * math.cos(a)) for a in arc])
    assert page.get_attribute(".plot-row[data-piece='red-m1']", "data-order") == "R-45"
    page.click("#play-turn")
    wait_done(page)
    page.click("#next")

    step_is(page, "ftl-sprint")
    page.wait_for_selector(".plot-arrow-hit")
    drag(page, centre_of(page, ".plot-arrow-hit"), [on_screen(page, -3.2, 2.2, FTL_BOARD)])
    page.click("#play-turn")
    wait_done(page)
    assert "Hit!" in status(page)
    page.click("#next")

    # Blue's missile sprints at the ship: a turn would be hit, a sprint cannot be.
    step_is(page, "ftl-dodge")
    no_slip(page)
    page.wait_for_selector(".lesson-blue-tape")
    page.wait_for_selector(".plot-handles-of[data-piece='red'] .plot-arrow-hit")
    page.locator(".plot-order[data-piece='red']").fill("R+15")
    assert "normal space" in status(page) and page.locator("#play-turn").is_disabled()
    page.locator(".plot-order[data-piece='red']").fill("")
    hx, hy = centre_of(page, ".plot-arrow-hit")
    drag(page, (hx, hy), [on_screen(page, 2, 0.5, FTL_BOARD)])
    order = page.get_attribute(".plot-row[data-piece='red']", "data-order") or ""
    assert order.startswith("S"), order
    assert page.locator("#play-turn").is_enabled()
    shot(page, "4-dodge")
    page.click("#play-turn")
    wait_done(page)
    assert "cannot be hit" in status(page)
    assert page.get_attribute(".ftl-label[data-piece='red'] .hit-pips", "data-hits") == "0"
    shot(page, "4-dodged")
    page.click("#next")

    # The lesson ends with a first FTL duel; the tutorial is not complete: the hex fleet is next.
    step_is(page, "ftl-ready")
    no_slip(page)
    assert page.inner_text("#play-ftl") == "Play your first match"
    assert page.locator("#next").is_enabled() and "Hex fleet" in page.inner_text("#step-text")
    assert "Tutorial complete" not in status(page)
    assert page.get_attribute("body", "data-complete") != "yes"
    shot(page, "5-ready")
    page.click("#play-ftl")
    page.wait_for_url("**/rooms/*?join=1&bots=1:greedy")
    answer_name(page, "Newcomer")  # no name saved: the room asks it before seating us
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.wait_for_selector("button#ready")


def test_the_new_faster_than_light_steps_on_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/tutorial?game=ftl", viewport=PHONE, is_mobile=True, has_touch=True)
    step_is(page, "ftl-launch")
    page.wait_for_selector(".plot-row[data-piece='red'] .plot-launch")
    page.tap(".plot-row[data-piece='red'] .plot-launch")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "1-launch")
    page.tap("#play-turn")
    wait_done(page)
    for step, order in (("ftl-turn", "R-45"), ("ftl-sprint", "S7.5")):
        page.tap("#next")
        step_is(page, step)
        page.locator(".plot-order[data-piece='red-m1']").fill(order)
        page.tap("#play-turn")
        wait_done(page)
    page.tap("#next")
    step_is(page, "ftl-dodge")
    page.locator(".plot-order[data-piece='red']").fill("S4")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "4-dodge")
    page.tap("#play-turn")
    wait_done(page)
    page.locator("#step-status").scroll_into_view_if_needed()
    shot(page, "4-dodged")
    page.tap("#next")
    step_is(page, "ftl-ready")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The first duel's table as its room will have it (the room options' default), not
    # the rulebook's four feet.
    assert "Your first duel is on a 24 x 24 in table with 10 missiles a ship" in page.inner_text(
        "#step-text"
    )
    shot(page, "5-ready")


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
    step_is(page, "ready")
    page.click("#next")
    step_is(page, "ftl-launch")
    page.wait_for_selector(".plot-ring-mark")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "6-ftl")


def test_skipping_to_faster_than_light_and_typing_the_orders(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/tutorial")
    step_is(page, "move")
    page.click("#skip-ftl")
    step_is(page, "ftl-launch")
    assert page.locator("#table").is_hidden()
    # A link can start there too.
    step_is(open_page("/tutorial?game=ftl"), "ftl-launch")
    assert page.locator("#skip-ftl").is_hidden()
    assert page.inner_text("#skip-hexfleet") == "Skip to Hex fleet"
    ship = page.locator(".plot-order[data-piece='red']")
    ship.fill("S2")
    assert "Launch" in status(page) and page.locator("#play-turn").is_disabled()
    ship.fill("l")
    assert page.locator("#play-turn").is_enabled()
    page.click("#play-turn")
    wait_done(page)
    page.click("#next")
    step_is(page, "ftl-turn")
    order = page.locator(".plot-order[data-piece='red-m1']")
    # A turn that misses is named, and Play waits for one that aims at Blue's ship.
    order.fill("R-30")
    assert "points it away" in status(page)
    assert page.locator("#play-turn").is_disabled()
    order.fill("R-45")
    assert page.locator("#play-turn").is_enabled()
    # An order for another piece than the step's waits for it to be cleared.
    ship = page.locator(".plot-order[data-piece='red']")
    ship.fill("S3")
    assert "clear red's order" in status(page) and page.locator("#play-turn").is_disabled()
    ship.fill("")
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
    step_is(page, "ftl-dodge")
    page.locator(".plot-order[data-piece='red']").fill("L")
    assert "launches" in status(page) and "normal space" in status(page)
    page.locator(".plot-order[data-piece='red']").fill("S3")
    page.click("#play-turn")
    wait_done(page)
    assert "cannot be hit" in status(page)
    page.click("#next")
    step_is(page, "ftl-ready")
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
    step_is(page, "ftl-launch")
    page.wait_for_selector(".plot-ring-mark")
    assert serious_violations(page) == []


def test_the_course_says_what_it_is_lessons_and_their_steps(
    open_page: OpenPage, shot: Shot
) -> None:
    """The lobby promises no "2 minutes": the course is a lesson per game (and a word on
    Stellar Conflict), and the tutorial lists them with their number of steps (adding up to
    the steps it counts), the lesson on show in bold."""
    lobby = open_page("/")
    learn = lobby.locator("#learn")
    assert "minute" not in learn.inner_text()
    assert "Stellar Conflict" in learn.inner_text()
    lobby.click("#learn a.learn-start")
    lobby.wait_for_url("**/tutorial")
    step_is(lobby, "move")
    lessons = lobby.locator("#lessons .lesson")
    assert lessons.count() >= 3
    counts = [int(n) for n in lessons.evaluate_all("ls => ls.map((l) => l.dataset.steps)")]
    total = lobby.inner_text("#step-count").split(" · ")[0].split()[-1]
    assert sum(counts) == int(total)
    first = lessons.first
    assert first.inner_text() == f"Light Speed ({counts[0]} steps)"
    assert "current" in (first.get_attribute("class") or "")
    assert "minute" not in lobby.inner_text("h1")
    shot(lobby, "lessons")
    phone = open_page("/tutorial", viewport=PHONE)
    step_is(phone, "move")
    assert phone.locator("#lessons .lesson").count() == lessons.count()
    shot(phone, "lessons-phone")
