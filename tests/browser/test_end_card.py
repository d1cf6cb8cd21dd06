"""The end of a match where the player looks (issue 20, item 22): the result, the scores and
"Play again" used to be appended under the log and the legend, cut off at 1366 x 800 and
three screens down on a phone. Now an end card lies over the table; "See the table" folds it
to look at the final board, and "Play again" starts the next match from it. The turn games
(FTL, hex fleet) check the same card in their own room tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server import Server
from tests.browser._pages import PagePool, borrowed_page
from tests.browser._play import answer_name, end_in_sight
from tests.browser._servers import quick_server_for
from tests.browser.conftest import save_screenshot

VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SCREENSHOTS_DIR = "artifacts/screenshots"


quick_server = quick_server_for("end-card", room_seed=9)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_end_of_a_light_speed_match_is_on_screen(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    with borrowed_page(page_pool, quick_server.http, VIEWPORTS[device]) as (page, errors):
        page.set_default_timeout(30_000)
        room = quick_server.create_room(asteroids="single")
        page.goto(f"/rooms/{room}?join=1&bots=1:easy")
        answer_name(page, "Ann")  # no name saved: the room asks it before seating us
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.click("button#ready")
        # The bot empties its deck at once: "stop!", and once the server's 2 s stop window
        # has passed our card is thrown away and the battle comes. (Clicking Discard raced
        # that window: on a loaded machine it closed under the click.)
        page.locator("#battle-skip").wait_for(timeout=60_000)
        page.click("#battle-skip")
        page.locator("body[data-phase=over]").wait_for()
        end_in_sight(page)
        assert page.is_visible(".end-card #replay-link")
        if device == "phone":
            # The table sits at the top of its box, under the battle's controls and above
            # the end card, not letterboxed below an empty band (issue 20 item 15).
            gap = page.evaluate(
                "() => document.querySelector('#table .space').getBoundingClientRect().top"
                " - document.querySelector('#table').getBoundingClientRect().top"
            )
            assert gap < 4, f"an empty band of {gap:.0f} px above the table"
            # "See the table" is a finger's size (it was 24 px tall).
            fold = page.locator(".end-card-fold").bounding_box()
            assert fold is not None and fold["height"] >= 40, fold
        save_screenshot(page, f"{SCREENSHOTS_DIR}/end-card-lightspeed-{device}.png")
        # "See the table" folds the card to its first line; the table is seen again.
        page.click(".end-card-fold")
        assert page.is_hidden(".end-card .score-list")
        end_in_sight(page)
        save_screenshot(page, f"{SCREENSHOTS_DIR}/end-card-lightspeed-{device}-folded.png")
        page.click(".end-card-fold")
        assert page.is_visible(".end-card .score-list")
        # Play again from the card: the next match starts and the card goes.
        page.click("#rematch")
        page.wait_for_function("document.body.dataset.phase !== 'over'")
        assert page.is_hidden("#score-panel")
        assert not errors, errors
