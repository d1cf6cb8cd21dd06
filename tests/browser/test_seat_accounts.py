"""A room's seats and the accounts (issue 67 items 9, 16 and 22), in the browser: a
browser logged out no longer plays the account's seat, and a second device of the account
is told it plays elsewhere; a guest opening a room played by correspondence is told he
watches, with links to log in or sign up that bring him back; a logged-in player sits
under his account's name (not a field to type in); a registered seat not rated yet shows
"0 (provisional)", and the panel says whether the match will be rated. On a laptop and on
a phone."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_my_games import _seated

VIEWPORTS = pytest.mark.parametrize(
    ("width", "height"), [(1366, 800), (390, 844)], ids=["laptop", "phone"]
)


def logged_in(open_page: OpenPage, server: Server, cookie: str, width: int, height: int) -> Page:
    """A browser of its own (cookies, storage) holding the session ``cookie``."""
    page = open_page("/", viewport={"width": width, "height": height})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": server.base}]
    )
    return page


def another_session(server: Server, name: str, password: str = "12345678") -> str:
    """The ``Cookie`` value of a new session of ``name`` (logging in again: another
    device's session, which one device logging out leaves alone)."""
    request = urllib.request.Request(
        server.base + "/api/session",
        data=json.dumps({"name": name, "password": password}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        cookie: str = response.headers["set-cookie"]
    return cookie.split(";", 1)[0]


def tokens(page: Page) -> dict[str, Any]:
    """The seat tokens the page's browser keeps (``spacetable.token.<room>``)."""
    found: dict[str, Any] = page.evaluate(
        """() => Object.fromEntries(Object.keys(localStorage)
             .filter((k) => k.startsWith('spacetable.token.'))
             .map((k) => [k, localStorage.getItem(k)]))"""
    )
    return found


@VIEWPORTS
def test_a_browser_logged_out_no_longer_plays_the_accounts_seat(
    open_page: OpenPage, server: Server, shot: Shot, width: int, height: int
) -> None:
    name = f"Alina {width}"
    cookie = session_cookie(server.base, name)
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    laptop = logged_in(open_page, server, cookie, width, height)
    laptop.goto(f"/rooms/{room}")
    laptop.click(".seat[data-seat='0'] .take-seat")
    laptop.wait_for_selector("button#ready")
    assert laptop.get_attribute("body", "data-player") == name
    key = f"spacetable.token.{room}"
    token = tokens(laptop)[key]
    # Her second device, logged in too, watches while the laptop plays, and is told so.
    phone = logged_in(open_page, server, another_session(server, name), width, height)
    phone.goto(f"/rooms/{room}")
    expect(phone.locator("#status")).to_have_text(
        "You play this seat in another tab or on another device: here you watch."
    )
    shot(phone, "second-device")
    # She goes back to the lobby and logs out there (a room's bar leaves the account
    # out): the browser forgets the seat, and opening the room again seats nobody there.
    laptop.goto("/")
    laptop.locator(".topbar .account-name").click()
    laptop.locator(".account-logout").click()
    laptop.wait_for_selector(".topbar .account a[href^='/login']")
    assert key not in tokens(laptop)
    laptop.goto(f"/rooms/{room}")
    laptop.wait_for_selector("#seat-panel .seat[data-seat='0'][data-kind='human']")
    assert laptop.get_attribute("body", "data-role") == "spectator"
    expect(laptop.locator(".seat.mine")).to_have_count(0)
    expect(laptop.locator("#seat-panel")).not_to_contain_text(f"{name} (you)")
    # Even with the token put back, the server keeps the seat for her session.
    laptop.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, token])
    laptop.reload()
    expect(laptop.locator("#message")).to_contain_text(
        f"That seat is {name}'s: log in as {name} to play it."
    )
    assert laptop.get_attribute("body", "data-role") == "spectator"
    assert key not in tokens(laptop)
    # Her phone, opened again, plays the seat (nobody else holds it).
    phone.reload()
    phone.wait_for_selector("button#ready")
    assert phone.get_attribute("body", "data-player") == name
    shot(laptop, "logged-out")


@VIEWPORTS
def test_a_guest_in_a_correspondence_room_is_told_he_watches_and_may_log_in(
    open_page: OpenPage, server: Server, shot: Shot, width: int, height: int
) -> None:
    name = f"Corin {width}"
    session_cookie(server.base, name, "a long passphrase")
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 24})["id"]
    page = open_page(f"/rooms/{room}?lang=en", viewport={"width": width, "height": height})
    note = page.locator("#seat-panel .login-to-play")
    expect(note).to_contain_text(
        "Registered players play a room by correspondence: you are watching."
    )
    expect(page.locator("#seat-panel .take-seat")).to_have_count(0)
    expect(page.locator("#player-name")).to_have_count(0)
    login = note.locator("a.seat-login")
    back = f"?next=%2Frooms%2F{room}%3Flang%3Den"  # this room, once logged in
    assert login.get_attribute("href") == f"/login{back}"
    assert note.locator("a.seat-signup").get_attribute("href") == f"/signup{back}"
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    shot(page, "guest")
    # Logging in brings him back to the room, where he takes a seat as his account.
    login.click()
    page.wait_for_selector("#account-form[data-action='login']")
    page.fill("#account-name", name)
    page.fill("#account-password", "a long passphrase")
    page.click("#account-submit")
    page.wait_for_url(f"**/rooms/{room}?lang=en")
    expect(page.locator("#sit-as")).to_have_text(f"You sit as {name}, your account's name.")
    page.click(".seat[data-seat='0'] .take-seat")
    page.wait_for_selector("button#ready")
    assert page.get_attribute("body", "data-player") == name


@VIEWPORTS
def test_a_logged_in_player_sits_as_his_account_shown_unrated_and_told_when_it_is_rated(
    open_page: OpenPage, server: Server, shot: Shot, width: int, height: int
) -> None:
    name, other = f"Dara {width}", f"Emil {width}"
    cookie = session_cookie(server.base, name)
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 3})["id"]
    page = logged_in(open_page, server, cookie, width, height)
    page.goto(f"/rooms/{room}?lang=en")
    # His account's name, not a field to type another in.
    expect(page.locator("#sit-as")).to_have_text(f"You sit as {name}, your account's name.")
    expect(page.locator("#player-name")).to_have_count(0)
    shot(page, "logged-in")
    page.click(".seat[data-seat='0'] .take-seat")
    page.wait_for_selector("button#ready")
    mine = page.locator(".seat.mine .seat-rating")
    expect(mine).to_have_text("0 (provisional)")  # registered, not rated yet
    expect(page.locator("#rated-note")).to_have_text(
        "Not rated yet: a match is rated when two registered players sit at it."
    )
    # A second registered player sits: the match will be rated, and says so.
    emil = _seated(server, room, session_cookie(server.base, other))
    expect(page.locator(".seat[data-seat='1'] .seat-rating")).to_have_text("0 (provisional)")
    expect(page.locator("#rated-note")).to_have_text(
        "Rated match: the registered players' ratings move with its result, once its first"
        " turn or round is over."
    )
    rated = page.locator("#rated-note").bounding_box()
    assert rated is not None and rated["x"] + rated["width"] <= width
    shot(page, "rated")
    emil.close()


def test_the_seat_panel_in_french_says_it_all(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """The words above, in French (a guest at a correspondence room, a registered seat)."""
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 24})["id"]
    seated = _seated(server, room, session_cookie(server.base, "Fanny FR"))
    page = open_page(f"/rooms/{room}?lang=fr", viewport={"width": 390, "height": 844})
    expect(page.locator("#seat-panel .login-to-play")).to_contain_text(
        "Une salle par correspondance se joue entre joueurs inscrits\u00a0: vous regardez."
    )
    expect(page.locator(".login-to-play a.seat-login")).to_have_text("Se connecter")
    expect(page.locator(".seat[data-seat='0'] .seat-rating")).to_have_text("0 (provisoire)")
    expect(page.locator("#rated-note")).to_contain_text("Pas encore classée")
    shot(page, "guest-fr")
    # Come by a watch link: the same note, and no "I want to play" that would be refused.
    page.goto(f"/rooms/{room}?lang=fr&watch")
    expect(page.locator("#seat-panel .login-to-play")).to_be_visible()
    expect(page.locator("#want-to-play")).to_have_count(0)
    seated.close()
