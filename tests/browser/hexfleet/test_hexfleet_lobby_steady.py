"""The hex fleet's waiting room keeps still under the player's pointer (found by a fresh
clone's run: a press on Ready went nowhere). The seat panel's list of who flies what came
once the scenarios were loaded and was added above the seats after each redraw: the Ready
button moved under the pointer, and the seats' list was built anew. The list is now part
of the panel's drawing, under the seats, a line a seat before the scenarios come (the
panel is centred over the board: its height must not change)."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.browser.conftest import OpenPage, Shot
from tests.browser.hexfleet.test_hexfleet_room import DESKTOP


def test_ready_stays_where_it_is_when_the_fleets_are_told(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport=DESKTOP)
    page.fill("#name", "Red")
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("#hex-scenario-about li")
    page.check("#hex-hotseat")
    page.fill("#hex-hotseat-0", "Red")
    page.fill("#hex-hotseat-1", "Blue")
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # slow to come: let through below

    page.route("**/api/games/hexfleet/scenarios", hold)
    page.click("#create")
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    ready = page.locator("button#ready")
    shot(page, "before-fleets")
    before = ready.bounding_box()
    page.evaluate("window.readyButton = document.querySelector('button#ready')")
    assert held, "the room page asked for the scenarios"
    held[0].continue_()
    expect(page.locator("#hex-fleets")).to_contain_text("Benellyn")
    assert ready.bounding_box() == before  # not moved under the pointer
    assert page.evaluate("document.querySelector('button#ready') === window.readyButton")
    shot(page, "waiting-room")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#hex-fleets").scroll_into_view_if_needed()
    shot(page, "waiting-room-phone")
    page.set_viewport_size({"width": 1366, "height": 800})
    ready.click()
    expect(page.locator("body")).not_to_have_attribute("data-phase", "lobby")  # it counted
