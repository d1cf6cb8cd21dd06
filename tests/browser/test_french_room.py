"""A Light Speed room in French, as a French speaker plays it against a bot to the end:
the seats, the chat, the manners, the stop, the battle and its log, the scores on the end
card; switching to English in the middle of the match changes the page and keeps the
match; the stored battle replays in French."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._server import Server, running_server
from tests.browser._pages import PagePool
from tests.browser._play import answer_name, end_in_sight, store_fig1
from tests.browser._servers import quick_server_for
from tests.browser.conftest import save_screenshot
from tests.i18n._french import assert_french, french_page

VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SCREENSHOTS_DIR = "artifacts/screenshots"

quick_server = quick_server_for("french-room", room_seed=9)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_light_speed_match_against_a_bot_in_french(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    with french_page(page_pool, quick_server.http, VIEWPORTS[device]) as (page, errors):
        room = quick_server.create_room(asteroids="single")
        page.goto(f"/rooms/{room}?join=1&bots=1:easy")
        answer_name(page, "Ann")
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.locator("#connection[data-status='open']").wait_for(state="attached")
        assert page.inner_text("button#ready") == "Prêt\u00a0?"
        assert_french(page)
        save_screenshot(page, f"{SCREENSHOTS_DIR}/french-room-seats-{device}.png")
        page.click("button#ready")
        page.locator("#battle-skip").wait_for(timeout=60_000)
        save_screenshot(page, f"{SCREENSHOTS_DIR}/french-room-battle-{device}.png")
        assert_french(page)
        page.click("#battle-skip")
        page.locator("body[data-phase=over]").wait_for()
        end_in_sight(page)
        assert page.inner_text("#rematch") == "Revanche"  # one label, every game
        assert "Vitesse" in page.inner_text("#battle-log")
        assert_french(page)
        save_screenshot(page, f"{SCREENSHOTS_DIR}/french-room-end-{device}.png")
        assert not errors, errors


def test_switching_language_mid_match_keeps_the_match(
    quick_server: Server, page_pool: PagePool
) -> None:
    with french_page(page_pool, quick_server.http, VIEWPORTS["desktop"]) as (page, errors):
        room = quick_server.create_room(asteroids="single")
        page.goto(f"/rooms/{room}?join=1&bots=1:beginner")
        answer_name(page, "Ann")
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.click("button#ready")
        page.locator("body[data-phase='fast']").wait_for(timeout=60_000)
        page.wait_for_selector("#hand[data-ship]")
        assert page.inner_text("#game-name") == "Light Speed"
        assert page.inner_text(".players").count("Ann") >= 1
        # To English in the middle of the round: the page again, the same seat and match.
        page.select_option("#lang-switch", "en")
        page.wait_for_function("document.documentElement?.lang === 'en'")
        page.wait_for_selector("#identity:text('you are Ann')")
        page.locator("#battle-skip").wait_for(timeout=60_000)
        page.click("#battle-skip")
        page.locator("body[data-phase=over]").wait_for()
        assert "Speed" in page.inner_text("#battle-log")
        # And back to French: the end of the same match, in French.
        page.select_option("#lang-switch", "fr")
        page.wait_for_function("document.documentElement?.lang === 'fr'")
        page.locator("body[data-phase=over]").wait_for()
        # (the page is a spectator's until its seat is taken back: the welcome after the room)
        page.wait_for_selector("#identity:text('vous êtes Ann')")
        assert_french(page)
        assert not errors, errors


def test_a_battle_stored_in_english_replays_its_account_in_french(
    page_pool: PagePool, tmp_path: Path, compiled_kernels: None
) -> None:
    """The store keeps events, not sentences: the Fig. 1 battle, stored as an English
    player's match, is told in French to a French reader (the replay page's own words are
    not translated yet: only its battle log and scores are checked)."""
    db = tmp_path / "matches.db"
    match_id = store_fig1(db)
    with (
        running_server(db) as server,
        french_page(page_pool, server.http, {}) as (page, errors),
    ):
        page.goto(f"/replay/{match_id}")
        page.click("#replay-battle")
        page.click("#battle-skip")
        page.locator("body[data-phase=over]").wait_for()
        log = page.inner_text("#battle-log")
        assert "Vitesse 1" in log and "Journal de la bataille" in log
        assert "Ghost (bleu)" in log and "pour 2 (2 sur 2)" in log
        assert "— détruit\u00a0; rouge le prend" in log
        assert page.inner_text("#winner") == "rouge gagne\u00a0!"
        save_screenshot(page, f"{SCREENSHOTS_DIR}/french-replay-log.png")
        assert not errors, errors
