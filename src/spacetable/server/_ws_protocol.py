"""The room websockets (``/ws/rooms/{room_id}``), served straight from uvicorn's protocol.

A room's sockets carry most of the server's traffic: every player's hand pose 20 times a
second in, the coalesced poses of the others out. Through ASGI each message in wakes the
connection's task through a queue (and stops and restarts reading the socket), and each
message out is framed again for every player. :class:`GameWebSocketProtocol` is uvicorn's
own sans-I/O websocket protocol (``uvicorn.run(ws=...)``) that keeps uvicorn's handshake,
pings and closing handshake but hands a room socket's messages to its room as they are
read, and writes the room's messages as frames built once for all their readers
(:func:`~spacetable.server._connection.text_frame`). Every other websocket path still goes
to the ASGI application.

The room directory comes from the application's lifespan state (key :data:`ROOMS`).
"""

from __future__ import annotations

import re
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from spacetable.server._connection import Connection
from spacetable.server.protocol import Pose, ProtocolError, parse_client_message
from spacetable.server.rooms import Room, RoomDirectory

#: The lifespan-state key under which the application shares its room directory.
ROOMS = "spacetable.rooms"
#: Close code for a room that does not exist (4000-4999: free for applications).
NO_SUCH_ROOM = 4404
#: Close code for a client that does not read what it is sent (RFC 6455: "try again later").
TOO_SLOW = 1013
#: Bytes waiting to be sent to a client before it counts as not reading.
MAX_BACKLOG = 4 * 1024 * 1024

_ROOM_PATH = re.compile(r"/ws/rooms/([^/?]+)")


class GameWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with room sockets handled in place."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game: Connection | None = None
        self.room: Room | None = None

    # -- uvicorn's hooks ------------------------------------------------------------

    def handle_connect(self, event: Request) -> None:
        """The opening handshake: a room's socket is accepted here; others go to ASGI."""
        found = _ROOM_PATH.fullmatch(event.path.partition("?")[0])
        directory: RoomDirectory | None = self.app_state.get(ROOMS)
        if found is None or directory is None:
            super().handle_connect(event)
            return
        self.request = event
        self.response = self.conn.accept(event)
        self.handshake_initiated = self.handshake_complete = True
        self.conn.send_response(self.response)
        self._flush()
        if self.response.status_code != 101:  # not a valid websocket handshake
            self.close_sent = True
            self.transport.close()
            return
        self.start_keepalive()
        self.game = Connection(self.write_frame)
        room_id = found[1]
        self.room = directory.get(room_id)
        if self.room is None:
            self.game.send({"type": "error", "message": f"no room {room_id!r}"})
            self.close(NO_SUCH_ROOM, "no such room")
            return
        self.room.connect(self.game)

    def send_receive_event_to_app(self) -> None:
        """A whole message has arrived: a room socket's goes to its room."""
        if self.game is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.room is None or self.close_sent:
            return
        try:
            message = parse_client_message(data)
        except ProtocolError as exc:
            self.game.send({"type": "error", "message": str(exc)})
            return
        if isinstance(message, Pose):
            self.room.pose(self.game, message)  # the stream: no trip through the queue
        else:
            self.room.submit(self.game, message)

    def connection_lost(self, exc: Exception | None) -> None:
        """The socket is gone: the room hears of it once."""
        super().connection_lost(exc)
        if self.game is not None and self.room is not None:
            self.room.disconnect(self.game)
            self.room = None

    # -- writing --------------------------------------------------------------------

    def write_frame(self, frame: bytes) -> bool:
        """Send one ready-made frame; False once the socket can no longer be written."""
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return False
        self.transport.write(frame)
        if self.transport.get_write_buffer_size() > MAX_BACKLOG:
            self.close(TOO_SLOW, "not reading")
            return False
        return True

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake; the transport closes when the client answers (or
        after uvicorn's close timeout)."""
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.send_close(code, reason)
        self._flush()
        self.close_sent = True
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)

    def _flush(self) -> None:
        self.transport.write(b"".join(self.conn.data_to_send()))
