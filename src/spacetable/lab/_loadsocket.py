"""The load clients' websocket: the sans-I/O client of ``websockets`` on an asyncio transport.

Hundreds of these share one process and one core with the work of measuring, and the
clients must cost much less than the server they load. So each connection is a plain
:class:`asyncio.Protocol` (no reader task, no queue) that hands what it reads to a
:class:`websockets.client.ClientProtocol`, which does the opening handshake, parses and
masks frames, answers pings and closes, and writes what that protocol queues for the
server. Each whole text message goes to the client as soon as it is parsed; the server
never fragments its messages, and anything but text, ping, pong and close closes the
connection as a protocol error.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import BytesLike
from websockets.uri import parse_uri

_TEXT, _CLOSE, _OPEN = Opcode.TEXT, Opcode.CLOSE, State.OPEN
_CONTROL = frozenset({Opcode.PING, Opcode.PONG})


class LoadSocket(asyncio.Protocol):
    """One websocket connection to ``url``: each text message goes to
    ``on_text(utf8, received_at)`` as soon as it is parsed; ``on_lost()`` when the
    connection ends. ``opened`` is done when the handshake succeeded (or failed)."""

    def __init__(
        self, url: str, on_text: Callable[[BytesLike, float], None], on_lost: Callable[[], None]
    ) -> None:
        uri = parse_uri(url)
        self.host, self.port = uri.host, uri.port
        self.on_text, self.on_lost = on_text, on_lost
        # No size limit: the server's messages are the server's business here.
        self.ws = ClientProtocol(uri, max_size=None)
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # -- asyncio's callbacks --------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A TCP transport (uvloop's is not an asyncio.Transport subclass, but is one).
        self.transport = cast(asyncio.Transport, transport)
        self.ws.send_request(self.ws.connect())
        self._write(self.ws.data_to_send())

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        ws = self.ws
        ws.receive_data(data)
        for event in ws.events_received():
            if type(event) is Frame:
                opcode = event.opcode
                if opcode is _TEXT and event.fin:
                    self.on_text(event.data, now)
                elif opcode is _CLOSE:
                    self._write(ws.data_to_send())  # the echo of the server's close
                    self.close()
                elif opcode not in _CONTROL:  # pings are answered below
                    self._fail(f"unexpected frame (opcode {opcode.name}, fin {event.fin})")
            elif isinstance(event, Response):
                self._opened(event)
        writes = ws.data_to_send()  # pongs, the echo of a close
        if writes:
            self._write(writes)
        if ws.parser_exc is not None:
            self._fail(f"the server broke the protocol: {ws.parser_exc}")

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._write(self.ws.data_to_send())
        return None  # the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("connection closed"))
        self.on_lost()

    # -- sending --------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Send one text message; ``False`` if the connection is no longer open."""
        transport = self.transport
        if self.ws.state is not _OPEN or transport is None or transport.is_closing():
            return False
        self.ws.send_text(text.encode())
        transport.write(b"".join(self.ws.data_to_send()))
        return True

    def close(self) -> None:
        """Say goodbye (close code 1000, unless the server said it first) and close."""
        if self.transport is None or self.transport.is_closing():
            return
        if self.ws.state is _OPEN:
            self.ws.send_close(1000)
            self._write(self.ws.data_to_send())
        self.transport.close()

    # -- receiving ------------------------------------------------------------------------

    def _opened(self, response: Response) -> None:
        """The server's answer to the opening handshake."""
        if self.ws.handshake_exc is None:
            self.opened.set_result(None)
        else:
            self._fail(f"the server answered {response.status_code} {response.reason_phrase}")

    def _write(self, writes: list[bytes]) -> None:
        """Write what the protocol queued for the server; an empty one (the end of the
        stream) closes."""
        if self.transport is None:
            return
        for data in writes:
            if data:
                self.transport.write(data)
            else:
                self.transport.close()

    def _fail(self, problem: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(problem))
        if self.transport is not None:
            self.transport.close()
