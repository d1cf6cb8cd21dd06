"""The HTTP side of the server's guards (``http/guards.py``): a deadline on the request head,
and the host names the server answers to.

uvicorn closes a kept-alive connection that stays silent, but not one that trickles its
request line a byte every few seconds: 300 such connections stayed open for good.
:class:`HeadDeadlineProtocol` is uvicorn's h11 protocol with a deadline: from the moment a
connection opens, or a new request's first byte arrives, the client has
``Guards.head_seconds`` to send the whole request head (line and headers), or it is
answered 408 and closed. The body and a websocket's messages are not timed here.
:class:`HostGuard` answers 400 to any request whose ``Host`` is not one of the server's
names (a DNS-rebinding page's requests carry the attacker's name).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from spacetable.server.http.guards import Guards, HostNames

#: The lifespan-state key under which the application shares its :class:`Guards`.
GUARDS = "spacetable.guards"

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 39\r\n\r\nthe request head took too long to send\n"
)


class HeadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request head."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request head is timed from now."""
        super().connection_made(transport)
        self._time_head()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: the deadline holds until its head is read whole."""
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._time_head()  # (still) waiting for a head: timed if it was not yet
        else:
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        """The response is out: the keep-alive wait is uvicorn's; a next request's head
        is timed from its first byte."""
        self._stop_head_timer()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: no deadline to keep."""
        self._stop_head_timer()
        super().connection_lost(exc)

    def _time_head(self) -> None:
        if self._head_deadline is not None:
            return
        guards: Guards | None = self.app_state.get(GUARDS)
        if guards is None or guards.head_seconds <= 0:
            return
        self._head_deadline = self.loop.call_later(guards.head_seconds, self._head_late)

    def _stop_head_timer(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.write(_TIMED_OUT)
            self.transport.close()


class HostGuard:
    """ASGI middleware: a request for a host name the server does not answer to gets
    400 (a websocket is closed before it opens)."""

    def __init__(self, app: ASGIApp, hosts: HostNames) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if self.hosts.allows(host):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = f"this server does not answer to the host name {host!r}\n".encode()
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
