"""The referee's pool starts its workers off the event loop: the fork server imports the
resolvers and OpenCV for seconds of a core, and the lobby and the rooms go on meanwhile
(a start on the loop froze every room for about 0.4 s at the first upload)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

from spacetable.server.http import referee_pool
from spacetable.server.http.referee_pool import RefereePool
from tests.server.http._client import services, serving


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
    RecordedWorkers.closed = 0
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
    # one, both on the same thread, both closed. The thread is one of its own, never one
    # of the loop's executor (which the rooms' storage uses).
    assert len(RecordedWorkers.started_on) == 2
    assert len(set(RecordedWorkers.started_on)) == 1
    assert RecordedWorkers.started_on[0].name == "starting the referee's workers"
    assert RecordedWorkers.started_on[0].daemon
    assert RecordedWorkers.closed == 2


class GatedWorkers(RecordedWorkers):
    """Workers whose calls wait until their gate opens: uploads held in flight."""

    gate: asyncio.Event

    async def run(self, seconds: float, call: Any, *args: Any) -> Any:
        await GatedWorkers.gate.wait()
        return call(*args)


def test_photos_in_flight_never_turn_a_table_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """Photos waiting for their worker fill the photos' queue only: a table is still
    taken, and a photo past its queue is turned away busy."""
    monkeypatch.setattr(referee_pool, "Workers", GatedWorkers)
    pool = RefereePool(pending=3)
    pool.start()

    async def uploads() -> tuple[list[Any], bytes]:
        GatedWorkers.gate = asyncio.Event()
        photos = [
            asyncio.ensure_future(
                pool.settle(1, lambda b: (b,), lambda b: b, b"p%d" % i, fresh=True)
            )
            for i in range(4)
        ]
        while not photos[3].done():  # the fourth is past the photos' queue of 3
            await asyncio.sleep(0)
        table = asyncio.ensure_future(pool.settle(1, lambda b: (b,), lambda b: b.upper(), b"t"))
        GatedWorkers.gate.set()
        answers = await asyncio.gather(*photos, return_exceptions=True)
        answer = await table
        await pool.close()
        return answers, answer

    answers, table = asyncio.run(uploads())
    assert answers[:3] == [b"p0", b"p1", b"p2"]
    assert isinstance(answers[3], referee_pool.RefereeBusy)
    assert table == b"T"


def test_opening_the_referee_page_starts_the_workers_before_any_upload(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The reader's first upload does not wait for the workers' start (seconds of OpenCV
    imports on a fresh server): the page they upload from starts them as it is served;
    the lobby does not (most visitors never referee a table)."""
    monkeypatch.setattr(referee_pool, "Workers", RecordedWorkers)
    RecordedWorkers.started_on = []
    with serving(tmp_path / "matches.db") as client:
        pool = services(client).referee
        assert client.get("/").status_code == 200
        assert pool._starting is None
        assert client.get("/referee").status_code == 200
        starting = pool._starting
        assert starting is not None

        async def started() -> None:
            await asyncio.shield(starting)

        assert client.portal is not None
        client.portal.call(started)
        assert len(RecordedWorkers.started_on) == 2  # the long-lived workers and the photos'
        assert client.get("/referee").status_code == 200
        assert pool._starting is starting  # opened again: no second start
    assert len(RecordedWorkers.started_on) == 2
