"""The chat beside every table (issue 19), in each game's room, two people in two
browsers: they talk both ways, a ``<script>`` message shows as plain text, a quick message
is one click, and muting a player hides his messages (and stays muted after a reload, and
when he sits down again in his seat under another name)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot

GAMES = ["lightspeed", "stellar", "ftl", "hexfleet"]
SCRIPT = "<script>window.chatHacked = 1</script><b>bold?</b>"


def say(page: Page, text: str) -> None:
    page.fill("#chat .chat-input", text)
    page.click("#chat .chat-send")


def lines(page: Page) -> list[str]:
    """The chat lines the page shows: "name: words"."""
    return [
        f"{line.locator('.chat-name').inner_text()}: {line.locator('.chat-text').inner_text()}"
        for line in page.locator("#chat .chat-line").all()
    ]


@pytest.mark.parametrize("game", GAMES)
def test_two_players_talk_beside_the_table(
    game: str, server: Server, open_page: OpenPage, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": game, "seats": 2})["id"]
    ann = open_page(f"/rooms/{room}")
    take_seat(ann, "Ann", 0)
    bob = open_page(f"/rooms/{room}")
    take_seat(bob, "Bob", 1)

    say(ann, "hello Bob")
    expect(bob.locator("#chat .chat-line")).to_have_count(1)
    say(bob, SCRIPT)
    expect(ann.locator("#chat .chat-line")).to_have_count(2)
    assert lines(ann) == ["Ann: hello Bob", f"Bob: {SCRIPT}"]
    assert ann.evaluate("window.chatHacked") is None  # shown as text, never run
    assert ann.locator("#chat b").count() == 0
    # Each name in its seat's colour: Ann's and Bob's differ.
    colours = [
        ann.locator("#chat .chat-line .chat-name").nth(i).evaluate("e => getComputedStyle(e).color")
        for i in (0, 1)
    ]
    assert colours[0] != colours[1]

    bob.click("#chat .chat-quick-button[data-quick='gg']")
    expect(ann.locator("#chat .chat-line")).to_have_count(3)
    assert lines(ann)[-1] == "Bob: Good game"
    shot(ann, "desktop")

    # Ann mutes Bob: his messages go, new ones too, and the mute outlives a reload.
    ann.locator("#chat .chat-line[data-name='Bob'] .chat-mute").first.click()
    assert lines(ann) == ["Ann: hello Bob"]
    say(bob, "are you there?")
    expect(bob.locator("#chat .chat-line")).to_have_count(4)
    say(ann, "still here")
    expect(bob.locator("#chat .chat-line")).to_have_count(5)
    expect(ann.locator("#chat .chat-line")).to_have_count(2)  # her own line comes back too
    assert lines(ann) == ["Ann: hello Bob", "Ann: still here"]
    expect(ann.locator("#chat .chat-muted")).to_contain_text("Bob")
    ann.reload()
    expect(ann.locator("#chat .chat-line")).to_have_count(2)
    assert lines(ann) == ["Ann: hello Bob", "Ann: still here"]
    # The mute is the seat's: Bob sits down again under another name, and stays muted.
    bob.click("#watch")
    bob.wait_for_selector(".seat[data-seat='1'] .take-seat")
    take_seat(bob, "Robert", 1)
    say(bob, "it is me again")
    expect(bob.locator("#chat .chat-line")).to_have_count(6)
    say(ann, "quiet here")
    expect(bob.locator("#chat .chat-line")).to_have_count(7)
    expect(ann.locator("#chat .chat-line")).to_have_count(3)
    assert lines(ann) == ["Ann: hello Bob", "Ann: still here", "Ann: quiet here"]
    expect(ann.locator("#chat .chat-muted")).to_contain_text("Muted: Robert.")
    ann.click("#chat .chat-unmute[data-name='Robert']")
    expect(ann.locator("#chat .chat-line")).to_have_count(7)


def test_on_a_phone_the_chat_folds_and_counts_what_is_unread(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    ann = open_page(f"/rooms/{room}", **phone)
    take_seat(ann, "Ann", 0)
    bob = open_page(f"/rooms/{room}")
    take_seat(bob, "Bob", 1)
    assert ann.locator("#chat").get_attribute("open") is None  # folded on a phone
    say(bob, "hi Ann")
    say(bob, "ready?")
    expect(ann.locator("#chat .chat-unread")).to_have_text("2")
    shot(ann, "phone-folded")
    ann.click("#chat summary")
    expect(ann.locator("#chat .chat-unread")).to_be_hidden()
    assert lines(ann) == ["Bob: hi Ann", "Bob: ready?"]
    table = ann.locator("#table-wrap").bounding_box()
    assert table is not None and table["height"] > 200  # the table stays in sight
    # The quick messages are a finger's size (they were 24 px tall).
    quick = ann.locator("#chat .chat-quick-button").first.bounding_box()
    assert quick is not None and quick["height"] >= 40, quick
    shot(ann, "phone-open")


def test_the_message_box_counts_down_its_last_characters_and_says_when_it_cuts(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    page = open_page(f"/rooms/{room}")
    count = page.locator("#chat .chat-count")
    page.fill("#chat .chat-input", "x" * 150)
    expect(count).to_be_hidden()  # far from the limit: no counter
    page.fill("#chat .chat-input", "x" * 188)
    expect(count).to_have_text("12 characters left")
    page.fill("#chat .chat-input", "y" * 250)  # a long paste
    expect(count).to_have_text("Cut at 200 characters: a message holds no more.")
    assert page.input_value("#chat .chat-input") == "y" * 200
    shot(page, "cut")
    page.click("#chat .chat-send")
    expect(page.locator("#chat .chat-line .chat-text")).to_have_text("y" * 200)
    expect(count).to_be_hidden()


def test_a_message_waits_in_its_box_while_the_socket_is_not_open(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    """Found by CI: a message sent before the room's socket had opened went nowhere, and
    the page said nothing. Send and the quick messages now wait for the socket; the words
    stay in the box, and go once it is open."""
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    let_through = [False]

    def route(ws: WebSocketRoute) -> None:
        if let_through[0]:
            ws.connect_to_server()
        else:
            ws.close(code=1011, reason="not yet")  # the page keeps trying

    page = open_page("/", viewport={"width": 1366, "height": 800})
    page.route_web_socket("**/ws/rooms/**", route)
    page.goto(f"/rooms/{room}")
    page.wait_for_selector("#connection[data-status='reconnecting']")
    # The chat says why Send waits (on a phone the header's badge is scrolled away).
    why = page.locator("#chat .chat-link")
    expect(why).to_have_text(
        "Reconnecting to the room: what you write waits here until Send works again."
    )
    page.fill("#chat .chat-input", "anyone here?")
    expect(page.locator("#chat .chat-send")).to_be_disabled()
    expect(page.locator("#chat .chat-quick-button").first).to_be_disabled()
    page.press("#chat .chat-input", "Enter")
    assert page.input_value("#chat .chat-input") == "anyone here?"  # kept, not lost
    shot(page, "waiting")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.querySelector('#chat').open = true")  # folded on a phone
    shot(page, "waiting-phone")
    page.set_viewport_size({"width": 1366, "height": 800})
    let_through[0] = True
    page.click("#chat .chat-send")  # waits for the socket's next try, which opens
    expect(page.locator("#chat .chat-line .chat-text")).to_have_text("anyone here?")
    assert page.input_value("#chat .chat-input") == ""
    expect(page.locator("#chat .chat-quick-button").first).to_be_enabled()
    expect(why).to_be_hidden()
