"""A stored room that cannot be played again (a game this server lacks, an action log that
does not replay) is said so to whoever comes to it, on its page and over its socket, and
the server goes on serving the other rooms."""

from __future__ import annotations

import html
import json
import sqlite3
import urllib.error
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests._server import Server, seated
from tests.server.durable._restart import kill, servers, start

#: Each test starts two server processes (the one killed, the one after it): on a busy
#: machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)


def _refused(server: Server, room: str) -> tuple[str, int | None]:
    """What a socket to ``room`` is told, and the code it is closed with."""
    with connect(f"{server.ws}/ws/rooms/{room}") as socket:
        message = json.loads(socket.recv(timeout=20))
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=20)
    assert message["type"] == "error"
    text: str = message["message"]
    return text, closed.value.rcvd.code if closed.value.rcvd else None


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        ("UPDATE live_rooms SET ruleset = 'chess'", "unknown ruleset 'chess'"),
        ('UPDATE room_actions SET action = \'{"type": "fly"}\'', "action 0"),
    ],
)
def test_a_room_that_cannot_be_rebuilt_says_so(tmp_path: Path, damage: str, why: str) -> None:
    path = tmp_path / "rooms.db"
    db = f"sqlite:///{path}"
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=3)
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        ann.send(type="ready")
        bob.send(type="ready")
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:S2"])
        ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:S2"])
        kill(first)
        with sqlite3.connect(path) as database:
            database.execute(damage)

        second = start(db)
        started.append(second)
        message, code = _refused(second, room)
        assert "could not be brought back after a server restart" in message
        assert why in message and code == 4410
        with pytest.raises(urllib.error.HTTPError) as page:
            second.get(f"/rooms/{room}")
        assert page.value.code == 410  # the room's page says why, as the socket does
        said = html.unescape(page.value.read().decode())
        assert "could not be brought back after a server restart" in said and why in said
        # The server goes on: a new room plays.
        other = second.create_room(ruleset="ftl")
        assert seated(second, other, "Cy").received[-1]["type"] in ("welcome", "state", "room")
