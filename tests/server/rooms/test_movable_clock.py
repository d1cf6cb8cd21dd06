"""``spacetable serve --test-clock``: a clock the browser tests move forward instead of
waiting for a plot timer (issue 33 item 3). Timers due by the moved time run in order;
the others keep their times; the route refuses a bad move and exists only with the flag."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.store.storage import Storage
from tests._loops import run_apart


def test_moving_the_clock_runs_the_timers_due_by_then_in_their_order() -> None:
    async def scenario() -> list[str]:
        clock = MovableClock()
        ran: list[str] = []
        start = clock.now()
        clock.at(start + 30, ran.append, "thirty")
        clock.after(10, ran.append, "ten")
        later = clock.after(90, ran.append, "ninety")
        dropped = clock.after(20, ran.append, "dropped")
        dropped.cancel()
        clock.advance(60)
        assert clock.now() - start >= 60
        for _ in range(3):  # the loop's next turns
            await asyncio.sleep(0)
        assert ran == ["ten", "thirty"]
        later.cancel()
        clock.advance(60)
        await asyncio.sleep(0)
        return ran

    assert run_apart(scenario()) == ["ten", "thirty"]


def test_the_clock_never_moves_back() -> None:
    async def scenario() -> None:
        clock = MovableClock()
        try:
            clock.advance(-1)
        except ValueError as refused:
            assert "forward" in str(refused)
        else:
            raise AssertionError("the clock moved back")

    run_apart(scenario())


def test_the_clock_route_exists_only_with_the_test_clock(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'plain.db'}")
    with TestClient(create_app(storage), base_url="http://127.0.0.1") as client:
        assert client.post("/api/test/clock", json={"advance": 10}).status_code in (404, 405)
    storage = Storage(f"sqlite:///{tmp_path / 'moved.db'}")
    with TestClient(create_app(storage, test_clock=True), base_url="http://127.0.0.1") as client:
        assert client.post("/api/test/clock", json={"advance": 10}).json() == {"advanced": 10}
        for bad in ({"advance": -5}, {"advance": "ten"}, {"advance": True}, {}, [3]):
            refused = client.post("/api/test/clock", json=bad)
            assert refused.status_code == 422
            assert "advance" in refused.json()["detail"]
        broken = client.post(
            "/api/test/clock", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert broken.status_code == 422
