"""A browser test's rooms draw their chance from seeds of their own (conftest.RoomSeeds):
its first room from ROOM_SEED, the next from ROOM_SEED + 1, whether a page created it
through the lobby or the test through the API, and whatever rooms the tests before it
created on the session server."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import ROOM_SEED, ROOM_SEEDS, OpenPage, Server


def seed_of_a_lobby_room(page: Page, server: Server, name: str) -> int:
    """Create an FTL room from the lobby as ``name``, resign against the bot at once and
    return the seed the stored match was played from."""
    page.goto("/")
    page.fill("#name", name)
    page.select_option("#ruleset", "ftl")
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector("button#ready")
    page.click(".seat[data-seat='1'] .add-bot")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.click("button#ready")
    page.click("#resign")
    page.click("#confirm-resign")
    page.wait_for_selector(".match-end:not([hidden])")
    [summary] = [m for m in server.api("/api/matches?limit=200") if name in m["players"]]
    seed: int = server.api(f"/api/matches/{summary['id']}")["seed"]
    return seed


def test_a_tests_rooms_take_its_seeds_in_its_order_whatever_ran_before(
    server: Server, open_page: OpenPage
) -> None:
    server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})  # the test's first room
    page = open_page("/")
    assert seed_of_a_lobby_room(page, server, "seeds-second") == ROOM_SEED + 1
    # As the next test starts, after the rooms this one created: its first room's seed.
    ROOM_SEEDS.start(ROOM_SEED)
    assert seed_of_a_lobby_room(page, server, "seeds-first") == ROOM_SEED
    # A room that names its own seed keeps it.
    assert server.api("/api/rooms", {"ruleset": "ftl", "seed": 99})["id"]
    assert ROOM_SEEDS.created == 1
