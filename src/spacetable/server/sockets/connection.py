"""One client's websocket as a room sees it: somewhere to send messages.

A room sends the same message to several clients many times a second (the coalesced
poses, the state after a placement), so messages travel as websocket frames built once by
:func:`message_frame` and written as they are to every reader. Writing never blocks the room:
it goes to the socket's buffer (``http/ws_protocol.py`` closes a client that stops reading).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import orjson

from spacetable.i18n import SOURCE, Translator, translator
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire

_FIN_TEXT = 0x81  # FIN, no extension bits, opcode 1 (text)
_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")

#: Writes one frame to the client's socket; False once the socket is gone or closing.
WriteFrame = Callable[[bytes], bool]
#: Closes the client's socket with a close code and a reason.
HangUp = Callable[[int, str], None]


def text_frame(text: bytes) -> bytes:
    """A server-to-client websocket text frame carrying ``text`` (UTF-8; unmasked, not
    compressed, in one piece: RFC 6455 5.2), its header written here rather than by
    ``websockets``' general ``Frame.serialize`` (one a message sent)."""
    length = len(text)
    if length < 126:
        return bytes((_FIN_TEXT, length)) + text
    if length < 1 << 16:
        return _HEAD_16.pack(_FIN_TEXT, 126, length) + text
    return _HEAD_64.pack(_FIN_TEXT, 127, length) + text


def frame_payload(frame: bytes) -> bytes:
    """The payload of a frame made by :func:`text_frame` (unmasked, in one piece)."""
    length = frame[1] & 0x7F
    if length == 126:
        return frame[4:]
    if length == 127:
        return frame[10:]
    return frame[2:]


def encode(value: Any) -> bytes:
    """JSON text as UTF-8 (numpy numbers written as plain numbers)."""
    return orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY)


def message_frame(message: dict[str, Any]) -> bytes:
    """The frame of a JSON message."""
    return text_frame(encode(message))


class Outbox:
    """A room's messages held back while what they tell is on its way to storage: a
    player hears of an action only once it would outlive the process (``rooms/room.py``)."""

    def __init__(self) -> None:
        #: The frames held, in order, with their readers (``None``: nothing is held).
        self.held: list[tuple[Connection, bytes]] | None = None

    def hold(self) -> None:
        """Hold every frame sent from now on."""
        if self.held is None:
            self.held = []

    def release(self) -> None:
        """Send the frames held, in the order they were sent, and stop holding."""
        held, self.held = self.held, None
        for connection, frame in held or ():
            connection.send_frame(frame)


class Connection:
    """One websocket of a room, seated (``seat``) or watching."""

    def __init__(
        self,
        write_frame: WriteFrame,
        hang_up: HangUp | None = None,
        *,
        patches: bool = False,
        lang: str = SOURCE,
    ) -> None:
        self.seat: int | None = None
        #: The reader's language (his page's: ``?lang=``, the ``lang`` cookie or the
        #: browser's Accept-Language): the sentences sent to him are in it.
        self.tr: Translator = translator(lang)
        #: The room's outbox, once the room has it: it may hold what is sent.
        self.outbox: Outbox | None = None
        #: Whether the client takes ``state_patch`` messages (``sockets/state_patch.py``).
        self.patches = patches
        #: The number of the last ``state`` sent to it, and that state as plain JSON (the
        #: base of the next patch; shared by every socket of its view).
        self.state_seq: int | None = None
        self.state_base: Any = None
        #: The browser tab it says it belongs to (``rejoin``): a tab's sockets may share
        #: its seat, another tab's may not.
        self.tab: str | None = None
        #: The name of the account whose session cookie opened the socket (``None``: a
        #: guest): it sits under that name, and takes back that account's seat.
        self.account: str | None = None
        self.closed = False
        self._write_frame = write_frame
        self._hang_up = hang_up

    def send(self, message: dict[str, Any]) -> None:
        """Send a message to this client."""
        self.send_frame(message_frame(message))

    def error(self, message: str, /, **params: Any) -> None:
        """Send an ``error`` whose words are ``message`` (English, marked ``N_``) in this
        reader's language, its ``{name}`` places filled from ``params``."""
        self.send(wire(to_page.Error(self.tr.gettext(message, **params))))

    def send_frame(self, frame: bytes) -> None:
        """Send a frame made by :func:`text_frame` (shared by all the readers of a message),
        or hold it in the room's outbox while the outbox holds."""
        outbox = self.outbox
        if outbox is not None and outbox.held is not None:
            outbox.held.append((self, frame))
        elif not self.closed and not self._write_frame(frame):
            self.closed = True

    def send_now(self, message: dict[str, Any]) -> None:
        """Send a message at once, past a holding outbox (news of the storage itself)."""
        if not self.closed and not self._write_frame(message_frame(message)):
            self.closed = True

    def close(self) -> None:
        """Stop writing (the socket is gone)."""
        self.closed = True

    def hang_up(self, code: int, reason: str) -> None:
        """Close the client's socket with ``code`` (a room moving to another process:
        1012, and the client reconnects), and stop writing."""
        if self._hang_up is not None and not self.closed:
            self._hang_up(code, reason)
        self.closed = True
