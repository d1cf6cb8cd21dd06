"""Imports on demand: the command line starts at once because it imports what a command
uses only when that command runs (docs/performance.md, "Starting a command")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spacetable.cli import COMMANDS
from spacetable.registry import BUILTIN, GameCommand, Listing
from spacetable.registry._listing import load

#: What ``import spacetable.cli`` must not load: each costs a tenth of a second or more,
#: and most commands never use it.
HEAVY = (
    *("numba", "cv2", "reportlab", "svglib", "sqlalchemy", "ray", "fastapi", "pydantic"),
    *("babel", "pebble", "asyncio", "rich"),
)


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
    # The commands' own modules load when they run.
    assert not {name for name in loaded if name.startswith("spacetable.cli.")} - {
        "spacetable.cli._common"
    }


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.name)
def test_each_command_is_listed_by_the_first_paragraph_of_its_help(command: GameCommand) -> None:
    """``spacetable --help`` lists every command without importing it: each summary must
    say what the command's own help says first (typer's short help)."""
    paragraph = (load(command.target).__doc__ or "").strip().split("\n\n", 1)[0]
    assert command.summary == " ".join(paragraph.split())


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


def test_the_server_starts_without_opencv_the_kernels_or_the_drawings() -> None:
    """``spacetable serve`` imports the photo reader (OpenCV) and the rules page's drawings
    when a photo or a figure is first asked for (the photo reader in the referee's fork
    server), the bots' numba kernels when a bot first plays, Redis only for a cluster
    (``--redis``)."""
    loaded = modules_after("import spacetable.server.app")
    assert not {
        name
        for name in loaded
        if name.split(".")[0] in ("cv2", "numba", "reportlab", "ray", "redis")
    }
    assert not {"spacetable.photo.table", "spacetable.render.rules_figures"} & loaded
