"""The account pages say what is wrong in full sentences, in the reader's language (issue 67
items 8 and 21): the sign-up page names the characters a name may not hold before it sends
anything, and writes the server's refusals (a name the game gives, a look-alike of an
account's name) as sentences; the log-in page's wrong password too. On a laptop in English
and on a phone in French."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot

PASSWORD = "a long passphrase"
NBSP = "\u00a0"
CYRILLIC_IE = "\u0435"  # looks like a Latin e

WORDS = {
    "en": {
        "odd": "A name holds only letters, digits, spaces, - and _: “@ !” are not allowed.",
        "reserved": (
            "This name is kept for the names the game gives (bots, guests, empty seats,"
            " deleted accounts): choose another."
        ),
        "alike": "This name looks too much like “{name}”, another player's name: choose another.",
        "wrong": "Wrong name or password.",
    },
    "fr": {
        "odd": (
            f"Un nom ne contient que des lettres, des chiffres, des espaces, - et _{NBSP}:"
            f" «{NBSP}@ !{NBSP}» ne sont pas permis."
        ),
        "reserved": (
            "Ce nom est réservé aux noms que donne le jeu (robots, invités, places libres,"
            f" comptes supprimés){NBSP}: choisissez-en un autre."
        ),
        "alike": (
            f"Ce nom ressemble trop à «{NBSP}{{name}}{NBSP}», le nom d\u2019un autre joueur{NBSP}:"
            " choisissez-en un autre."
        ),
        "wrong": "Nom ou mot de passe incorrect.",
    },
}


def _refused(page: Page, name: str, status: int) -> str:
    """Send the form with ``name``; the sentence the page shows. The browser logs the
    refused request as an error, which is not the page's: taken off its errors."""
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    shown = page.locator("#account-error:not([hidden])")
    shown.wait_for()
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    refused = [text for text in errors if f"status of {status}" in text]
    assert len(refused) == 1, errors
    errors.remove(refused[0])
    return shown.inner_text()


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 1366, 800), ("fr", 390, 844)],
    ids=["laptop-en", "phone-fr"],
)
def test_the_sign_up_and_log_in_pages_say_each_refusal_in_a_sentence(
    open_page: OpenPage, shot: Shot, server: Server, lang: str, width: int, height: int
) -> None:
    words = WORDS[lang]
    page = open_page(f"/signup?lang={lang}", viewport={"width": width, "height": height})
    # Characters a name may not hold: named before anything is sent.
    page.fill("#account-name", "Vera@home!")
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    error = page.locator("#account-error")
    error.wait_for()
    assert error.inner_text() == words["odd"]
    assert page.url.split("?")[0].endswith("/signup")
    shot(page, "odd-characters")
    # A name the game gives, refused by the server.
    assert _refused(page, "Bot 1", 422) == words["reserved"]
    # A look-alike of an account's name: a Cyrillic e in it.
    taken = f"Vera {lang} {width}"
    session_cookie(server.base, taken)
    said = _refused(page, taken.replace("e", CYRILLIC_IE, 1), 409)
    assert said == words["alike"].format(name=taken)
    box = error.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    shot(page, "look-alike")
    # The log-in page: a wrong password.
    page.goto(f"/login?lang={lang}")
    page.wait_for_selector("#account-form[data-action='login']")
    page.wait_for_function("!document.querySelector('#account-submit').disabled")
    assert _refused(page, taken, 401) == words["wrong"]
    shot(page, "wrong-password")


@pytest.mark.parametrize(
    ("lang", "away", "unreachable"),
    [
        (
            "en",
            "The server cannot answer just now: try again in a minute.",
            "The server could not be reached: check your connection and try again.",
        ),
        (
            "fr",
            f"Le serveur ne peut pas répondre pour l\u2019instant{NBSP}:"
            " réessayez dans une minute.",
            f"Le serveur est injoignable{NBSP}: vérifiez votre connexion et réessayez.",
        ),
    ],
)
def test_a_server_that_cannot_answer_is_said_in_a_sentence(
    open_page: OpenPage, lang: str, away: str, unreachable: str
) -> None:
    """The database away (the server's 503 carries no phrase, only its English detail), or
    no answer at all: the sign-up page says so in the reader's language, not in the
    server's English or the browser's 'Failed to fetch'."""
    page = open_page(f"/signup?lang={lang}", viewport={"width": 390, "height": 844})
    detail = '{"detail": "the match store is unavailable, try again soon (locked)"}'
    page.route(
        "**/api/accounts",
        lambda route: route.fulfill(status=503, body=detail, content_type="application/json"),
    )
    assert _refused(page, "Zelda Away", 503) == away
    page.unroute("**/api/accounts")
    page.route("**/api/accounts", lambda route: route.abort())
    page.fill("#account-name", "Zelda Away")
    page.click("#account-submit")
    page.wait_for_function(
        "(said) => document.querySelector('#account-error').innerText === said", arg=unreachable
    )
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    errors.clear()  # the aborted request, logged by the browser


def test_the_delete_page_says_a_server_that_cannot_answer_in_a_sentence(
    open_page: OpenPage, server: Server
) -> None:
    """The delete page too (its database away): in the reader's language, nothing deleted."""
    page = open_page("/?lang=fr", viewport={"width": 390, "height": 844})
    name, value = session_cookie(server.base, "Yvette Stays").split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": server.base}])
    page.goto("/me/delete")
    page.wait_for_selector("#delete-panel:not([hidden])")
    detail = '{"detail": "the match store is unavailable, try again soon (locked)"}'
    page.route(
        "**/api/accounts/me",
        lambda route: route.fulfill(status=503, body=detail, content_type="application/json"),
    )
    page.fill("#delete-password", PASSWORD)
    page.check("#delete-sure")
    page.click("#delete-submit")
    error = page.locator("#delete-error:not([hidden])")
    error.wait_for()
    said = f"Le serveur ne peut pas répondre pour l\u2019instant{NBSP}: réessayez dans une minute."
    assert error.inner_text() == said
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    refused = [text for text in errors if "status of 503" in text]
    assert len(refused) == 1, errors
    errors.remove(refused[0])
