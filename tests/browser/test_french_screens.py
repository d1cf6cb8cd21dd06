"""The screens done in French (issue 23), as a French speaker's browser shows them
(Accept-Language: fr): no English word but the allowed names, no message id shown raw,
no text wider than its box (tests/i18n/_french.py), at 1366 x 800 and on a 390 x 844
phone; and the language switch on every page, remembered by the browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Shot
from tests.i18n._french import assert_french

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def _lobby_ready(page: Page) -> None:
    page.wait_for_selector("#create:not([disabled])")
    page.wait_for_selector("#play-bot-games li")


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_in_french(open_page: OpenPage, shot: Shot, size: dict[str, int]) -> None:
    page = open_page("/", locale="fr-FR", viewport=size)
    _lobby_ready(page)
    assert page.locator("h1").text_content() == "Accueil"
    assert page.title() == "spacetable — batailles spatiales autour d'une table"
    assert page.locator("#play-bot").text_content() == "Jouer contre un bot"
    shot(page, "lobby")
    assert_french(page)
    # Every game's form, as the Game menu shows it.
    for game in page.locator("#ruleset option").evaluate_all("os => os.map(o => o.value)"):
        page.select_option("#ruleset", game)
        page.wait_for_selector(f"#{game}-options")
        assert_french(page)
        if game == "hexfleet":
            page.select_option("#scenario", "custom")
            assert_french(page)
            shot(page, "lobby-hexfleet-custom")


def test_the_language_switch_is_on_every_page_and_remembered(open_page: OpenPage) -> None:
    page = open_page("/", locale="en-US")
    _lobby_ready(page)
    assert page.locator("h1").text_content() == "Lobby"
    assert page.locator("#lang-switch option").all_text_contents() == ["English", "Français"]
    page.select_option("#lang-switch", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    _lobby_ready(page)
    assert page.locator("h1").text_content() == "Accueil"
    # The browser remembers: every page after is French, whatever the browser asks for.
    for path in ("/matches", "/tutorial", "/rules", "/referee"):
        page.goto(path)
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("#lang-switch").input_value() == "fr"
    # A link may ask for a language: it is the one remembered from then on.
    page.goto("/?lang=en")
    _lobby_ready(page)
    assert page.locator("h1").text_content() == "Lobby"
    page.goto("/")
    assert page.locator("h1").text_content() == "Lobby"
    assert page.evaluate("localStorage.getItem('spacetable.lang')") == "en"
