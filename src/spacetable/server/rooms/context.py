"""What a part of a room sees of the room: :class:`RoomContext`.

A :class:`~spacetable.server.rooms.room.Room` is a queue, a task and a dispatch table that
compose parts owning their own state (its chat, its manners, its bots, its journal...).
Each part is handed the room as a :class:`RoomContext`: the seats and the sockets, the
room's clock and timing, the match being played, and the few things a part may ask of
the room (the match time, a message for everyone, a message into the room's queue, the
stored row to write again). A test hands a part a small fake of it instead
(``tests/server/rooms/_fake_room.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from spacetable.server.rooms.clock import RoomClock
from spacetable.server.rooms.match import RoomMatch, Timing
from spacetable.server.rooms.seats import Seat
from spacetable.server.sockets.connection import Connection

#: Where a room stands: before its first match, playing one, or after one.
Phase = Literal["lobby", "playing", "over"]
#: A part's handler of one kind of message: the socket it came from (``None``: a timer's
#: or a bot's), and the message. A part lists its handlers by message type; the room
#: dispatches each message to the one of its type.
Handler = Callable[[Connection | None, Any], None]


class RoomContext(Protocol):
    """The room as its parts see it (read-only attributes, and four requests)."""

    @property
    def id(self) -> str:
        """The room's id (for the log)."""
        ...

    @property
    def seats(self) -> list[Seat]:
        """The seats, in order."""
        ...

    @property
    def connections(self) -> set[Connection]:
        """Every socket in the room, seated or watching."""
        ...

    @property
    def clock(self) -> RoomClock:
        """The room's clock: every timer of the room runs on it."""
        ...

    @property
    def timing(self) -> Timing:
        """The room's clocks' settings."""
        ...

    @property
    def phase(self) -> Phase:
        """Where the room stands."""
        ...

    @property
    def match(self) -> RoomMatch | None:
        """The match being played (``None`` outside one)."""
        ...

    @property
    def match_number(self) -> int:
        """How many matches the room began (a timer of an earlier one is stale)."""
        ...

    def now(self) -> float:
        """Match time: seconds since the match began (0 outside one)."""
        ...

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket in the room."""
        ...

    def submit(self, connection: Connection | None, message: Any) -> None:
        """Post ``message`` into the room's queue (a timer's, ``connection`` ``None``)."""
        ...

    def changed(self) -> None:
        """What the room stores beyond the actions changed: its row is written again."""
        ...
