"""The referee's pool starts its workers off the event loop: the fork server imports the
resolvers and OpenCV for seconds of a core, and the lobby and the rooms go on meanwhile
(a start on the loop froze every room for about 0.4 s at the first upload)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, ClassVar

import pytest

from spacetable.server.http import referee_pool
from spacetable.server.http.referee_pool import RefereePool


class RecordedWorkers:
    """Stands in for the worker processes: records where it was started and answers at
    once (what is tested is the pool's start, not the resolution)."""

    started_on: ClassVar[list[threading.Thread]] = []
    closed = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        RecordedWorkers.started_on.append(threading.current_thread())

    async def run(self, seconds: float, call: Any, *args: Any) -> Any:
        return call(*args)

    def close(self) -> None:
        RecordedWorkers.closed += 1


def test_the_workers_start_once_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee_pool, "Workers", RecordedWorkers)
    RecordedWorkers.started_on = []
    pool = RefereePool()
    pool.start()

    async def uploads() -> list[bytes]:
        loop_thread = threading.current_thread()
        answers = await asyncio.gather(
            *(pool.settle(1, lambda b: (b,), lambda b: b.upper(), b"t%d" % i) for i in range(3))
        )
        assert RecordedWorkers.started_on and loop_thread not in RecordedWorkers.started_on
        await pool.close()
        return list(answers)

    assert asyncio.run(uploads()) == [b"T0", b"T1", b"T2"]
    # Three first uploads, one start: of the long-lived workers and of the photos' fresh
    # one, both on the same thread, both closed.
    assert len(RecordedWorkers.started_on) == 2
    assert len(set(RecordedWorkers.started_on)) == 1
    assert RecordedWorkers.closed == 2
