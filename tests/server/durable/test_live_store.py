"""The live rooms' store on SQLite and PostgreSQL: a room and its actions written together
and read back in order, a second writer of the same action refused, a closed room gone,
a room whose process died and that nobody came back to swept, a database of the release
before migrated."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import inspect, text

from spacetable.server.store.live_store import (
    LiveRoom,
    LiveStore,
    StaleWriter,
    StoredAction,
    StoredChat,
)
from spacetable.server.store.storage import Storage
from tests.server.durable._restart import db

__all__ = ["db"]


def _room(phase: str = "playing") -> LiveRoom:
    return LiveRoom(
        id="AbCd1234",
        ruleset="ftl",
        seats_count=2,
        game={"turn_limit": 3},
        seed=12,
        phase=phase,
        seats=[{"kind": "human", "name": "Ann", "token_digest": "ab"}, {"kind": "empty"}],
        match_number=1,
        match={"id": "m1", "seed": 12, "players": ["Ann", "Bob"], "started_at": 1.0},
        created=5.0,
    )


def test_a_room_and_its_actions_come_back_in_order(db: str) -> None:
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        live.write(_room(), "AbCd1234", [StoredAction(1, 0, 0.5, {"type": "plot"}, 29.5)])
        live.write(None, "AbCd1234", [StoredAction(1, 1, 1.25, {"type": "unplot"}, None)])
        loaded = live.load("AbCd1234")
        assert loaded is not None
        assert loaded.ruleset == "ftl" and loaded.seats[0]["name"] == "Ann"
        assert [(a.seq, a.t, a.action["type"], a.left) for a in loaded.actions] == [
            (0, 0.5, "plot", 29.5),
            (1, 1.25, "unplot", None),
        ]
        assert live.load("nosuchrm") is None
    finally:
        storage.close()


def test_a_second_writer_of_the_same_action_is_refused(db: str) -> None:
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        live.write(_room(), "AbCd1234", [StoredAction(1, 0, 0.5, {"type": "plot"})])
        with pytest.raises(StaleWriter):
            live.write(None, "AbCd1234", [StoredAction(1, 0, 0.7, {"type": "unplot"})])
        # Nothing of the refused write stays: not even a room row written with it.
        with pytest.raises(StaleWriter):
            live.write(_room("over"), "AbCd1234", [StoredAction(1, 0, 0.7, {"type": "x"})])
        loaded = live.load("AbCd1234")
        assert loaded is not None and loaded.phase == "playing"
        assert [a.action["type"] for a in loaded.actions] == ["plot"]
    finally:
        storage.close()


def test_a_closed_room_is_forgotten(db: str) -> None:
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        live.write(_room(), "AbCd1234", [StoredAction(1, 0, 0.5, {"type": "plot"})])
        live.forget("AbCd1234")
        assert live.load("AbCd1234") is None
    finally:
        storage.close()


def test_a_closed_room_takes_its_chat_with_it(db: str) -> None:
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        said = [StoredChat(0, {"type": "chat", "text": "hi"}), StoredChat(1, {"text": "gg"})]
        live.write(_room(), "AbCd1234", [], said)
        loaded = live.load("AbCd1234")
        assert loaded is not None and [c.entry["text"] for c in loaded.chat] == ["hi", "gg"]
        live.forget("AbCd1234")
        live.write(_room(), "AbCd1234", [])  # the same id again: a room with nothing said
        loaded = live.load("AbCd1234")
        assert loaded is not None and loaded.chat == []
    finally:
        storage.close()


def test_rooms_nobody_holds_are_swept(db: str) -> None:
    """A room whose process died (no heartbeat since) leaves the table with its actions
    and chat once nobody held it for the idle time; a room still beating stays."""
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        for room_id in ("Dead1234", "Live1234", "Mine1234"):
            room = _room()
            room.id = room_id
            live.write(room, room_id, [StoredAction(1, 0, 0.5, {"type": "plot"})])
            live.write(None, room_id, [], [StoredChat(0, {"text": "hi"})])
        live.beat({"Dead1234": 1.0, "Live1234": 1.0, "Mine1234": 1.0}, now=1000.0)
        live.beat({"Live1234": 9.0}, now=1600.0)  # its process lives on
        assert live.sweep(before=1500.0, keep={"Mine1234"}) == ["Dead1234"]
        assert live.load("Dead1234") is None
        alive = live.load("Live1234")
        assert alive is not None and alive.clock == 9.0 and alive.alive_at == 1600.0
        assert live.load("Mine1234") is not None  # open here: never swept
        again = _room()
        again.id = "Dead1234"
        live.write(again, "Dead1234", [])  # nothing of the swept room is left over
        reborn = live.load("Dead1234")
        assert reborn is not None and reborn.actions == [] and reborn.chat == []
    finally:
        storage.close()


def test_a_database_of_the_release_before_is_migrated(db: str) -> None:
    storage = Storage(db)
    try:
        with storage.engine.begin() as connection:  # live_rooms as the release before made it
            connection.execute(
                text(
                    "CREATE TABLE live_rooms (id VARCHAR(64) PRIMARY KEY, ruleset VARCHAR(32), "
                    "seats_count INTEGER, game JSON, seed INTEGER, phase VARCHAR(16), "
                    "seats JSON, match_number INTEGER, match JSON, last_result JSON, "
                    "created FLOAT)"
                )
            )
        live = LiveStore(storage)
        columns = {c["name"] for c in inspect(storage.engine).get_columns("live_rooms")}
        assert {"extras", "alive_at", "clock"} <= columns
        room = _room()
        room.extras = {"draw": {"by": 0, "waiting": [1]}}
        live.write(room, "AbCd1234", [])
        loaded = live.load("AbCd1234")
        assert loaded is not None and loaded.extras == {"draw": {"by": 0, "waiting": [1]}}
    finally:
        storage.close()


def _named(room_id: str) -> LiveRoom:
    room = _room()
    room.id = room_id
    return room


def test_rooms_writing_at_once_share_commits_and_a_stale_one_fails_alone(db: str) -> None:
    # Group commit (issue 35): of forty-one rooms writing at the same moment, the one
    # whose action another process stored first hears StaleWriter, and every write beside
    # it, whichever group it shared, is stored (tests/server/store/test_group_commit.py shows
    # the grouping itself).
    storage = Storage(db)
    live = LiveStore(storage)
    ids = [f"Room{n:04d}" for n in range(40)]
    try:
        live.write(_named("Taken001"), "Taken001", [StoredAction(1, 0, 0.5, {"type": "plot"})])

        async def everyone() -> list[BaseException | None]:
            writes = [
                live.store(_named(i), i, [StoredAction(1, 0, 0.5, {"type": "plot", "by": i})])
                for i in ids
            ]
            stale = live.store(None, "Taken001", [StoredAction(1, 0, 0.9, {"type": "x"})])
            return await asyncio.gather(*writes, stale, return_exceptions=True)

        outcomes = asyncio.run(everyone())
        assert outcomes[:-1] == [None] * len(ids)
        assert isinstance(outcomes[-1], StaleWriter)
        for i in ids:
            loaded = live.load(i)
            assert loaded is not None and [a.action["by"] for a in loaded.actions] == [i]
        taken = live.load("Taken001")
        assert taken is not None and [a.action["type"] for a in taken.actions] == ["plot"]
        assert live.group.writes == len(ids)
    finally:
        storage.close()


def test_the_rooms_due_leave_out_those_skipped_so_they_cannot_fill_every_batch(db: str) -> None:
    # The deadline sweep (rooms/deadlines.py) skips the rooms it could not rebuild: the
    # query leaves them out, so that a batch of them does not keep the others waiting.
    storage = Storage(db)
    live = LiveStore(storage)
    try:
        for n, deadline in enumerate((100.0, 200.0, 300.0)):
            room = _named(f"Late{n:04d}")
            room.extras = {"correspondence": {"waiting": ["Ann"], "deadline": deadline}}
            live.write(room, room.id, [])
        assert live.due(1000.0, limit=2) == ["Late0000", "Late0001"]
        assert live.due(1000.0, limit=2, skip=frozenset({"Late0000"})) == ["Late0001", "Late0002"]
        assert live.due(250.0) == ["Late0000", "Late0001"]  # only those run out by then
    finally:
        storage.close()
