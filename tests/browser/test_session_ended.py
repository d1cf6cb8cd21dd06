"""A page whose session ends elsewhere (issue 69: the lobby socket's ``session_ended``):
the account deleted from another device, the page open on the lobby reloads logged out at
once and says why, in the reader's language; the notice goes when closed."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests._server import wait_until
from tests.browser.conftest import OpenPage, Server, Shot


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Your account was deleted: you are logged out."),
        ("fr", "Votre compte a été supprimé : vous êtes déconnecté."),
    ],
)
def test_a_page_whose_account_is_deleted_elsewhere_shows_itself_logged_out_at_once(
    open_page: OpenPage, server: Server, shot: Shot, lang: str, words: str
) -> None:
    name = f"Gone {lang}"
    cookie = session_cookie(server.base, name)
    page = open_page(f"/?lang={lang}", viewport={"width": 390, "height": 844})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/?lang={lang}")
    expect(page.locator(".account-name")).to_have_text(name)
    # Its lobby socket is open (the server lists it online).
    wait_until(lambda: name in [p["name"] for p in server.api("/api/online")["players"]], name)
    # Another device deletes the account.
    request = urllib.request.Request(
        server.base + "/api/accounts/me",
        data=json.dumps({"password": "12345678"}).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
        method="DELETE",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 204
    notice = page.locator(".session-ended")
    expect(notice.locator("span")).to_have_text(words)
    expect(page.locator(".account-name")).to_have_count(0)  # a guest's top bar now
    shot(page, f"session-ended-{lang}")
    notice.get_by_role("button").click()
    expect(notice).to_have_count(0)
