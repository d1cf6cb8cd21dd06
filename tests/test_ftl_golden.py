"""Golden files for FTL turn files: every ``examples/*.json`` whose ruleset is ``ftl``,
resolved, stored whole (pieces, result and event log) and compared on every run.

Regenerate after an intended change with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest tests/test_ftl_golden.py`` and review the diff
like any other change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spacetable.games.ftl import resolve_turn_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [
    p
    for p in sorted((ROOT / "examples").glob("*.json"))
    if json.loads(p.read_bytes()).get("ruleset") == "ftl"
]
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1"


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
