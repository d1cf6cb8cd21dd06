"""``/ws/rooms/{room_id}``: a room's websocket, served on the bare ASGI interface.

The game socket carries most of the server's traffic (every player's hand pose, 20 times
a second), so it skips Starlette's ``WebSocket`` wrapper: messages are read straight from
the ASGI ``receive`` and written through :class:`~spacetable.server._connection.Connection`.
Each text message is validated (:func:`~spacetable.server.protocol.parse_client_message`);
a bad one is answered with an ``error`` and changes nothing. Poses go to the room at once,
everything else through the room's queue.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from spacetable.server._connection import Connection, Send
from spacetable.server.protocol import HandPose, ProtocolError, parse_client_message
from spacetable.server.rooms import RoomDirectory

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]

#: Close code for a room that does not exist (4000-4999: free for applications).
NO_SUCH_ROOM = 4404


class RoomSocket:
    """The ASGI endpoint of the room websockets of ``directory``."""

    def __init__(self, directory: RoomDirectory) -> None:
        self.directory = directory

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        room_id = scope["path_params"]["room_id"]
        connection = Connection(send)
        room = self.directory.get(room_id)
        if room is None:
            connection.send({"type": "error", "message": f"no room {room_id!r}"})
            await send({"type": "websocket.close", "code": NO_SUCH_ROOM})
            return
        room.connect(connection)
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return  # websocket.disconnect
                text = message.get("text")
                try:
                    parsed = parse_client_message(text if text is not None else message["bytes"])
                except ProtocolError as exc:
                    connection.send({"type": "error", "message": str(exc)})
                    continue
                if isinstance(parsed, HandPose):
                    room.pose(connection, parsed)  # the stream: no trip through the queue
                else:
                    room.submit(connection, parsed)
        finally:
            room.disconnect(connection)
