"""Blocking a player while both sit in a room hides his chat from the blocker at once, in
a real browser (issue 69 item 4): the line he said before goes from her chat, his next line
never shows there, a spectator reads every line; unblocking him brings his lines back."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import logged_in


def say(page: Page, text: str) -> None:
    page.fill("#chat .chat-input", text)
    page.click("#chat .chat-send")


def said(page: Page) -> list[str]:
    return page.locator("#chat .chat-line .chat-text").all_inner_texts()


def blocks(page: Page, name: str, method: str) -> None:
    """The page's player blocks (PUT) or unblocks (DELETE) ``name``, as his profile's
    button does."""
    status = page.evaluate(
        "async ([name, method]) => (await fetch(`/api/blocking/${encodeURIComponent(name)}`,"
        " { method })).status",
        [name, method],
    )
    assert status == 204


def test_a_block_while_seated_hides_his_lines_at_once_and_an_unblock_shows_them(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    lea = logged_in(open_page, server.base, "Lea Blocks", f"/rooms/{room}?lang=en")
    take_seat(lea, "Lea Blocks", 0)
    max_ = logged_in(open_page, server.base, "Max Blocked", f"/rooms/{room}?lang=en")
    take_seat(max_, "Max Blocked", 1)
    watcher = open_page(f"/rooms/{room}?watch=1")
    say(max_, "before the block")
    expect(lea.locator("#chat .chat-line")).to_have_count(1)

    blocks(lea, "Max Blocked", "PUT")
    expect(lea.locator("#chat .chat-line")).to_have_count(0)  # his line went at once
    say(max_, "after the block")
    expect(watcher.locator("#chat .chat-line")).to_have_count(2)
    say(lea, "anyone there?")
    expect(watcher.locator("#chat .chat-line")).to_have_count(3)
    expect(lea.locator("#chat .chat-line")).to_have_count(1)
    assert said(lea) == ["anyone there?"]
    assert said(watcher) == ["before the block", "after the block", "anyone there?"]
    shot(lea, "blocked-chat")

    blocks(lea, "Max Blocked", "DELETE")
    expect(lea.locator("#chat .chat-line")).to_have_count(3)
    assert said(lea) == ["before the block", "after the block", "anyone there?"]
