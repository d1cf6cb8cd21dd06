"""What the hex fleet browser tests share: a battle against a bot, created from the lobby."""

from __future__ import annotations

from playwright.sync_api import Page


def create_battle_with_bot(page: Page, name: str = "Ann", bot: str = "easy") -> None:
    """On the lobby: create a hex fleet room of ``name`` against the ``bot`` level, 30
    turns at most, and wait for the room's page (not ready yet)."""
    page.fill("#name", name)
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("#hex-scenario-about li")
    page.fill("#turn-limit", "30")
    page.select_option("#hex-seat-1", bot)
    page.click("#create")
    page.wait_for_url("**/rooms/*")
