"""The page's audio rests when it is silent (shell/sounds.js): a running WebAudio context
keeps the device's audio thread at work between sounds (in Chromium about 0.03 CPU-s a
second of an idle room page, against 0.002 with it suspended: a phone's battery). It rests
a few seconds after the last sound ends, at once when the player mutes, and the next sound
wakes it and is heard. The page's timers run on Playwright's clock, paused and moved by the test."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser._pages import paused_clock
from tests.browser.conftest import OpenPage, Server

#: Play one of the shell's sounds by name, as the game's code does (its module, from the
#: page's own versioned static path).
PLAY = """async (name) => {
  const first = document.querySelector('script[type=module][src*="/js/"]').src;
  const module = await import(first.replace(/\\/js\\/.*$/, '/js/shell/sounds.js'));
  module.sounds[name]();
}"""


def audio_is(page: Page, state: str) -> None:
    """Wait until the page's audio context is ``state`` (``running`` or ``suspended``)."""
    page.wait_for_function("(s) => document.documentElement.dataset.audio === s", arg=state)


def test_the_audio_rests_after_the_last_sound_and_wakes_for_the_next(
    open_page: OpenPage, server: Server
) -> None:
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})
    page = open_page("/")
    paused_clock(page)
    page.goto(f"/rooms/{room['id']}")
    page.wait_for_selector("#seat-panel .take-seat")
    page.click("h1")  # a gesture: browsers play nothing before one
    assert page.evaluate("document.documentElement.dataset.audio") is None  # none made yet

    page.evaluate(PLAY, "place")
    audio_is(page, "running")
    page.clock.run_for(2_000)
    assert page.evaluate("document.documentElement.dataset.audio") == "running"
    page.evaluate(PLAY, "explosion")  # a later sound keeps it awake past the first's rest
    page.clock.run_for(2_000)
    assert page.evaluate("document.documentElement.dataset.audio") == "running"
    page.clock.run_for(3_000)
    audio_is(page, "suspended")

    page.evaluate(PLAY, "hit")  # woken by the next sound, which plays
    audio_is(page, "running")
    page.click(".mute-button")  # muted: it rests at once
    audio_is(page, "suspended")
    page.evaluate(PLAY, "place")  # a muted page stays silent and asleep
    page.clock.run_for(1_000)
    assert page.evaluate("document.documentElement.dataset.audio") == "suspended"
    page.click(".mute-button")
    page.evaluate(PLAY, "shield")
    audio_is(page, "running")
