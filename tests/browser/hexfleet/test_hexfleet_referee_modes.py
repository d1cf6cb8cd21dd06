"""The referee page between FTL and the hex fleet, as a referee uses it: a combat script
imported in FTL's mode opens in the hex fleet's, the address naming the game shown and no
FTL button left over the hex fleet's panels; an import error names the file and the problem,
and goes when the referee switches to another game (as the laser games' does)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Locator, Page, Route

from tests._paths import ROOT
from tests.browser.conftest import OpenPage, Shot

BENELLYN = ROOT / "examples" / "hexfleet-benellyn.json"
LAPTOP = {"width": 1366, "height": 800}


#: What each referee shows once it is in place, and where it imports and says errors.
REFEREES = {
    "ftl": ("body[data-referee=ftl] #ftl-table", "#ftl-import-file", "#ftl-error"),
    "hexfleet": (
        "body[data-referee=hexfleet] .hex-ship-card",
        "#hex-import-file",
        ".hex-error:not([hidden])",
    ),
}


def switch_to(page: Page, game: str) -> None:
    """Pick ``game`` in the referee's game menu and wait until its referee is in place."""
    page.select_option("#ruleset", game)
    page.wait_for_selector(REFEREES[game][0])


def import_broken(page: Page, file: Path, content: object, game: str) -> Locator:
    """Import ``content`` as ``file`` into ``game``'s referee; check the error it shows
    names the file and says something after it; the error."""
    file.write_text(json.dumps(content))
    _, field, said_at = REFEREES[game]
    page.set_input_files(field, str(file))
    error = page.locator(said_at)
    error.wait_for()
    said = error.inner_text()
    assert said.startswith(f"{file.name}: ") and len(said) > len(file.name) + 10
    return error


def test_a_combat_script_imported_in_ftl_mode_opens_the_hex_fleet_mode(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/referee?game=ftl", viewport=LAPTOP)
    page.wait_for_selector("body[data-referee=ftl] #ftl-table")
    assert page.locator(".ftl-zoom").is_visible()
    # The hex fleet's referee opens on a blank script, sent to the server as the imported
    # one is: its answer, held back here until the import's has come, must not replace the
    # script (a loaded machine answered them in that order, and the import was lost).
    held: list[Route] = []
    answered: list[bool] = []

    def answer_out_of_order(route: Route) -> None:
        if "benellyn" in (route.request.post_data or ""):
            route.fulfill(response=route.fetch())
            answered.append(True)
            while held:
                held.pop().continue_()
        elif route.request.method == "POST" and not answered:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/resolve*", answer_out_of_order)
    with page.expect_request_finished(
        lambda request: (
            "/api/resolve" in request.url and "benellyn" not in (request.post_data or "")
        )
    ):
        page.set_input_files("#ftl-import-file", str(BENELLYN))
    page.wait_for_selector("body[data-referee=hexfleet] .hex-ship-card[data-ship='benellyn']")
    # The blank's answer, in last, read by the page (a task after its body): the import stays.
    page.evaluate("() => new Promise((go) => setTimeout(go, 0))")
    assert page.locator(".hex-ship-card[data-ship='benellyn']").is_visible()
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
    error = import_broken(
        page, tmp_path / "broken-turn.json", {"ruleset": "ftl", "table": "round"}, "ftl"
    )
    shot(page, "ftl-import-error")
    # To the hex fleet and back: the error was about a table put away.
    switch_to(page, "hexfleet")
    switch_to(page, "ftl")
    assert error.is_hidden()

    switch_to(page, "hexfleet")
    broken = {"ruleset": "hexfleet", "ships": {}, "steps": "fire"}
    import_broken(page, tmp_path / "broken-script.json", broken, "hexfleet")
    shot(page, "hex-import-error")
    switch_to(page, "ftl")
    switch_to(page, "hexfleet")
    assert page.locator(".hex-error:not([hidden])").count() == 0
