"""Lab batches spread over Ray give the same record as the same batch run here."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from spacetable.bots.lasers.arena import NORMAL_GAME
from spacetable.cli import app
from spacetable.core.batch import Call, Runner, run_here
from spacetable.lab.races import run_study
from spacetable.lab.spread import INSTALL_HINT, process_runner, ray_runner
from tests._cli import ROOT, spacetable


def _square(x: int) -> int:
    return x * x


def test_a_batch_run_here_keeps_its_order_and_tells_of_each_call() -> None:
    told: list[tuple[int, int]] = []
    results = run_here([Call(_square, (k,)) for k in range(4)], lambda k, r: told.append((k, r)))
    assert results == [0, 1, 4, 9]
    assert told == [(0, 0), (1, 1), (2, 4), (3, 9)]


@pytest.fixture(scope="module")
def ray_spread() -> Iterator[Runner]:
    """One local Ray for the module's batches."""
    with ray_runner() as runner:
        yield runner


def test_ray_returns_the_results_in_the_batchs_order(ray_spread: Runner) -> None:
    told: dict[int, int] = {}
    calls = [Call(_square, (k,)) for k in range(12)]
    assert ray_spread(calls, lambda k, r: told.__setitem__(k, r)) == [k * k for k in range(12)]
    assert told == {k: k * k for k in range(12)}


def test_the_race_study_on_ray_is_the_study_run_here(ray_spread: Runner) -> None:
    here = run_study(["dispute"], 1, seed=3, setup=NORMAL_GAME)
    spread = run_study(["dispute"], 1, seed=3, setup=NORMAL_GAME, runner=ray_spread)
    assert spread.to_json() == here.to_json()
    assert len(spread.sizes[0].records) == 6


def _record(*extra: str) -> dict[str, Any]:
    done = spacetable(
        "duels", "--bot", "easy", "--against", "greedy", "--duels", "4", "--turns", "6",
        "--seed", "11", "--json", *extra,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    found.pop("decision_seconds")  # each machine thinks at its own speed
    return {"progress": done.stderr, **found}


def test_duels_with_ray_give_the_record_of_the_same_seeds_run_here(ray_spread: Runner) -> None:
    """``duels --ray-address`` joins a running Ray (the module's, whose start is the same
    code as ``--ray``'s: ``ray_runner``) and leaves it running; the record is the one of
    the same seeds run here."""
    import ray

    address = ray.get_runtime_context().gcs_address
    here, spread = _record(), _record("--ray-address", address)
    assert ray.is_initialized()  # the command left the cluster it joined running
    assert ray_spread([Call(_square, (3,))], None) == [9]
    assert {k: v for k, v in spread.items() if k != "progress"} == {
        k: v for k, v in here.items() if k != "progress"
    }
    # The progress names each duel's seed as it finishes, in whatever order that is.
    for seed in range(11, 15):
        assert f"seed {seed}:" in spread["progress"]
    assert "[4/4]" in spread["progress"]


def test_without_ray_the_command_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['ray'] = None; "  # as if the extra were not installed
        "from spacetable.cli import main; sys.argv = ['spacetable', *sys.argv[1:]]; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "duels", "--bot", "easy", "--against", "greedy",
         "--duels", "1", "--ray"],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert INSTALL_HINT in done.stderr
    assert "Traceback" not in done.stderr


def test_a_batch_on_two_processes_keeps_its_order_and_tells_of_each_call() -> None:
    told: dict[int, int] = {}
    with process_runner(2) as runner:
        results = runner([Call(_square, (k,)) for k in range(6)], told.__setitem__)
    assert results == [k * k for k in range(6)]
    assert told == {k: k * k for k in range(6)}


def test_duels_on_two_processes_give_the_record_of_the_same_seeds_run_here() -> None:
    """``duels --jobs 2`` spreads the duels over two processes of this machine: the same
    record as one after another, ``--games`` naming the count as the issue writes it."""
    args = ["--bot", "easy", "--against", "greedy", "--turns", "6", "--seed", "11", "--json"]
    runs = [
        CliRunner().invoke(app, ["duels", *args, *extra])
        for extra in (["--duels", "4"], ["--games", "4", "--jobs", "2"])
    ]
    assert [run.exit_code for run in runs] == [0, 0], runs[1].output
    here, spread = (json.loads(run.stdout) for run in runs)
    assert spread.pop("decision_seconds")["bot"]["decisions"] > 0
    here.pop("decision_seconds")
    assert spread == here
