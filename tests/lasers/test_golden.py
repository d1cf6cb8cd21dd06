"""Golden files, stored and compared on every run: every example table's full result and
event log, and a Stellar Conflict playthrough (a scenario and seed played by bots: its
action log and event log).

Regenerate after an intended change (rules, catalogs, bots) with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest tests/lasers/test_golden.py`` and review the diff like
any other change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers.arena import play_stellar_match
from spacetable.games.stellar import StellarMatch, StellarOptions
from spacetable.lasers.tables import load_table
from tests._paths import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
EXAMPLES = [
    p for p in EXAMPLES if json.loads(p.read_bytes()).get("ruleset") in ("lightspeed", "stellar")
]
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1"

#: The Stellar Conflict playthrough: three races in a Dispute under the countdown, with
#: Stolen Goods, played by random bots (they choose with the seeded generator only, so the
#: log is the same on every machine). Seed 19 was picked because, with the catalogs of its
#: time, the countdown froze cards that were dropped, an ion laser delayed a ship, cargo was
#: stolen and stolen goods changed hands.
PLAYTHROUGH = GOLDEN / "stellar-playthrough.json"
PLAYTHROUGH_SCENARIO: dict[str, Any] = {
    "bots": ["random", "random", "random"],
    "seed": 19,
    "options": {
        "players": ["red", "blue", "green"],
        "races": ["wiss", "hexai", "vak"],
        "battle_size": "dispute",
        "deployment": "timer",
        "stolen_goods": True,
    },
}


@pytest.mark.parametrize("table_path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_table_matches_its_golden_log(table_path: Path) -> None:
    result = load_table(table_path).resolve().to_json()
    golden = GOLDEN / f"{table_path.stem}.result.json"
    if UPDATE:
        golden.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    # Compare through JSON so tuples and lists, ints and floats compare as stored.
    assert json.loads(json.dumps(result)) == expected


def test_there_are_golden_logs_for_several_rulesets() -> None:
    stems = {p.stem for p in EXAMPLES}
    assert {
        "fig1-sample-game",
        "four-player-melee",
        "piracy-duel",
        "stellar-cargo-raid",
        "stellar-wiss-vs-hexai",
        "two-small-asteroids",
    } <= stems


def _json(value: Any) -> Any:
    """``value`` as it reads back from a JSON file (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))


def test_stellar_playthrough_matches_its_golden_log() -> None:
    scenario = PLAYTHROUGH_SCENARIO
    options = StellarOptions.from_json(scenario["options"])
    bots = [make_bot(level) for level in scenario["bots"]]
    match = play_stellar_match(bots, scenario["seed"], options)
    outcome = match.result()
    assert outcome is not None
    played = _json(
        {
            "scenario": scenario,
            "actions": [a.to_json() for a in match.actions],
            "events": [e.to_json() for e in match.events],
            "scores": outcome.scores,
            "winner": outcome.winner,
        }
    )
    if UPDATE:
        PLAYTHROUGH.write_text(json.dumps(played, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(PLAYTHROUGH.read_text(encoding="utf-8"))
    assert stored["scenario"] == _json(scenario)
    # The match machine: the stored action log replays to the stored event log.
    replayed = StellarMatch.replay(options, scenario["seed"], stored["actions"])
    assert _json([e.to_json() for e in replayed.events]) == stored["events"]
    # The bots: they still play this scenario move for move.
    assert played == stored
