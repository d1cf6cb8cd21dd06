"""The replay of a stored hex fleet battle: two bots fight a duel in a room of the real
server; its replay plays every step to the end and shows the result, the fleets as they
ended and the whole battle in words; it steps back, goes to a turn, shows a salvo's cards,
and reads one ship's log."""

from __future__ import annotations

import math
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser._replay import (
    ann_against_a_bot,
    hex_ann_plays_once_then_leaves,
    pause_and_end_on_a_phone,
    stored_match,
)
from tests.browser._servers import seeded_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet._signs import with_signs
from tests.browser.test_accessibility import _serious_violations as serious_violations

#: The seed of the duel, this module's server's first room: its chits give both sides
#: activations (the blank chit ends a three-turn duel before anyone acts one time in 27).
DUEL_SEED = 1


server = seeded_server("hexfleet-replay", DUEL_SEED)


@pytest.fixture(scope="module")
def duel(server: Server) -> dict[str, Any]:
    """A duel of the tactical bot (ann's seat, once she leaves it) and the easy bot, three
    turns at most (the wait for its end is generous: a loaded machine slows the bots);
    the stored match, the same on every run."""
    stored = _bot_duel(server)
    assert stored["seed"] == DUEL_SEED and len(stored["actions"]) >= 2
    return stored


def _bot_duel(server: Server) -> dict[str, Any]:
    # The seed named: a module fixture is made before the test's own room seeds begin
    # (conftest.RoomSeeds), so it would take the seed after the last test's rooms.
    room = {"ruleset": "hexfleet", "seats": 2, "scenario": "duel", "turn_limit": 3}
    room["seed"] = DUEL_SEED
    with ann_against_a_bot(server, room, "easy") as ann:
        result = hex_ann_plays_once_then_leaves(ann)
    return stored_match(server, result["match_id"])


def lines_up_to(frames: list[dict[str, Any]], index: int) -> list[str]:
    return [with_signs(line["text"]) for frame in frames[: index + 1] for line in frame["log"]]


def ship_states(page: Page) -> dict[str, str]:
    items = page.locator(".hx-fleet li")
    return {
        item.get_attribute("data-ship") or "": item.locator(".hx-ship-state").inner_text()
        for item in items.all()
    }


def test_a_stored_bot_battle_replays_to_its_result(
    duel: dict[str, Any], open_page: OpenPage, shot: Shot
) -> None:
    stored = duel
    assert stored["ruleset"] == "hexfleet"
    frames = stored["events"]
    steps = len(frames) - 1
    result = stored["result"]

    page = open_page(f"/replay/{stored['id']}", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(".hx-replay-controls")
    page.select_option(".hx-speed", "4")
    page.wait_for_selector("body[data-phase=over]", timeout=90_000)
    shot(page, "end")

    winner = f"{result['winner']} wins" if result["winner"] else "A draw"
    verdict = page.inner_text("#hx-result")
    assert verdict.startswith(winner)
    for side, share in result["strength"].items():
        assert f"{side} {math.floor(share * 100 + 0.5)}%" in verdict  # rounded half up
    assert page.inner_text(".hx-position") == f"Step {steps} of {steps} · turn {frames[-1]['turn']}"
    assert page.locator(".hx-line").all_inner_texts() == lines_up_to(frames, steps)
    final = {s["id"]: s for s in frames[-1]["ships"]}
    for ship_id, state in ship_states(page).items():
        ship = final[ship_id]
        if ship["status"] == "table":
            assert f"weapons {ship['weapon_systems']}/{ship['weapon_systems_max']}" in state
            assert f"propulsion {ship['propulsion']}/{ship['propulsion_max']}" in state

    # One step back (the left arrow key): the log loses the last step's lines.
    page.keyboard.press("ArrowLeft")
    assert page.inner_text(".hx-position").startswith(f"Step {steps - 1} of {steps}")
    assert page.locator(".hx-line").all_inner_texts() == lines_up_to(frames, steps - 1)
    assert page.get_attribute("body", "data-phase") == "battle"

    # The first turn in the chooser (turn 1, or 2 when the blank came out first): the start,
    # the fleets untouched.
    page.select_option(".hx-turn-chooser", label=str(frames[0]["turn"]))
    assert page.inner_text(".hx-position") == f"Start · {steps} steps"
    assert page.locator(".hx-line").all_inner_texts() == lines_up_to(frames, 0)
    assert all("shields 16/16" in state for state in ship_states(page).values())

    # Forward to the first salvo: its cards are on the table, its hits lit.
    salvo = next(
        (i for i, f in enumerate(frames) if any(e["type"] == "fire" for e in f["events"])), None
    )
    if salvo is not None:
        for _ in range(salvo):
            page.click("[data-step='next']")
        fire = next(e for e in frames[salvo]["events"] if e["type"] == "fire")
        damage = [e for e in frames[salvo]["events"] if e["type"] == "damage"]
        page.wait_for_selector(".hx-tray-cards.hx-done")
        assert page.locator(".hx-tray .hx-fire-cards .hx-card.up").count() == len(fire["cards"])
        assert page.locator(".hx-tray .hx-fire-cards .hx-card.hit").count() == fire["hits"]
        assert page.locator(".hx-tray .hx-damage-cards .hx-card.up").count() == len(damage)
        shot(page, "salvo")

    # A ship's name in the fleets shows its log.
    page.click(".hx-fleet li[data-ship='2'] button")
    kal_pol = [
        with_signs(line["text"])
        for frame in frames[: (salvo or 0) + 1]
        for line in frame["log"]
        if "2" in line["ships"]
    ]
    assert page.locator(".hx-line:visible").all_inner_texts() == kal_pol
    assert page.input_value(".hx-log-chooser") == "2"
    # ...and outlines it on the board.
    kal_pol_ship = next(s for s in frames[salvo or 0]["ships"] if s["id"] == "2")
    if kal_pol_ship["status"] == "table":
        q, r = kal_pol_ship["at"]
        assert page.get_attribute(".hex.selected", "data-hex") == f"{q},{r}"


def test_a_hex_fleet_replay_on_a_phone(
    duel: dict[str, Any], open_page: OpenPage, shot: Shot
) -> None:
    stored = duel
    page = open_page(f"/replay/{stored['id']}", viewport={"width": 390, "height": 844})
    page.wait_for_selector(".hx-replay-controls")
    pause_and_end_on_a_phone(page, ".hx-position", "Step ", shot)  # its first step played
    # The cards turned under the board push what follows it down, by screens in a salvo:
    # the buttons stay on the first screen at every step (they went down with the cards,
    # off it, as the steps played).
    page.click("[data-step='first']")
    steps = len(stored["events"]) - 1  # the first frame is the start
    for step in range(1, steps + 1):
        page.click("[data-step='next']")
        page.wait_for_function(
            "s => document.querySelector('.hx-position').textContent.startsWith(s)",
            arg=f"Step {step} of {steps}",
        )
        page.evaluate("window.scrollTo(0, 0)")
        play = page.locator("[data-step='play']").bounding_box()
        assert play is not None and play["y"] + play["height"] <= 844, (step, play)
    shot(page, "last-step-first-screen")
    page.click(".hx-logs summary")  # the log drawer, closed on a phone
    assert page.locator(".hx-logs .hx-line").last.is_visible()
    shot(page, "end")


def test_the_hex_fleet_replay_is_accessible(duel: dict[str, Any], open_page: OpenPage) -> None:
    page = open_page(f"/replay/{duel['id']}")
    page.wait_for_selector(".hx-replay-controls")
    page.click("[data-step='last']")
    page.wait_for_selector(".hx-tray-cards.hx-done", state="attached")
    found = serious_violations(page)
    assert not found, "\n".join(found)
