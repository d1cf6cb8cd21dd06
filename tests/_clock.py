"""A room clock moved by hand, and in-process players of a room, for tests that drive a
room's timers instantly and exactly."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.clock import HandClock
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.sockets.connection import Connection, frame_payload
from spacetable.server.sockets.protocol import parse_client_message
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage
from tests._loops import run_apart

#: The room clock moved by hand (kept in the package: the state-bytes bench uses it too).
FakeClock = HandClock


class Player:
    """One in-process socket of a room: what it sends goes to the room's queue as the
    websocket's would, what the room sends it is kept, decoded, in ``received``."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.received: list[dict[str, Any]] = []
        self.connection = Connection(self._write)
        room.connect(self.connection)

    def _write(self, frame: bytes) -> bool:
        self.received.append(json.loads(frame_payload(frame)))
        return True

    def send(self, **message: Any) -> None:
        """Send a client message (parsed as the server parses a socket's)."""
        self.room.submit(self.connection, parse_client_message(json.dumps(message)))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages of type ``kind`` received so far, in order."""
        return [m for m in self.received if m["type"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        """The last message of type ``kind`` received."""
        return self.of_type(kind)[-1]


#: A test's scenario: it drives the room, moves its clock and reads its saves.
Scenario = Callable[[Room, FakeClock, SaveQueue], Awaitable[None]]


def play_room(tmp_path: Path, options: dict[str, Any], timing: Timing, scenario: Scenario) -> None:
    """Run ``scenario`` on a room of ``options`` (``POST /api/rooms``'s body) whose clock
    stands still until the scenario moves it; the room's seed is fixed (7) and its matches
    are stored in a SQLite file under ``tmp_path``."""

    async def run() -> None:
        saves = SaveQueue(Storage(f"sqlite:///{tmp_path / 'matches.db'}"))
        clock = FakeClock()
        room = Room("room", room_options(options), saves, timing, clock=clock, seed=7)
        try:
            await scenario(room, clock, saves)
        finally:
            await room.close()
            saves.close()

    run_apart(run())
