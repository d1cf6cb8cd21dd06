"""The account pages (issue 37 item 1): sign up, the header showing the account, log out,
log in again, the profile and a leaderboard, on a laptop in English and on a phone in
French; axe-core finds nothing serious on those pages. (The API's refusals and security
are tested in process: tests/server/http/test_accounts.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser._pages import PagePool, borrowed_page
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations
from tests.i18n._french import french_page


@pytest.mark.parametrize(
    ("lang", "width", "height", "words"),
    [
        (
            "en",
            1366,
            800,
            {
                "signup": "Sign up",
                "login": "Log in",
                "logout": "Log out",
                "short": (
                    "3 to 20 characters: yours has 2.",
                    "at least 8 characters: yours has 5.",
                ),
            },
        ),
        (
            "fr",
            390,
            844,
            {
                "signup": "Créer un compte",
                "login": "Se connecter",
                "logout": "Se déconnecter",
                "short": ("de 3 à 20 caractères\u00a0: le vôtre en a 2.", "au moins 8 caractères"),
            },
        ),
    ],
    ids=["laptop-en", "phone-fr"],
)
def test_sign_up_see_the_account_in_the_header_log_out_and_in_again(
    open_page: OpenPage, shot: Shot, lang: str, width: int, height: int, words: dict[str, Any]
) -> None:
    name = f"Pilot {lang} {width}"
    page = open_page(f"/signup?lang={lang}", viewport={"width": width, "height": height})
    assert page.locator("h1").inner_text() == words["signup"]
    assert _serious_violations(page) == []
    # A name and a password both too short: both said at once, in sentences.
    page.fill("#account-name", "ab")
    page.fill("#account-password", "12345")
    page.click("#account-submit")
    error = page.locator("#account-error")
    error.wait_for()
    assert all(said in error.inner_text() for said in words["short"]), error.inner_text()
    assert page.url.split("?")[0].endswith("/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", "a long passphrase")
    page.click("#account-submit")
    page.wait_for_url("**/")
    header = page.locator(".topbar .account")
    assert header.locator(".account-name").inner_text() == name
    assert page.locator("#name").input_value() == name  # the lobby's name is the account's
    box = header.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width  # within the screen
    header.locator(".account-name").click()  # its menu
    logout = header.locator(".account-logout")
    assert logout.inner_text() == words["logout"] and logout.is_visible()
    menu = header.locator(".account-popup").bounding_box()
    assert menu is not None and menu["x"] >= 0 and menu["x"] + menu["width"] <= width
    # It hangs under the name (a phone's bar puts the name at the left: it hung at the right).
    named = header.locator(".account-name").bounding_box()
    assert named is not None and menu["x"] <= named["x"] + named["width"] / 2
    assert named["x"] + named["width"] / 2 <= menu["x"] + menu["width"]
    shot(page, "logged-in")
    logout.click()
    page.wait_for_selector(".topbar .account a[href^='/login']")
    assert page.locator(".account-name").count() == 0
    page.locator(".topbar .account a[href^='/login']").click()
    page.wait_for_selector("#account-form[data-action='login']")
    assert page.locator("#account-submit").inner_text() == words["login"]
    assert _serious_violations(page) == []
    page.fill("#account-name", name.upper())  # names are compared case folded
    page.fill("#account-password", "a long passphrase")
    page.click("#account-submit")
    page.wait_for_url("**/")
    assert page.locator(".topbar .account-name").inner_text() == name
    shot(page, "logged-in-again")
    # The menu leads to the player's profile (no match rated yet), and on to a leaderboard.
    page.locator(".topbar .account-name").click()
    page.locator(".account-profile").click()
    page.wait_for_selector("#player-name:not(:empty)")
    assert page.locator("#player-name").inner_text() == name
    assert page.locator("#no-ratings").is_visible()
    assert _serious_violations(page) == []
    shot(page, "profile")
    page.locator(".topbar .account-name").click()
    assert page.locator(".account-games").get_attribute("href") == "/me/games"
    page.locator(".account-leaderboard").click()
    page.wait_for_url("**/leaderboard/lightspeed")
    page.wait_for_selector("#board tbody tr, #no-players:not([hidden])", state="attached")
    assert _serious_violations(page) == []


def test_a_profile_or_leaderboard_that_is_not_there_says_why_in_the_reader_s_language(
    page_pool: PagePool, server: Server
) -> None:
    # Not open_page's: the 404s that they show are console errors open_page refuses.
    with french_page(page_pool, server.base, {}) as (page, errors):
        page.goto("/players/Nobody%20here")  # a page of its own (issue 67 item 20)
        assert page.inner_text("#missing-title") == "Aucun joueur nommé Nobody here"
        assert page.title() == "Aucun joueur nommé Nobody here — spacetable"
        assert page.locator("a[href='/leaderboard']").inner_text() == "Voir les classements"
        page.goto("/leaderboard/chess")
        page.wait_for_selector("#board-error:not([hidden])")
        assert page.inner_text("#board-error") == "pas de jeu 'chess'"
        assert errors and all("status of 404" in text for text in errors), errors


@pytest.mark.parametrize("path", ["/signup", "/login"])
def test_a_password_never_goes_to_the_address_bar_before_the_page_is_ready(
    page_pool: PagePool, server: Server, path: str
) -> None:
    """Found by a run beside two busy CPUs: the test's click on "Sign up" came before the
    page's script had run, and the browser sent the form itself, as a GET:
    ``/signup?name=...&password=...`` (a slow phone and a quick tap would do the same).
    Here the page's script never arrives: the button stays disabled, Enter in the password
    sends nothing, and the password is in no address."""
    with borrowed_page(page_pool, server.base, {"viewport": {"width": 390, "height": 844}}) as (
        page,
        errors,
    ):
        page.route("**/static/*/js/pages/account.js", lambda route: route.abort())
        page.goto(path)
        page.fill("#account-name", "Quick Tapper")
        page.fill("#account-password", "a long passphrase")
        assert page.locator("#account-submit").is_disabled()
        page.press("#account-password", "Enter")  # (waits for a navigation it starts)
        assert "passphrase" not in page.url and page.url.endswith(path), page.url
        assert errors and all("account.js" in e or "Failed to load" in e for e in errors), errors
