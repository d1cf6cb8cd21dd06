"""The other players' cards in hand glide to each pose their pages stream (10 a second:
``lasers/hand.js``), turning the short way, so they move at every frame; a person who asked
for less motion sees each pose at once. The page's frames run on Playwright's clock, paused
and moved by the test; the hands are the room page's own ``OtherHands`` on a table of the test's."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Server
from tests.browser.lightspeed._hands import hands_page

#: A table of the test's with the room page's own hands of the others on it, shown at
#: window.show(pose) (the module from the page's own versioned static path).
HANDS = """async () => {
  const first = document.querySelector('script[type=module][src*="/js/"]').src;
  const { OtherHands } = await import(first.replace(/\\/js\\/.*$/, '/js/games/lasers/hand.js'));
  const ns = 'http://www.w3.org/2000/svg';
  const table = document.body.appendChild(document.createElementNS(ns, 'svg'));
  const hands = new OtherHands({ hands: table.appendChild(document.createElementNS(ns, 'g')) });
  const def = { name: 'Scout', speed: 3, health: 1, lasers: [], shields: [] };
  window.show = (pose) => hands.show('ann', { ...pose, ship: 'scout' }, def, '#ffd23f');
}"""

TRANSFORM = re.compile(r"translate\((\S+) (\S+)\) rotate\((\S+)\)")


def drawn(page: Page) -> tuple[float, float, float]:
    """Where Ann's hand is drawn: table x, y (y up) and rotation (degrees)."""
    transform = page.get_attribute('.other-hand[data-player="ann"]', "transform") or ""
    found = TRANSFORM.fullmatch(transform)
    assert found, transform
    x, y, rotation = (float(v) for v in found.groups())
    return x, -y, -rotation


def test_a_hand_glides_to_each_pose_and_turns_the_short_way(
    open_page: OpenPage, server: Server
) -> None:
    page = hands_page(open_page, server, HANDS)
    page.evaluate("show({ x: 0, y: 0, rotation: 170 })")
    assert drawn(page) == (0, 0, 170)  # a hand first seen is drawn where it is

    page.evaluate("show({ x: 100, y: -40, rotation: -170 })")
    assert page.get_attribute(".other-hand", "data-x") == "100"  # where it goes, at once
    page.clock.run_for(50)
    x, y, rotation = drawn(page)
    assert 20 < x < 80 and -32 < y < -8  # on its way
    assert 170 < rotation < 190  # through 180, not back through 0
    page.clock.run_for(100)
    x, y, rotation = drawn(page)
    assert (x, y) == (100, -40) and rotation % 360 == 190  # there, and it stays
    page.clock.run_for(500)
    assert drawn(page)[:2] == (100, -40)

    # A pose that comes mid-glide: the hand goes on from where it is drawn.
    page.evaluate("show({ x: 0, y: 0, rotation: 190 })")
    page.clock.run_for(50)
    page.evaluate("show({ x: 200, y: 0, rotation: 190 })")
    page.clock.run_for(16)
    assert 40 < drawn(page)[0] < 90
    page.clock.run_for(150)
    assert drawn(page)[:2] == (200, 0)


def test_less_motion_shows_each_pose_at_once(open_page: OpenPage, server: Server) -> None:
    page = hands_page(open_page, server, HANDS)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("show({ x: 0, y: 0, rotation: 0 })")
    page.evaluate("show({ x: 100, y: 50, rotation: 30 })")
    assert drawn(page) == (100, 50, 30)
