"""The friend who joins a Stellar Conflict room picks and sees his own race (issue 20,
item 24): the creator's lobby made a first choice for every seat; in the room each seated
player has a race picker that does not offer the races other seats play, and everyone's
room description follows the choice."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_the_joining_friend_chooses_his_race(
    server: Server, open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    room = server.api("/api/rooms", {"ruleset": "stellar", "seats": 2, "races": ["wiss", "vak"]})
    host = open_page(f"/rooms/{room['id']}")
    take_seat(host, "gil", 0)
    friend = open_page(f"/rooms/{room['id']}", viewport={"width": width, "height": height})
    take_seat(friend, "hal", 1)
    friend.wait_for_selector("#my-race")
    assert friend.input_value("#my-race") == "vak"
    assert friend.get_attribute("#my-race option[value=wiss]", "disabled") is not None
    assert "Wiss (seat 1)" in friend.inner_text("#my-race option[value=wiss]")
    friend.select_option("#my-race", "hexai")
    host.wait_for_function(
        "document.querySelector('.room-options').textContent.includes('Wiss vs Hexai')"
    )
    friend.wait_for_function("document.querySelector('#my-race').value === 'hexai'")
    # (the select shows his choice at once; the options line, once the room's news comes)
    expect(friend.locator(".room-options")).to_contain_text("Wiss vs Hexai")
    shot(friend, "race")
    # The match begins with that race: his fleet builder offers Hexai ships.
    host.click("button#ready")
    friend.click("button#ready")
    friend.wait_for_selector("#fleet-panel h2")
    assert friend.inner_text("#fleet-panel h2").startswith("Your Hexai fleet")
