"""Golden files for hex fleet combat scripts: every ``examples/*.json`` whose ruleset is
``hexfleet``, resolved, its ``resolve --json`` object and its account stored whole and
compared on every run; and the rulebook's combat example (Benellyn against the Kal Pol)
checked step by step against what its narrative says.

Regenerate after an intended change with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest tests/games/hexfleet/test_hexfleet_golden.py``
and review the diff like any other change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from spacetable.games.hexfleet.events import event_from_json
from spacetable.games.hexfleet.script import read
from spacetable.games.hexfleet.script_account import account
from tests._paths import ROOT

EXAMPLES = [
    p
    for p in sorted((ROOT / "examples").glob("*.json"))
    if json.loads(p.read_bytes()).get("ruleset") == "hexfleet"
]
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1"
BENELLYN = ROOT / "examples" / "hexfleet-benellyn.json"


def _settled(path: Path) -> tuple[dict[str, Any], list[str]]:
    script = read(json.loads(path.read_bytes()))
    result = script.resolve()
    return json.loads(json.dumps(result.to_json())), account(script, result)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_script_matches_its_golden_result_and_account(path: Path) -> None:
    result, told = _settled(path)
    golden_json = GOLDEN / f"{path.stem}.result.json"
    golden_text = GOLDEN / f"{path.stem}.account.txt"
    if UPDATE:
        golden_json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", "utf-8")
        golden_text.write_text("\n".join(told) + "\n", encoding="utf-8")
    assert result == json.loads(golden_json.read_text(encoding="utf-8"))
    assert told == golden_text.read_text(encoding="utf-8").splitlines()


def test_the_examples_cover_the_rulebook_example_a_wreck_and_a_reshuffle() -> None:
    assert {p.stem for p in EXAMPLES} >= {"hexfleet-benellyn", "hexfleet-skirmish"}
    types = set()
    for path in EXAMPLES:
        types |= {e["type"] for e in _settled(path)[0]["events"]}
    assert types >= {"shields", "hail", "fire", "damage", "reshuffle", "jump", "wrecked"}


def test_events_round_trip_through_json() -> None:
    for path in EXAMPLES:
        for stored in _settled(path)[0]["events"]:
            assert json.loads(json.dumps(event_from_json(stored).to_json())) == stored


def _systems(ship: dict[str, Any]) -> tuple[int, int, int]:
    return ship["shields"], ship["weapons"], ship["propulsion"]


def test_the_rulebook_example_replays_as_its_narrative_tells_it() -> None:
    data = json.loads(BENELLYN.read_bytes())
    script = read(data)
    # Replay the script one step longer each time, to read the ships after every step.
    after: list[dict[str, Any]] = []
    for n in range(1, len(script.steps) + 1):
        partial = read({**data, "steps": data["steps"][:n]}).resolve().to_json()
        after.append(partial["ships"])
    steps = script.resolve().to_json()["steps"]
    spades = [sum(c.endswith("S") for c in s["cards"]) for s in steps]
    damage = [[d["card"][-1] for d in s.get("damage", [])] for s in steps]

    # Red alert: the Benellyn raises her shields with the king and ten of spades.
    assert steps[0]["cards"] == ["KS", "10S"] and steps[0]["success"]
    assert after[0]["benellyn"]["shields_up"]
    # The Kal Pol's first salvo: eight cards, two spades get through 100% shields; a club
    # is drawn again among the damage cards, then a heart and a spade.
    assert steps[1]["kind"] == "fire" and len(steps[1]["cards"]) == 8
    assert steps[1]["suits"] == "S" and spades[1] == 2 and steps[1]["hits"] == 2
    assert "C" in damage[1] and sorted(d for d in damage[1] if d != "C") == ["H", "S"]
    assert _systems(after[1]["benellyn"]) == (15, 16, 7)  # propulsion down to seven hexes
    # Her second salvo: no spades; the slightly damaged shields hold.
    assert spades[2] == 0 and steps[2]["hits"] == 0
    # The Benellyn answers three times, one spade each: spade, spade, then a heart.
    for index, struck in ((3, ["S"]), (4, ["S"]), (5, ["H"])):
        assert steps[index]["ship"] == "benellyn" and len(steps[index]["cards"]) == 8
        assert spades[index] == 1 and damage[index] == struck
    assert after[4]["kal-pol"]["propulsion"] == 6  # she has lost 25% of her movement
    assert _systems(after[5]["kal-pol"]) == (15, 16, 6)  # her first shield point gone
    # The Kal Pol: no spades, then four: two diamonds and two spades.
    assert spades[6] == 0 and spades[7] == 4
    assert sorted(damage[7]) == ["D", "D", "S", "S"]
    assert _systems(after[7]["benellyn"]) == (15, 14, 5)
    # Up to 25% of her weapons lost: the Benellyn turns six cards; one spade, a heart.
    assert len(steps[8]["cards"]) == 6 and spades[8] == 1 and damage[8] == ["H"]
    assert after[8]["kal-pol"]["shields"] == 14 and after[8]["kal-pol"]["shields_up"]
    # Five spades: two diamonds, two hearts and a spade.
    assert spades[9] == 5 and sorted(damage[9]) == ["D", "D", "H", "H", "S"]
    benellyn = after[9]["benellyn"]
    assert _systems(benellyn) == (13, 12, 4)
    # Half her propulsion cells gone: she may still jump, and one more would stop her.
    assert benellyn["can_jump"] and benellyn["propulsion"] * 2 == 8
    assert steps[10] == {**steps[10], "kind": "jump", "ship": "benellyn", "success": True}
    assert not after[10]["benellyn"]["on_table"]
    # Every card came from a deck: none twice before the pile ran out.
    assert len(set(data["cards"][: data["pile"]])) == data["pile"]
    assert len(set(data["cards"][data["pile"] :])) == len(data["cards"]) - data["pile"]
