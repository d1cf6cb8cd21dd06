"""A Light Speed room page on Playwright's paused clock, with the test's script run in it
(the tests of the hands: ``test_other_hands_glide.py``, ``test_pose_pulse.py``)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser._pages import paused_clock
from tests.browser.conftest import OpenPage, Server


def hands_page(open_page: OpenPage, server: Server, script: str) -> Page:
    """A new Light Speed room's page, its clock paused, once ``script`` (an async function
    that imports the page's own modules from its versioned static path) has run."""
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})
    page = open_page("/")
    paused_clock(page)
    page.goto(f"/rooms/{room['id']}")
    page.wait_for_selector("#seat-panel .take-seat")
    page.evaluate(script)
    return page
