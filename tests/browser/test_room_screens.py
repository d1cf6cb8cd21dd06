"""What a newcomer trips over around every table (issues 19 and 20, item 27), at 1366 x 800
and on a 390 x 844 phone: the lobby's name is one line, not a tall empty card; the share link
shows whole; a watcher of a full room is not told to take a free seat; a draw offered to a
phone player shows on his screen; the open chat never hides the seat panel's buttons; news
of the table is not dressed as an error."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
SIZES: dict[str, dict[str, Any]] = {"desktop": DESKTOP, "phone": PHONE}

COVERED = """selector => {
  const box = document.querySelector(selector).getBoundingClientRect();
  const inside = box.top >= 0 && box.bottom <= innerHeight;
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return inside && hit !== null && hit.closest(selector) !== null;
}"""


def in_sight(page: Page, selector: str) -> bool:
    """Whether ``selector`` is on the screen and nothing covers its centre."""
    return bool(page.evaluate(COVERED, selector))


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_name_and_the_rooms_share_link_and_seats(
    open_page: OpenPage, server: Server, shot: Shot, size: str
) -> None:
    lobby = open_page("/", **SIZES[size])
    lobby.wait_for_selector("#create:not([disabled])")
    who = lobby.locator("section.who")
    # One line (two on a phone), not a card as tall as the "Play a bot" beside it.
    assert (who.bounding_box() or {"height": 999})["height"] < 140
    # Stellar Conflict's options, the longest, stay inside the Create-room card.
    lobby.select_option("#ruleset", "stellar")
    card = lobby.locator("section.create-panel")
    assert card.evaluate("e => e.scrollWidth <= e.clientWidth")
    inner = lobby.locator("#stellar-options").bounding_box()
    outer = card.bounding_box()
    assert inner is not None and outer is not None
    assert inner["x"] + inner["width"] <= outer["x"] + outer["width"]
    shot(lobby, "lobby")

    room: dict[str, Any] = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})
    assert room["id"][0].isalnum()
    ann = open_page(f"/rooms/{room['id']}", **SIZES[size])
    take_seat(ann, "Ann", 0)
    link = ann.locator("#share-link")
    shared = link.input_value()
    assert shared.endswith(f"/rooms/{room['id']}")
    # The whole link shows in its box (nothing scrolled out of it), with its Copy button,
    # whatever letters the room's random id has: the widest ones too.
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth")
    widest = link.evaluate(
        "e => { e.value = e.value.replace(/[^/]+$/, 'WWWWWWWW'); return e.value; }"
    )
    assert widest.endswith("/rooms/WWWWWWWW")
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth")
    link.evaluate("(e, value) => { e.value = value; }", shared)
    assert in_sight(ann, "#copy-link")
    link.click()
    assert link.evaluate("e => e.selectionStart === 0 && e.selectionEnd === e.value.length")
    bob = open_page(f"/rooms/{room['id']}", **SIZES[size])
    take_seat(bob, "Bob", 1)

    # Cy comes to watch a full room: he is not told to take a free seat.
    cy = open_page(f"/rooms/{room['id']}", **SIZES[size])
    expect(cy.locator(".seat[data-kind='human']")).to_have_count(2)
    expect(cy.locator("#seat-panel #watching")).to_have_text(
        "You are watching: every seat is taken."
    )
    shot(cy, "full-room-watcher")
    if size == "phone":
        # Bob opens the chat: the seat panel's buttons can still be reached above it.
        bob.click(".chat summary")
        expect(bob.locator(".chat-input")).to_be_visible()
        bob.focus("#watch")
        assert in_sight(bob, "#watch")
        shot(bob, "chat-open")


def test_a_draw_offered_to_a_phone_player_shows_on_his_screen(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})
    ann = open_page(f"/rooms/{room['id']}", **DESKTOP)
    take_seat(ann, "Ann", 0)
    bob = open_page(f"/rooms/{room['id']}", **PHONE)
    take_seat(bob, "Bob", 1)
    for page in (ann, bob):
        page.click("button#ready")
    for page in (ann, bob):
        expect(page.locator("#resign")).to_be_visible()
    bob.evaluate("window.scrollTo(0, 0)")  # where a phone player plots: the table
    ann.click("#offer-draw")
    expect(bob.locator("#draw-offer")).to_be_visible()
    assert in_sight(bob, "#accept-draw")
    shot(bob, "draw-offer-phone")
    bob.click("#decline-draw")
    # The decline is news for Ann, not an error: not red, and clear of her order box.
    message = ann.locator("#message")
    expect(message).to_have_text("Bob declined the draw.")
    assert message.get_attribute("data-kind") == "info"
    box = message.bounding_box()
    plot = ann.locator("#plot-panel").bounding_box()
    assert box is not None and plot is not None
    assert box["y"] + box["height"] <= plot["y"] or box["x"] + box["width"] <= plot["x"]
    shot(ann, "declined-desktop")


#: The rooms whose laptop top bar wrapped (issue 20 item 5), with the longest game names.
LONG_TITLED = {
    "ftl": {"ruleset": "ftl", "seats": 2},
    "stellar": {"ruleset": "stellar", "seats": 2, "battle_size": "dispute"},
    "hexfleet": {"ruleset": "hexfleet", "seats": 2, "scenario": "duel"},
}
WORST_ID = """() => {
  const link = document.querySelector('#share-link');
  link.value = link.value.replace(/[^/]+$/, 'WWWWWWWW');
  document.querySelector('#room-id').textContent = 'WWWWWWWW';
}"""
#: Whether every item of the top bar shares one row: each one's middle is level with the
#: brand's box.
ONE_ROW = """() => {
  const brand = document.querySelector('.topbar .brand').getBoundingClientRect();
  return [...document.querySelector('.topbar').children]
    .filter((e) => e.getClientRects().length)
    .map((e) => e.getBoundingClientRect())
    .every((r) => (r.top + r.bottom) / 2 > brand.top && (r.top + r.bottom) / 2 < brand.bottom);
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("game", list(LONG_TITLED))
def test_a_laptop_rooms_top_bar_is_one_row_with_the_widest_room_id(
    open_page: OpenPage, server: Server, shot: Shot, game: str, locale: str
) -> None:
    room = server.api("/api/rooms", LONG_TITLED[game])
    page = open_page(f"/rooms/{room['id']}", locale=locale, **DESKTOP)
    take_seat(page, "Ann", 0)
    one_row_with_the_whole_link(page)
    shot(page, "top-bar")


def test_a_narrower_laptops_room_top_bar_is_one_row_with_a_long_name(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", LONG_TITLED["stellar"])
    page = open_page(
        f"/rooms/{room['id']}", locale="fr-FR", viewport={"width": 1180, "height": 800}
    )
    take_seat(page, "Maximilienne-Wolfgang", 0)
    one_row_with_the_whole_link(page)
    shot(page, "top-bar")


def one_row_with_the_whole_link(page: Page) -> None:
    """The room's top bar, with the widest room id, holds on one row inside the window,
    its share link whole."""
    expect(page.locator("#identity")).not_to_be_empty()
    page.evaluate(WORST_ID)  # the widest letters a random room id may have
    # One row: the language switch is not pushed alone onto a second one...
    assert page.evaluate(ONE_ROW)
    bar = page.locator(".topbar").bounding_box()
    assert bar is not None and bar["height"] < 60
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # ... and the share link still shows whole, with its Copy button.
    link = page.locator("#share-link")
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert in_sight(page, "#copy-link")
    assert in_sight(page, ".lang-switch")


#: The rows of the top bar: the distinct tops of its shown items (within 8 px).
BAR_ROWS = """() => {
  const tops = [...document.querySelectorAll('.topbar > *, .topbar .share > *')]
    .filter((e) => getComputedStyle(e).display !== 'contents' && e.getClientRects().length)
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 2)
    .map((r) => r.top);
  return tops.sort((a, b) => a - b).filter((t, i, all) => i === 0 || t - all[i - 1] > 8).length;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_phone_rooms_top_bar_before_the_match_is_four_rows(
    open_page: OpenPage, server: Server, shot: Shot, locale: str
) -> None:
    room = server.api("/api/rooms", LONG_TITLED["stellar"])
    page = open_page(f"/rooms/{room['id']}", locale=locale, **PHONE)
    page.wait_for_selector("#seat-panel .take-seat")
    page.wait_for_selector("#connection[data-status='open']", state="attached")
    page.evaluate(WORST_ID)
    assert page.evaluate(BAR_ROWS) <= 4, page.evaluate(BAR_ROWS)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.locator("#share-link").evaluate("e => e.scrollWidth <= e.clientWidth")
    for item in ("#copy-link", ".lang-switch", ".rules-link", ".mute-button"):
        assert in_sight(page, item), item
    take_seat(page, "Maximilienne-Wolfgang", 0)
    shot(page, "top-bar")
    assert page.evaluate(BAR_ROWS) <= 4, page.evaluate(BAR_ROWS)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_lobbys_top_bar_on_a_phone_is_two_short_rows(
    open_page: OpenPage, shot: Shot, locale: str
) -> None:
    lobby = open_page("/", locale=locale, **PHONE)
    lobby.wait_for_selector("#create:not([disabled])")
    brand = lobby.locator(".topbar .brand").bounding_box()
    switch = lobby.locator(".topbar .lang-switch").bounding_box()
    links = lobby.locator(".topbar nav").bounding_box()
    card = lobby.locator("#learn").bounding_box()
    assert brand and switch and links and card
    # The language switch shares the brand's row (it had a third row of its own), the
    # links the next one: the first card starts within 80 px of the top.
    assert switch["y"] < brand["y"] + brand["height"]
    assert switch["x"] + switch["width"] <= 390
    assert card["y"] < 80, f"the first card starts {card['y']:.0f} px down"
    assert in_sight(lobby, ".topbar nav a[href='/matches']")
    shot(lobby, "lobby-top")
