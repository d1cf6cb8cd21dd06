"""FTL orders typed in the browser are read as the server reads them (DESIGN section 5):
the browser's reader against the same table of texts as the rules
(tests/golden/ftl-order-texts.json), and a player typing them in a room, where a text that
is no order leaves no ghost of the order the field held before."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from tests._golden import GOLDEN
from tests.browser.conftest import OpenPage, Shot

ORDER_TEXTS = json.loads((GOLDEN / "ftl-order-texts.json").read_text(encoding="utf-8"))


def test_the_browser_reads_every_text_as_the_rules_do(open_page: OpenPage) -> None:
    page = open_page("/")
    found = page.evaluate(
        """async (table) => {
          const { parseOrder } = await import("/static/js/games/ftl/orders.js");
          const read = (text) => {
            try { return JSON.parse(JSON.stringify(parseOrder(text))); }
            catch (error) { return { refused: error.message }; }
          };
          return {
            read: table.read.map((e) => read(e.text)),
            refused: table.refused.map((e) => read(e.text)),
            tooLong: table.too_long.map((e) => read(e.text)),
          };
        }""",
        ORDER_TEXTS,
    )
    for entry, got in zip(ORDER_TEXTS["read"], found["read"], strict=True):
        assert got == entry["order"], ascii(entry["text"])
    for entry, got in zip(ORDER_TEXTS["refused"], found["refused"], strict=True):
        assert "refused" in got, ascii(entry["text"])
        assert f"'{entry['text'].strip()}'" in got["refused"]
    for entry, got in zip(ORDER_TEXTS["too_long"], found["tooLong"], strict=True):
        assert f"at most {entry['most']} characters" in got.get("refused", ""), len(entry["text"])


def _field(page: Page) -> str:
    return ".plot-row[data-piece='cat'] .plot-order"


def _ghosts(page: Page) -> int:
    return page.locator(".plot-ghosts [data-ghost-of='cat'], .plot-ghosts .plot-tape").count()


def test_a_player_types_orders_as_he_would_write_them(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport={"width": 1366, "height": 800})
    page.fill("#name", "cat")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("#ftl-seat-1 option[value='random']", state="attached")
    page.select_option("#ftl-seat-1", "random")
    page.fill("#missiles", "2")
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(".seat[data-seat='1'][data-kind='bot']")
    page.click("button#ready")
    page.wait_for_selector("body[data-phase=plot][data-turn='1']", timeout=30_000)
    row = page.locator(".plot-row[data-piece='cat']")

    page.fill(_field(page), "r \u221245")  # the true minus sign, a space, a small letter
    assert row.get_attribute("data-order") == "R-45"
    assert "invalid" not in (row.get_attribute("class") or "")
    assert _ghosts(page) == 1

    page.fill(_field(page), "S3")
    assert row.get_attribute("data-order") == "S3" and _ghosts(page) == 2  # ghost and tape
    # A typo: the field holds no order, so the board shows none (not the S3 before it).
    page.fill(_field(page), "S3x")
    assert "invalid" in (row.get_attribute("class") or "")
    assert row.get_attribute("data-order") == ""
    assert _ghosts(page) == 0
    assert "'S3x' is not an order" in row.inner_text()
    assert page.inner_text("#plot-message").startswith("Cannot submit: your ship: 'S3x' is not")
    shot(page, "typo-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    row.scroll_into_view_if_needed()
    shot(page, "typo-phone")
    page.set_viewport_size({"width": 1366, "height": 800})

    page.fill(_field(page), "s\uff13")  # a full-width 3, as a Japanese keyboard types it
    assert row.get_attribute("data-order") == "S3" and _ghosts(page) == 2
    page.click("#submit-plot")
    page.wait_for_selector("body[data-phase=plot][data-turn='2']", timeout=30_000)
    assert "cat wrote: S3." in page.inner_text("#turn-log")

    # One launch of two missiles: the card and the board count the one left alike.
    page.click(".plot-row[data-piece='cat'] .plot-launch")
    page.click("#submit-plot")
    page.wait_for_selector("body[data-phase=plot][data-turn='3']", timeout=30_000)
    assert page.inner_text(".players li[data-player='cat'] .ship-missiles") == "1 missile"
    assert page.locator(".ftl-label[data-piece='cat'] .missiles-left").text_content() == "1 left"
