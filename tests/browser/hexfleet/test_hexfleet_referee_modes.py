"""The referee page between FTL and the hex fleet, as a referee uses it: a combat script
imported in FTL's mode opens in the hex fleet's, the address naming the game shown and no
FTL button left over the hex fleet's panels; an import error names the file and the problem,
and goes when the referee switches to another game (as the laser games' does)."""

from __future__ import annotations

import json
from pathlib import Path

from tests._paths import ROOT
from tests.browser.conftest import OpenPage, Shot

BENELLYN = ROOT / "examples" / "hexfleet-benellyn.json"
LAPTOP = {"width": 1366, "height": 800}


def test_a_combat_script_imported_in_ftl_mode_opens_the_hex_fleet_mode(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/referee?game=ftl", viewport=LAPTOP)
    page.wait_for_selector("body[data-referee=ftl] #ftl-table")
    assert page.locator(".ftl-zoom").is_visible()
    page.set_input_files("#ftl-import-file", str(BENELLYN))
    page.wait_for_selector("body[data-referee=hexfleet] .hex-ship-card[data-ship='benellyn']")
    assert page.input_value("#ruleset") == "hexfleet"
    assert page.url.endswith("/referee?game=hexfleet")  # a reload opens what is shown
    assert page.locator(".ftl-zoom").is_hidden()
    assert page.is_hidden("#ftl-error")
    shot(page, "script-in-hex-mode")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "script-in-hex-mode-phone")
    page.reload()
    page.wait_for_selector("body[data-referee=hexfleet]")


def test_an_import_error_names_the_problem_and_goes_with_the_game(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    page = open_page("/referee?game=ftl", viewport=LAPTOP)
    page.wait_for_selector("body[data-referee=ftl] #ftl-table")
    broken = tmp_path / "broken-turn.json"
    broken.write_text(json.dumps({"ruleset": "ftl", "table": "round"}))
    page.set_input_files("#ftl-import-file", str(broken))
    error = page.locator("#ftl-error")
    error.wait_for()
    said = error.inner_text()
    assert said.startswith("broken-turn.json: ") and len(said) > len("broken-turn.json: ") + 8
    shot(page, "ftl-import-error")
    # To the hex fleet and back: the error was about a table put away.
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("body[data-referee=hexfleet] .hex-ship-card")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("body[data-referee=ftl]")
    assert error.is_hidden()

    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("body[data-referee=hexfleet] .hex-ship-card")
    script = tmp_path / "broken-script.json"
    script.write_text(json.dumps({"ruleset": "hexfleet", "ships": {}, "steps": "fire"}))
    page.set_input_files("#hex-import-file", str(script))
    hex_error = page.locator(".hex-error:not([hidden])")
    hex_error.wait_for()
    said = hex_error.inner_text()
    assert said.startswith("broken-script.json: ") and len(said) > len("broken-script.json: ") + 8
    shot(page, "hex-import-error")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("body[data-referee=ftl]")
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("body[data-referee=hexfleet] .hex-ship-card")
    assert page.locator(".hex-error:not([hidden])").count() == 0
