"""The room directory: every open room of this process, found by id, at most
:data:`MAX_ROOMS` of them (the room-directory seam of DESIGN section 6)."""

from __future__ import annotations

import asyncio
import heapq
import secrets
import string

from spacetable.server._clock import RoomClock
from spacetable.server._room_match import RoomOptions, Timing
from spacetable.server._save_queue import SaveQueue
from spacetable.server.rooms import Room
from spacetable.server.storage import Storage

#: The most rooms open at once (an idle room holds about 7 KB until it closes).
MAX_ROOMS = 5000
#: What a room id is made of: letters and digits only, so that an id never starts with a
#: dash or an underscore ("--jSlZp6" read as punctuation in the page's title and links).
ROOM_ID_ALPHABET = string.ascii_letters + string.digits
#: The length of a room id: 62**8, about 2**47 ids, as many as 6 random bytes.
ROOM_ID_LENGTH = 8


def new_room_id() -> str:
    """A fresh room id: :data:`ROOM_ID_LENGTH` letters and digits drawn by ``secrets``."""
    return "".join(secrets.choice(ROOM_ID_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def room_seed(base: int, ordinal: int) -> int:
    """The seed of the ``ordinal``-th room (from 0) a server started with the room seed
    ``base`` creates: ``base`` for the first, then ``base + 1``... (modulo 2**31), so that
    a test that creates one room knows its seed."""
    return (base + ordinal) % 2**31


class RoomsFull(RuntimeError):
    """The server holds as many open rooms as it may: try again once some have closed."""


class RoomDirectory:
    """Every room of this process (the room-directory seam of DESIGN section 6). Rooms
    close themselves when nobody has used them for a while (``Timing.room_idle_seconds``)
    and leave the directory; at most ``max_rooms`` are open at once. With ``room_seed``
    the rooms' matches are reproducible: the ``k``-th room created (from 0) has the seed
    :func:`room_seed` (``room_seed``, ``k``); without it each match draws its own. Rooms
    keep time with ``clock`` (default: the event loop's)."""

    def __init__(
        self,
        storage: Storage,
        timing: Timing,
        max_rooms: int = MAX_ROOMS,
        *,
        room_seed: int | None = None,
        clock: RoomClock | None = None,
    ) -> None:
        self.storage = storage
        self.saves = SaveQueue(storage)
        self.timing = timing
        self.max_rooms = max_rooms
        self.room_seed = room_seed
        self.clock = clock
        self._created = 0
        self._rooms: dict[str, Room] = {}

    def create(self, options: RoomOptions, seed: int | None = None) -> Room:
        """Open a new room, whose matches draw their chance from ``seed`` when given (a
        test's room, independent of the rooms before it: not counted in the order of
        ``room_seed``). Raises RoomsFull when ``max_rooms`` are open."""
        if len(self._rooms) >= self.max_rooms:
            raise RoomsFull(
                f"the server has {self.max_rooms} open rooms, its most: "
                "try again when some have closed"
            )
        room_id = new_room_id()
        if seed is None and self.room_seed is not None:
            seed = room_seed(self.room_seed, self._created)
            self._created += 1
        room = Room(
            room_id, options, self.saves, self.timing, self._expired, clock=self.clock, seed=seed
        )
        self._rooms[room_id] = room
        return room

    def _expired(self, room: Room) -> None:
        self._rooms.pop(room.id, None)

    async def hand_over(self, room: Room, code: int = 1012) -> None:
        """Stop a room that another process now owns (a cluster's, docs/scaling.md): it
        leaves the directory and its sockets are closed with ``code`` (1012, "service
        restart": the clients reconnect, and reach the room's new owner)."""
        self._rooms.pop(room.id, None)
        await room.close()
        for connection in list(room.connections):
            connection.hang_up(code, "the room moved to another server: reconnecting")

    def get(self, room_id: str) -> Room | None:
        """The room with this id, if open."""
        return self._rooms.get(room_id)

    def rooms(self, limit: int | None = None) -> list[Room]:
        """Open rooms, newest first (the ``limit`` newest)."""
        if limit is not None:
            return heapq.nlargest(limit, self._rooms.values(), key=lambda r: r.created)
        return sorted(self._rooms.values(), key=lambda r: r.created, reverse=True)

    async def close(self) -> None:
        """Stop every room, then store the matches still waiting for the database."""
        for room in list(self._rooms.values()):
            await room.close()
        await asyncio.to_thread(self.saves.close)
