"""Invitations that reach people and turns that call you back (issue 19, items 3 and 5), as
two people in two browsers live them: a rematch asked by one appears for the other, who
declines (the asker is told) or accepts and both land in the new match in the same seats,
in a laser game, FTL and the hex fleet; a friend who opens the share link is asked his name
and plays under it; the host frees a bot's seat for him; "Play a bot" is one click for
every game, against its beginner bot; a turn that comes while the tab is hidden says so in
the tab's title and icon, with a chime that the mute silences."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser._play import answer_name, place, skip_battle, take_seat
from tests.browser.conftest import OpenPage, Server, Shot

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def seated_pair(open_page: OpenPage, room: dict[str, Any]) -> tuple[Page, Page]:
    """Ann and Bob, each in his own browser, take seats 0 and 1 and get ready."""
    ann = open_page(f"/rooms/{room['id']}", viewport=DESKTOP)
    take_seat(ann, "ann", 0)
    bob = open_page(ann.input_value("#share-link"), viewport=DESKTOP)
    take_seat(bob, "bob", 1)
    ann.click("button#ready")
    bob.click("button#ready")
    return ann, bob


def listed_seats(server: Server, room_id: str) -> list[str]:
    """The names in the room's seats, as the lobby's list of rooms tells them."""
    room = next(r for r in server.api("/api/rooms") if r["id"] == room_id)
    return [s["name"] for s in room["seats"]]


def rematch_accepted(asker: Page, other: Page, shot: Shot | None = None) -> None:
    """``asker`` asks for a rematch; ``other`` sees the offer, with who asked, and accepts."""
    asker.click("#rematch")
    other.wait_for_selector("#rematch-offer:not([hidden])")
    assert "bob asks for a rematch" in other.inner_text("#rematch-offer")
    if shot is not None:
        shot(other, "rematch-offer")
    other.click("#accept-rematch")


def test_ftl_a_declined_rematch_tells_the_asker_then_an_accepted_one_keeps_the_seats(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "turn_limit": 1})
    ann, bob = seated_pair(open_page, room)
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=plot]")
        page.click("#submit-plot")
    for page in (ann, bob):
        page.wait_for_selector("#rematch", timeout=30_000)

    # Bob asks; Ann says no; Bob is told, and may ask again.
    bob.click("#rematch")
    ann.wait_for_selector("#rematch-offer:not([hidden])")
    ann.click("#decline-rematch")
    bob.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('ann declined your rematch')"
    )
    shot(bob, "declined")
    bob.wait_for_selector("#rematch:not([disabled])")
    assert ann.is_hidden("#rematch-offer")

    # Bob asks again; this time Ann accepts: a new match, the same seats.
    rematch_accepted(bob, ann, shot)
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=plot][data-turn='1']")
        assert page.is_hidden("#end-panel")
    assert (ann.get_attribute("body", "data-player"), bob.get_attribute("body", "data-player")) == (
        "ann",
        "bob",
    )
    assert listed_seats(server, room["id"]) == ["ann", "bob"]


def test_hex_fleet_a_rematch_asked_by_one_is_accepted_by_the_other(
    open_page: OpenPage, server: Server
) -> None:
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 1})
    ann, bob = seated_pair(open_page, room)
    # One turn: whoever's ship is activated ends its activation, until the battle is over.
    while True:
        ann.wait_for_selector("body[data-phase=activation], body[data-phase=over]")
        if ann.get_attribute("body", "data-phase") == "over":
            break
        bob.wait_for_selector("body[data-phase]")
        version = ann.get_attribute("body", "data-version")
        mover = ann if ann.is_visible("#end-activation") else bob
        mover.wait_for_selector("#end-activation:visible")
        mover.click("#end-activation")
        ann.wait_for_function(
            "(v) => document.body.dataset.version !== v || document.body.dataset.phase === 'over'",
            arg=version,
        )
    for page in (ann, bob):
        page.wait_for_selector("#rematch")
    first = ann.get_attribute("#replay-link", "href")
    rematch_accepted(bob, ann)
    # The new battle begins (the blank chit may end its one turn at once: then it is over
    # again, a match of its own).
    for page in (ann, bob):
        page.wait_for_function(
            "(first) => document.body.dataset.phase === 'activation'"
            " || document.querySelector('#replay-link')?.getAttribute('href') !== first",
            arg=first,
        )
    assert [p.get_attribute("body", "data-player") for p in (ann, bob)] == ["ann", "bob"]
    if ann.get_attribute("body", "data-phase") == "activation":
        assert listed_seats(server, room["id"]) == ["ann", "bob"]


def test_light_speed_a_rematch_asked_by_one_is_accepted_by_the_other(
    open_page: OpenPage, server: Server
) -> None:
    room = server.api("/api/rooms", {"seats": 2})
    ann, bob = seated_pair(open_page, room)
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=fast]")
    # Ann puts her whole deck down; Bob lets his card in hand go: the battle.
    for i in range(10):
        if ann.get_attribute("body", "data-phase") != "fast":
            break
        assert place(ann, -520 + 115 * i, -280), ann.inner_text("#refused")
    bob.wait_for_selector("body[data-phase=stop]")
    bob.click("#discard")
    for page in (ann, bob):
        skip_battle(page)
    rematch_accepted(bob, ann)
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=fast]")
    assert listed_seats(server, room["id"]) == ["ann", "bob"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_friend_by_the_share_link_is_asked_his_name_and_takes_the_seat_the_host_freed(
    open_page: OpenPage, shot: Shot, viewport: dict[str, int]
) -> None:
    # Ann plays a bot from the lobby: she is the host, the bot sits in seat 2.
    ann = open_page("/", viewport=viewport)
    ann.fill("#name", "Ann")
    ann.wait_for_selector("#play-bot-ftl")
    ann.click("#play-bot-ftl")
    ann.wait_for_selector(".seat[data-seat='1'][data-kind='bot']")
    assert ann.locator(".seat[data-seat='0'] .host-tag").count() == 1
    shot(ann, "host-controls")
    # What the button does, not a state (it read "Free for a friend", issue 36 item 18).
    assert ann.inner_text(".seat[data-seat='1'] .free-seat") == "Let a friend sit here"
    ann.click(".seat[data-seat='1'] .free-seat")
    ann.wait_for_selector(".seat[data-seat='1'][data-kind='empty']")

    # Bob opens her link in his own browser, with no name saved: he is asked for one.
    bob = open_page(ann.input_value("#share-link"), viewport=viewport)
    bob.click(".seat[data-seat='1'] .take-seat")
    bob.wait_for_selector("#name-prompt[open]")
    shot(bob, "name-prompt")
    bob.fill("#ask-name", "Bob")
    bob.click("#ask-name-ok")
    bob.wait_for_selector("button#ready")
    assert bob.get_attribute("body", "data-player") == "Bob"
    assert bob.evaluate("localStorage.getItem('spacetable.name')") == "Bob"
    ann.wait_for_selector(".seat[data-seat='1'][data-kind='human']")
    assert "Bob" in ann.inner_text(".seat[data-seat='1'] .seat-name")
    # The host's controls are his alone.
    assert bob.locator(".free-seat").count() == 0
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=plot]")
    assert "Bob" in ann.inner_text("#players")


def test_a_link_that_seats_a_visitor_without_a_name_asks_it_first(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    # Dee opens a room's link that seats her (the lobby's ?join=1) with no name saved: she
    # is asked before she sits, and sits under her name, not "player".
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 3})
    dee = open_page(f"/rooms/{room['id']}?join=1", viewport=PHONE)
    dee.wait_for_selector("#name-prompt[open]")
    assert dee.get_attribute("body", "data-role") != "player"
    shot(dee, "join-asks-name-phone")
    answer_name(dee, "Dee")
    dee.wait_for_selector("button#ready")
    assert dee.get_attribute("body", "data-player") == "Dee"
    assert dee.evaluate("localStorage.getItem('spacetable.name')") == "Dee"
    # Dee is the host: she may seat a bot. Eli, a guest, is offered no bot for seat 3.
    assert dee.locator(".seat[data-seat='2'] .add-bot").count() == 1
    eli = open_page(f"/rooms/{room['id']}", viewport=DESKTOP)
    take_seat(eli, "Eli", 1)
    eli.wait_for_selector(".seat[data-seat='2'][data-kind='empty']")
    assert eli.locator(".add-bot").count() == 0
    assert eli.locator(".bot-level").count() == 0
    shot(eli, "guest-seats")


def test_closing_the_name_question_takes_no_seat(open_page: OpenPage, server: Server) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl"})
    page = open_page(f"/rooms/{room['id']}")
    page.click(".seat[data-seat='0'] .take-seat")
    page.click("#ask-name-cancel")
    page.wait_for_selector("#name-prompt", state="detached")
    assert page.get_attribute("body", "data-role") != "player"
    assert page.locator(".seat[data-kind='human']").count() == 0
    # Nor does a link that would seat him: he watches, and may sit down later.
    page = open_page(f"/rooms/{room['id']}?join=1")
    page.click("#ask-name-cancel")
    page.wait_for_selector("#name-prompt", state="detached")
    page.wait_for_selector(".seat[data-seat='0'] .take-seat")
    assert page.get_attribute("body", "data-role") != "player"


GAMES = ["lightspeed", "stellar", "ftl", "hexfleet"]


@pytest.mark.parametrize("game", GAMES)
def test_play_a_bot_is_one_click_for_every_game_against_its_beginner(
    open_page: OpenPage, server: Server, shot: Shot, game: str
) -> None:
    entry = next(g for g in server.api("/api/games") if g["key"] == game)
    page = open_page("/", viewport=DESKTOP)
    page.fill("#name", "Cid")
    button = page.locator(f".play-bot-game[data-game='{game}'] button")
    button.wait_for()
    if game == GAMES[0]:
        shot(page, "lobby")
        phone = open_page("/", viewport=PHONE)
        phone.wait_for_selector(".play-bot-game button")
        phone.locator("#play-bot-panel").scroll_into_view_if_needed()
        shot(phone, "lobby-phone")
    # The level offered first is the weakest that plays to win ("random" is a target).
    beginner = next(level for level in entry["bot_levels"] if level != "random")
    assert entry["beginner_bot"] == beginner
    assert page.input_value(f".play-bot-game[data-game='{game}'] select") == beginner
    button.click()
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(".seat[data-seat='1'][data-kind='bot']")
    assert page.get_attribute(".seat[data-seat='1']", "data-level") == beginner
    page.click("button#ready")
    page.wait_for_function("() => !['lobby', ''].includes(document.body.dataset.phase)")
    assert page.get_attribute("body", "data-role") == "player"


HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  document.dispatchEvent(new Event('visibilitychange'));
}"""
SHOW = """() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def chimes(page: Page) -> int:
    """How many "your turn" chimes the page played (shell/sounds.js counts them)."""
    return int(page.evaluate("document.documentElement.dataset.soundYourTurn || '0'"))


def test_a_turn_that_comes_while_the_tab_is_hidden_shows_in_its_title_and_icon(
    open_page: OpenPage, server: Server
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "turn_limit": 3})
    ann, bob = seated_pair(open_page, room)
    for page in (ann, bob):
        page.wait_for_selector("body[data-phase=plot][data-turn='1']")
    title = ann.title()
    assert not title.startswith("▶")  # the turn came while she looked: nothing to call
    ann.click("#submit-plot")
    ann.evaluate(HIDE)  # Ann goes to another tab while Bob plots
    bob.click("#submit-plot")
    ann.wait_for_function("() => document.title.startsWith('▶ Your turn')")
    assert ann.title() == f"▶ Your turn · {title}"
    assert (ann.get_attribute("link[rel~='icon']", "href") or "").startswith("data:image/svg")
    # Bob saw his turn come: his tab calls nobody.
    bob.wait_for_selector("body[data-phase=plot][data-turn='2']")
    assert not bob.title().startswith("▶")
    assert chimes(ann) == 1 and chimes(bob) == 0  # and a chime played, once
    ann.evaluate(SHOW)  # back to the tab: it is as it was
    assert ann.title() == title
    assert ann.get_attribute("link[rel~='icon']", "href") == "/static/favicon.svg"

    # Ann mutes the sounds: the next turn still shows in the title, silently.
    ann.click(".mute-button")
    expect(ann.locator(".mute-button")).to_have_attribute("aria-pressed", "true")
    ann.wait_for_selector("body[data-phase=plot][data-turn='2']")
    ann.click("#submit-plot")
    ann.evaluate(HIDE)
    bob.click("#submit-plot")
    ann.wait_for_function("() => document.title.startsWith('▶ Your turn')")
    ann.wait_for_selector("body[data-turn='3']")
    assert chimes(ann) == 1
