"""The load clients' websocket: RFC 6455, client side, as little as a load generator needs.

Hundreds of these share one process and one core with the work of measuring, and the
clients must cost much less than the server they load. So each connection is a plain
:class:`asyncio.Protocol` that does the opening handshake itself and then reads frames
straight from its buffer: the server's frames are unmasked and never fragmented (text,
ping, close); what the client sends is masked as the RFC requires. A ping is answered, a
close is echoed; anything else the server sends closes the connection as a protocol error.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
import struct
import time
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

try:  # the C version that websockets ships, when it was built for this machine
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, section 1.3
_TEXT, _CLOSE, _PING, _PONG = 0x1, 0x8, 0x9, 0xA
_MAX_HEAD = 64 * 1024  # bytes of handshake answer before giving up


def _frame(opcode: int, payload: bytes, mask: bytes) -> bytes:
    """A final, masked client frame."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return b"".join((head, mask, apply_mask(payload, mask)))


class LoadSocket(asyncio.Protocol):
    """One websocket connection to ``url``: each text message goes to
    ``on_text(utf8, received_at)`` as soon as its frame is complete; ``on_lost()`` when the
    connection ends. ``opened`` is done when the handshake succeeded (or failed)."""

    def __init__(
        self,
        url: str,
        on_text: Callable[[bytes, float], None],
        on_lost: Callable[[], None],
        rng: random.Random,
    ) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.path = parts.path or "/"
        self.on_text, self.on_lost = on_text, on_lost
        self.rng = rng
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False
        self._key = base64.b64encode(os.urandom(16))
        self._buffer = bytearray()

    # -- asyncio's callbacks --------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A TCP transport (uvloop's is not an asyncio.Transport subclass, but is one).
        self.transport = cast(asyncio.Transport, transport)
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self._key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.transport.write(request.encode())

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        buffer = self._buffer
        buffer += data
        if not self.opened.done() and not self._handshake():
            return
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            length, start = second & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                (length,), start = struct.unpack_from("!H", buffer, 2), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                (length,), start = struct.unpack_from("!Q", buffer, 2), 10
            end = start + length
            if len(buffer) < end:
                return
            payload = bytes(buffer[start:end])
            del buffer[:end]
            self._on_frame(first, second, payload, now)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("connection closed"))
        self.on_lost()

    # -- sending --------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Send one text message; ``False`` if the connection is no longer open."""
        return self._send(_TEXT, text.encode())

    def close(self) -> None:
        """Say goodbye (close code 1000) and close."""
        if self._send(_CLOSE, struct.pack("!H", 1000)):
            self.closed = True
            assert self.transport is not None
            self.transport.close()

    def _send(self, opcode: int, payload: bytes) -> bool:
        if self.closed or self.transport is None or self.transport.is_closing():
            return False
        self.transport.write(_frame(opcode, payload, self.rng.randbytes(4)))
        return True

    # -- receiving ------------------------------------------------------------------------

    def _handshake(self) -> bool:
        """Check the server's answer once it is complete; True when frames may follow."""
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > _MAX_HEAD:
                self._fail("no end to the handshake's answer")
            return False
        head = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        del self._buffer[: end + 4]
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(self._key + _GUID).digest()).decode()
        if not head[0].startswith("HTTP/1.1 101"):
            self._fail(f"the server answered {head[0]!r}")
            return False
        if headers.get("sec-websocket-accept") != accept:
            self._fail("wrong Sec-WebSocket-Accept")
            return False
        self.opened.set_result(None)
        return True

    def _on_frame(self, first: int, second: int, payload: bytes, now: float) -> None:
        opcode = first & 0x0F
        if first & 0x80 and not second & 0x80 and opcode == _TEXT:
            self.on_text(payload, now)
        elif opcode == _PING:
            self._send(_PONG, payload)
        elif opcode == _CLOSE:
            self.close()
        elif opcode != _PONG:
            self._fail(f"unexpected frame (opcode {opcode}, fin {first >> 7})")

    def _fail(self, problem: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(problem))
        if self.transport is not None:
            self.transport.close()
