"""A step of the server's shutdown that takes long is named in the log while it is
awaited (server/stopping.py): a stop that hangs says where."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from spacetable.server.stopping import awaited_by_tasks, shutdown_step


class _OnRecord(logging.Handler):
    """Calls ``then`` at each record logged."""

    def __init__(self, then: Callable[[], object]) -> None:
        super().__init__()
        self.then = then

    def emit(self, record: logging.LogRecord) -> None:
        self.then()


def test_a_step_that_is_not_done_in_time_is_named_and_still_awaited(
    caplog: pytest.LogCaptureFixture,
) -> None:
    done: list[str] = []

    async def stop() -> None:
        loop = asyncio.get_running_loop()
        slow: asyncio.Future[None] = loop.create_future()

        async def the_rooms() -> None:
            await slow
            done.append("the rooms")

        # Not done after 0 s: said; then (once said) finished from outside, and awaited to
        # its end.
        finish = _OnRecord(lambda: loop.call_soon(slow.set_result, None))
        logging.getLogger("spacetable.server.stopping").addHandler(finish)
        try:
            await shutdown_step("the rooms", the_rooms(), after=0)
        finally:
            logging.getLogger("spacetable.server.stopping").removeHandler(finish)
        await shutdown_step("the sweeper", asyncio.sleep(0), after=60)

    with caplog.at_level(logging.WARNING, logger="spacetable.server.stopping"):
        asyncio.run(stop())
    assert done == ["the rooms"]
    [said] = [r.getMessage() for r in caplog.records]
    first, *chain = said.splitlines()
    assert first == "stopping: still waiting for the rooms after 0 s; the tasks wait on:"
    # The step's task, down to the await it waits on: the_rooms, at `await slow`.
    at = next(k for k, line in enumerate(chain) if line.endswith("in the_rooms"))
    assert __file__ in chain[at]
    assert chain[at + 1].startswith("    waits on <Future pending"), chain


def test_the_tasks_are_told_down_to_the_future_each_waits_on() -> None:
    async def main() -> str:
        never = asyncio.Event()

        async def inner() -> None:
            await never.wait()

        async def outer() -> None:
            await inner()

        waiting = asyncio.create_task(outer(), name="the waiting room")
        await asyncio.sleep(0)  # it runs to its await
        told = awaited_by_tasks()
        waiting.cancel()
        return told

    told = asyncio.run(main()).splitlines()
    assert told[0] == "the waiting room:"
    assert [line.rsplit(" in ", 1)[-1] for line in told[1:4]] == ["outer", "inner", "wait"]
    assert told[4].startswith("    waits on <Future pending"), told
    assert len(told) == 5  # the task that asks is not told


def test_a_step_s_error_still_reaches_the_shutdown() -> None:
    async def broken() -> None:
        raise RuntimeError("the saves failed")

    with pytest.raises(RuntimeError, match="the saves failed"):
        asyncio.run(shutdown_step("the rooms", broken()))
