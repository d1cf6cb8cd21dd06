"""My games reads a player's rooms by account (``live_room_accounts``,
docs/correspondence.md): the accounts seated in each correspondence room are stored beside
its row, indexed, and follow the room (its seats, a room forgotten); a real-time room is
not listed; a database of the release before (revision 0004, no such table) gets it,
filled from the stored rooms' seats. In-process rooms on a clock moved by hand, on SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio

from sqlalchemy import inspect, text

from spacetable.server.http.my_games import my_games
from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.room import Room
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.migrations import HEAD, current_revision
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.server.durable._restart import db
from tests.server.durable.test_deadline_sweep import _played_then_died
from tests.server.rooms.test_correspondence import TIMING, seated

__all__ = ["db"]


def _index(storage: Storage) -> set[tuple[str, str]]:
    with storage.engine.connect() as connection:
        rows = connection.execute(text("SELECT room_id, account FROM live_room_accounts"))
        return {(str(room), str(account)) for room, account in rows}


def _listed(live: LiveStore, account: str, clock: FakeClock) -> list[str]:
    return sorted(g["room"] for g in my_games(live, account, clock.wall()))


def test_each_player_lists_his_correspondence_rooms_and_a_forgotten_room_leaves(db: str) -> None:
    async def run() -> None:
        storage = Storage(db)
        saves, live = SaveQueue(storage), LiveStore(storage)
        clock = FakeClock()
        by_post = room_options({"ruleset": "ftl", "turn_hours": 24})
        live_play = room_options({"ruleset": "ftl"})
        rooms = [
            Room("postOne", by_post, saves, TIMING, clock=clock, seed=1, live=live),
            Room("postTwo", by_post, saves, TIMING, clock=clock, seed=2, live=live),
            Room("realTime", live_play, saves, TIMING, clock=clock, seed=3, live=live),
        ]
        try:
            await seated(rooms[0], clock, "alice", "bob")
            await seated(rooms[1], clock, "carol", "alice")
            await seated(rooms[2], clock, "alice", "dave")
            await clock.advance(1, *rooms)  # every room's row is written
            assert _index(storage) == {
                ("postOne", "alice"),
                ("postOne", "bob"),
                ("postTwo", "carol"),
                ("postTwo", "alice"),
            }  # the real-time room has none: My games is for correspondence
            assert _listed(live, "alice", clock) == ["postOne", "postTwo"]
            assert _listed(live, "bob", clock) == ["postOne"]
            assert _listed(live, "dave", clock) == []
            await asyncio.to_thread(live.forget, "postOne")
            assert _index(storage) == {("postTwo", "carol"), ("postTwo", "alice")}
            assert _listed(live, "alice", clock) == ["postTwo"]
            assert _listed(live, "bob", clock) == []
        finally:
            for room in rooms:
                await room.close()
            saves.close()
            live.close()
            storage.close()

    run_apart(run())


def test_a_database_made_before_the_accounts_table_gets_it_filled(db: str) -> None:
    async def run() -> None:
        room_id, wall = await _played_then_died(db, {"ruleset": "ftl", "turn_hours": 24})
        storage = Storage(db)
        with storage.engine.begin() as connection:  # as the release before left it
            connection.execute(text("DROP TABLE live_room_accounts"))
            connection.execute(text("UPDATE alembic_version SET version_num = '0004_deadlines'"))
        storage.close()
        storage = Storage(db)
        try:
            assert current_revision(storage.engine) == HEAD
            found = inspect(storage.engine)
            assert "live_room_accounts_by_account" in {
                i["name"] for i in found.get_indexes("live_room_accounts")
            }
            assert _index(storage) == {(room_id, "alice"), (room_id, "bob")}
            live = LiveStore(storage)
            assert [g["room"] for g in my_games(live, "bob", wall)] == [room_id]
            live.close()
        finally:
            storage.close()

    run_apart(run())
