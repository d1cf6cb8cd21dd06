"""A room's header during a match and the absence dialog, on a 390 x 844 phone and at
1366 x 800 (issue 36 item 18): the header showed the game's title and the player's name cut
("Light S…", "New…"); the dialog about absent players lay over the header; with two players
gone the dialog repeated the id ``absence-text``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot

SIZES: dict[str, dict[str, Any]] = {
    "1366x800": {"viewport": {"width": 1366, "height": 800}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

#: Each shown item of the top bar: its box, whether its text is cut (wider than its box).
HEADER = """() => [...document.querySelectorAll('.topbar > *')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: e.id || e.className || e.tagName, box: [r.left, r.top, r.right, r.bottom],
             cut: e.scrollWidth > e.clientWidth + 1 && e.tagName !== 'SELECT' }; })"""


#: Whether the title's game name shows whole: its words end inside the title's box.
GAME_NAME_WHOLE = """() => {
  const name = document.querySelector('#game-name').getBoundingClientRect();
  const title = document.querySelector('.topbar h1').getBoundingClientRect();
  return name.width > 0 && name.right <= title.right + 0.5;
}"""
#: Whether the title's room id shows, whole: inside the title's box, not clipped by it.
ROOM_ID_SHOWN = """() => {
  const id = document.querySelector('#room-id').getBoundingClientRect();
  const title = document.querySelector('.topbar h1').getBoundingClientRect();
  return id.width > 0 && id.right <= title.right + 0.5 && id.bottom <= title.bottom + 0.5;
}"""


def header_whole(page: Page, width: int) -> list[dict[str, Any]]:
    """The header's items: none cut, none past the window's edge, none over another."""
    items: list[dict[str, Any]] = page.evaluate(HEADER)
    for i, item in enumerate(items):
        left, top, right, bottom = item["box"]
        assert not item["cut"], item
        assert left >= 0 and right <= width + 0.5, item
        for other in items[i + 1 :]:
            o_left, o_top, o_right, o_bottom = other["box"]
            apart = right <= o_left + 0.5 or o_right <= left + 0.5
            apart = apart or bottom <= o_top + 0.5 or o_bottom <= top + 0.5
            assert apart, (item, other)
    return items


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_header_is_whole_and_the_absence_dialog_under_it(
    open_page: OpenPage, server: Server, shot: Shot, size: str, locale: str
) -> None:
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 3})
    ann = open_page(f"/rooms/{room['id']}", locale=locale, **SIZES[size])
    take_seat(ann, "New player", 0)
    others = []
    for seat, name in ((1, "bob"), (2, "cy")):
        page = open_page(f"/rooms/{room['id']}")
        take_seat(page, name, seat)
        others.append(page)
    for page in (ann, *others):
        page.click("button#ready")
    ann.wait_for_selector("body:not([data-phase=lobby])")
    expect(ann.locator("#identity")).to_contain_text("New player")
    # The widest letters a room's random id may have (the server draws it), so that the
    # header is checked as it may be, not as this run's id happens to be.
    ann.evaluate("document.querySelector('#room-id').textContent = 'WWWWWWWW'")
    width = SIZES[size]["viewport"]["width"]
    header_whole(ann, width)
    # The game's title and the player's name are shown, not given up to make room.
    for item in (".topbar h1", "#identity", ".topbar .rules-link", ".topbar .lang-switch"):
        expect(ann.locator(item)).to_be_visible()
    # The game's name is whole; the room id may give way only to a share link that holds it.
    assert ann.evaluate(GAME_NAME_WHOLE)
    if not ann.evaluate(ROOM_ID_SHOWN):
        link = ann.locator("#share-link")
        expect(link).to_be_visible()
        assert link.evaluate("e => e.scrollWidth <= e.clientWidth")
    if size == "390x844":
        # The table fills the screen under the header (two rows now) down to the chat's bar,
        # its hand bar (Place) above the chat's, not under it.
        ann.evaluate("window.scrollTo(0, 0)")
        # As the chat's bar grows (a line, a count), the page measures it at its next frame
        # (a ResizeObserver) and the table gives it room: the layout is read once settled.
        ann.wait_for_function(
            """() => {
                const hand = document.querySelector('#hand-bar').getBoundingClientRect();
                const chat = document.querySelector('.chat').getBoundingClientRect();
                return hand.bottom <= chat.top + 1;
            }"""
        )
        hand = ann.locator("#hand-bar").bounding_box()
        chat = ann.locator(".chat").bounding_box()
        assert hand and chat and hand["y"] + hand["height"] <= chat["y"] + 1, (hand, chat)
    shot(ann, "header")

    for page in others:
        page.goto("about:blank")  # both tabs close
    absence = ann.locator("#absence")
    expect(absence).to_contain_text("bob")
    expect(absence).to_contain_text("cy")
    # One id a paragraph, each absent player's question named by its own words.
    ids = ann.evaluate("[...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    groups = absence.locator("[role=group]")
    expect(groups).to_have_count(2)
    for group in groups.all():
        label = group.get_attribute("aria-labelledby")
        assert label and ann.locator(f"#{label}").count() == 1, label
    server.advance(21)  # the grace is over: each asks what now, with its buttons
    expect(absence.locator("button[data-choice='wait']")).to_have_count(2)
    ann.evaluate("window.scrollTo(0, 0)")
    ann.wait_for_function("window.scrollY === 0")
    header = ann.locator(".topbar").bounding_box()
    dialog = absence.bounding_box()
    assert header and dialog
    # The dialog under the header, not over it; in the window.
    assert dialog["y"] >= header["y"] + header["height"] - 0.5, (header, dialog)
    assert dialog["y"] + dialog["height"] <= SIZES[size]["viewport"]["height"], dialog
    header_whole(ann, width)
    shot(ann, "absence")
