"""A spectator's name in the chat is in the page's language (found by the second newcomer
run of issue 36): the server names a spectator who writes "spectator 1", and a French page
showed it so, in English, in the chat and in the line of those muted; and the spectator
was offered to mute himself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_bot_named_once import LAPTOP, PHONE

#: Each size in its language, and the first spectator's name in it.
SIZES = {
    "laptop-en": (LAPTOP, "en", "spectator 1"),
    "phone-fr": (PHONE, "fr", "spectateur 1"),
}


def unfold(page: Page) -> None:
    """Open the chat (folded to a bar on a phone) as its summary's click does."""
    page.wait_for_selector("#chat summary")
    page.evaluate("document.querySelector('#chat').open = true")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_spectators_name_in_the_chat_is_in_the_pages_language(
    server: Server, open_page: OpenPage, shot: Shot, size: str
) -> None:
    context, lang, name = SIZES[size]
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    ann = open_page(f"/rooms/{room}?lang={lang}", **context)
    ann.fill("#player-name", "Ann")
    ann.click(".seat[data-seat='0'] .take-seat")
    ann.wait_for_selector("button#ready")
    unfold(ann)
    ann.check(".chat-open")  # Ann reads the spectators' chat
    eve = open_page(f"/rooms/{room}?lang={lang}", **context)
    unfold(eve)
    eve.fill(".chat-input", "go Ann!")
    eve.click(".chat-send")  # enabled once her socket is open
    for page in (ann, eve):
        line = page.locator(".chat-line", has_text="go Ann!")
        expect(line.locator(".chat-name")).to_have_text(name)
    # Her own line offers Eve no Mute (her welcome names the speaker she is); Ann's does.
    expect(eve.locator(".chat-line", has_text="go Ann!").locator(".chat-mute")).to_have_count(0)
    shot(eve, "spectator-line")
    ann.locator(".chat-line", has_text="go Ann!").locator(".chat-mute").click()
    expect(ann.locator(".chat-muted")).to_contain_text(name)
    shot(ann, "muted")
