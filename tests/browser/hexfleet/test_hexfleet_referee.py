"""The referee page's hex fleet mode, as a referee at a real table uses it: import a combat
script and read every ship's numbers and log as ``spacetable resolve`` gives them; record
steps by hand, typing the cards turned (each card read as typed, the number the step
needs shown); a bad card or a step the server refuses changes nothing, a card typed twice
is warned of at its step; export gives back the script imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

from tests._paths import ROOT
from tests.browser.conftest import OpenPage, Shot
from tests.browser.hexfleet._signs import with_signs

EXAMPLES = ROOT / "examples"
HEX_EXAMPLES = sorted(EXAMPLES.glob("hexfleet-*.json"))
PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 800}


def open_hex(open_page: OpenPage, **options: Any) -> Page:
    """The referee page opened straight in hex fleet mode."""
    page = open_page("/referee?game=hexfleet", **options)
    page.wait_for_selector("#hex-table .hex-ship-card[data-ship='warden']")
    return page


def resolved(path: Path) -> dict[str, Any]:
    """What ``spacetable resolve --json`` says of a script."""
    out = subprocess.run(
        [sys.executable, "-m", "spacetable", "resolve", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def card(page: Page, ship: str) -> str:
    return f"#hex-table .hex-ship-card[data-ship='{ship}']"


def gauges(page: Page, ship: str) -> dict[str, str]:
    """A ship card's gauge lines by label: {"Shields": "13/16 · down", ...}."""
    rows = page.locator(f"{card(page, ship)} .hex-gauge")
    out = {}
    for i in range(rows.count()):
        label = rows.nth(i).locator(".hex-gauge-label").inner_text()
        out[label] = rows.nth(i).locator(".hex-gauge-value").inner_text()
    return out


def expected_gauges(ship: dict[str, Any]) -> dict[str, str]:
    """The gauge lines a ship of ``resolve --json`` should show."""
    most = {"light": 8, "medium": 12, "heavy": 16}[ship["class"]]
    cells = {"light": 16, "medium": 12, "heavy": 8}[ship["class"]]
    systems = 16 if ship["weapon_size"] == "heavy" else 8
    salvo = f"{ship['salvo']}-card salvo" if ship["salvo"] else "cannot fire"
    return {
        "Shields": f"{ship['shields']}/{most} · {'up' if ship['shields_up'] else 'down'}",
        "Weapons": f"{ship['weapons']}/{systems} · {salvo}",
        "Propulsion": f"{ship['propulsion']}/{cells} · "
        f"{'can jump' if ship['can_jump'] else 'cannot jump'}",
    }


def import_script(page: Page, path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    page.set_input_files("#hex-import-file", str(path))
    page.wait_for_selector(f"#hex-steps [data-step='{len(data['steps'])}']")
    return data


@pytest.mark.parametrize("path", HEX_EXAMPLES, ids=[p.stem for p in HEX_EXAMPLES])
def test_an_example_script_shows_what_resolve_says(
    open_page: OpenPage, shot: Shot, path: Path
) -> None:
    page = open_hex(open_page)
    data = import_script(page, path)
    result = resolved(path)
    for ship_id, ship in result["ships"].items():
        assert gauges(page, ship_id) == expected_gauges(ship), ship_id
        # Every line of the account that names the ship is in its log, in order (its cards
        # shown with their suits' signs: "KS" is K♠).
        wanted = [
            with_signs(line["text"])
            for step in result["log"]
            for line in step
            if ship_id in line["ships"]
        ]
        shown = page.locator(f"{card(page, ship_id)} .hex-ship-log li").all_inner_texts()
        assert [text.split(". ", 1)[1] for text in shown] == wanted
    # Each step keeps the cards it turned, in the order the script lists them.
    typed = [
        page.input_value(f"#hex-step-{n}-cards").split()
        for n in range(1, len(data["steps"]) + 1)
        if page.locator(f"#hex-step-{n}-cards").count()
    ]
    used = result["cards_used"]
    assert [c for cards in typed for c in cards] == data["cards"][:used]
    shot(page, "imported")


def test_the_benellyn_example_tells_its_ships_log(open_page: OpenPage, shot: Shot) -> None:
    page = open_hex(open_page)
    import_script(page, EXAMPLES / "hexfleet-benellyn.json")
    log = page.locator(f"{card(page, 'benellyn')} .hex-ship-log li").all_inner_texts()
    assert log[0] == "1. Benellyn raises shields: K♠ 10♠, both black — up"
    assert "jumped out" in page.inner_text(f"{card(page, 'benellyn')} h3")
    assert "2. Kal Pol fires 8 cards at Benellyn" in page.inner_text(card(page, "kal-pol"))
    # A jumped ship can do nothing more: the next step is for Kal Pol.
    assert page.locator("#hex-draft-ship option").all_inner_texts() == ["Kal Pol (red)"]
    page.select_option("#hex-draft-kind", "raise_shields")
    assert page.inner_text("#hex-draft-cards-need") == "Kal Pol's shields are already up."
    page.select_option("#hex-draft-kind", "fire")
    assert "No ship of another side is in the battle" in page.inner_text("#hex-draft")
    page.select_option("#hex-draft-kind", "raise_shields")
    for size in (LAPTOP, PHONE):
        page.set_viewport_size(size)
        shot(page, f"benellyn-{size['width']}")


def test_a_combat_recorded_by_hand_with_typed_cards(open_page: OpenPage, shot: Shot) -> None:
    page = open_hex(open_page)
    # Vigil raises shields: two cards, typed in any case or with suit signs.
    page.select_option("#hex-draft-ship", "vigil")
    page.select_option("#hex-draft-kind", "raise_shields")
    page.fill("#hex-draft-cards", "ks")
    assert "1 of 2 typed" in page.inner_text("#hex-draft-cards-need")
    assert page.is_disabled("#hex-record")
    page.fill("#hex-draft-cards", "ks 10♠")
    assert page.locator("#hex-draft .hex-chip").all_inner_texts() == ["K♠", "10♠"]
    page.click("#hex-record")
    page.wait_for_selector("#hex-steps [data-step='1']")
    assert gauges(page, "vigil")["Shields"] == "16/16 · up"
    # Warden fires its 8 cards: through full shields only spades hit.
    page.select_option("#hex-draft-ship", "warden")
    page.select_option("#hex-draft-kind", "fire")
    page.fill("#hex-draft-cards", "AS 2H 3D 4C 5H 6D 7C 8S")
    need = page.inner_text("#hex-draft-cards-need")
    assert "8 fire cards" in need and "only spades hit" in need
    assert "2 hits: 0 of 2 damage cards typed" in need
    # The damage cards: a club is drawn again, then a heart and a spade.
    page.fill("#hex-draft-cards", "AS 2H 3D 4C 5H 6D 7C 8S 9C 10H")
    assert "1 of 2 damage card" in page.inner_text("#hex-draft-cards-need")
    assert page.is_disabled("#hex-record")
    page.fill("#hex-draft-cards", "AS 2H 3D 4C 5H 6D 7C 8S 9C 10H JS")
    assert "(1 club drawn again)" in page.inner_text("#hex-draft-cards-need")
    shot(page, "typed")
    page.click("#hex-record")
    page.wait_for_selector("#hex-steps [data-step='2']")
    assert gauges(page, "vigil") == {
        "Shields": "15/16 · up",
        "Weapons": "16/16 · 8-card salvo",
        "Propulsion": "7/8 · can jump",
    }
    log = page.locator(f"{card(page, 'vigil')} .hex-ship-log li").all_inner_texts()
    assert log[1].startswith("2. Warden fires 8 cards at Vigil")
    assert any("loses a shield point (15 left)" in line for line in log)
    assert page.input_value("#hex-draft-cards") == ""
    assert page.locator(".hex-jump").is_hidden()
    for size in (LAPTOP, PHONE):
        page.set_viewport_size(size)
        shot(page, f"by-hand-{size['width']}")
    # On a phone the ships come first: a link leads down to the next step.
    page.evaluate("window.scrollTo(0, 0)")
    assert page.inner_text(".hex-jump") == "Record step 3 ↓"
    page.click(".hex-jump")
    page.wait_for_function(
        "document.querySelector('#hex-draft').getBoundingClientRect().top < innerHeight"
    )
    shot(page, "by-hand-phone-next-step")


def test_a_bad_card_is_flagged_and_a_refused_step_changes_nothing(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_hex(open_page)
    page.select_option("#hex-draft-kind", "raise_shields")
    page.fill("#hex-draft-cards", "KS ZZ")
    assert page.locator("#hex-draft .hex-chip.bad").inner_text() == "ZZ"
    assert "“ZZ” is not a card" in page.inner_text("#hex-draft-cards-need")
    assert page.is_disabled("#hex-record")
    page.fill("#hex-draft-cards", "KS KS")
    assert "K♠ is typed twice" in page.inner_text("#hex-draft-cards-need")
    page.fill("#hex-draft-cards", "KS QS")
    page.click("#hex-record")
    page.wait_for_selector("#hex-steps [data-step='1']")
    # The same king again before the deck is shuffled: warned of as it is typed, naming the
    # card and the step that drew it; recorded, it is settled as typed and warned of again.
    page.select_option("#hex-draft-ship", "warden")
    assert page.is_hidden("#hex-draft-twice")
    page.fill("#hex-draft-cards", "KS 2S")
    twice = page.inner_text("#hex-draft-twice")
    assert twice == (
        "Check the cards: K♠ already came out at step 1 and the deck has not been shuffled since."
    )
    shot(page, "warned-before-recording")
    page.click("#hex-record")
    warning = page.locator("#hex-steps [data-step='2'] .hex-warning")
    warning.wait_for()
    assert "K♠ again" in warning.inner_text() and "card 3 of the script" in warning.inner_text()
    assert "cards[" not in warning.inner_text()
    page.click("#hex-steps [data-step='2'] .hex-undo")
    page.wait_for_selector("#hex-steps [data-step='2']", state="detached")
    # Warden set up with 5 of its 8 propulsion cells lost: it may not jump any more.
    warden = card(page, "warden")
    page.click(f"{warden} .hex-setup summary")
    page.fill(f"{warden} input[name='propulsion_lost']", "5")
    page.press(f"{warden} input[name='propulsion_lost']", "Tab")
    page.wait_for_function(
        "document.querySelector(\"[data-ship='warden']\").textContent.includes('3/8')"
    )
    assert gauges(page, "warden")["Propulsion"] == "3/8 · cannot jump"
    # Recorded all the same, the jump is refused by the server, at step 2, and not kept.
    page.select_option("#hex-draft-ship", "warden")
    page.select_option("#hex-draft-kind", "jump")
    page.click("#hex-record")
    error = page.locator("#hex-draft .hex-error:not([hidden])")
    error.wait_for()
    assert error.inner_text() == (
        "step 2 (jump warden): Warden has 3 of 8 propulsion cells: it needs half of them to jump"
    )
    assert page.locator("#hex-steps .hex-step[data-step]").count() == 1
    assert "in the battle" in page.inner_text(f"{warden} h3")
    shot(page, "refused")
    # A recorded step's cards corrected: the step is settled again (a red and a black
    # card of different ranks: the shields stay down).
    page.fill("#hex-step-1-cards", "KS 2D")
    page.press("#hex-step-1-cards", "Tab")
    page.wait_for_function(
        "document.querySelector(\"[data-ship='vigil'] .hex-gauge-value\").textContent"
        ".endsWith('down')"
    )
    told = page.inner_text("#hex-steps [data-step='1']")
    assert "K♠ 2♦, one red, one black, not a pair — they stay down" in told
    # Changed to a line with a bad card: refused there, the step kept as it was.
    page.fill("#hex-step-1-cards", "KS XX")
    page.press("#hex-step-1-cards", "Enter")
    page.wait_for_selector("#hex-steps [data-step='1'] .hex-error:not([hidden])")
    assert "“XX” is not a card" in page.inner_text("#hex-steps [data-step='1'] .hex-error")
    assert page.input_value("#hex-step-1-cards") == "KS 2D"


def test_the_game_menu_switches_between_hex_fleet_and_the_other_referees(
    open_page: OpenPage,
) -> None:
    page = open_hex(open_page)
    import_script(page, EXAMPLES / "hexfleet-benellyn.json")
    page.select_option("#ruleset", "lightspeed")
    page.wait_for_selector(".add-ship", state="visible")
    assert page.locator("#hex-table").is_hidden() and page.locator("#table").is_visible()
    # Back to hex fleet: the script recorded is still there.
    page.select_option("#ruleset", "hexfleet")
    # Switching game loads its module first: await the hex table's steps.
    page.wait_for_selector("#hex-steps [data-step='11']", state="visible")
    assert page.locator("#table").is_hidden()
    # A Faster Than Light turn file imported from here opens the FTL referee.
    page.set_input_files("#hex-import-file", str(EXAMPLES / "ftl-collision.json"))
    page.wait_for_selector("#ftl-piece-list li")
    assert page.locator("#hex-table").is_hidden()
    assert page.input_value("#ruleset") == "ftl"


def test_a_refused_script_is_named_and_changes_nothing(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_hex(open_page)
    import_script(page, EXAMPLES / "hexfleet-benellyn.json")
    before = page.inner_text("#hex-table .hex-ship-grid")
    data = json.loads((EXAMPLES / "hexfleet-skirmish.json").read_text(encoding="utf-8"))
    data["cards"] = data["cards"][:5]
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    page.set_input_files("#hex-import-file", str(bad))
    error = page.locator("#hex-table .hex-error:not([hidden])")
    error.wait_for()
    assert error.inner_text().startswith("short.json: the cards ran out at step ")
    assert page.inner_text("#hex-table .hex-ship-grid") == before
    assert page.locator("#hex-steps [data-step='11']").is_visible()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_end_of_a_combat_shows_over_the_table(
    open_page: OpenPage, shot: Shot, size: ViewportSize
) -> None:
    """Issue 20 item 22: once a step leaves one side alone in the battle, who won, how,
    the strength left and what to do next show where the referee looks, not nowhere."""
    page = open_hex(open_page, viewport=size)
    # A step that leaves both sides in the battle ends nothing.
    page.select_option("#hex-draft-ship", "vigil")
    page.select_option("#hex-draft-kind", "raise_shields")
    page.fill("#hex-draft-cards", "KS 2D")
    page.click("#hex-record")
    page.wait_for_selector("#hex-steps [data-step='1']")
    assert page.locator("#hex-end-card:not([hidden])").count() == 0
    # Warden jumps out: red is the last side in the battle.
    page.select_option("#hex-draft-ship", "warden")
    page.select_option("#hex-draft-kind", "jump")
    page.click("#hex-record")
    card = page.locator("#hex-end-card")
    card.wait_for(state="visible")
    assert page.inner_text("#hex-end-card #winner") == "red wins"
    assert page.inner_text("#hex-end-reason") == (
        "red is the only side left with a ship that can fight."
    )
    assert page.inner_text("#hex-end-strength") == "Strength left: red 100%, blue 100%"

    # An imported combat that ended: its result from what the server resolved.
    result = resolved(EXAMPLES / "hexfleet-skirmish.json")
    import_script(page, EXAMPLES / "hexfleet-skirmish.json")
    page.wait_for_function(
        "document.querySelector('#hex-end-strength')?.textContent.includes('31%')"
    )
    left = {"red": 0, "blue": 0}
    full = {"red": 0, "blue": 0}
    for ship in result["ships"].values():
        most = {"light": (8, 16), "medium": (12, 12), "heavy": (16, 8)}[ship["class"]]
        systems = 16 if ship["weapon_size"] == "heavy" else 8
        full[ship["owner"]] += most[0] + systems + most[1]
        if ship["status"] != "wrecked":
            left[ship["owner"]] += ship["shields"] + ship["weapons"] + ship["propulsion"]
    shares = ", ".join(f"{side} {round(100 * left[side] / full[side])}%" for side in left)
    assert page.inner_text("#hex-end-strength") == f"Strength left: {shares}"
    assert page.inner_text("#hex-end-card #winner") == "red wins"
    # Where the referee looks: the title and the buttons inside the window.
    for selector in ("#hex-end-card #winner", "#hex-end-export", "#hex-end-new"):
        box = page.locator(selector).bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], selector
    shot(page, f"end-{size['width']}")
    # Folded to look at the ships, then a new combat from the card.
    page.click("#hex-end-card .end-card-fold")
    assert page.locator("#hex-end-card .end-reason").is_hidden()
    page.click("#hex-end-card .end-card-fold")  # "Show the result"
    page.click("#hex-end-new")
    card.wait_for(state="hidden")
    page.wait_for_selector("#hex-steps li.muted")
    assert page.inner_text("#hex-steps") == "No step recorded yet."
