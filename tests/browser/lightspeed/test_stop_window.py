"""The stop window, as a player lives it: after "stop!" a banner above the table counts down
the seconds left to drop the frozen card and says it is discarded if he does nothing; a
frozen card over another card says on itself that it cannot drop there; when the time runs
out the card is discarded, and the page says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import FloatRect, Page

from tests.browser._play import hand_ship, hold_at, place, skip_battle, take_seat
from tests.browser.conftest import OpenPage, Server, Shot


def _seconds_left(page: Page) -> float:
    return float(page.get_attribute("#stop-banner", "data-seconds-left") or "nan")


def _on_a_pixel(page: Page, x: float, y: float) -> tuple[float, float]:
    """The table point nearest (x, y) that lies on a whole screen pixel: where a mouse can
    hold a card exactly, however small the table is drawn."""
    point = page.evaluate(
        """([x, y]) => {
          const m = document.querySelector('#table').getScreenCTM();
          const p = new DOMPoint(x, -y).matrixTransform(m);
          const q = new DOMPoint(Math.round(p.x), Math.round(p.y)).matrixTransform(m.inverse());
          return [Math.round(q.x * 10) / 10, -Math.round(q.y * 10) / 10];
        }""",
        [x, y],
    )
    return float(point[0]), float(point[1])


def _overlap(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_stop_banner_counts_down_and_the_frozen_card_is_discarded(
    server: Server, open_page: OpenPage, shot: Shot, width: int, height: int
) -> None:
    room = server.api("/api/rooms", {"seats": 2})
    alice = open_page(f"/rooms/{room['id']}")
    take_seat(alice, "alice", 0)
    bob = open_page(alice.input_value("#share-link"), viewport={"width": width, "height": height})
    take_seat(bob, "bob", 1)
    alice.click("button#ready")
    bob.click("button#ready")
    for page in (alice, bob):
        page.wait_for_selector("body[data-phase=fast]")

    # Alice puts her first card down; Bob holds his over it when she plays her last one.
    xs = [-520 + 115 * i for i in range(10)]
    assert place(alice, xs[0], -280), alice.inner_text("#refused")
    bob.wait_for_selector(".table-card[data-owner=alice]")
    hold_at(bob, *_on_a_pixel(bob, xs[0], -250))
    held = hand_ship(bob)
    bob.focus("#table")  # as a keyboard player would be
    for x in xs[1:]:
        assert place(alice, x, -280), alice.inner_text("#refused")

    bob.wait_for_selector("body[data-phase=stop]")
    banner = bob.locator("#stop-banner")
    assert banner.is_visible()
    text = banner.inner_text()
    # A keyboard player lands on the choice: Drop, then Discard with Tab.
    assert bob.evaluate("document.activeElement.id") == "drop-here"
    assert "STOP!" in text and "alice placed their last card" in text
    assert "is discarded in" in text

    # The banner sits above the table, not on it.
    banner_box = banner.bounding_box()
    table_box = bob.locator("#table").bounding_box()
    assert banner_box is not None and table_box is not None
    assert not _overlap(banner_box, table_box)

    # The frozen card lies on Alice's card: it says so, and so does the banner.
    note = bob.locator("#hand .hand-note, .hand-note")
    assert note.first.is_visible()
    assert "can't drop here" in (note.first.text_content() or "")
    assert bob.get_attribute(".hand-note", "data-reason") == "overlaps a card"
    assert "cannot drop where it froze" in banner.inner_text()
    shot(bob, "stop-banner")

    # The countdown goes down, second by second, in sight.
    first = _seconds_left(bob)
    shown = int(bob.inner_text("#stop-countdown"))
    assert 0 < first <= 15 and 0 < shown <= 15
    bob.wait_for_function(
        "(s) => +document.querySelector('#stop-banner').dataset.secondsLeft < s - 1.5",
        arg=first,
    )
    assert int(bob.inner_text("#stop-countdown")) < shown
    assert bob.is_visible("#stop-countdown")
    # The bar beside the seconds is as full as the share of the window left (drawn as it
    # shows on screen: what is left of its width, read with the seconds in one step).
    share, full = bob.evaluate(
        """() => {
          const fill = document.querySelector('#stop-bar-fill').getBoundingClientRect();
          const bar = document.querySelector('#stop-banner .stop-bar').getBoundingClientRect();
          const left = +document.querySelector('#stop-banner').dataset.secondsLeft;
          return [fill.width / bar.width, left / 15];
        }"""
    )
    assert share == pytest.approx(full, abs=0.03)
    assert share < first / 15 - 0.05

    # Bob does nothing: when the time runs out (the test moves the server's clock past
    # it) his card is discarded, and he is told.
    assert bob.is_hidden("#stop-note")
    server.advance(15)
    bob.wait_for_selector("#stop-note:not([hidden])")
    note_text = bob.inner_text("#stop-note")
    assert "Time ran out" in note_text and "discarded" in note_text
    name = bob.get_attribute("#hand", "data-name")
    assert name and name in note_text
    skip_battle(bob)
    assert bob.locator(f'.table-card[data-card="bob-{held}"]').count() == 0
    assert bob.is_visible("#stop-note")
    shot(bob, "discarded")
