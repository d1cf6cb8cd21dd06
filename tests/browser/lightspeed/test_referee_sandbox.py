"""The laser referee as a newcomer meets it (issue 20, item 26): Stellar Conflict's ships
under their race's heading and a table without Light Speed's asteroid; an imported file
shows its table first (its battle waits for Resolve); an import error goes away when the
game is switched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._paths import ROOT
from tests.browser.conftest import OpenPage, Shot

FIG1 = ROOT / "examples" / "fig1-sample-game.json"
RACES = ["Wiss", "Vak", "Hexai", "Tetrakori"]


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_the_stellar_referee_groups_ships_by_race_on_an_empty_table(
    open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = open_page("/referee", viewport={"width": width, "height": height})
    page.wait_for_selector(".add-ship")
    assert page.locator(".table-card.asteroid").count() == 1  # Light Speed starts with one
    page.select_option("#ruleset", "stellar")
    page.wait_for_selector(".race-heading")
    assert page.locator(".race-heading").all_inner_texts() == RACES
    for race in ("wiss", "vak", "hexai", "tetrakori"):
        assert page.locator(f".race-ships[data-race='{race}'] .add-ship").count() >= 10
    assert page.locator(".table-card").count() == 0  # Stellar Conflict: no asteroid
    page.locator(".race-heading[data-race='vak']").scroll_into_view_if_needed()
    shot(page, "races")
    # Back to Light Speed: its asteroid again, no race headings.
    page.select_option("#ruleset", "lightspeed")
    page.wait_for_selector(".table-card.asteroid")
    assert page.locator(".race-heading").count() == 0


def test_an_import_shows_the_table_first_and_an_old_error_goes_with_the_game(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    page = open_page("/referee", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(FIG1))
    page.wait_for_selector("#referee-note:not([hidden])")
    assert "Press Resolve" in page.inner_text("#referee-note")
    assert page.locator(".table-card[data-card='red-moth']").count() == 1
    assert page.get_attribute("body", "data-phase") == "lobby"
    assert page.is_hidden("#battle-controls")
    shot(page, "imported")
    page.click("#resolve")
    page.wait_for_selector("body[data-phase=battle]")
    assert page.is_hidden("#referee-note")

    bad = tmp_path / "overlap.json"
    bad.write_text(
        json.dumps(
            {
                "ruleset": "lightspeed",
                "players": ["red", "blue"],
                "cards": [
                    {"id": "rock", "type": "asteroid", "x": 0, "y": 0},
                    {"id": "red-moth", "owner": "red", "ship": "moth", "x": 10, "y": 10},
                ],
            }
        )
    )
    page.set_input_files("#import-file", str(bad))
    page.wait_for_selector("#referee-error:not([hidden])")
    page.select_option("#ruleset", "stellar")
    page.wait_for_selector(".race-heading")
    assert page.is_hidden("#referee-error")
    page.select_option("#ruleset", "lightspeed")
    page.wait_for_selector(".add-ship")
    assert page.is_hidden("#referee-error")


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_an_empty_table_says_what_to_do(
    open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    """The walkthrough (issue 20): the laser referees opened on an empty starfield with no
    word of what to do. While no ship is on the table, a note on it says; a ship added, it
    goes; the table cleared, it comes back; it is the laser sandboxes' only."""
    width, height = viewport
    page = open_page("/referee", viewport={"width": width, "height": height})
    page.wait_for_selector(".add-ship")
    hint = page.locator("#referee-table-hint")
    hint.wait_for(state="visible")
    assert hint.inner_text().startswith("Lay out the table as it stands at your game")
    # On the table, inside the window, clear of Light Speed's asteroid in the middle.
    note, table = hint.bounding_box(), page.locator("#table").bounding_box()
    rock = page.locator(".table-card.asteroid").bounding_box()
    assert note is not None and table is not None and rock is not None
    assert table["y"] <= note["y"] and note["y"] + note["height"] <= min(
        height, table["y"] + table["height"]
    )
    assert note["y"] + note["height"] <= rock["y"]
    shot(page, "empty-lightspeed")
    page.locator(".add-ship").first.click()
    page.wait_for_selector(".table-card:not(.asteroid)")
    assert hint.is_hidden()
    page.click("#clear")
    hint.wait_for(state="visible")
    page.select_option("#ruleset", "stellar")
    page.wait_for_selector(".race-heading")
    assert hint.is_visible()
    shot(page, "empty-stellar")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("#ftl-piece-list li")
    assert hint.is_hidden()
