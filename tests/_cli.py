"""The ``spacetable`` command as a user runs it: a real process in the project folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A command that hangs (reading a FIFO, say) fails after this long. Generous: a fresh
#: clone compiles the numba kernels on first use, which takes minutes on a busy 2-core
#: machine (60 s timed out there); pytest-timeout still names a test that hangs.
HANG_S = 240


def spacetable(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``spacetable ARGS...`` (with the environment ``env``, default: this one) and
    return what it printed and its exit status."""
    return subprocess.run(
        [sys.executable, "-m", "spacetable", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=HANG_S,
        env=env,
    )
