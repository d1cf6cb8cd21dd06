"""``spacetable bench --startup``: the processor time of whole command processes (issue 33).
The commands themselves are timed by the bench, outside the suite; here a stand-in
program shows what the bench measures, reports and refuses."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacetable.cli import app
from spacetable.lab import startup
from spacetable.lab.startup import run_startup_bench, time_process


def test_a_process_is_measured_by_its_own_processor_time() -> None:
    busy = time_process([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"])
    quick = time_process([sys.executable, "-S", "-c", "pass"])
    assert busy.cpu_s > quick.cpu_s > 0
    assert busy.wall_s > 0


def test_a_command_that_fails_is_named_with_what_it_said() -> None:
    with pytest.raises(RuntimeError, match=r"failed \(3\): no such table"):
        time_process(
            [sys.executable, "-c", "import sys; print('no such table', file=sys.stderr); exit(3)"]
        )


def test_the_commands_run_with_the_bytecode_cache_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine that sets PYTHONDONTWRITEBYTECODE made every timed process compile its
    modules again (``--help`` measured at twice its time): the bench leaves it out."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    time_process([sys.executable, "-c", "import sys; sys.exit(sys.dont_write_bytecode)"])


def test_each_command_gets_its_median_and_its_target(monkeypatch: pytest.MonkeyPatch) -> None:
    # A program that starts and does nothing stands for spacetable: every target is met.
    # It reads no photo, so the 12-megapixel one is not rendered (seconds of a core).
    written: list[Path] = []
    monkeypatch.setattr(startup, "write_photo", written.append)
    report = run_startup_bench(runs=3, executable=[sys.executable, "-S", "-c", "pass"])
    assert len(written) == 1  # once, before any run
    rows = report["commands"]
    assert list(rows) == [
        "spacetable --help",
        "spacetable resolve (sample table)",
        "spacetable photo --resolve (12 MP)",
    ]
    assert [row["target_cpu_s"] for row in rows.values()] == [0.3, 0.6, 1.5]
    for row in rows.values():
        assert len(row["cpu_s_each"]) == 3
        assert row["cpu_s"] == sorted(row["cpu_s_each"])[1]
        assert row["meets_target"] is (row["cpu_s"] < row["target_cpu_s"])


def test_the_bench_refuses_no_runs() -> None:
    refused = CliRunner().invoke(app, ["bench", "--startup", "--runs", "0"])
    assert refused.exit_code == 2
    assert "--runs" in refused.output
