"""The database unreachable in the middle of a match (here a SQLite file another program
holds locked): what a player does waits for it, nobody hears of it before it is stored,
everyone is told why the table stands still, and once the database is back the move
counts and the match goes on; a match that ends meanwhile shows its result once stored.
Nothing is lost or corrupted: a server killed afterwards brings the room back with the
move."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests._laser_play import free_spot
from tests._server import Client, seated
from tests.server.durable._restart import kill, rejoined, servers, start, token_of

#: Each test starts two server processes (the one killed, the one after it): on a busy
#: machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)


def _locked(path: Path) -> sqlite3.Connection:
    """Hold the database's write lock until the connection rolls back."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def _started(client: Client) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and m["phase"] == "fast")


def test_a_move_waits_for_the_database_and_counts_once_it_is_back(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    db = f"sqlite:///{path}"
    with servers() as started:
        first = start(db, room_seed=41)
        started.append(first)
        room = first.create_room()
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        tokens = [token_of(ann), token_of(bob)]
        ann.send(type="ready")
        bob.send(type="ready")
        state = _started(ann)
        _started(bob)
        holder = _locked(path)
        ann.send(type="place", **free_spot(state, random.Random(1)))
        notice = bob.wait_type("notice", timeout=30)
        assert notice["notice"] == "down" and "cannot be reached" in notice["message"]
        assert ann.wait_type("notice")["notice"] == "down"
        # Told why, but not of the card: it is not stored yet.
        assert not any(m["type"] == "placed" for m in ann.received + bob.received)
        holder.rollback()
        holder.close()
        placed = bob.wait_type("placed", timeout=30)
        assert placed["player"] == "Ann"
        # The news that the database is back comes with it (just before it).
        assert [m["notice"] for m in bob.received if m["type"] == "notice"] == ["down", "back"]
        kill(first)

        second = start(db)
        started.append(second)
        ann = rejoined(second, room, tokens[0])
        again = ann.wait(lambda m: m["type"] == "state")
        assert [c["x"] for c in again["table"] if c.get("owner")] == [placed["card"]["x"]]


def test_a_result_shows_once_the_database_has_stored_it(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    db = f"sqlite:///{path}"
    with servers() as started:
        server = start(db, room_seed=12)
        started.append(server)
        room = server.create_room(ruleset="ftl", turn_limit=1)
        ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
        ann.send(type="ready")
        bob.send(type="ready")
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:S2"])
        ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:S2"])
        holder = _locked(path)
        bob.send(type="plot", orders=["Bob:S1"])  # the last plot: the match is over
        notice = ann.wait_type("notice", timeout=30)
        assert notice["notice"] == "result"
        assert not any(m["type"] in ("turn", "result") for m in ann.received)
        holder.rollback()
        holder.close()
        result = ann.wait_type("result", timeout=60)
        stored = server.stored_match(result["match_id"])["result"]
        assert {key: stored[key] for key in result["result"]} == result["result"]
