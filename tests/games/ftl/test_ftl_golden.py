"""Golden files for FTL turn files: every ``examples/*.json`` whose ruleset is ``ftl``,
resolved, stored whole (pieces, result and event log) and compared on every run.

Regenerate after an intended change with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest tests/games/ftl/test_ftl_golden.py`` and review the diff
like any other change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spacetable.games.ftl import FtlMatch, resolve_turn_file
from spacetable.games.ftl.events import event_from_json
from tests._paths import ROOT
from tests.games.ftl.test_ftl_match import events_json, random_match

EXAMPLES = [
    p
    for p in sorted((ROOT / "examples").glob("*.json"))
    if json.loads(p.read_bytes()).get("ruleset") == "ftl"
]
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1"
#: A three-player match of random plots (seed 2): launches, contacts, hits, removals, plots
#: replaced and taken back, the plot timer, and a player driven off the table.
PLAYTHROUGH = GOLDEN / "ftl-playthrough.json"


@pytest.mark.parametrize("turn_path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_turn_matches_its_golden_result(turn_path: Path) -> None:
    result = resolve_turn_file(turn_path.read_bytes())
    golden = GOLDEN / f"{turn_path.stem}.result.json"
    if UPDATE:
        golden.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert json.loads(json.dumps(result)) == expected


def test_there_are_golden_turns_for_each_kind_of_contact() -> None:
    assert {p.stem for p in EXAMPLES} >= {
        "ftl-sprint-hits-missile",
        "ftl-two-tapes-one-ship",
        "ftl-collision",
        "ftl-launch-and-turn",
    }
    effects = set()
    for path in EXAMPLES:
        stored = json.loads((GOLDEN / f"{path.stem}.result.json").read_text(encoding="utf-8"))
        effects |= {e["effect"] for e in stored["events"] if e["type"] == "contact"}
    assert effects >= {"ship-on-missile", "missile-on-ship", "collision"}


def test_events_round_trip_through_json() -> None:
    for path in EXAMPLES:
        for stored in resolve_turn_file(path.read_bytes())["events"]:
            assert json.loads(json.dumps(event_from_json(stored).to_json())) == stored


def test_the_ftl_playthrough_matches_its_golden_log() -> None:
    match = random_match(2, ("red", "blue", "green"))
    played = {"record": match.record(), "events": events_json(match)}
    played = json.loads(json.dumps(played))
    if UPDATE:
        PLAYTHROUGH.write_text(json.dumps(played, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(PLAYTHROUGH.read_text(encoding="utf-8"))
    # The match machine: the stored action log replays to the stored event log.
    assert events_json(FtlMatch.from_record(stored["record"])) == stored["events"]
    assert played == stored
