"""A fake :class:`~spacetable.server._room_context.RoomContext`, to test a part of a room
alone: seats, sockets that keep what they are sent, a clock moved by hand, and a record
of what the part asked of the room."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from spacetable.server._clock import HandClock
from spacetable.server._connection import Connection, frame_payload
from spacetable.server._room_context import Phase
from spacetable.server._room_match import RoomMatch, Timing
from spacetable.server._seats import Seat


class Socket:
    """A connection of the fake room, and what it received, decoded."""

    def __init__(self, seat: int | None = None) -> None:
        self.received: list[dict[str, Any]] = []
        self.connection = Connection(self._write)
        self.connection.seat = seat

    def _write(self, frame: bytes) -> bool:
        self.received.append(json.loads(frame_payload(frame)))
        return True

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages of type ``kind`` received, in order."""
        return [m for m in self.received if m["type"] == kind]


@dataclass
class FakeRoom:
    """A room context whose seats a test fills by hand."""

    seats: list[Seat]
    id: str = "room"
    connections: set[Connection] = field(default_factory=set)
    clock: HandClock = field(default_factory=HandClock)
    timing: Timing = field(default_factory=Timing)
    phase: Phase = "lobby"
    match: RoomMatch | None = None
    match_number: int = 0
    match_time: float = 0.0
    #: What the part broadcast, in order.
    broadcasts: list[dict[str, Any]] = field(default_factory=list)
    #: What the part posted into the room's queue: (connection, message).
    submitted: list[tuple[Connection | None, Any]] = field(default_factory=list)
    #: How many times the part said the stored row changed.
    changes: int = 0

    def now(self) -> float:
        return self.match_time

    def broadcast(self, message: dict[str, Any]) -> None:
        self.broadcasts.append(message)
        for connection in self.connections:
            connection.send(message)

    def submit(self, connection: Connection | None, message: Any) -> None:
        self.submitted.append((connection, message))

    def changed(self) -> None:
        self.changes += 1

    def socket(self, seat: int | None = None) -> Socket:
        """A new socket in the room (seated at ``seat``, or watching)."""
        socket = Socket(seat)
        self.connections.add(socket.connection)
        if seat is not None:
            self.seats[seat].connections.add(socket.connection)
        return socket


def people(*names: str) -> list[Seat]:
    """Seats taken by people called ``names``, in order."""
    seats = [Seat(i) for i in range(len(names))]
    for seat, name in zip(seats, names, strict=True):
        seat.take("human", name, [])
    return seats
