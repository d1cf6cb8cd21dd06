"""Correspondence turns that run out while no process holds their room (issue 37 item 4,
``rooms/deadlines.py``): a server that starts again on the rooms' database opens, on its
own, each stored room whose deadline passed, so its turn passes and a third timeout in a
row loses, with nobody opening the room; a room open here is left to its own timer; a
database made before the deadline column gets it, filled, in place; in a cluster one
process opens such a room. In-process rooms on a clock moved by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

from spacetable.server.http.my_games import my_games
from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.deadlines import SWEEP_SECONDS, DeadlineSweeper
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.migrations import HEAD, current_revision
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.server.durable._restart import db
from tests.server.rooms.test_correspondence import HOUR, TIMING, seated

__all__ = ["db"]


#: Seconds between two sweeps here (fewer than a server's: the test's clock runs hours).
EVERY = 10 * SWEEP_SECONDS


def _sweeper(directory: RoomDirectory, clock: FakeClock) -> DeadlineSweeper:
    assert directory.live is not None
    live = directory.live
    return DeadlineSweeper(live, directory.get_or_rebuild, directory.get, clock, EVERY)


async def _played_then_died(url: str, options: dict[str, Any]) -> tuple[str, float]:
    """A correspondence room where alice and bob sat and the match began, on a server
    that then stops (its rows stay): the room's id and the wall time it stopped."""
    storage = Storage(url)
    clock = FakeClock()
    directory = RoomDirectory(storage, TIMING, clock=clock)
    room = directory.create(room_options(options), seed=7)
    await seated(room, clock, "alice", "bob")
    await clock.advance(1, room)  # the room's row is written with its deadline
    await directory.close()
    storage.close()
    return room.id, clock.wall()


async def _forgotten(live: LiveStore, room_id: str) -> None:
    """Return once the room's rows are gone (a closed room forgets them on a thread)."""
    for _ in range(1000):
        if await asyncio.to_thread(live.load, room_id) is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"room {room_id} is still stored")


def test_hexfleet_turns_run_out_with_nobody_opening_the_room(db: str) -> None:
    async def run() -> None:
        room_id, _ = await _played_then_died(db, {"ruleset": "hexfleet", "turn_hours": 2})
        storage = Storage(db)
        clock = FakeClock()  # the server starts again, and nobody opens the room
        directory = RoomDirectory(storage, TIMING, clock=clock)
        sweeper = _sweeper(directory, clock)
        live = directory.live
        assert live is not None
        try:
            sweeper.start()
            await sweeper.drained()
            assert directory.get(room_id) is None  # its deadline is two hours away
            [listed] = my_games(live, "alice", clock.wall())
            late = listed["waiting_on"]
            assert len(late) == 1 and listed["missed"] == {}
            await clock.advance(2 * HOUR + EVERY, sweeper)
            room = directory.get(room_id)
            assert room is not None and room.match is not None  # opened by the sweep
            await room.drained()
            done = [a for a in room.match.actions if a["type"] == "done"]
            assert [a["player"] for a in done] == late  # the activation ended
            [listed] = my_games(live, "alice", clock.wall())
            assert listed["missed"] == {late[0]: 1}
            # Nobody ever comes: turn after turn runs out, until a third in a row loses.
            for _ in range(6):
                await clock.advance(2 * HOUR, room)
                if room.phase == "over":
                    break
            assert room.phase == "over"
            result = room.last_result
            assert result is not None and result["result"]["ending"] == "timeout"
            [loser] = result["result"]["ending_by"]
            assert result["result"]["winner"] == ({"alice", "bob"} - {loser}).pop()
            stored = storage.get(result["match_id"])
            assert stored is not None and stored.result["ending"] == "timeout"
            assert my_games(live, "alice", clock.wall()) == []
            # Unwatched, the finished room closes after the idle time, its rows with it.
            await clock.advance(2 * TIMING.room_idle_seconds, room)
            assert directory.get(room_id) is None
            await _forgotten(live, room_id)
        finally:
            await sweeper.close()
            await directory.close()
            storage.close()

    run_apart(run())


def test_a_room_open_here_is_left_to_its_own_timer(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.db'}"

    async def run() -> None:
        storage = Storage(url)
        clock = FakeClock()
        directory = RoomDirectory(storage, TIMING, clock=clock)
        # A sweep that sees the deadline passed before the room's own timer ran.
        ahead = FakeClock()
        await ahead.advance(2 * HOUR)
        sweeper = _sweeper(directory, ahead)
        room = directory.create(room_options({"ruleset": "ftl", "turn_hours": 1}), seed=7)
        try:
            await seated(room, clock, "alice", "bob")
            await clock.advance(1, room)
            assert directory.live is not None and directory.live.due(ahead.wall()) == [room.id]
            sweeper.start()
            await sweeper.drained()
            assert await sweeper.sweep() == []
            assert room.correspondence.missed == {}
            await clock.advance(HOUR, room)  # its own timer: one timeout, not two
            assert room.correspondence.missed == {"alice": 1, "bob": 1}
            assert directory.get(room.id) is room
        finally:
            await sweeper.close()
            await directory.close()
            storage.close()

    run_apart(run())


def test_a_database_made_before_the_deadline_column_gets_it_filled(db: str) -> None:
    """A stored correspondence room of the release before (revision 0003, no
    ``deadline``) is found by the sweep once the database is opened again."""

    async def run() -> None:
        room_id, wall = await _played_then_died(db, {"ruleset": "ftl", "turn_hours": 24})
        storage = Storage(db)
        with storage.engine.begin() as connection:  # as the release before left it
            connection.execute(text("DROP INDEX live_rooms_by_deadline"))
            connection.execute(text("ALTER TABLE live_rooms DROP COLUMN deadline"))
            connection.execute(text("UPDATE alembic_version SET version_num = '0003_ratings'"))
        storage.close()
        storage = Storage(db)
        try:
            assert current_revision(storage.engine) == HEAD
            found = inspect(storage.engine)
            assert "deadline" in {c["name"] for c in found.get_columns("live_rooms")}
            assert "live_rooms_by_deadline" in {i["name"] for i in found.get_indexes("live_rooms")}
            live = LiveStore(storage)
            assert live.due(wall) == []
            assert live.due(wall + 24 * HOUR) == [room_id]
            live.close()
        finally:
            storage.close()

    run_apart(run())
