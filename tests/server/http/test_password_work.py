"""The password threads (``server/http/password_work.py``, issue 67 item 3), in process:
checks beyond the threads wait in a bounded queue, then a bounded number wait for a
place, then one more is refused at once with a wait to tell; a check whose place frees
runs; stopping cancels the checks still waiting; the threads run at a lower priority."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from spacetable.server.http.password_work import NICENESS, PasswordsBusy, PasswordWork


def test_checks_queue_then_wait_for_a_place_then_are_refused() -> None:
    # A hold far longer than the test: a held check runs because a place freed, not
    # because a timer ran out.
    work = PasswordWork(threads=1, waiting=1, hold=600.0, held=1)
    gate = threading.Event()

    async def scenario() -> tuple[list[str], int]:
        blocked = [asyncio.ensure_future(work.run(gate.wait)) for _ in range(2)]
        await asyncio.sleep(0)  # (the two took the thread and the waiting place)
        held = asyncio.ensure_future(work.run(lambda: "held ran"))
        await asyncio.sleep(0)  # (it waits for a place)
        with pytest.raises(PasswordsBusy) as refused:
            await work.run(lambda: "never")
        gate.set()
        await asyncio.gather(*blocked)
        return [await held], refused.value.retry_after

    try:
        ran, retry_after = asyncio.run(scenario())
    finally:
        work.close()
    assert ran == ["held ran"] and retry_after >= 1


def test_a_stop_cancels_the_checks_still_waiting_and_the_threads_yield() -> None:
    work = PasswordWork(threads=1, waiting=2)
    gate = threading.Event()

    async def scenario() -> tuple[int, bool]:
        running = asyncio.ensure_future(
            work.run(lambda: (gate.wait(), os.getpriority(os.PRIO_PROCESS, 0))[1])
        )
        waiting = asyncio.ensure_future(work.run(lambda: "never"))
        await asyncio.sleep(0)
        work.close()
        gate.set()
        niceness = await running
        try:
            await waiting
        except asyncio.CancelledError:
            return niceness, True
        return niceness, False

    niceness, cancelled = asyncio.run(scenario())
    assert cancelled
    assert niceness == NICENESS or os.name != "posix"
