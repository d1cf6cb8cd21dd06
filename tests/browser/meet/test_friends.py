"""The friends page (issue 69 item 4, ``/me/friends``) in real browsers: Fay follows two
players by name (her own is refused, saying why), sees the one online first with what he
is doing, live (he opens a room: "watching" it, a link to the room), the other offline;
the lobby's list of who is online marks whom one follows; she blocks a third from his page,
finds him under "Players you block" and unblocks him there; she unfollows one; the page
reads in French; a guest is asked to log in; a phone shows it in one column."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import PHONE, logged_in

#: The right edge of the element a selector finds, measured in the page, or null while it
#: is not drawn.
RIGHT_EDGE = """(selector) => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  return box && box.width ? box.right : null;
}"""


def follow_by_name(page: Page, name: str) -> None:
    page.fill("#follow-name", name)
    page.click("#follow-form button[type=submit]")


def friend(page: Page, name: str) -> Locator:
    return page.locator(f"#following .friend[data-name='{name}']")


def test_the_friends_page_lists_the_followed_online_first_and_the_blocked(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    gus = logged_in(open_page, server.base, "Gus Followed", "/?lang=en")
    session_cookie(server.base, "Hal Followed")
    session_cookie(server.base, "Ivy Blocked")
    fay = logged_in(open_page, server.base, "Fay Follows", "/me/friends?lang=en")
    expect(fay.locator("#no-following")).to_be_visible()
    follow_by_name(fay, "hal followed")  # the name as typed, whatever its case
    expect(fay.locator("#following .friend")).to_have_count(1)
    follow_by_name(fay, "FAY follows")
    expect(fay.locator("#friends-error")).to_have_text("You cannot follow or block yourself.")
    follow_by_name(fay, "Gus Followed")
    expect(fay.locator("#following .friend")).to_have_count(2)
    # Gus is online (his lobby page): first, "in the lobby"; Hal offline after him.
    names = fay.locator("#following .friend .friend-name")
    expect(names).to_have_text(["Gus Followed", "Hal Followed"])
    expect(friend(fay, "Gus Followed").locator(".friend-status")).to_have_text("in the lobby")
    expect(friend(fay, "Hal Followed").locator(".friend-status")).to_have_text("offline")
    expect(friend(fay, "Gus Followed").locator(".challenge-button")).to_be_visible()
    # The lobby's "Online now" marks Gus as one she follows.
    lobby = logged_in(open_page, server.base, "Fay Lobby", "/?lang=en")
    lobby.goto("/players/Gus%20Followed?lang=en")
    lobby.click("#follow")
    expect(lobby.locator("#follow")).to_have_attribute("aria-pressed", "true")
    lobby.goto("/?lang=en")
    expect(lobby.locator(".online-player[data-name='Gus Followed'].friend")).to_be_visible()
    expect(lobby.locator(".online-player[data-name='Fay Lobby']")).to_have_class("online-player")
    # Gus opens a room to watch it: Fay's page says so by itself, linking to the room.
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    gus.goto(f"/rooms/{room}?watch=1")
    status = friend(fay, "Gus Followed").locator(".friend-status")
    expect(status).to_have_text("watching Light Speed")
    expect(status).to_have_attribute("href", f"/rooms/{room}")
    fay.set_viewport_size({"width": 1366, "height": 800})  # a common laptop's
    shot(fay, "friends")

    # Fay blocks Ivy from Ivy's page; her friends page lists Ivy, and unblocks her.
    fay.goto("/players/Ivy%20Blocked?lang=en")
    fay.click("#block")
    expect(fay.locator("#block")).to_have_attribute("aria-pressed", "true")
    fay.goto("/me/friends?lang=en")
    blocked = fay.locator("#blocking .friend")
    expect(blocked).to_have_count(1)
    expect(blocked.locator(".friend-name")).to_have_text("Ivy Blocked")
    blocked.get_by_role("button", name="Unblock Ivy Blocked").click()
    expect(blocked).to_have_count(0)
    expect(fay.locator("#no-blocking")).to_be_visible()
    # And unfollows Hal.
    friend(fay, "Hal Followed").get_by_role("button", name="Unfollow Hal Followed").click()
    expect(names).to_have_text(["Gus Followed"])

    fay.goto("/me/friends?lang=fr")
    expect(fay.locator("#following-heading")).to_have_text("Joueurs que vous suivez")
    expect(friend(fay, "Gus Followed").locator(".friend-status")).to_have_text(
        "regarde Light Speed"
    )


def test_a_guest_is_asked_to_log_in_and_a_phone_shows_one_column(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    guest = open_page("/me/friends?lang=en")
    expect(guest.locator("#friends-login")).to_be_visible()
    expect(guest.locator("#follow-form")).to_be_hidden()
    session_cookie(server.base, "Jo Followed")
    phone = logged_in(open_page, server.base, "Kim Phone", "/me/friends?lang=fr", **PHONE)
    follow_by_name(phone, "Jo Followed")
    line = phone.locator("#following .friend")
    expect(line).to_have_count(1)
    expect(line.locator(".friend-status")).to_have_text("hors ligne")
    # Its right edge, measured in the page in one step: the page draws the list again when
    # a refresh ends (its first one and the follow's may both end after the follow), and a
    # locator's box of the line it found a moment before is then no box (a full run's).
    right = phone.wait_for_function(RIGHT_EDGE, arg="#following .friend").json_value()
    assert right <= 390  # nothing off the screen
    shot(phone, "phone")
