"""Deleting an account from the site (issue 37): his own profile leads a logged-in player
to /me/delete, which says what goes and what stays and asks for his password and a tick.
Before he confirms it lists the match he is playing, which the deletion ends by resigning
it (issue 67 item 1): his opponent's room shows it over. A wrong password deletes nothing
and says so; the right one logs him out and says it is done; then his profile is gone
(404) and his name and password log nobody in. On a laptop in English and on a phone in
French, axe-core finding nothing serious in each state."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import ClientConnection, connect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations

PASSWORD = "a long passphrase"


def _refused_once(page: Page) -> None:
    """The page's one refused request (401) is what the test asked for: the browser logs
    it as an error, which is not the page's."""
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    refused = [text for text in errors if "status of 401" in text]
    assert len(refused) == 1, errors
    errors.remove(refused[0])


def _seated(server: Server, room: str, cookie: str) -> ClientConnection:
    """A socket of the account whose session ``cookie`` is, sitting in ``room``, ready."""
    socket = connect(
        server.base.replace("http", "ws", 1) + f"/ws/rooms/{room}",
        additional_headers={"Cookie": cookie},
        legacy=True,
    )
    socket.send(json.dumps({"type": "join", "name": "x"}))
    socket.send(json.dumps({"type": "ready"}))
    _next(socket, lambda m: m["type"] == "welcome" and m["role"] == "player")
    return socket


def _next(socket: ClientConnection, wanted: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=20))
        if wanted(message):
            return message


def _within_screen(page: Page, selector: str, width: int) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize(
    ("lang", "width", "height", "words"),
    [
        (
            "en",
            1366,
            800,
            {
                "title": "Delete your account",
                "wrong": "Wrong password: your account is not deleted.",
                "done": "Your account is deleted",
                "unfinished": "Your unfinished match ends: you resign it.",
                "match": "Hex fleet against {other}, by correspondence",
            },
        ),
        (
            "fr",
            390,
            844,
            {
                "title": "Supprimer votre compte",
                "wrong": "Mot de passe incorrect\u00a0: votre compte n\u2019est pas supprimé.",
                "done": "Votre compte est supprimé",
                "unfinished": "Votre partie en cours se termine\u00a0: vous l\u2019abandonnez.",
                "match": "Flotte hex contre {other}, par correspondance",
            },
        ),
    ],
    ids=["laptop-en", "phone-fr"],
)
def test_a_player_deletes_his_account_from_the_site(
    open_page: OpenPage,
    shot: Shot,
    server: Server,
    lang: str,
    width: int,
    height: int,
    words: dict[str, str],
) -> None:
    name = f"Leaver {lang} {width}"
    page = open_page(f"/signup?lang={lang}", viewport={"width": width, "height": height})
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_url("**/")
    # His profile (the menu under his name) leads to the page; another's does not.
    other = f"Stayer {lang} {width}"
    others = session_cookie(server.base, other)
    # They play a hex fleet match by correspondence.
    cookie = next(c for c in page.context.cookies() if c["name"] == SESSION_COOKIE)
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_hours": 24})["id"]
    mine = _seated(server, room, f"{SESSION_COOKIE}={cookie['value']}")
    theirs = _seated(server, room, others)
    _next(theirs, lambda m: m["type"] == "state" and m["phase"] != "lobby")
    mine.close()
    page.goto(f"/players/{quote(other)}")
    page.wait_for_selector("#player-name:not(:empty)")
    assert page.locator("#own-account").is_hidden()
    page.locator(".topbar .account-name").click()
    page.locator(".account-profile").click()
    link = page.locator("#delete-account-link")
    expect(link).to_be_visible()
    assert link.inner_text() == words["title"]
    shot(page, "profile")
    link.click()
    page.wait_for_selector("#delete-panel:not([hidden])")
    assert page.locator("h1").inner_text() == words["title"]
    assert page.locator("#delete-name").inner_text() == name
    # The match he is playing, which the deletion ends (he resigns it).
    expect(page.locator("#delete-unfinished")).to_have_text(words["unfinished"])
    assert page.locator("#delete-matches li").all_inner_texts() == [
        words["match"].format(other=other)
    ]
    _within_screen(page, "#delete-submit", width)
    assert _serious_violations(page) == []
    shot(page, "form")

    # A wrong password: told so, nothing deleted, still logged in.
    page.fill("#delete-password", "not my password")
    page.check("#delete-sure")
    page.click("#delete-submit")
    error = page.locator("#delete-error")
    expect(error).to_be_visible()
    assert error.inner_text() == words["wrong"]
    _refused_once(page)
    assert _serious_violations(page) == []
    shot(page, "wrong-password")
    assert page.request.get(f"{server.base}/api/players/{quote(name)}").status == 200
    assert page.request.get(f"{server.base}/api/session").json() == {"name": name}

    # The right one: deleted, logged out, told so.
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-submit")
    page.wait_for_url("**/me/delete?deleted=1")
    ended = _next(theirs, lambda m: m["type"] == "result")["result"]
    assert (ended["ending"], ended["winner"]) == ("resigned", other)
    theirs.close()
    done = page.locator("#delete-done")
    expect(done).to_be_visible()
    assert done.locator("h2").inner_text() == words["done"]
    assert page.locator(".topbar .account-name").count() == 0  # a guest's top bar
    expect(page.locator(".topbar .account a[href^='/login']")).to_be_visible()
    assert _serious_violations(page) == []
    shot(page, "deleted")
    assert page.request.get(f"{server.base}/api/session").status == 401
    assert page.request.get(f"{server.base}/api/players/{quote(name)}").status == 404
    login: dict[str, Any] = {"name": name, "password": PASSWORD}
    refused = page.request.post(
        f"{server.base}/api/session",
        data=json.dumps(login),
        headers={"Content-Type": "application/json"},
    )
    assert refused.status == 401


def test_the_delete_page_asks_a_guest_to_log_in(open_page: OpenPage) -> None:
    page = open_page("/me/delete")
    expect(page.locator("#delete-guest")).to_be_visible()
    assert page.locator("#delete-panel").is_hidden()
    assert page.locator("#delete-login").get_attribute("href") == "/login?next=%2Fme%2Fdelete"
    assert _serious_violations(page) == []
