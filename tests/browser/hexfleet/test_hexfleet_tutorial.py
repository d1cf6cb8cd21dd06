"""The tutorial's hex fleet steps, as a newcomer does them: chits drawn from the cup until
the Dart is activated, a move and a turn paid in hexes until Blue's Warden is in the light
ship's forward arc, shields raised with two cards, a salvo fired through the Warden's
shields with its damage cards; then a hex fleet duel against the easy bot. The cards come
from a shuffled deck and the server's referee settles them: the test checks that what the
page says agrees with the cards it shows."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Shot
from tests.browser.test_tutorial import status, step_is, wait_done

PHONE = {"width": 390, "height": 844}
DRAWS_AT_MOST = 60


def draw_until_the_dart_is_activated(page: Page) -> None:
    step_is(page, "hex-cup")
    assert page.locator("#hex-cup .hex-chit").all_inner_texts() == [
        "Dart (yours)",
        "Warden (Blue)",
        "blank",
    ]
    for _ in range(DRAWS_AT_MOST):
        if page.get_attribute("body", "data-done") == "yes":
            break
        page.click("#hex-draw")
        drawn = page.inner_text("#hex-cup .hex-drawn")
        if "blank" in drawn:
            assert "the turn is over" in status(page)
            assert page.locator("#hex-cup .hex-chit").count() == 3
        elif "Warden" in drawn:
            assert "Blue's Warden is activated" in status(page)
    wait_done(page)
    assert "Dart is activated" in status(page)
    assert page.locator(".ship.active[data-ship='dart']").count() == 1


def move_until_the_warden_is_ahead(page: Page) -> None:
    step_is(page, "hex-move")
    assert page.inner_text("#hex-movement") == "Movement left: 16 of 16 hexes."
    # One hex ahead (the Dart faces south, away from the Warden): still behind it.
    ahead = page.locator(".hex.reachable[data-hex='2,5']")
    assert ahead.get_attribute("data-cost") == "1"
    ahead.click()
    assert page.get_attribute(".ship[data-ship='dart']", "data-hex") == "2,5"
    assert page.inner_text("#hex-movement") == "Movement left: 15 of 16 hexes."
    assert page.get_attribute("body", "data-done") == "no"
    # Turned to face north, three sides round: three hexes of movement, and the Warden ahead.
    arrow = page.locator(".facing-arrow[data-facing='0']")
    assert arrow.get_attribute("data-cost") == "3"
    arrow.click()
    wait_done(page)
    assert page.get_attribute(".ship[data-ship='dart']", "data-facing") == "0"
    assert page.inner_text("#hex-movement") == "Movement left: 12 of 16 hexes."
    assert "in the Dart's forward arc" in status(page)


def raise_shields(page: Page) -> None:
    step_is(page, "hex-shields")
    page.click("#hex-raise")
    wait_done(page)
    shown = page.locator("#hex-lesson-cards .hx-card").evaluate_all(
        "cards => cards.map((c) => c.dataset.card)"
    )
    assert len(shown) == 2
    (a, b) = shown
    same_colour = (a[-1] in "HD") == (b[-1] in "HD")
    matched = same_colour or a[:-1] == b[:-1]
    assert ("shields are up" in status(page)) == matched
    assert f"{a} and {b}" in status(page)
    log = page.locator("#hex-lesson-log li").first.inner_text()
    assert log.startswith(f"Dart raises shields: {a} {b}")
    assert page.locator(".ship.shielded[data-ship='dart']").count() == (1 if matched else 0)


def fire_at_the_warden(page: Page) -> None:
    step_is(page, "hex-fire")
    warden = page.locator(".ship[data-ship='warden']")
    assert "shields 6/16 (up)" in (warden.locator("title").text_content() or "")
    warden.click()
    wait_done(page)
    salvo = page.locator("#hex-lesson-log li").nth(1).inner_text()
    told = re.match(
        r"Dart fires 4 cards at Warden \(shields up, 6/16: diamonds, hearts and spades hit\): "
        r"(\S+) (\S+) (\S+) (\S+) — (?:(\d+) hits?|no hits)",
        salvo,
    )
    assert told, salvo
    cards = told.groups()[:4]
    hits = sum(1 for card in cards if not card.endswith("C"))
    assert int(told.group(5) or 0) == hits
    assert status(page).startswith("1 hit" if hits == 1 else f"{hits} hits")
    # One damage card per hit, a club drawn again.
    damage = page.locator("#hex-lesson-log li").all_inner_texts()[2:]
    assert sum(1 for line in damage if "loses" in line) == hits
    assert all(line.startswith("damage card ") for line in damage)
    title = warden.locator("title").text_content() or ""
    lost = 6 - int(re.search(r"shields (\d+)/16", title).group(1))  # type: ignore[union-attr]
    assert lost == sum(1 for line in damage if "shield point" in line)


def test_a_newcomer_fights_a_hex_fleet_activation_then_meets_the_easy_bot(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/tutorial?game=hexfleet", viewport={"width": 1366, "height": 800})
    draw_until_the_dart_is_activated(page)
    assert page.locator("#table").is_hidden()
    assert "Hex fleet" in page.inner_text("#step-count")
    shot(page, "1-cup")
    page.click("#next")
    move_until_the_warden_is_ahead(page)
    shot(page, "2-moved")
    page.click("#next")
    raise_shields(page)
    shot(page, "3-shields")
    page.click("#next")
    fire_at_the_warden(page)
    shot(page, "4-fired")
    page.click("#next")
    step_is(page, "hex-ready")
    assert page.locator("#next").is_hidden()
    shot(page, "5-ready")
    page.click("#play-hexfleet")
    page.wait_for_url("**/rooms/*?join=1&bots=1:easy")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")


def test_the_hex_fleet_steps_on_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/tutorial?game=hexfleet", viewport=PHONE, is_mobile=True, has_touch=True)
    draw_until_the_dart_is_activated(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "1-cup")
    page.click("#next")
    move_until_the_warden_is_ahead(page)
    shot(page, "2-moved")
    page.click("#next")
    raise_shields(page)
    page.click("#next")
    fire_at_the_warden(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "4-fired")


def test_the_first_tutorial_goes_on_to_hex_fleet(open_page: OpenPage) -> None:
    page = open_page("/tutorial?game=ftl")
    step_is(page, "ftl-turn")
    page.locator(".plot-order[data-piece='red-m1']").fill("R-45")
    page.click("#play-turn")
    wait_done(page)
    page.click("#next")
    page.locator(".plot-order[data-piece='red-m1']").fill("S7.5")
    page.click("#play-turn")
    wait_done(page)
    page.click("#next")
    step_is(page, "ready")
    assert "Next" in page.inner_text("#step-text") and page.locator("#next").is_enabled()
    page.click("#next")
    step_is(page, "hex-cup")
    assert page.locator("#ftl-board").is_hidden()
    assert page.locator(".hex-lesson-board svg").is_visible()
