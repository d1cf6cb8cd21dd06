"""The end of a match where the player looks, in the replays too (issue 20, item 22): when a
replay reaches the end, who won and how lie on a card over the board, in sight at 1366 x 800
and on a 390 x 844 phone, and go away when the replay steps back. Light Speed shows its
scores on the card; Faster Than Light (as every game without a card of its own) the
winner, how the match ended and the game's result line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests._server import running_server
from tests.browser._play import end_in_sight, store_fig1
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl.test_ftl_replay import play_duel

VIEWPORTS = {"desktop": (1366, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("replay-end") / "matches.db"
    return db, store_fig1(db)


@pytest.fixture(scope="module")
def server(stored: tuple[Path, str], compiled_kernels: None) -> Iterator[Server]:
    with running_server(stored[0], room_seed=3) as running:
        yield Server(running.http)


@pytest.fixture(scope="module")
def ftl_duel(server: Server) -> dict[str, Any]:
    return play_duel(server)


def _viewport(device: str) -> dict[str, int]:
    width, height = VIEWPORTS[device]
    return {"width": width, "height": height}


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_light_speed_replay_ends_on_a_card_over_the_table(
    open_page: OpenPage, stored: tuple[Path, str], shot: Shot, device: str
) -> None:
    page = open_page(f"/replay/{stored[1]}", viewport=_viewport(device))
    page.click("#replay-battle")
    page.click("#battle-skip")
    page.locator("body[data-phase=over]").wait_for()
    end_in_sight(page)
    card = page.locator("#table-wrap .end-card")
    assert card.locator(".score-list").is_visible()
    shot(page, "end")
    # The card folds to see the final table, and leaves when the replay steps back.
    page.click(".end-card-fold")
    assert card.locator(".score-list").is_hidden()
    page.click(".end-card-fold")
    page.click("#replay-play")
    page.wait_for_function("document.body.dataset.phase !== 'over'")
    assert card.is_hidden()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_an_ftl_replay_ends_on_a_card_over_the_board(
    open_page: OpenPage, ftl_duel: dict[str, Any], shot: Shot, device: str
) -> None:
    result = ftl_duel["result"]
    page = open_page(
        f"/replay/{ftl_duel['id']}", viewport=_viewport(device), reduced_motion="reduce"
    )
    page.locator("body[data-phase=over]").wait_for(timeout=30_000)
    end_in_sight(page)
    title = page.locator("#table-wrap .end-card #winner")
    assert title.inner_text() == (f"{result['winner']} wins" if result["winner"] else "Draw")
    card = page.locator("#table-wrap .end-card")
    assert page.inner_text("#ftl-result") in card.inner_text()
    assert card.get_by_role("link", name="Other finished matches").is_visible()
    shot(page, "end")
    page.click("[data-step='first']")
    assert card.is_hidden()
