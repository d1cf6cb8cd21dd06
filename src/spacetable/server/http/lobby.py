"""Where players meet, over HTTP (issue 69 item 1; docs/protocol.md, "The lobby socket"):

* ``/ws/lobby``: the socket every page keeps open. The server sends on it what concerns
  the player wherever he is (``online``, ``session_ended``, pairings, challenges); the page
  sends ``ping`` and ``watch_online``. A Starlette websocket route, not the room sockets'
  hand-made protocol (``http/ws_protocol.py``): it carries a few messages a minute, so
  uvicorn's ASGI path costs nothing that matters, and the room sockets' fast path is left
  as it is (uvicorn's protocol hands every path but a room's to the application, after
  the same checks of ``Host`` and ``Origin``, made here again for a server run otherwise).
* ``GET /api/online``: ``{"players": [{"name", "status", "game", "room"}], "guests": N}``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse

from spacetable.i18n import translator
from spacetable.i18n.phrase import Reason, refusal
from spacetable.server.http.deps import App, Hub
from spacetable.server.http.guards import client_address, is_local
from spacetable.server.http.origins import same_origin
from spacetable.server.http.pages import reader_language
from spacetable.server.meet.identity import player_of
from spacetable.server.meet.lobby_sockets import LobbyHub, LobbySocket
from spacetable.server.meet.presence import presence_json
from spacetable.server.protocol.client_messages import Ping, WatchOnline
from spacetable.server.protocol.server_messages import Error, Pong, wire
from spacetable.server.sockets.protocol import ProtocolError, parse_client_message
from spacetable.server.sockets.rate_limit import TokenBucket
from spacetable.server.store.accounts import SESSION_COOKIE
from spacetable.server.store.storage import secret_digest

#: The lobby sockets one player (an account, a guest's cookie) may hold on one process.
MAX_PER_PLAYER = 20
#: The lobby sockets one address may hold on one process (this machine's not counted).
MAX_PER_ADDRESS = 50
#: Messages a second a lobby socket may send, and at once (a page sends a few a minute).
RATE, BURST = 2.0, 10.0
#: Frames waiting to be written to a socket before its client counts as not reading.
MAX_QUEUED = 256
#: Close codes: a flood (RFC 6455 "policy violation"), a client that does not read.
FLOODING, TOO_SLOW = 1008, 1013

#: The lobby socket and who is online.
router = APIRouter()


@router.get("/api/online")
async def online(hub: Hub) -> dict[str, Any]:
    players, guests = hub.online()
    return presence_json(players, guests)


async def _refuse(websocket: WebSocket, status: int, why: str) -> None:
    """Refuse the handshake with an HTTP ``status`` saying ``why``."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(PlainTextResponse(why + "\n", status))
    else:
        await websocket.close(code=1008, reason=why)


def _refusal(websocket: WebSocket, served: App) -> tuple[int, str] | None:
    """Why the handshake is refused (a host name not ours, a page of another site), or
    None."""
    host = websocket.headers.get("host")
    page = websocket.headers.get("origin")
    if not served.guards.hosts.allows(host):
        return 400, f"this server does not answer to the host name {host!r}"
    if page is not None and not same_origin(page, host, served.allowed_origins):
        return 403, f"websockets from {page} are not allowed"
    return None


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    served: App = websocket.app.state.services
    hub = served.hub
    assert isinstance(hub, LobbyHub), "the application made the lobby hub"
    refused = _refusal(websocket, served)
    if refused is not None:
        await _refuse(websocket, *refused)
        return
    peer = websocket.client.host if websocket.client else None
    client = client_address(
        peer, websocket.headers.getlist("x-forwarded-for"), served.guards.proxies
    )
    player = await player_of(websocket, served.accounts)
    queue: asyncio.Queue[bytes | None] = asyncio.Queue(MAX_QUEUED)
    closing: list[tuple[int, str]] = []

    def push(frame: bytes) -> bool:
        if closing:
            return False
        try:
            queue.put_nowait(frame)
        except asyncio.QueueFull:
            close(TOO_SLOW, "not reading")
            return False
        return True

    def close(code: int, reason: str) -> None:
        if closing:
            return
        closing.append((code, reason))
        if queue.full():  # what waits is dropped: the socket closes
            queue.get_nowait()
        queue.put_nowait(None)

    session_id = websocket.cookies.get(SESSION_COOKIE)
    session = secret_digest(session_id) if session_id and not player.guest else None
    socket = LobbySocket(player, push, close, client=client, session=session)
    # Counted and registered with no wait between the check and the count: 30 sockets
    # opened at once by one player are counted one after the other.
    if hub.sockets_of(player.key) >= MAX_PER_PLAYER:
        await _refuse(websocket, 429, f"at most {MAX_PER_PLAYER} lobby connections a player")
        return
    if not is_local(client) and hub.sockets_from(client) >= MAX_PER_ADDRESS:
        await _refuse(websocket, 429, f"at most {MAX_PER_ADDRESS} lobby connections an address")
        return
    hub.connect(socket)
    writer: asyncio.Task[None] | None = None
    try:
        await websocket.accept()
        writer = asyncio.create_task(_write(websocket, queue, closing))
        await _read(websocket, hub, socket, reader_language(websocket))
    finally:
        hub.disconnect(socket)
        close(1000, "")
        if writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()


async def _write(
    websocket: WebSocket, queue: asyncio.Queue[bytes | None], closing: list[tuple[int, str]]
) -> None:
    """Write what the hub pushed, in order; close when told to."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            frame = await queue.get()
            if frame is None:
                code, reason = closing[0] if closing else (1000, "")
                await websocket.close(code, reason)
                return
            await websocket.send_text(frame.decode())


async def _read(websocket: WebSocket, hub: LobbyHub, socket: LobbySocket, lang: str) -> None:
    """Read the page's messages until the socket closes: ``ping``, ``watch_online``; a
    message not well formed is answered with ``error``, a flood closed."""
    loop = asyncio.get_running_loop()
    bucket = TokenBucket.full(RATE, BURST, loop.time())
    tr = translator(lang)
    while True:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect":
            return
        if not bucket.take(loop.time()):
            socket.close(FLOODING, "too many messages")
            return
        data = received.get("text")
        if data is None:
            binary = refusal("the lobby socket takes JSON text messages, not binary ones")
            socket.push(_error(binary, tr))
            continue
        try:
            message = parse_client_message(data)
        except ProtocolError as exc:
            socket.push(_error(exc.args[0] if exc.args else str(exc), tr))
            continue
        if isinstance(message, Ping):
            socket.push(orjson.dumps(wire(Pong())))
        elif isinstance(message, WatchOnline):
            hub.watch(socket)
        else:
            other = refusal(
                "the lobby socket takes {expected}, not {type}",
                expected="ping, watch_online",
                type=str(getattr(message, "type", "pose")),
            )
            socket.push(_error(other, tr))


def _error(said: object, tr: Any) -> bytes:
    text = said.phrase.text(tr) if isinstance(said, Reason) else str(said)
    return orjson.dumps(wire(Error(text)))
