"""A page aims its hand's poses at the room's pose pulse (``lasers/hand.js``): each
``poses`` message names the milliseconds to the pulse's next beat, and the poses of the
hands that move together then reach the server together and leave in one message. The
page's own :class:`Hand` code, its timers on Playwright's paused clock."""

from __future__ import annotations

from tests.browser.conftest import OpenPage, Server
from tests.browser.lightspeed._hands import hands_page

#: The room page's own Hand, its pose stream alone: window.sent lists when (ms after the
#: start) each pose left; window.move() is the card moving, window.beat(ms) a poses message.
STREAM = """async () => {
  const first = document.querySelector('script[type=module][src*="/js/"]').src;
  const { Hand } = await import(first.replace(/\\/js\\/.*$/, '/js/games/lasers/hand.js'));
  const start = performance.now();
  window.sent = [];
  const hand = Object.assign(Object.create(Hand.prototype), {
    ship: 'scout', frozen: false, pose: { x: 0, y: 0, rotation: 0 },
    lastSent: -Infinity, poseTimer: null, pulse: null,
    onPose: () => window.sent.push(Math.round(performance.now() - start)),
  });
  window.move = () => hand.streamPose();
  window.beat = (next) => hand.beat(next);
}"""


def test_a_hand_streams_its_poses_on_the_rooms_pulse(open_page: OpenPage, server: Server) -> None:
    page = hands_page(open_page, server, STREAM)
    page.evaluate("move()")
    assert page.evaluate("sent") == [0]  # the first pose leaves at once
    page.clock.run_for(30)
    page.evaluate("beat(40)")  # the room's pulse beats at 70, 170, 270...
    page.clock.run_for(10)
    page.evaluate("move()")
    page.clock.run_for(29)
    assert page.evaluate("sent") == [0]  # waiting for the beat
    page.clock.run_for(1)
    assert page.evaluate("sent") == [0, 70]
    page.evaluate("move()")
    page.clock.run_for(99)
    page.evaluate("move()")  # moves within the wait do not send more
    assert page.evaluate("sent") == [0, 70]
    page.clock.run_for(1)
    assert page.evaluate("sent") == [0, 70, 170]  # ten a second, on the beats

    # A hand that rests, then moves again, sends at once and is back on the beat after.
    page.clock.run_for(1_000)
    page.evaluate("move()")
    page.clock.run_for(60)
    page.evaluate("move()")
    page.clock.run_for(150)
    assert page.evaluate("sent") == [0, 70, 170, 1_170, 1_270]
