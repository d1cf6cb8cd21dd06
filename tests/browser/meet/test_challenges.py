"""Challenges (issue 69 items 3 and 4) in real browsers: Ann challenges Bob from his page;
Bob, on another page in another browser, is shown it at once and declines with "later"
(Ann, reading French, is told why in French); she challenges him again from the lobby's
list of who is online, he accepts, and both are seated in one room. A player Bob blocks
is refused (403) when he challenges Bob, and his chat lines are hidden from Bob in a room
they share. Bob's buttons on Carl's page (Follow, Block) say what they did and keep it
after a reload; Report opens the moderators' dialog."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from playwright.sync_api import Page, expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import PHONE, logged_in, seated_room, send_challenge


def challenge(page: Page, name: str, game: str) -> None:
    """Challenge ``name`` to ``game`` from his page (the page is his profile)."""
    page.click("#challenge")
    send_challenge(page, game)


def test_a_challenge_declined_later_then_accepted_seats_both_players(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    bob = logged_in(open_page, server.base, "Bob Challenged", "/matches?lang=en", **PHONE)
    ann = logged_in(
        open_page,
        server.base,
        "Ann Challenger",
        "/players/Bob%20Challenged?lang=fr",
        viewport={"width": 1366, "height": 800},
    )
    challenge(ann, "Bob Challenged", "lightspeed")
    expect(ann.locator(".meet-toast.outgoing")).to_contain_text("Bob Challenged")
    toast = bob.locator(".meet-toast.incoming")
    expect(toast).to_contain_text("Ann Challenger challenges you")
    expect(toast).to_contain_text("Light Speed")
    shot(bob, "challenged-phone")
    toast.locator(".challenge-decline").click()
    toast.locator(".decline-reason").select_option("later")
    expect(toast.locator(".decline-preview")).to_have_text(
        "Ann Challenger will read: “This is not the right time for me: ask me again later.”"
    )
    shot(bob, "decline-reasons-phone")
    toast.locator(".challenge-decline-send").click()
    expect(toast).to_have_count(0)
    declined = ann.locator(".meet-toast.outgoing .declined")
    expect(declined).to_have_text(
        "Bob Challenged a refusé votre défi\u00a0: Ce n'est pas le bon moment pour moi\u00a0: "
        "redemandez-moi plus tard."
    )
    shot(ann, "declined-fr")

    # Again, from the lobby's list of who is online.
    ann.goto("/?lang=fr")
    ann.click(".online-player[data-name='Bob Challenged'] .challenge-button")
    send_challenge(ann, "lightspeed")
    toast.locator(".challenge-accept").click()
    room = seated_room(bob)
    assert seated_room(ann) == room
    assert {
        ann.get_attribute(".seat.mine", "data-seat"),
        bob.get_attribute(".seat.mine", "data-seat"),
    } == {"0", "1"}


def _challenge_status(base: str, cookie: str, to: str) -> int:
    request = urllib.request.Request(
        base + "/api/challenges",
        data=json.dumps({"to": to, "game": "lightspeed", "rated": False}).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code


def test_a_blocked_player_cannot_challenge_and_his_chat_is_hidden(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    carl = logged_in(open_page, server.base, "Carl Blocked", "/?lang=en")
    bob = logged_in(open_page, server.base, "Bob Blocking", "/players/Carl%20Blocked?lang=en")
    follow = bob.locator("#follow")
    expect(follow).to_have_text("Follow")
    follow.click()
    expect(follow).to_have_text("Unfollow")
    bob.reload()
    expect(bob.locator("#follow")).to_have_attribute("aria-pressed", "true")
    block = bob.locator("#block")
    expect(block).to_have_text("Block")
    block.click()
    expect(block).to_have_attribute("aria-pressed", "true")
    expect(block).to_have_text("Unblock")
    shot(bob, "blocked-profile")
    # Report opens the moderators' dialog (shell/report.js) for Carl.
    bob.click("#report")
    expect(bob.locator("#report-dialog[open]")).to_contain_text("Carl Blocked")
    bob.keyboard.press("Escape")
    bob.reload()
    expect(bob.locator("#block")).to_have_attribute("aria-pressed", "true")
    cookies = {c["name"]: c["value"] for c in carl.context.cookies()}
    carl_cookie = f"{SESSION_COOKIE}={cookies[SESSION_COOKIE]}"
    assert _challenge_status(server.base, carl_cookie, "Bob Blocking") == 403

    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    for page, name, seat in ((bob, "Bob Blocking", 0), (carl, "Carl Blocked", 1)):
        page.goto(f"/rooms/{room}")
        take_seat(page, name, seat)
    watcher = open_page(f"/rooms/{room}?watch=1")
    carl.fill("#chat .chat-input", "hello from Carl")
    carl.click("#chat .chat-send")
    expect(watcher.locator("#chat .chat-line")).to_have_count(1)
    bob.fill("#chat .chat-input", "anyone?")
    bob.click("#chat .chat-send")
    expect(watcher.locator("#chat .chat-line")).to_have_count(2)
    expect(bob.locator("#chat .chat-line")).to_have_count(1)
    assert bob.locator("#chat .chat-line .chat-text").inner_text() == "anyone?"
