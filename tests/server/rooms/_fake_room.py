"""A fake :class:`~spacetable.server.rooms.context.RoomContext`, to test a part of a room
alone: seats, sockets that keep what they are sent, a clock moved by hand, and a record
of what the part asked of the room."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

from spacetable.core.endings import Ending
from spacetable.server.rooms.clock import HandClock
from spacetable.server.rooms.context import Phase
from spacetable.server.rooms.correspondence import Correspondence
from spacetable.server.rooms.match import RoomMatch, RoomOptions, Timing
from spacetable.server.rooms.seats import Seat
from spacetable.server.sockets.connection import Connection, frame_payload


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


class FakeMatch:
    """What of a match the parts read besides playing it: its players and version."""

    def __init__(self, players: list[str]) -> None:
        self.version = 0
        self.players = tuple(players)


@dataclass
class FakeTable(FakeRoom):
    """A fake room that also records what the manners ask of it: the match's end, bots
    taking seats over, sockets sent to watch, the room told again."""

    options: RoomOptions = field(default_factory=RoomOptions)
    ended: list[tuple[str, list[str] | None]] = field(default_factory=list)
    taken_over: list[tuple[int, bool]] = field(default_factory=list)
    watching: list[Connection] = field(default_factory=list)
    rooms_told: int = 0
    #: The registered players' names (as their keys: ``store/accounts.name_key``).
    accounts: set[str] = field(default_factory=set)

    def registered(self, name: str) -> bool:
        return name.strip().casefold() in self.accounts

    #: The ratings shown beside registered seats, by account key.
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def rating_of(self, account: str, game: str) -> dict[str, Any] | None:
        return self.ratings.get(account)

    def unrated_of(self, match_id: str) -> str | None:
        return None

    #: The bot accounts' keys (issue 72): their seats say BOT.
    bots: frozenset[str] = frozenset()

    def bot_account_of(self, account: str) -> bool:
        return account in self.bots

    def blocked_by(self, account: str) -> list[str]:
        return []

    def play(self) -> FakeMatch:
        """A match begins (its players: the seats')."""
        match = FakeMatch([s.name for s in self.seats])
        self.phase, self.match_number = "playing", self.match_number + 1
        self.match = cast(Any, match)
        return match

    def end(self, how: Ending, by: list[str] | None = None) -> None:
        self.ended.append((how, by))
        self.phase, self.match = "over", None

    def take_over(self, seat: Seat, *, stand_in: bool) -> None:
        self.taken_over.append((seat.index, stand_in))
        seat.kind = "bot"

    def watch(self, connection: Connection) -> None:
        self.watching.append(connection)

    def broadcast_room(self, at_once: bool = False) -> None:
        self.rooms_told += 1

    # What the lobby asks of the room besides.

    last_result: dict[str, Any] | None = None
    match_id: str | None = None
    unrated: str | None = None
    started: int = 0
    expired: bool = False
    states_sent: list[Connection] = field(default_factory=list)

    def start(self) -> None:
        self.started += 1

    def room_message(self) -> dict[str, Any]:
        return {"type": "room", "seats": [s.to_json() for s in self.seats]}

    @property
    def correspondence(self) -> Correspondence:
        """The turns' deadlines (none: the fake room is played live)."""
        return Correspondence(self)

    def send_state(self, connection: Connection) -> None:
        self.states_sent.append(connection)

    def queued(self) -> bool:
        return False

    def expire(self) -> None:
        self.expired = True

    may_put_away: bool = False

    def put_away(self) -> None:
        raise AssertionError("a room played live is never put away")

    # What the bots ask of the room and of its pacing.

    def apply(self, action: Any) -> None:
        raise AssertionError(f"no match to apply {action!r} to")

    def runup_left(self) -> float:
        return 0.0

    def note_pose(self, player: str, x: float, y: float, rotation: float) -> None:
        pass
