"""Stored live rooms do not pile up (issue 21): a room that closes takes its rows with it,
and a room whose server died, which nobody came back to, is swept by the next server once
the room's idle time has passed, as it would have closed had its server lived. Each on
SQLite and on PostgreSQL (when ``SPACETABLE_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from spacetable.server.store.storage import normalise_url
from tests._server import seated, wait_until
from tests.server.durable._restart import db, kill, servers, start

pytestmark = pytest.mark.timeout(900)

__all__ = ["db"]  # the fixture


def _stored(url: str, room: str) -> dict[str, int]:
    """How many rows of each live table hold the room."""
    engine = create_engine(normalise_url(url), poolclass=NullPool)
    queries = {
        "live_rooms": "SELECT count(*) FROM live_rooms WHERE id = :room",
        "room_actions": "SELECT count(*) FROM room_actions WHERE room_id = :room",
        "room_chat": "SELECT count(*) FROM room_chat WHERE room_id = :room",
    }
    try:
        with engine.connect() as connection:
            return {
                table: int(connection.execute(text(sql), {"room": room}).scalar() or 0)
                for table, sql in queries.items()
            }
    finally:
        engine.dispose()


def _gone(url: str, room: str, timeout: float = 90.0) -> None:
    """Wait until no live table holds the room any more."""
    wait_until(lambda: not any(_stored(url, room).values()), f"room {room} to leave", timeout)


def test_a_finished_room_leaves_the_table_when_it_closes(db: str) -> None:
    with servers() as started:
        server = start(db, "--room-idle-seconds", "2", room_seed=12)
        started.append(server)
        room = server.create_room(ruleset="ftl", turn_limit=2)
        ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
        ann.send(type="chat", text="good luck")
        ann.send(type="ready")
        bob.send(type="ready")
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:R+45"])
        ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:R+45"])
        counts = _stored(db, room)
        assert counts == {"live_rooms": 1, "room_actions": 1, "room_chat": 1}, counts
        ann.send(type="resign")
        result = bob.wait_type("result")
        assert result["result"]["ending"] == "resigned"
        ann.close()
        bob.close()
        _gone(db, room)  # the room closed after 2 s without anyone: its rows went with it
        assert server.stored_match(result["match_id"])["result"]["winner"] == "Bob"


def test_a_room_nobody_came_back_to_is_swept(db: str) -> None:
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=2)
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        ann.send(type="chat", text="good luck")
        ann.send(type="ready")
        bob.send(type="ready")
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:R+45"])
        ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:R+45"])
        kill(first)
        assert _stored(db, room)["live_rooms"] == 1

        second = start(db, "--room-idle-seconds", "5")
        started.append(second)
        held = second.create_room(ruleset="ftl", turn_limit=2)
        carl = seated(second, held, "Carl")
        carl.send(type="chat", text="anyone?")
        carl.wait(lambda m: m["type"] == "chat")
        _gone(db, room)  # nobody asked for it within the idle time: swept
        # A room its server holds stays, however old: its heartbeat says it lives.
        assert _stored(db, held) == {"live_rooms": 1, "room_actions": 0, "room_chat": 1}
