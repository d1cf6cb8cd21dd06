"""A bot's event stream (``GET /api/stream/event``, issue 72 item 3; docs/bots.md): what
happens to its account, one JSON line each (``protocol/event_lines.py``), on whichever
process the stream is connected to.

A stream is one more connection of its account in the hub (``meet/lobby_sockets.py``), as
a page's lobby socket is: what the server tells the account's pages reaches it on any
process (a challenge sent through another process, through the bus), and it is turned
into the stream's lines: ``challenge`` as it is, ``challenge_closed`` (but accepted) into
``challengeCanceled``, ``paired`` (a challenge accepted, a tournament's pairing) into
``gameStart``; a session ended (a ban, the account deleted) closes the stream. A room whose
match is over tells its bot accounts' streams ``gameFinish`` through the bus
(:meth:`BotEvents.match_over`, given to the rooms by the directory).

On connecting, a stream first replays the challenges still open to the account and a
``gameStart`` for each room of the account whose match is not over (stored rooms, and
this process's); what arrives meanwhile follows, once. An empty line every
:data:`KEEPALIVE_SECONDS` on the server's clock (the test clock's in tests) keeps it
alive. One stream per token: a new one closes the older one, on every process (the bus);
so does the token's revocation.
A reader that falls :data:`LAGGING_LINES` behind is closed (it reconnects and is replayed
what is open).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import orjson

from spacetable.server.meet.bus import Bus
from spacetable.server.meet.hub import Player
from spacetable.server.meet.lobby_sockets import LobbyHub, LobbySocket
from spacetable.server.protocol.event_lines import (
    ChallengeCanceled,
    ChallengeLine,
    ClosedChallenge,
    GameFinish,
    GameStart,
)
from spacetable.server.protocol.lobby_messages import ChallengeView
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.clock import LoopClock, RoomClock, Timer
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.room import Room
from spacetable.server.store.meetings import MeetingStore
from spacetable.server.store.ratings import game_key
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger(__name__)

#: Seconds between two empty lines that keep a quiet stream alive (server clock).
KEEPALIVE_SECONDS = 7.0
#: Lines a stream's reader may lag behind before it is closed.
LAGGING_LINES = 1000
#: The bus channels: a stream opened (older ones of its token close), a match over.
OPENED, FINISHED, REVOKED = "bots.stream_opened", "bots.match_over", "bots.token_revoked"

_CLOSED = ("declined", "cancelled", "expired")


def line(message: object) -> bytes:
    """A stream's line: the message's JSON and a newline."""
    return orjson.dumps(wire(message)) + b"\n"


@dataclass(eq=False, slots=True)
class EventStream:
    """One open event stream: its account's ``player``, its ``token`` (the token's id),
    the lines waiting for its reader."""

    player: Player
    token: str
    nonce: str = field(default_factory=lambda: secrets.token_hex(8))
    #: When it opened (wall time): of two streams of a token, the older closes.
    opened: float = field(default_factory=time.time)
    queue: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)
    #: Lines that arrived while the replay was read (sent after it, unless replayed).
    held: list[tuple[str, bytes]] | None = field(default_factory=list)
    #: What the replay sent: ``challenge:<id>`` and ``room:<id>``.
    replayed: set[str] = field(default_factory=set)
    closed: bool = False
    beat: Timer | None = None

    def put(self, what: str, data: bytes) -> bool:
        """Queue a line (``what`` names its challenge or room, for the replay); False once
        closed."""
        if self.closed:
            return False
        if self.held is not None:
            self.held.append((what, data))
            return True
        if self.queue.qsize() >= LAGGING_LINES:
            log.warning("a bot's event stream lags %d lines behind: closed", LAGGING_LINES)
            self.close()
            return False
        self.queue.put_nowait(data)
        return True

    def close(self) -> None:
        """End the stream (its reader gets what was queued, then the end)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)
        if self.beat is not None:
            self.beat.cancel()

    async def lines(self) -> AsyncIterator[bytes]:
        """The lines, as they come, until the stream closes."""
        while (data := await self.queue.get()) is not None:
            yield data


class BotEvents:
    """The event streams of this process, over the ``hub`` (its bus reaches the other
    processes), the ``directory``'s rooms and the ``meetings`` (for the replay); ``clock``:
    the server's test clock, if it has one (else the event loop's)."""

    def __init__(
        self,
        hub: LobbyHub,
        directory: RoomDirectory,
        meetings: MeetingStore,
        clock: RoomClock | None = None,
    ) -> None:
        self.hub = hub
        self.bus: Bus = hub.bus
        self.directory = directory
        self.meetings = meetings
        self.clock = clock
        self._by_token: dict[str, set[EventStream]] = {}
        self._by_key: dict[str, set[EventStream]] = {}
        self._sockets: dict[EventStream, LobbySocket] = {}
        self._pending: set[asyncio.Future[Any]] = set()
        self.bus.subscribe(OPENED, self._on_opened)
        self.bus.subscribe(FINISHED, self._on_finished)
        self.bus.subscribe(REVOKED, self._on_revoked)

    # -- a stream ----------------------------------------------------------------------

    async def open(
        self, player: Player, token: str, valid: Callable[[], bool] | None = None
    ) -> EventStream:
        """A new stream of the account ``player`` by its token ``token`` (its id): the
        older streams of the token close, on every process; the replay is queued first.
        ``valid``: whether the token still works (a database query, asked on a thread at
        each keep-alive: a revoked token's stream closes)."""
        stream = EventStream(player, token)
        self._by_token.setdefault(token, set()).add(stream)
        self._by_key.setdefault(player.key, set()).add(stream)
        socket = LobbySocket(
            player,
            lambda frame: self._from_hub(stream, frame),
            lambda code, reason: stream.close(),
            client="bot-stream",
        )
        self._sockets[stream] = socket
        self.hub.connect(socket)
        opened = {"token": token, "nonce": stream.nonce, "opened": stream.opened}
        await self.bus.publish(OPENED, opened)
        try:
            replay = await asyncio.to_thread(self._replay, player.key)
        except StorageUnavailable as exc:
            log.warning("a bot's event stream replays nothing: %s", exc)
            replay = []
        replay += self._rooms_here(player.key, {what for what, _ in replay})
        for what, data in replay:
            stream.replayed.add(what)
            stream.queue.put_nowait(data)
        held, stream.held = stream.held or [], None
        for what, data in held:
            if what not in stream.replayed:
                stream.put(what, data)
        self._keep_alive(stream, valid)
        return stream

    def release(self, stream: EventStream) -> None:
        """The stream's reader is gone (or it closed): forget it."""
        stream.close()
        socket = self._sockets.pop(stream, None)
        if socket is not None:
            self.hub.disconnect(socket)
        for index, key in ((self._by_token, stream.token), (self._by_key, stream.player.key)):
            found = index.get(key)
            if found is not None:
                found.discard(stream)
                if not found:
                    del index[key]

    def _keep_alive(self, stream: EventStream, valid: Callable[[], bool] | None) -> None:
        clock = self.clock
        if clock is None:
            clock = self.clock = LoopClock(asyncio.get_running_loop())

        async def check(valid: Callable[[], bool]) -> None:
            try:
                if not await asyncio.to_thread(valid):
                    stream.close()  # its token was revoked, or its account banned
            except StorageUnavailable:
                pass  # asked again at the next beat

        def beat() -> None:
            if stream.closed:
                return
            stream.put("", b"\n")
            if valid is not None:
                future = asyncio.ensure_future(check(valid))
                self._pending.add(future)
                future.add_done_callback(self._pending.discard)
            stream.beat = clock.after(KEEPALIVE_SECONDS, beat)

        stream.beat = clock.after(KEEPALIVE_SECONDS, beat)

    # -- what it is told -----------------------------------------------------------------

    def _from_hub(self, stream: EventStream, frame: bytes) -> bool:
        """A frame for the account's pages, as the stream's line (or nothing)."""
        try:
            message = orjson.loads(frame)
        except orjson.JSONDecodeError:
            return True
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "challenge":
            view = cast(ChallengeView, message.get("challenge") or {})
            return stream.put(f"challenge:{view.get('id')}", line(ChallengeLine(view)))
        if kind == "challenge_closed" and message.get("status") in _CLOSED:
            closed = cast(
                ClosedChallenge, {"id": str(message.get("id")), "status": message["status"]}
            )
            return stream.put("", line(ChallengeCanceled(closed)))
        if kind == "paired":
            room, game = str(message.get("room")), str(message.get("game"))
            return stream.put(f"room:{room}", line(GameStart(room, game)))
        return True

    def _on_opened(self, payload: Any) -> None:
        newer = (float(payload.get("opened") or 0.0), str(payload.get("nonce")))
        for stream in list(self._by_token.get(str(payload.get("token")), ())):
            if (stream.opened, stream.nonce) < newer:
                stream.close()  # a newer stream of the token opened (here or elsewhere)

    async def token_revoked(self, token: str) -> None:
        """The token ``token`` (its id) was revoked: its streams close now, on every
        process (not at their next keep-alive's check)."""
        await self.bus.publish(REVOKED, {"token": token})

    def _on_revoked(self, payload: Any) -> None:
        for stream in list(self._by_token.get(str(payload.get("token")), ())):
            stream.close()

    def _on_finished(self, payload: Any) -> None:
        room, game = str(payload.get("room")), str(payload.get("game"))
        for key in payload.get("keys") or ():
            for stream in list(self._by_key.get(str(key), ())):
                stream.put("", line(GameFinish(room, game)))

    def match_over(self, room: Room) -> None:
        """The match of ``room`` is over (the room calls it on its task: it never waits):
        the streams of its bot accounts, on every process, get ``gameFinish``."""
        keys = [s.account for s in room.seats if s.account is not None and s.bot_account]
        if not keys:
            return
        payload = {"keys": keys, "room": room.id, "game": room.options.entry.rules.key}
        future = asyncio.ensure_future(self.bus.publish(FINISHED, payload))
        self._pending.add(future)
        future.add_done_callback(self._pending.discard)

    # -- the replay ----------------------------------------------------------------------

    def _replay(self, key: str) -> list[tuple[str, bytes]]:
        """The challenges open to the account, and its stored rooms not over (a thread)."""
        got, _ = self.meetings.open_challenges(key)
        replay = [
            (f"challenge:{c.id}", line(ChallengeLine(cast(ChallengeView, c.view())))) for c in got
        ]
        live = self.directory.live
        if live is not None:
            for room in live.seated_rooms(key):
                if room.phase != "over":
                    start = GameStart(room.id, game_key(room.ruleset))
                    replay.append((f"room:{room.id}", line(start)))
        return replay

    def _rooms_here(self, key: str, known: set[str]) -> list[tuple[str, bytes]]:
        """This process's rooms of the account not over, but those already ``known``."""
        found = []
        for room in self.directory.rooms():
            if room.phase == "over" or f"room:{room.id}" in known:
                continue
            if any(seat.account == key for seat in room.seats):
                game = room.options.entry.rules.key
                found.append((f"room:{room.id}", line(GameStart(room.id, game))))
        return found

    def stop(self) -> None:
        """End every stream of this process (the server stops: their bodies end, before
        the server waits for its connections)."""
        for stream in list(self._sockets):
            stream.close()

    async def close(self) -> None:
        """End every stream of this process, and wait for what they publish."""
        self.stop()
        with contextlib.suppress(Exception):
            if self._pending:
                await asyncio.wait(set(self._pending), timeout=5)
