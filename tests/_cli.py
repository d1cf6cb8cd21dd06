"""The ``spacetable`` command as a user runs it: a process of its own in the project folder
(forked from one that has imported the package, tests/_forks.py: what a command imports
is tested apart, tests/cli/test_cli_imports.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests._forks import run

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
    return run([str(arg) for arg in args], env=env, timeout=HANG_S)
