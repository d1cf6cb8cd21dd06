"""The live rooms' store on SQLite and PostgreSQL: a room and its actions written together
and read back in order, a second writer of the same action refused, a closed room gone."""

from __future__ import annotations

import pytest

from spacetable.server.live_store import LiveRoom, LiveStore, StaleWriter, StoredAction
from spacetable.server.storage import Storage
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
