"""A forgotten password, reset from the site by e-mail (issue 70 items 3 and 4), on a server
of this module's own started with ``--smtp`` (a real SMTP server, aiosmtpd, in the test's
process): a player gives his address in **Settings** and follows the mailed link, which
says it is verified; later, logged out, he follows **Forgot your password?** on the log-in
page, asks by his name, follows the mailed link and sets a new password; his other
device, still logged in, is logged out, and the new password logs him in. On a laptop in
English and on a phone in French, axe-core finding nothing serious on the pages."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests import _server
from tests._smtp import Inbox, link_in, smtp_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations

PASSWORD = "a long passphrase"
NEW_PASSWORD = "another passphrase"


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, str]]:
    with smtp_server() as running:
        yield running


@pytest.fixture(scope="module", name="server")
def mail_server(
    tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, str]
) -> Iterator[Server]:
    """A server of the module's own that mails through the test's SMTP server."""
    db = tmp_path_factory.mktemp("mail") / "matches.db"
    options = ("--test-clock", "--smtp", inbox[1], "--public-url", "http://play.example.org")
    with _server.running_server(db, *options) as running:
        yield Server(running.http)


def here(link: str, lang: str) -> str:
    """The mailed link's page on the test's server, in ``lang``."""
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}&lang={lang}"


def _no_push_here(page: Page) -> None:
    """The settings' push section (another feature's) asked this server, which sends no
    push, for its key: the browser logs that 404 as an error, which is not this test's."""
    expect(page.locator("#push-state")).not_to_be_empty()  # (its answer came)
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    errors[:] = [text for text in errors if "status of 404" not in text]


def log_in(page: Page, name: str, password: str, lang: str) -> None:
    page.goto(f"/login?lang={lang}")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#account-submit")
    page.wait_for_url("**/")


@pytest.mark.parametrize(
    ("lang", "width", "height", "words"),
    [
        (
            "en",
            1366,
            800,
            {
                "verified": "Your address {address} is verified.",
                "forgot": "Forgot your password?",
                "asked": "If an account with a verified address has this name or address",
                "done": "Your password is changed",
                "log in": "Log in",
                "ended": "Your session ended: you are logged out.",
            },
        ),
        (
            "fr",
            390,
            844,
            {
                "verified": "Votre adresse {address} est vérifiée.",
                "forgot": "Mot de passe oublié\u00a0?",
                "asked": "Si un compte avec une adresse vérifiée a ce nom ou cette adresse",
                "done": "Votre mot de passe est changé",
                "log in": "Se connecter",
                "ended": "Votre session a pris fin\u00a0: vous êtes déconnecté.",
            },
        ),
    ],
    ids=["laptop-en", "phone-fr"],
)
def test_a_player_resets_a_forgotten_password_by_mail_and_his_other_device_is_logged_out(
    open_page: OpenPage,
    shot: Shot,
    inbox: tuple[Inbox, str],
    lang: str,
    width: int,
    height: int,
    words: dict[str, str],
) -> None:
    mails, _ = inbox
    viewport = {"width": width, "height": height}
    name = f"Forgetful {lang}"
    address = f"forgetful.{lang}@example.org"
    page = open_page(f"/signup?lang={lang}", viewport=viewport)
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_url("**/")
    # Settings: the address, and its mailed link followed.
    page.goto(f"/me/settings?lang={lang}")
    page.fill("#email-address", address)
    before = len(mails.mails)
    page.click("#email-save")
    expect(page.locator("#email-resend")).to_be_visible()
    _no_push_here(page)
    verification = mails.wait_for(before + 1)[before]
    assert verification["To"] == address
    page.goto(here(link_in(verification), lang))
    expect(page.locator("#verify-state")).to_have_text(words["verified"].format(address=address))
    shot(page, "verified")
    # His other device stays logged in meanwhile.
    other = open_page(f"/?lang={lang}", viewport=viewport)
    log_in(other, name, PASSWORD, lang)
    expect(other.locator(".topbar .account-name")).to_have_text(name)

    # Logged out, he has forgotten his password: the log-in page leads to the reset.
    page.context.clear_cookies()
    page.goto(f"/login?lang={lang}")
    forgot = page.locator("#forgot-password")
    expect(forgot).to_have_text(words["forgot"])
    forgot.click()
    page.wait_for_selector("#reset-ask:not([hidden])")
    page.fill("#reset-who", name)
    before = len(mails.mails)
    page.click("#reset-ask-submit")
    # (The answers' sections are in the page from the start, hidden: shown once answered.)
    expect(page.locator("#reset-asked")).to_be_visible()
    expect(page.locator("#reset-asked")).to_contain_text(words["asked"])
    assert _serious_violations(page) == []
    shot(page, "asked")
    reset = mails.wait_for(before + 1)[before]
    assert reset["To"] == address
    page.goto(here(link_in(reset), lang))
    page.fill("#reset-password", NEW_PASSWORD)
    assert _serious_violations(page) == []
    page.click("#reset-submit")
    expect(page.locator("#reset-done")).to_be_visible()  # the new password is set
    expect(page.locator("#reset-done h2")).to_have_text(words["done"])
    shot(page, "changed")

    # The other device was logged out: told on its lobby socket, it reloads by itself as
    # a guest's page and says why (a reload of the test's own raced that one: aborted).
    # The new password logs him in.
    notice = other.locator(".session-ended")
    expect(notice).to_contain_text(words["ended"], timeout=15_000)  # (a page load)
    expect(other.locator(".topbar .account a").first).to_have_text(words["log in"])
    shot(other, "other-device-logged-out")
    log_in(page, name, NEW_PASSWORD, lang)
    expect(page.locator(".topbar .account-name")).to_have_text(name)
