"""The frames a room's page sends, read without the general websocket parser.

Almost everything a room socket reads is one kind of frame: a whole text message of a few
dozen bytes (a hand's pose, 10 a second a player), masked as every client frame is. The
sans-I/O parser of ``websockets`` reads each through a chain of generators, a third of the
cost of a message in (py-spy, ``spacetable loadtest --rooms 100``). :class:`FrameReader`
splits what arrives into frames itself and takes that common kind out, unmasked (with
``websockets``' own C routine); every other frame (a pong, a close, a fragment, a binary or
a too-large one) is handed back whole, in order, for the general parser, which is therefore
always at a frame boundary when it is fed. Nothing here knows rooms or sockets: it is pure.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Literal

from websockets.speedups import apply_mask

#: The first byte of a whole text message (FIN, no extension bits, opcode 1).
_WHOLE_TEXT = 0x81
#: Opcodes from 8 up are control frames (close, ping, pong): at most 125 bytes each.
_CONTROL = 0x08
_MASKED = 0x80

#: What :meth:`FrameReader.frames` yields: a text message's payload, a whole frame for the
#: general parser, or everything left once the stream is no longer plain (the general
#: parser takes over from there for good).
Piece = tuple[Literal["text", "frame", "rest"], bytes]


class FrameReader:
    """Splits a client's bytes into frames (see the module's docstring).

    ``max_text``: the longest text payload taken here; a longer one (and whatever follows)
    goes to the general parser, which refuses it as it would have (1009)."""

    def __init__(self, max_text: int) -> None:
        self.max_text = max_text
        self._unread = bytearray()
        #: False once the stream held a frame this reader does not take apart: from then
        #: on everything goes to the general parser as it comes.
        self.plain = True

    def whole(self, data: bytes) -> bytes | None:
        """The payload when ``data`` is exactly one plain text frame of under 126 bytes
        and nothing waits before it (a pose, nearly every read); ``None`` otherwise (then
        :meth:`frames` reads it)."""
        if self._unread or not self.plain or len(data) < 6:
            return None
        length = data[1] ^ _MASKED  # under 126 only when masked, with a 7-bit length
        if data[0] != _WHOLE_TEXT or length >= 126 or len(data) != 6 + length:
            return None
        if length > self.max_text:
            return None
        return apply_mask(data[6:], data[2:6])

    def frames(self, data: bytes) -> Generator[Piece, None, None]:
        """The pieces of ``data``, in order, with what came before it and was not whole.
        Once a ``rest`` piece is yielded, :attr:`plain` is False and nothing else is kept.
        A caller may stop between two pieces and hand the general parser :meth:`rest`."""
        if not self.plain:
            yield "rest", data
            return
        unread = self._unread
        unread += data
        start = 0
        try:
            while True:
                header = self._header(unread, start)
                if header is None:
                    return  # the rest of a frame has not arrived yet
                kind, head, length = header
                if kind == "other":
                    yield "rest", self.rest(start)
                    return
                stop = start + head + length
                if len(unread) < stop:
                    return
                begin, start = start, stop  # consumed before the caller sees it
                if kind == "text":
                    mask = bytes(unread[begin + head - 4 : begin + head])
                    yield "text", apply_mask(bytes(unread[begin + head : stop]), mask)
                else:
                    yield "frame", bytes(unread[begin:stop])
        finally:
            if self.plain:
                del unread[:start]

    def rest(self, start: int = 0) -> bytes:
        """Everything not yet read (from ``start``), for the general parser, which takes
        the stream from now on."""
        self.plain = False
        rest = bytes(self._unread[start:])
        self._unread = bytearray()
        return rest

    def _header(
        self, unread: bytearray, start: int
    ) -> tuple[Literal["text", "control", "other"], int, int] | None:
        """The kind, header size and payload length of the frame at ``start``; ``None``
        while its header has not all arrived."""
        if len(unread) - start < 2:
            return None
        first, second = unread[start], unread[start + 1]
        length, head = second & 0x7F, 6
        if length == 126:
            if len(unread) - start < 4:
                return None
            length, head = (unread[start + 2] << 8) | unread[start + 3], 8
        if not second & _MASKED or length == 127:
            return "other", head, length
        if first == _WHOLE_TEXT and length <= self.max_text:
            return "text", head, length
        if first & 0x7F >= _CONTROL and first & 0x70 == 0 and length <= 125:
            return "control", head, length
        return "other", head, length
