"""Work within a time limit (``spacetable._time_limit``): what ``spacetable resolve`` and
the server's referee both stand on. A call that overruns is stopped, wherever it is."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from spacetable._time_limit import (
    OutOfMemory,
    OutOfTime,
    Workers,
    run_within,
)
from tests._loops import run_apart


def _square(n: int) -> int:
    return n * n


def _never_returns() -> None:
    while True:  # pure CPU: no signal handler, no sleep to wake from
        pass


def _refuses(reason: str) -> None:
    raise ValueError(reason)


def _imported(module: str) -> bool:
    return module in sys.modules


def test_a_call_in_time_gives_its_result() -> None:
    assert run_within(5.0, _square, 12) == 144


def test_a_call_that_raises_raises_here() -> None:
    with pytest.raises(ValueError, match="no such ship"):
        run_within(5.0, _refuses, "no such ship")


def test_a_call_that_overruns_is_stopped_and_said_so() -> None:
    started = time.monotonic()
    with pytest.raises(OutOfTime, match=r"took longer than 0\.3 s") as caught:
        run_within(0.3, _never_returns)
    assert caught.value.seconds == 0.3
    assert time.monotonic() - started < 30  # stopped, not waited for


def test_the_workers_go_on_after_one_was_stopped() -> None:
    with Workers() as workers:
        with pytest.raises(OutOfTime):
            workers.call(0.3, _never_returns)
        assert workers.call(5.0, _square, 7) == 49


def test_an_event_loop_awaits_the_workers() -> None:
    async def both() -> tuple[int, BaseException | None]:
        with Workers(fork_server=True, preload=[__name__]) as workers:
            done = await workers.run(5.0, _square, 3)
            stopped = await asyncio.gather(workers.run(0.3, _never_returns), return_exceptions=True)
            return done, stopped[0]

    done, stopped = run_apart(both())
    assert done == 9
    assert isinstance(stopped, OutOfTime)


def test_a_pool_has_its_modules_though_another_pool_started_the_fork_server() -> None:
    # A process has one fork server, started with the first pool's preload: a later pool's
    # workers import their own modules as they start (a photo's worker, under its memory
    # limit, could not map OpenCV's library in its call).
    with Workers(fork_server=True, preload=[__name__]) as first:
        assert first.call(5.0, _square, 2) == 4
    with Workers(fork_server=True, preload=[__name__, "tests._preloaded"]) as second:
        assert second.call(5.0, _imported, "tests._preloaded")


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("nan")])
def test_a_time_limit_must_be_positive(seconds: float) -> None:
    with Workers() as workers, pytest.raises(ValueError, match="must be positive"):
        workers.submit(seconds, _square, 2)


def _waits(seconds: float) -> str:
    time.sleep(
        seconds
    )  # the subject: a call that waits (as on a starved machine) uses no processor
    return "done"


def test_time_spent_waiting_is_not_counted_against_the_limit() -> None:
    # A niced worker on a busy machine waits for a core; the limit counts what it uses.
    assert run_within(0.05, _waits, 0.3) == "done"


#: Memory a worker's call may take in the memory tests below.
CALL_MEMORY = 256 << 20
#: What a call of those tests keeps in its worker after it returns.
_kept: list[bytearray] = []


def _takes(megabytes: int, keep: bool = False) -> int:
    """Allocate (and touch) ``megabytes``; keep them in the worker if asked; the pid."""
    block = bytearray(megabytes << 20)
    if keep:
        _kept.append(block)
    return os.getpid()


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="no RLIMIT_AS to set here")
def test_each_call_has_its_own_memory_limit_above_what_its_worker_holds() -> None:
    """The limit is the call's, not a state the worker keeps: a call that takes too much
    is said so and the next may take as much again; what an earlier call kept does not
    count against a later one."""
    with Workers(memory_bytes=CALL_MEMORY) as workers:
        with pytest.raises(OutOfMemory):
            workers.call(5.0, _takes, 512)
        first = workers.call(5.0, _takes, 200, True)  # 200 MB stay in the worker
        assert workers.call(5.0, _takes, 200) == first  # the same worker, 200 MB more
        with pytest.raises(OutOfMemory):
            workers.call(5.0, _takes, 300)


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="no RLIMIT_AS to set here")
def test_with_max_tasks_1_every_call_runs_in_a_fresh_worker() -> None:
    with Workers(memory_bytes=CALL_MEMORY, max_tasks=1) as workers:
        with pytest.raises(OutOfMemory):
            workers.call(5.0, _takes, 512)
        pids = {workers.call(5.0, _takes, 200, True) for _ in range(3)}
        assert len(pids) == 3 and os.getpid() not in pids
