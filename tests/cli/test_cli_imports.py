"""Imports on demand: the command line starts at once because it imports what a command
uses only when that command runs (docs/performance.md, "Starting a command")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spacetable.registry import BUILTIN, Listing

#: What ``import spacetable.cli`` must not load: each costs a tenth of a second or more,
#: and most commands never use it.
HEAVY = ("numba", "cv2", "reportlab", "svglib", "sqlalchemy", "ray", "fastapi", "pydantic")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys; print(json.dumps(list(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_command_line_loads_no_heavy_library_and_no_game() -> None:
    loaded = modules_after("import spacetable.cli")
    assert not {name for name in loaded if name.split(".")[0] in HEAVY}
    assert not {name for name in loaded if name.startswith("spacetable.games")}


def test_a_game_loads_without_its_bots_or_its_duels() -> None:
    """``spacetable resolve`` of a table loads that game's rules and drawing, not the
    numba kernels its bots and duels use (they load on first use)."""
    loaded = modules_after("from spacetable.registry import game; game('lightspeed')")
    assert "numba" not in loaded and "spacetable.bots.lasers.greedy" not in loaded
    assert "spacetable.games.ftl" not in loaded  # another game: not loaded


@pytest.mark.parametrize("listing", BUILTIN, ids=lambda listing: listing.key)
def test_each_listing_says_what_its_game_does(listing: Listing) -> None:
    """The help is read off the listings: each must say what the loaded game says."""
    assert Listing.of(listing.load(), listing.module) == listing
