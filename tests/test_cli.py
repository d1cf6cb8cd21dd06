"""The ``spacetable`` command as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "examples" / "fig1-sample-game.json"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spacetable", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_resolve_tells_the_battle_step_by_step() -> None:
    done = run("resolve", FIG1)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Speed 1: red Moth [red-moth] fires."
    assert any(
        "red Sidewinder [red-sidewinder] fires its 2-power laser #1: it hits blue Ghost" in line
        and "for 2 damage" in line
        for line in lines
    )
    assert "  blue Ghost [blue-ghost] is destroyed: into red's kill pile." in lines
    assert any("a shield blocks it" in line for line in lines)
    assert lines[-2:] == ["Scores: red 4, blue 2", "Winner: red"]


def test_resolve_json_is_the_contract_object() -> None:
    done = run("resolve", FIG1, "--json")
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert set(result) >= {"scores", "winner", "kill_piles", "ships", "asteroids", "events"}
    assert result["ships"]["red-moth"]["rocks"] == 2
    assert result["asteroids"]["asteroid"] == {"rocks": 8}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "malformed JSON at line 1, column 2"),
        (
            '{"ruleset": "lightspeed", "players": ["a", "b", "c", "d", "e"], "cards": []}',
            "'players' must name 2 to 4 players, got 5",
        ),
    ],
)
def test_bad_table_exits_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    done = run("resolve", bad, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    done = run("resolve", tmp_path / "nope.json")
    assert done.returncode == 2
    assert "cannot read the file" in done.stderr


def test_cards_lists_the_fleet() -> None:
    done = run("cards")
    assert done.returncode == 0
    rows = done.stdout.splitlines()
    assert rows[0].split()[:4] == ["key", "name", "speed", "health"]
    names = [row.split()[1] for row in rows[2:12]]
    assert names[0] == "Moth" and "Destroyer" in names and len(set(names)) == 10


def test_every_command_has_help() -> None:
    for command in ("resolve", "render", "cards", "bench"):
        done = run(command, "--help")
        assert done.returncode == 0
        assert "Usage" in done.stdout


def test_render_writes_an_svg_of_the_battle(tmp_path: Path) -> None:
    out = tmp_path / "fig1.svg"
    done = run("render", FIG1, "-o", out, "--battle")
    assert done.returncode == 0, done.stderr
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count('class="card ship"') == 6
    assert "laser power-2" in svg


def test_cards_svg_writes_one_face_per_ship(tmp_path: Path) -> None:
    done = run("cards", "--svg", tmp_path / "faces")
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "faces").glob("*.svg"))) == 10
