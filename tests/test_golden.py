"""Golden battles: every example table's full result and event log, stored and compared.

Regenerate after an intended rules change with ``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest
tests/test_golden.py`` and review the diff like any other change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spacetable.tables import load_table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("table_path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_table_matches_its_golden_log(table_path: Path) -> None:
    result = load_table(table_path).resolve().to_json()
    golden = GOLDEN / f"{table_path.stem}.result.json"
    if os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1":
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
        "two-small-asteroids",
    } <= stems
