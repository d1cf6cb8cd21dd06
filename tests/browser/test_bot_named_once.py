"""A bot is named once (issue 36 item 18, found again by the second newcomer run): the
Light Speed players' list read "beginner bot beginner bot" (the bot's name, then its level
as a badge), the hex fleet's status "easy bot (easy bot) is thinking", and their replays'
players the same. A badge names the level only where the name does not say it already."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser._play import answer_name
from tests.browser.conftest import OpenPage, Server, Shot

LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
#: Each size in its language: the bot's name in that language, once.
SIZES = {
    "laptop-en": (LAPTOP, "en", {"beginner": "beginner bot", "easy": "easy bot"}),
    "phone-fr": (PHONE, "fr", {"beginner": "bot débutant", "easy": "bot facile"}),
}


#: Keeps every text of the page's status that names the bot (``window.statusesNaming``),
#: read after each change of the page's body: each message the page applies is a task of
#: its own, after which the observer sees the status it left.
STATUSES_NAMING = """(name) => {
  window.statusesNaming = [];
  new MutationObserver(() => {
    const text = document.querySelector('#status')?.innerText;
    if (text?.includes(name)) window.statusesNaming.push(text);
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


def _resign(page: Page) -> str:
    """Resign the match; the replay's link."""
    page.click("#resign")
    page.click("#confirm-resign")
    page.locator(".match-end").wait_for()
    link = page.get_attribute("#replay-link", "href")
    assert link
    return link


def _once(text: str, name: str) -> None:
    assert text.count(name) == 1, text


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_bot_is_named_once_in_the_room_and_the_replay(
    server: Server, open_page: OpenPage, shot: Shot, size: str
) -> None:
    context, lang, names = SIZES[size]

    # Light Speed against the beginner bot: its row in the players' list.
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    page = open_page(f"/rooms/{room}?join=1&bots=1:beginner&lang={lang}", **context)
    answer_name(page, "Ann")
    row = page.locator("#players li.player").nth(1)
    expect(row).to_contain_text(names["beginner"])
    _once(row.inner_text(), names["beginner"])
    shot(page, f"lightspeed-{size}")
    page.click("button#ready")
    expect(page.locator("#resign")).to_be_visible()
    replay = open_page(f"{_resign(page)}?lang={lang}", **context)
    row = replay.locator("#players li.player").nth(1)
    expect(row).to_contain_text(names["beginner"])
    _once(row.inner_text(), names["beginner"])

    # The hex fleet against the easy bot: the status while it plays, and its replay.
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "scenario": "duel"})["id"]
    page = open_page(f"/rooms/{room}?join=1&bots=1:easy&lang={lang}", **context)
    answer_name(page, "Ann")
    # The easy bot's ship is activated at some point of its turn: while it thinks, its
    # name once in the status (the chits are drawn as the room's seed says). Each status
    # that names it is kept as the page shows it: the bot's turn may be over before a
    # test's call (or a poll of the page) reads it, and on a busy machine the page applied
    # the turn's messages one after the other between two polls.
    page.evaluate(STATUSES_NAMING, names["easy"])
    page.click("button#ready")
    expect(page.locator("#resign")).to_be_visible()
    shown = page.wait_for_function("() => window.statusesNaming[0] ?? false", timeout=60_000)
    _once(shown.json_value(), names["easy"])
    shot(page, f"hexfleet-{size}")
    # Resign once Ann's ship is activated: her orders then show, and the resign button
    # moves below them (shell/manners.js), which a press during the bot's turn could miss
    # (found when the bots' pace quickened: the press landed as the button moved).
    page.wait_for_selector("#hex-controls:not([hidden]) #controls-title", timeout=60_000)
    replay = open_page(f"{_resign(page)}?lang={lang}", **context)
    row = replay.locator("#players li.player").nth(1)
    expect(row).to_contain_text(names["easy"])
    _once(row.inner_text(), names["easy"])


@pytest.mark.parametrize("key", ["ftl", "hexfleet"])
def test_the_expert_bot_is_named_in_french_at_the_table(
    server: Server, open_page: OpenPage, shot: Shot, key: str
) -> None:
    """The searching level of issue 72 item 7 sits as "expert bot": a French page names
    it « bot expert » in the players' list, as it does every other level."""
    room = server.api("/api/rooms", {"ruleset": key, "seats": 2})["id"]
    page = open_page(f"/rooms/{room}?join=1&bots=1:expert&lang=fr", **PHONE)
    answer_name(page, "Ann")
    row = page.locator("#players li.player").nth(1)
    expect(row).to_contain_text("bot expert")
    assert "expert bot" not in row.inner_text()
    _once(row.inner_text(), "expert")
    shot(page, f"{key}-expert-fr")
