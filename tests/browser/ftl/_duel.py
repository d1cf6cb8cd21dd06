"""What the FTL browser tests share: starting a duel against a bot from the lobby, and
waiting for a turn to plot."""

from __future__ import annotations

from playwright.sync_api import Page


def wait_turn(page: Page, turn: int, timeout: float = 30_000) -> None:
    """Wait until ``page`` plots turn ``turn`` (the last turn has played out)."""
    page.wait_for_selector(f"body[data-phase=plot][data-turn='{turn}']", timeout=timeout)


def fill_duel_form(page: Page, name: str, bot: str, turn_limit: int | None = None) -> None:
    """On the lobby, fill the new-room form for an FTL duel of ``name`` against the
    ``bot`` level (``turn_limit`` turns, else the default), without creating it yet."""
    page.fill("#name", name)
    page.select_option("#ruleset", "ftl")
    if turn_limit is not None:
        page.fill("#turn-limit", str(turn_limit))
    page.wait_for_selector(f"#ftl-seat-1 option[value='{bot}']", state="attached")
    page.select_option("#ftl-seat-1", bot)


def start_duel(page: Page, name: str, bot: str, turn_limit: int | None = None) -> None:
    """From the lobby: create an FTL room of ``name`` against the ``bot`` level, get
    ready, and wait until turn 1 is to plot."""
    fill_duel_form(page, name, bot, turn_limit)
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(".seat[data-seat='1'][data-kind='bot']")
    page.click("button#ready")
    wait_turn(page, 1)
