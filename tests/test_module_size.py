"""No module over 600 lines (issue 68 item 5; STYLE.md): a module a reader takes in whole
holds one thing; a longer one is split along what it holds (``store/live_store.py``'s
tables and writes, the hex fleet room's acting), never in arbitrary halves.

:data:`LEFT_FOR_LATER` names, with the reason, a module still over the bound while its
owner's work is under way (an entry may outlive its module: take it off then).
"""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "spacetable"
#: The most lines a module may have.
MAX_LINES = 600
#: Modules still over :data:`MAX_LINES`, and why.
LEFT_FOR_LATER: dict[str, str] = {}


def modules() -> list[str]:
    """Every Python and JavaScript module of the package, as a path under ``src/spacetable``."""
    found = [*SRC.rglob("*.py"), *SRC.rglob("*.js")]
    return sorted(p.relative_to(SRC).as_posix() for p in found if "__pycache__" not in p.parts)


def lines_of(module: str) -> int:
    """How many lines the module at ``module`` has."""
    return len((SRC / module).read_text("utf-8").splitlines())


@pytest.mark.parametrize("module", [m for m in modules() if m not in LEFT_FOR_LATER])
def test_a_module_has_at_most_600_lines(module: str) -> None:
    assert lines_of(module) <= MAX_LINES, f"{module}: split it along what it holds"
