"""A bot plays its games over HTTP (issue 72 item 4; docs/bots.md), with a token of scope
``bot:play`` (``Authorization: Bearer``):

* ``GET /api/bot/game/stream/{room}``: newline-delimited JSON, long-lived: first
  ``gameFull`` (the room and the match as the bot's seat sees them), then ``gameState`` at
  each change, ``decision`` when the bot must act, and the room socket's own messages
  (``turn``, ``placed``, ``refused``, ``chat``, ``result``...); an empty line every
  :data:`KEEPALIVE_SECONDS`; it ends when the match is over.
* ``POST /api/bot/game/{room}/move``: the action JSON a page sends on the room socket
  (``{"type": "plot", "orders": [...]}``, ``{"type": "place", "x", "y", "rotation"}``,
  ``{"type": "act", "action": {...}}``...), plus an optional ``idempotency_key``: a key
  sent again answers what it answered the first time and does not act twice.
* ``POST /api/bot/game/{room}/resign``, ``POST /api/bot/game/{room}/chat`` ``{text}``.

A move answers 200 ``{"ok": true, "version"}`` (the match's version then) once the room
has handled it, 400 ``{"error"}`` with the words a page would read (the room's
``refused`` or ``error``), 429 ``{"error", "ratelimit": {"key", "seconds"}}`` over the
limits a page's socket has (moves) and the room's chat throttle (chat). The account is
seated as a page opened with its session is (``rooms/bot_seat.py``). In a cluster, a
request for a room another process holds is passed on to that process
(``http/bot_relay.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from spacetable._userinput import clipped
from spacetable.i18n.phrase import refusal
from spacetable.server.cluster.interface import Elsewhere, cluster_errors
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.bot_relay import RELAYED, OwnerAway, relay
from spacetable.server.http.deps import App, Services
from spacetable.server.http.tokens import bearer_of
from spacetable.server.rooms.bot_seat import Answer, BotSeat, RateLimited
from spacetable.server.rooms.directory import RebuildFailed, RoomsFull
from spacetable.server.rooms.room import Room
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.protocol import Pose, ProtocolError, parse_client_message
from spacetable.server.store.accounts import name_key
from spacetable.server.store.storage import StorageUnavailable

#: The bot game routes.
router = APIRouter()

#: The scope a token needs to play.
SCOPE = "bot:play"
#: Largest body of a move, in bytes.
MOVE_BODY_LIMIT = 8 * 1024
#: Longest idempotency key, in characters.
KEY_MAX = 64
#: Seconds between the empty lines that keep a quiet stream open.
KEEPALIVE_SECONDS = 7.0
#: Longest chat text read (the room refuses more than its own limit, saying so).
CHAT_TEXT_MAX = 4000
#: Messages of the room socket that are not a bot's moves (its seat is the account's).
_NOT_MOVES = frozenset({"join", "rejoin", "watch", "forsake", "open_chat", "resync", "ping"})


def _seats(served: Services) -> dict[tuple[str, str], BotSeat]:
    """The bots' seats in this process's rooms, by room id and account key."""
    found: dict[tuple[str, str], BotSeat] | None = getattr(served, "_bot_seats", None)
    if found is None:
        found = {}
        served._bot_seats = found  # type: ignore[attr-defined]
    return found


async def _room(served: Services, room_id: str, relayed: bool) -> Room | str | JSONResponse:
    """Room ``room_id`` of this process (rebuilt from storage if its process is gone), the
    address of the process of a cluster that holds it, or the refusal: 404 no such room,
    421 another process holds it and the request was ``relayed`` here already, 503
    unavailable (a room moving between processes, the database or Redis away)."""
    directory, node = served.directory, served.node
    room = directory.get(room_id)
    away: tuple[type[Exception], ...] = (RebuildFailed, StorageUnavailable, RoomsFull)
    try:
        if room is None and node is not None:
            where = await node.locate(room_id)
            if isinstance(where, Room):
                room = where
            elif isinstance(where, Elsewhere) and not relayed:
                return where.address  # the owner answers (http/bot_relay.py)
            elif where is not None:
                said = refusal("room {room} is played on another server", room=clipped(room_id))
                return refused(said, 421 if isinstance(where, Elsewhere) else 503)
        elif room is None:
            room = await directory.get_or_rebuild(room_id)
    except (*away, *cluster_errors()) as exc:
        said = refusal(
            "room {room} is unavailable: {problem}", room=clipped(room_id), problem=str(exc)
        )
        return refused(said, 503, {"Retry-After": "1"})
    if room is None:
        return refused(refusal("no room {room}", room=clipped(room_id)), 404)
    return room


def stop_streams(served: Services) -> None:
    """End every game stream of this process (the server stops: their bodies end cleanly,
    before it waits for its connections; the bots open them again where the room goes)."""
    for seat in list(_seats(served).values()):
        seat.close()


def _forget(seats: dict[tuple[str, str], BotSeat], key: tuple[str, str], seat: BotSeat) -> None:
    """A bot's seat left its room: forgotten (unless a newer one took its place)."""
    if seats.get(key) is seat:
        del seats[key]


async def _bot_seat(request: Request, served: Services, room_id: str) -> BotSeat | Response:
    """The token's account in room ``room_id``, seated as its page would be; or the
    answer of the process of a cluster that holds the room, the request passed on to it;
    or the refusal (401/403 the token, 404/421/503 the room, 403 no seat of the account
    there)."""
    bearer = await bearer_of(request, served, SCOPE)
    if isinstance(bearer, JSONResponse):
        return bearer
    room = await _room(served, room_id, RELAYED in request.headers)
    if isinstance(room, JSONResponse):
        return room
    if isinstance(room, str):
        return await _passed_on(request, room)
    account = bearer.account.name
    account = bearer.account.name
    seats = _seats(served)
    key = (room.id, name_key(account))
    seat = seats.get(key)
    if seat is None or seat.closed or seat.room is not room:
        seat = BotSeat(room, account)
        if not seat.holds_seat():
            said = refusal("{name} holds no seat in room {room}", name=account, room=room.id)
            return refused(said, 403)
        seats[key] = seat
        seat.on_close = functools.partial(_forget, seats, key, seat)
        room.connect(seat.connection)
    return seat


async def _passed_on(request: Request, address: str) -> Response:
    """The request sent to the process at ``address``, which holds its room: its answer."""
    body = b""
    if request.method == "POST":
        try:
            body = await json_body(request, MOVE_BODY_LIMIT)
        except BodyRefused as exc:
            return exc.response("error")
    try:
        return await relay(request, address, body)
    except OwnerAway as exc:
        room = clipped(request.path_params.get("room_id", ""))
        said = refusal("room {room} is unavailable: {problem}", room=room, problem=str(exc))
        return refused(said, 503, {"Retry-After": "1"})


@router.get("/api/bot/game/stream/{room_id}", response_model=None)
async def game_stream(request: Request, served: App, room_id: str) -> Response:
    # The game as the bot's seat sees it, a JSON line at a time, until the match is over.
    seat = await _bot_seat(request, served, room_id)
    if not isinstance(seat, BotSeat):
        return seat
    queue = seat.listen()

    async def lines() -> AsyncIterator[bytes]:
        try:
            while True:
                try:
                    line = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield b"\n"
                    continue
                if line is None:
                    return
                yield line
        finally:
            seat.forget(queue)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=headers)


def _error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def _too_many(limited: RateLimited) -> JSONResponse:
    said = refusal("too many messages: wait {n} s", n=limited.seconds)
    body = {"error": str(said), "ratelimit": {"key": limited.key, "seconds": limited.seconds}}
    return JSONResponse(body, status_code=429, headers={"Retry-After": str(limited.seconds)})


def _answered(answer: Answer) -> JSONResponse:
    if answer.refusal is not None:
        return _error(answer.refusal)
    done: dict[str, Any] = {"ok": True}
    if answer.version is not None:
        done["version"] = answer.version
    return JSONResponse(done)


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, or the refusal (400, 413, 415)."""
    try:
        raw = await json_body(request, MOVE_BODY_LIMIT)
    except BodyRefused as exc:
        return exc.response("error")
    try:
        body = orjson.loads(raw) if raw else {}
    except orjson.JSONDecodeError:
        return _error(str(refusal("Send a JSON object.")))
    if not isinstance(body, dict):
        return _error(str(refusal("Send a JSON object.")))
    return body


def _key(body: dict[str, Any]) -> str | JSONResponse | None:
    """The body's ``idempotency_key`` (taken out of it), or the refusal."""
    key = body.pop("idempotency_key", None)
    if key is not None and (not isinstance(key, str) or not 0 < len(key) <= KEY_MAX):
        said = refusal("idempotency_key must be text of 1 to {most} characters", most=KEY_MAX)
        return _error(str(said))
    return key


@router.post("/api/bot/game/{room_id}/move", response_model=None)
async def move(request: Request, served: App, room_id: str) -> Response:
    # One action, as a page sends it on the room socket.
    seat = await _bot_seat(request, served, room_id)
    if not isinstance(seat, BotSeat):
        return seat
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    key = _key(body)
    if isinstance(key, JSONResponse):
        return key
    if key is not None and key in seat.keys:
        return _answered(await seat.act(None, key))
    if body.get("type") in _NOT_MOVES:
        said = refusal("{type} is not a move", type=clipped(body.get("type")))
        return _error(str(said))
    try:
        message = parse_client_message(orjson.dumps(body))
    except ProtocolError as exc:
        return _error(str(exc.args[0] if exc.args else exc))
    limited = seat.limited()
    if limited is not None:
        return _too_many(limited)
    room = seat.room
    submit = room.pose if isinstance(message, Pose) else room.submit
    return _answered(await seat.act(message, key, submit))


@router.post("/api/bot/game/{room_id}/resign", response_model=None)
async def resign(request: Request, served: App, room_id: str) -> Response:
    # The bot resigns its match.
    seat = await _bot_seat(request, served, room_id)
    if not isinstance(seat, BotSeat):
        return seat
    return _answered(await seat.act(msg.Resign(type="resign"), None))


@router.post("/api/bot/game/{room_id}/chat", response_model=None)
async def chat(request: Request, served: App, room_id: str) -> Response:
    # A line in the players' chat: {text}.
    seat = await _bot_seat(request, served, room_id)
    if not isinstance(seat, BotSeat):
        return seat
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        return _error(str(refusal("Send {text}: what to say.")))
    message = msg.Chat(type="chat", text=text[:CHAT_TEXT_MAX])  # the room says its limit
    answer = await seat.act(message, None)
    with contextlib.suppress(KeyError):
        wait = seat.room.chat.held_back(seat.connection)
        if wait is not None:
            return _too_many(RateLimited("chat", wait))
    return _answered(answer)
