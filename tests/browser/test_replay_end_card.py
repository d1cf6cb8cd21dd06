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
from playwright.sync_api import expect

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
def on_a_table(stored: tuple[Path, str]) -> str:
    """The Fig. 1 game stored again, played on a Light Speed table of 1200 x 800 mm."""
    return store_fig1(stored[0], table_mm=(1200, 800))


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


#: How much of the table's SVG box the table's space (its drawn area) fills, in height,
#: and how far below the box's top it starts (px).
TABLE_FILL = """() => {
  const box = document.querySelector('#table').getBoundingClientRect();
  const space = document.querySelector('#table .space').getBoundingClientRect();
  return [space.height / box.height, space.top - box.top];
}"""


def test_a_light_speed_replay_on_a_phone_shows_its_table_without_an_empty_band(
    open_page: OpenPage, on_a_table: str, shot: Shot
) -> None:
    """On a phone the replay's table fills its box (it was letterboxed small under a big
    empty band), and the title names the game, as FTL's and the hex fleet's do."""
    page = open_page(f"/replay/{on_a_table}", viewport=_viewport("phone"))
    page.locator("#replay-log li").first.wait_for()
    assert "Light Speed" in page.inner_text("#match-title")
    fill, gap = page.evaluate(TABLE_FILL)
    assert fill > 0.97 and gap < 4, f"the table fills {fill:.0%} of its box, {gap:.0f} px down"
    zoom = page.locator("#table-wrap .zoom-controls").bounding_box()
    table = page.locator("#table").bounding_box()
    assert zoom is not None and table is not None
    assert zoom["y"] - (table["y"] + table["height"]) < 4  # its zoom row right under it
    shot(page, "phone-start")
    page.click("#replay-battle")
    page.click("#battle-skip")
    page.locator("body[data-phase=over]").wait_for()
    fill, gap = page.evaluate(TABLE_FILL)
    assert fill > 0.97 and gap < 4
    shot(page, "phone-end")


def test_a_replay_keeps_its_result_for_the_end(
    open_page: OpenPage, stored: tuple[Path, str], ftl_duel: dict[str, Any], shot: Shot
) -> None:
    """A replay does not open on who won: the ending line (and FTL's result line) show at
    the end, or when the viewer asks for them."""
    ftl = open_page(f"/replay/{ftl_duel['id']}", viewport=_viewport("desktop"))
    ftl.locator(".ftl-turns > li").first.wait_for()
    assert ftl.locator("body[data-phase=over]").count() == 0
    for line in ("#replay-ending", "#ftl-result"):
        expect(ftl.locator(line)).to_be_hidden()
    for line in ("#replay-ending", "#ftl-result"):
        told = ftl.locator(line).text_content() or ""
        assert told and told not in ftl.inner_text(".side")
    shot(ftl, "start")
    ftl.click("#show-result")
    for line in ("#replay-ending", "#ftl-result"):
        expect(ftl.locator(line)).to_be_visible()
    expect(ftl.locator("#show-result")).to_be_hidden()

    laser = open_page(f"/replay/{stored[1]}", viewport=_viewport("phone"))
    laser.locator("#replay-log li").first.wait_for()
    expect(laser.locator("#replay-ending")).to_be_hidden()
    expect(laser.locator("#show-result")).to_be_visible()
    laser.click("#replay-battle")
    laser.click("#battle-skip")
    laser.locator("body[data-phase=over]").wait_for()
    expect(laser.locator("#replay-ending")).to_be_visible()
    expect(laser.locator("#show-result")).to_be_hidden()
