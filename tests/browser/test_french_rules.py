"""The rules page in French (issue 23 item 3): every game's text in French, written for
the page (games/<key>/rules.fr.html), at 1366 x 800 and on a 390 x 844 phone, with no
English word but the allowed names, no raw message and nothing wider than its box
(tests/i18n/_french.py); the English page keeps its English texts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route

from tests.browser.conftest import OpenPage, Shot
from tests.i18n._french import assert_french

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
GAMES = ["lightspeed", "stellar", "ftl", "hexfleet"]


def _drawn(page: Page) -> None:
    page.wait_for_function(
        "[...document.images].every((img) => img.complete)"
        " && document.querySelectorAll('.rules-game').length === 4"
        " && document.querySelectorAll('.fleet-card').length > 0"
    )
    broken = page.evaluate(
        "[...document.images].filter((img) => !img.naturalWidth).map((img) => img.src)"
    )
    assert broken == []


@pytest.mark.parametrize("size", SIZES)
def test_every_game_s_rules_in_french(
    open_page: OpenPage, shot: Shot, size: dict[str, int]
) -> None:
    page = open_page("/rules?lang=fr", viewport=size)
    _drawn(page)
    # Every game's own French text, none left in English.
    assert page.locator(".rules-game").evaluate_all("ss => ss.map((s) => s.id)") == GAMES
    assert page.locator(".rules-game[lang]").count() == 0
    lightspeed = page.locator("#lightspeed").inner_text()
    assert "pile «\u00a0victimes\u00a0»" in lightspeed and "«\u00a0stop\u00a0!\u00a0»" in lightspeed
    assert "Le compte à rebours" in page.locator("#stellar").inner_text()
    assert "en espace normal" in page.locator("#ftl").inner_text()
    hexfleet = page.locator("#hexfleet")
    assert hexfleet.locator("#hex-salvo caption").inner_text() == "Cartes retournées par une salve"
    assert hexfleet.locator("#hex-hits tbody tr").nth(1).inner_text().split("\t") == [
        "levés, avec plus des trois quarts de leurs points",
        "♠ piques seulement",
    ]
    # Every picture the French way, described in French.
    sources = page.evaluate("[...document.images].map((img) => img.getAttribute('src'))")
    assert sources and all(src.endswith(".svg?lang=fr") for src in sources)
    assert_french(page)  # the whole page: its frame, every game's text and the fleet
    for game in GAMES:
        page.locator(f"#{game}").scroll_into_view_if_needed()
        shot(page, game)
    page.locator("#hex-salvo").scroll_into_view_if_needed()
    shot(page, "hexfleet-salvo")


def test_a_game_without_a_text_in_the_page_s_language_shows_the_english(
    open_page: OpenPage,
) -> None:
    """The English rules stay the page's in English, and are the text of a game whose
    module names no text in the page's language (marked as English for screen readers)."""
    page = open_page("/rules?lang=en")
    _drawn(page)
    assert page.locator(".rules-game[lang]").count() == 0
    assert page.locator("#ftl h3").first.inner_text() == "The orders"

    def without_french(route: Route) -> None:
        module = route.fetch().text()
        assert module.count('["fr"])') == 1  # the languages of its rulesSection
        body = module.replace('["fr"])', "[])")
        route.fulfill(body=body, content_type="text/javascript")

    page = open_page("/rules?lang=fr")
    page.route("**/ftl/index.js", without_french)
    page.reload()
    _drawn(page)
    assert page.locator("#ftl").get_attribute("lang") == "en"
    assert page.locator("#ftl h3").first.inner_text() == "The orders"
    assert page.locator("#lightspeed h3").first.inner_text() == "Les cartes"
