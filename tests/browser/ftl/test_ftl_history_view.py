"""The FTL turn history is read only (issue 20, FTL item 5): stepping back shows a past
turn without the order being plotted now, a banner over the board says it is history with
the way back to the present, and nothing can be plotted until then; the draft waits."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Shot
from tests.browser.ftl._duel import start_duel, wait_turn

FIELD = ".plot-row[data-piece='ann'] .plot-order"


def duel_with_a_bot(open_page: OpenPage) -> Page:
    """Ann against the random bot, at the fastest animation speed, plotting turn 1."""
    ann = open_page("/", viewport={"width": 1366, "height": 800})
    start_duel(ann, "ann", "random")
    ann.select_option("#turn-speed", "8")
    return ann


def plot(page: Page, order: str, turn: int) -> None:
    page.fill(FIELD, order)
    page.click("#submit-plot")
    wait_turn(page, turn + 1)


def ann_drawn_at(page: Page) -> str:
    return page.get_attribute(".ftl-pieces .ftl-piece[data-piece='ann']", "transform") or ""


def test_the_history_is_read_only_and_says_so(open_page: OpenPage, shot: Shot) -> None:
    ann = duel_with_a_bot(open_page)
    start = ann_drawn_at(ann)
    plot(ann, "S2", 1)
    plot(ann, "S2", 2)
    # Turn 3: a draft, not sent. Its ghost and handles are on the board.
    ann.fill(FIELD, "R+45")
    ann.wait_for_selector(".plot-ghosts [data-ghost-of='ann']")
    assert ann.is_hidden("#history-banner")
    now = ann_drawn_at(ann)

    ann.click(".ftl-stepper [data-step='first']")
    banner = "#history-banner"
    assert ann.inner_text("#history-banner-text") == "The start, before turn 1 — history, read only"
    assert ann.is_visible(banner) and ann.is_visible("#back-to-present")
    assert ann_drawn_at(ann) == start != now
    assert ann.locator(".plot-ghosts [data-ghost-of='ann']:visible").count() == 0
    assert ann.locator(".plot-handles *:visible").count() == 0
    assert ann.is_disabled(FIELD)
    assert ann.is_disabled(".plot-row[data-piece='ann'] .plot-launch")
    assert ann.is_disabled("#submit-plot")
    assert "past turn" in ann.inner_text("#plot-message")
    shot(ann, "history-desktop")

    # A past turn played again is history from its first frame (stopped by the way back).
    ann.click(".ftl-stepper [data-step='next']")
    assert ann.inner_text("#history-banner-text") == "Turn 1 of 2 — history, read only"
    assert ann.locator(".plot-ghosts [data-ghost-of='ann']:visible").count() == 0
    assert ann.is_visible(banner) and ann.is_disabled(FIELD)

    # Back to the present: the table as it stands, the draft as it was, plotting again.
    ann.click("#back-to-present")
    assert ann.is_hidden(banner)
    assert ann.inner_text(".ftl-position") == "Turn 2 of 2"
    assert ann_drawn_at(ann) == now
    assert ann.input_value(FIELD) == "R+45" and ann.is_enabled(FIELD)
    ann.wait_for_selector(".plot-ghosts [data-ghost-of='ann']")
    assert ann.is_enabled("#submit-plot")

    ann.set_viewport_size({"width": 390, "height": 844})
    ann.click(".ftl-stepper [data-step='back']")
    assert ann.inner_text("#history-banner-text") == "Turn 1 of 2 — history, read only"
    ann.locator(banner).scroll_into_view_if_needed()
    shot(ann, "history-phone")
    ann.click("#back-to-present")
    ann.click("#submit-plot")
    wait_turn(ann, 4)
    assert "R+45" in ann.inner_text(".ftl-turns > li[data-turn='3'] .ftl-orders")
