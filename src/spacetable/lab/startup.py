"""How fast commands start: ``spacetable bench --startup`` calls :func:`run_startup_bench`.

Each command runs ``runs`` times as a fresh process, as a user types it; what is measured
is the processor time of the whole process (user and system, of it and any process it
waits for, read from ``os.wait4``) and its wall time, and the median of the runs is
reported beside the target issue 33 set. The commands: ``spacetable --help``,
``spacetable resolve`` of the rulebook's sample table, and ``spacetable photo --resolve``
of a synthetic 12-megapixel photo (rendered once, before any run is timed).

The commands run with Python's bytecode cache on, as an installed ``spacetable`` runs: a
``PYTHONDONTWRITEBYTECODE`` in the bench's environment (some machines set it) is left out
of theirs, since with it every process compiles every module it imports again and
``--help`` took twice its time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The sample table every ``resolve`` run reads (the rulebook's first figure).
SAMPLE_TABLE = Path(__file__).resolve().parents[3] / "examples" / "fig1-sample-game.json"


@dataclass(frozen=True)
class Command:
    """One command to time: its name in the report, its arguments after ``spacetable``
    and the most processor seconds it should take (issue 33)."""

    name: str
    args: tuple[str, ...]
    target_cpu_s: float


@dataclass(frozen=True)
class Run:
    """One process: its processor seconds (user + system) and wall seconds."""

    cpu_s: float
    wall_s: float


def time_process(argv: Sequence[str]) -> Run:
    """Run ``argv`` to its end, its output discarded, with Python's bytecode cache on (no
    ``PYTHONDONTWRITEBYTECODE``), and return what it cost. Raises ``RuntimeError``
    naming the command when it fails."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    if process.returncode != 0:
        said = errors.decode(errors="replace").strip().splitlines()[-1:] or ["(nothing)"]
        raise RuntimeError(f"{' '.join(argv)} failed ({process.returncode}): {said[0]}")
    return Run(usage.ru_utime + usage.ru_stime, wall)


def write_photo(path: Path, seed: int = 7) -> None:
    """Write the synthetic 12-megapixel photo of ``seed`` as a JPEG at ``path``."""
    import cv2

    from spacetable.photo import synth

    shot = synth.render(seed)
    if not cv2.imwrite(str(path), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 92]):
        raise RuntimeError(f"cannot write the photo {path}")


def commands(photo: Path) -> list[Command]:
    """The commands issue 33 times, with ``photo`` for the photo referee."""
    return [
        Command("spacetable --help", ("--help",), 0.3),
        Command("spacetable resolve (sample table)", ("resolve", str(SAMPLE_TABLE)), 0.6),
        Command("spacetable photo --resolve (12 MP)", ("photo", str(photo), "--resolve"), 1.5),
    ]


def run_startup_bench(
    runs: int = 5,
    executable: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Time each command ``runs`` times in fresh processes of ``executable`` (default: this
    Python running ``spacetable``) and return, per command, the median processor and
    wall seconds, every run's, the target and whether the median meets it."""
    program = list(executable or (sys.executable, "-m", "spacetable"))
    result: dict[str, Any] = {"runs": runs, "commands": {}}
    with tempfile.TemporaryDirectory(prefix="spacetable-startup-") as folder:
        photo = Path(folder) / "table-12mp.jpg"
        if progress:
            progress("rendering a 12-megapixel photo...")
        write_photo(photo)
        for command in commands(photo):
            if progress:
                progress(f"timing {command.name} ({runs} runs)...")
            time_process([*program, *command.args])  # the first run fills the caches
            timed = [time_process([*program, *command.args]) for _ in range(runs)]
            cpu = statistics.median(run.cpu_s for run in timed)
            result["commands"][command.name] = {
                "cpu_s": round(cpu, 3),
                "wall_s": round(statistics.median(run.wall_s for run in timed), 3),
                "cpu_s_each": [round(run.cpu_s, 3) for run in timed],
                "target_cpu_s": command.target_cpu_s,
                "meets_target": cpu < command.target_cpu_s,
            }
    return result
