"""The ``spacetable`` command as a user runs it: a real process in the project folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Long enough for a slow, busy machine; a command that hangs (reading a FIFO, say) fails.
HANG_S = 60


def spacetable(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``spacetable ARGS...`` and return what it printed and its exit status."""
    return subprocess.run(
        [sys.executable, "-m", "spacetable", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=HANG_S,
    )
