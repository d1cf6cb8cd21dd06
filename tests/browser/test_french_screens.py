"""The screens done in French (issue 23), as a French speaker's browser shows them
(Accept-Language: fr): no English word but the allowed names, no message id shown raw,
no text wider than its box (tests/i18n/_french.py), at 1366 x 800 and on a 390 x 844
phone; and the language switch on every page, remembered by the browser."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, Route

from tests._server import running_server
from tests.browser._pages import PagePool
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_tutorial import step_is, wait_done
from tests.i18n._french import assert_french, french_page

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own: the screens are checked as a French speaker sees a
    fresh server (the lists with bots' seats in them: test_french_lasers.py)."""
    with running_server(tmp_path_factory.mktemp("french") / "matches.db") as running:
        yield Server(running.http)


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
    page.wait_for_function("document.documentElement?.lang === 'fr'")
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


def test_the_switch_does_not_hang_on_the_cookie_reaching_the_server(
    open_page: OpenPage,
) -> None:
    """The switch's page comes in the language picked even when the request that loads it
    goes out without the `lang` cookie the page has just written (Chromium sends the
    cookie to its network process apart from the navigation: on a busy machine a room's
    page came back in the old language, and stayed in it)."""
    page = open_page("/", locale="en-US")
    _lobby_ready(page)

    def without_cookie(route: Route) -> None:
        # The page as the server writes it for the request that left before the cookie.
        asked = Request(route.request.url, headers={"Accept-Language": "en-US"})
        with urlopen(asked, timeout=10) as answer:
            route.fulfill(status=answer.status, headers=dict(answer.headers), body=answer.read())

    page.route(lambda url: urlsplit(url).path == "/", without_cookie)
    # The page the test wrote comes from no address, and Chromium refuses its sockets to
    # this machine's server (its local network access checks): its lobby socket is answered
    # by the test instead (it carries nothing this test looks at).
    page.route_web_socket(lambda url: urlsplit(url).path == "/ws/lobby", lambda socket: None)
    page.select_option("#lang-switch", "fr")
    page.wait_for_function("document.documentElement?.lang === 'fr'")
    _lobby_ready(page)
    assert page.locator("h1").text_content() == "Accueil"
    assert page.locator("#lang-switch").input_value() == "fr"


@pytest.mark.parametrize("size", SIZES)
def test_the_tutorial_light_speed_lesson_in_french(
    open_page: OpenPage, shot: Shot, size: dict[str, int]
) -> None:
    """The Light Speed lesson from its first step to its finale, each step checked."""
    page = open_page("/tutorial", locale="fr-FR", viewport=size)
    step_is(page, "move")
    page.wait_for_selector("#hand[data-ship='moth']")
    assert page.inner_text("#step-count").startswith("Étape 1 sur ")
    assert_french(page)
    shot(page, "1-move")
    page.focus("#table")
    for _ in range(7):
        page.keyboard.press("Shift+ArrowLeft")
    wait_done(page, 60_000)
    assert page.inner_text("#step-status") == "Bien\u00a0: la carte suit vos mouvements."
    page.click("#next")
    step_is(page, "turn")
    for _ in range(24):
        if page.get_attribute("body", "data-done") == "yes":
            break
        page.click("#turn-left")
    wait_done(page, 60_000)
    assert_french(page)
    shot(page, "2-aimed")
    page.click("#next")
    step_is(page, "place")
    page.click("#place-card")
    wait_done(page, 60_000)
    assert_french(page)
    page.click("#next")
    step_is(page, "battle")
    page.click("#fire")
    page.wait_for_selector("#battle-speed")
    page.select_option("#battle-speed", "8")
    wait_done(page, 60_000)
    assert "a détruit le Sidewinder" in page.inner_text("#step-status")
    # The battle log tells it in French, the ships named as the French rulebook names them.
    log = page.inner_text("#battle-log")
    assert "Vitesse 1" in log and "Moth (Rouge)" in log and "Sidewinder (Bleu)" in log
    assert_french(page)
    shot(page, "3-battle")
    page.click("#next")
    step_is(page, "score")
    page.wait_for_selector("#score-panel .kill-pile")
    red = page.get_attribute("#score-panel .score[data-player='Rouge']", "data-score")
    page.click(f".answer[data-answer='{red}']")
    wait_done(page, 60_000)
    assert page.inner_text("#step-status").startswith("Exact\u00a0:")
    assert_french(page)
    shot(page, "4-score")
    page.click("#next")
    step_is(page, "ready")
    assert page.inner_text("#play-first") == "Jouer votre première partie"
    assert_french(page)
    shot(page, "5-ready")


@pytest.mark.parametrize("size", SIZES)
def test_the_match_list_in_french(open_page: OpenPage, shot: Shot, size: dict[str, int]) -> None:
    page = open_page("/matches", locale="fr-FR", viewport=size)
    page.wait_for_selector("#matches tbody tr, #no-matches:not([hidden])")
    assert page.locator("h1").text_content() == "Parties terminées"
    assert_french(page)
    shot(page, "matches")


def test_the_replay_of_a_match_that_is_not_stored_says_so_in_french(
    page_pool: PagePool, server: Server, shot: Shot
) -> None:
    # Not open_page's: the 404 that it shows is the console error open_page refuses.
    phone = {"viewport": {"width": 390, "height": 844}}
    with french_page(page_pool, server.base, phone) as (page, errors):
        page.goto("/replay/nosuchmatch")
        page.wait_for_selector("#replay-error:not([hidden])")
        assert page.inner_text("#replay-error") == (
            "Impossible de charger la partie nosuchmatch\u00a0: "
            "aucune partie enregistrée sous 'nosuchmatch'"
        )
        # No empty table beside it: the refusal has the page, with the ways on.
        assert page.locator("#table-wrap").is_hidden()
        assert page.inner_text(".replay-ways") == "Parties terminées\nRetour à l'accueil"
        assert_french(page)
        shot(page, "missing-match")
        assert all("status of 404" in text for text in errors), errors  # that 404 alone
