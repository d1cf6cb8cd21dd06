"""Hostile files handed to the ``spacetable`` command (issue 9, findings 1, 2 and 8): each
is refused with one line on stderr and exit status 2, quickly, without a traceback, and
nothing on stdout; a byte-order mark is accepted as the server accepts it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests._cli import spacetable
from tests.server.hostile._tables import FIG1, HOSTILE, heavy_table, with_moth


def assert_refused(done: subprocess.CompletedProcess[str], path: Path, fragment: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming the file and the problem."""
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert done.stderr.startswith(f"spacetable: error: {path}: ")
    assert fragment in done.stderr


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("command", ["resolve", "render"])
def test_hostile_table_is_refused_in_one_line(tmp_path: Path, name: str, command: str) -> None:
    text, fragment = HOSTILE[name]
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    svg = tmp_path / "out.svg"
    args: list[str | Path] = ["-o", svg, "--battle"] if command == "render" else []
    assert_refused(spacetable(command, path, *args), path, fragment)
    assert not svg.exists()


def test_dev_zero_is_refused_without_reading_it() -> None:
    path = Path("/dev/zero")
    assert_refused(spacetable("resolve", path), path, "not a regular file")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    os.mkfifo(path)
    assert_refused(spacetable("resolve", path), path, "not a regular file")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    assert_refused(spacetable("resolve", tmp_path), tmp_path, "is a directory")


def test_a_file_over_one_mebibyte_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(200 * 1024 * 1024)  # sparse: 200 MB of zeros that take no disk
    assert_refused(spacetable("resolve", path), path, "larger than 1,048,576 bytes")


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + FIG1.read_bytes())
    done = spacetable("resolve", path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == {"red": 4, "blue": 2}


def test_a_table_that_resolves_too_long_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "heavy.json"
    path.write_text(json.dumps(heavy_table()), encoding="utf-8")
    # Seconds to resolve on any machine; the limit is cut so that the test stays short.
    assert_refused(
        spacetable("resolve", path, "--time-limit", "0.2"), path, "took longer than 0.2 s"
    )


def test_the_largest_legal_ship_still_renders(tmp_path: Path) -> None:
    lasers = [{"at": [-31.5 + i * 3, 44.0], "power": 3} for i in range(20)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(with_moth(health=100, speed=list(range(1, 11)), lasers=lasers)))
    svg = tmp_path / "big.svg"
    done = spacetable("render", path, "-o", svg, "--battle")
    assert done.returncode == 0, done.stderr
    assert svg.stat().st_size < 1_000_000
