"""One client's websocket as a room sees it: messages out, written at once when they can be.

A room sends several hundred small messages a second. Handing each to a writer task would
wake that task once per message; instead :meth:`Connection.send_text` starts the ASGI
``send`` right away and, in the usual case where the socket is writable, the write is
finished before it returns. Only when the server has to wait for the socket (a slow
client) does the rest go to a task, and later messages queue behind it in order.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, MutableMapping
from typing import Any

#: The ASGI ``send`` callable of a websocket connection.
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Connection:
    """One websocket of a room, seated (``seat``) or watching."""

    def __init__(self, send: Send) -> None:
        self.seat: int | None = None
        self.closed = False
        self._send = send
        # While a write waits for the socket, the messages sent meanwhile, in order.
        self._backlog: deque[str] | None = None
        self._drainer: asyncio.Future[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Send a message to this client."""
        self.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        """Send an already-encoded message; never blocks the room."""
        if self.closed:
            return
        if self._backlog is not None:
            self._backlog.append(text)
            return
        write = self._write(text)
        try:
            waiting_on = write.send(None)
        except StopIteration:
            return  # written
        except Exception:  # any send failure means the client is gone
            self.closed = True
            return
        self._backlog = deque()
        self._drainer = asyncio.ensure_future(self._drain(_Resumed(write, waiting_on)))

    def close(self) -> None:
        """Stop writing (the socket is gone)."""
        self.closed = True
        self._backlog = None

    async def _write(self, text: str) -> None:
        await self._send({"type": "websocket.send", "text": text})

    async def _drain(self, first: Awaitable[None]) -> None:
        """Finish the write that had to wait, then the ones queued behind it."""
        try:
            await first
            while self._backlog:
                await self._write(self._backlog.popleft())
        except Exception:
            self.closed = True
        finally:
            self._backlog = self._drainer = None


class _Resumed:
    """Await the rest of a coroutine that was already stepped once and is waiting on
    ``waiting_on`` (what its first step yielded): the task awaiting this takes over."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self._coroutine = coroutine
        self._waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, None]:
        step = self._waiting_on
        while True:
            try:
                sent = yield step
            except BaseException as exc:  # cancellation and the like go to the coroutine
                try:
                    step = self._coroutine.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    step = self._coroutine.send(sent)
                except StopIteration:
                    return
