"""Work within a time limit (``spacetable._time_limit``): what ``spacetable resolve`` and
the server's referee both stand on. A call that overruns is stopped, wherever it is."""

from __future__ import annotations

import asyncio
import time

import pytest

from spacetable._time_limit import (
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
