"""A room socket that reached a process which does not own its room, relayed to the owner.

The balancer sends every socket of a room to the process its room id hashes to, but the
room lives where it was created, and a player may reach any process directly: that
process opens a websocket of its own to the owner (:func:`connect_owner`) and copies the
messages both ways, as they are, without reading them (the owner checks and limits them
as it does for any socket). A room stays written by one task in one process: there is
never a second copy of it.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from spacetable.server.sockets.connection import HangUp, WriteFrame, text_frame
from spacetable.server.store.accounts import SESSION_COOKIE

#: Close code the browser reconnects after ("service restart"): the room moves, or its
#: owner stops; the close codes a socket may not send (1005, 1006, 1015) become this one.
RECONNECT = 1012
#: Messages from the browser kept while its owner is being reached; more are dropped.
MAX_PENDING = 64
#: Seconds to open the socket to the owner.
CONNECT_SECONDS = 2.0
_UNSENDABLE = frozenset({1005, 1006, 1015})


async def connect_owner(
    address: str,
    room_id: str,
    client: str,
    *,
    patches: bool = False,
    tab: str | None = None,
    session: str | None = None,
) -> ClientConnection:
    """Open a room socket to the owner at ``address`` (``host:port``) on behalf of
    ``client`` (its address, in ``X-Forwarded-For``: the owner counts its sockets), taking
    ``state_patch`` messages if the client asked for them (``?patches=1``) and naming its
    page's ``tab`` as it did (``?tab=``), and carrying its ``session`` cookie, if any
    (the owner seats a logged-in player as his account: ``store/accounts.py``).
    Raises ``OSError`` or a websockets error when the owner cannot be reached."""
    asked = {"patches": "1"} if patches else {}
    if tab is not None:
        asked["tab"] = tab
    query = f"?{urlencode(asked)}" if asked else ""
    headers = {"X-Forwarded-For": client}
    if session is not None:
        headers["Cookie"] = f"{SESSION_COOKIE}={session}"
    return await connect(
        f"ws://{address}/ws/rooms/{room_id}{query}",
        additional_headers=headers,
        compression=None,
        max_size=None,
        open_timeout=CONNECT_SECONDS,
        # An owner whose machine vanished never closes: found out in 10 s at most.
        ping_interval=5,
        ping_timeout=5,
        user_agent_header=None,
    )


class Relay:
    """Copies one browser socket's messages to the owner's socket and back: the owner's
    messages go out through ``write_frame``; when the owner's socket closes, the
    browser's is closed with the same code by ``hang_up`` (or with :data:`RECONNECT`)."""

    def __init__(self, write_frame: WriteFrame, hang_up: HangUp) -> None:
        self._write_frame = write_frame
        self._hang_up = hang_up
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._upstream: ClientConnection | None = None

    def send(self, data: bytes) -> None:
        """A message from the browser, for the owner (kept until it is reached)."""
        if self._upstream is None and self._outbox.qsize() >= MAX_PENDING:
            return
        self._outbox.put_nowait(data)

    def take_pending(self) -> list[bytes]:
        """The messages kept so far, taken out (the room turned out to be here)."""
        pending = []
        while not self._outbox.empty():
            pending.append(self._outbox.get_nowait())
        return pending

    def start(self, upstream: ClientConnection) -> None:
        """Begin copying over ``upstream`` (the owner's socket)."""
        self._upstream = upstream
        self._tasks = [
            asyncio.create_task(self._to_owner(upstream)),
            asyncio.create_task(self._from_owner(upstream)),
        ]

    async def _to_owner(self, upstream: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                data = await self._outbox.get()
                await upstream.send(data, text=True)

    async def _from_owner(self, upstream: ClientConnection) -> None:
        try:
            while True:
                data = await upstream.recv(decode=False)
                if isinstance(data, str):  # not with decode=False; for the type checker
                    data = data.encode()
                self._write_frame(text_frame(data))
        except ConnectionClosed:
            received = upstream.protocol.close_rcvd
            if received is None or received.code in _UNSENDABLE:
                self._hang_up(RECONNECT, "the room's server went away: reconnect")
            else:
                self._hang_up(received.code, received.reason)

    def close(self) -> None:
        """The browser's socket is gone: close the owner's."""
        for task in self._tasks:
            task.cancel()
        if self._upstream is not None:
            upstream, self._upstream = self._upstream, None
            closing = asyncio.ensure_future(upstream.close())
            _closing.add(closing)
            closing.add_done_callback(_done)


_closing: set[asyncio.Future[None]] = set()  # held until done (the loop keeps weak refs)


def _done(task: asyncio.Future[None]) -> None:
    _closing.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: a close that failed is nothing to report
