"""Blocks reach the rooms at once (issue 69 item 4): a player who blocks someone while he
sits or watches in a room, on any process of a cluster, stops reading that player's chat
lines there, and reads them again when he unblocks him.

``PUT``/``DELETE /api/blocking/{name}`` (``http/relations.py``) publishes the account's key
on the bus (channel :data:`CHANNEL`; ``meet/bus.py``: every process hears it); each
process posts a :class:`~spacetable.server.rooms.chat.BlocksChanged` into each of its
rooms where that account has a socket: the room reads his blocks again (on a thread,
``rooms/lookups.py``) and sends his page the chat anew. The blocks themselves are in the
database (``store/relations.py``): a room read them as his socket arrived; the bus only
says "look again".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.server.meet.bus import Bus
from spacetable.server.rooms.chat import BlocksChanged
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.accounts import name_key

#: The bus channel of changed blocks.
CHANNEL = "blocks"


class BlockNews:
    """Tells the rooms of every process that an account's blocks changed."""

    def __init__(self, bus: Bus, directory: RoomDirectory) -> None:
        self._bus = bus
        self._directory = directory
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Listen to the bus (every process, at start)."""
        self._unsubscribe = self._bus.subscribe(CHANNEL, self._heard)

    def close(self) -> None:
        """Stop listening."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    async def changed(self, account: str) -> None:
        """The account ``account`` (its key) blocks others than it did: its rooms on every
        process hide the lines of those it blocks now."""
        await self._bus.publish(CHANNEL, {"account": account})

    def _heard(self, payload: Any) -> None:
        account = payload.get("account") if isinstance(payload, dict) else None
        if not isinstance(account, str):
            return
        for room in self._directory.rooms():
            for connection in list(room.connections):
                if connection.account is not None and name_key(connection.account) == account:
                    room.submit(connection, BlocksChanged())
