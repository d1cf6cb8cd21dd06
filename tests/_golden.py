"""Golden files: a stored log compared on every run, rewritten on request.

Regenerate after an intended change (rules, bots, the room's pacing) with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest <the test>`` and review the diff like any
other change."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("SPACETABLE_UPDATE_GOLDEN") == "1"


def room_log_path(game: str, seed: int) -> Path:
    """Where the golden log of a seeded room of ``game`` is kept."""
    return GOLDEN / f"room-{game}-{seed}.json"


def matches_golden(path: Path, log: dict[str, Any]) -> bool:
    """Whether ``log`` is the one stored at ``path`` (with ``SPACETABLE_UPDATE_GOLDEN=1``:
    store it, and say yes)."""
    text = json.dumps(log, indent=1, sort_keys=True) + "\n"
    if UPDATE:
        path.write_text(text)
        return True
    return path.read_text() == text
