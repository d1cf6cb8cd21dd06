"""A bot account playing over HTTP (issue 72 item 4; docs/bots.md): its seat in a room of
this process, held by a :class:`BotSeat`, which is to the room what a page's socket is.

The room sees one :class:`~spacetable.server.sockets.connection.Connection` opened by the
account, as a page opened with the account's session is (it takes back the account's
seat, or watches): the same view, the same refusals, the same absence rules (the seat's
player is away once no stream of it is open). What the room writes to it is turned into
the lines of the game's streams (``GET /api/bot/game/stream/{room}``, the
``protocol/bot_messages.py`` lines and the room's own messages); a move
(``POST /api/bot/game/{room}/move``) is submitted on the connection, followed by a
``ping``: the room handles messages in order, so what it answers before its ``pong`` is the
move's answer (its ``refused`` or ``error``, or nothing: done). A key repeated within the
last :data:`KEYS_KEPT` moves answers what the first answered, without acting again.
"""

from __future__ import annotations

import asyncio
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from spacetable.server.protocol import bot_messages as to_bot
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.room import Room
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection, frame_payload
from spacetable.server.sockets.rate_limit import ACTION_BURST_SECONDS, ACTION_SHARE, TokenBucket
from spacetable.server.sockets.rate_limit import MESSAGES_PER_SECOND as _RATE
from spacetable.server.store.accounts import name_key

#: Idempotency keys remembered per seat (the latest).
KEYS_KEPT = 256
#: Moves a bot may send a second, sustained, as a page's socket may send actions.
MOVES_PER_SECOND = _RATE * ACTION_SHARE
#: Moves at once (as a page's socket).
MOVES_BURST = MOVES_PER_SECOND * ACTION_BURST_SECONDS
#: Lines a stream may fall behind by before it is closed (a client that stopped reading).
STREAM_BACKLOG = 1000
#: The room's messages a bot's stream leaves out (the hands' poses stream ten a second).
_LEFT_OUT = frozenset({b"poses", b"pong", b"welcome", b"state_patch"})
#: The room's messages no ``state`` follows, after which the bot may have to act.
_NO_STATE_AFTER = frozenset({b"placed", b"stop"})
#: The room's answers to a move that refuse it.
_REFUSALS = frozenset({"refused", "error"})


@dataclass(frozen=True, slots=True)
class Answer:
    """What a move got: ``None`` (done), or the room's refusal in words (``refused``:
    the rules, ``error``: the message or the moment); and the match's version once it was
    handled (``None``: no match), which tells the bot the ``decision`` lines of earlier
    versions are stale."""

    refusal: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class RateLimited:
    """A move or chat over its limit: ``key`` names the limit, ``seconds`` to wait."""

    key: str
    seconds: int


class BotSeat:
    """The account ``account`` (its name) in ``room``, as a page's socket opened with its
    session (once ``room.connect`` has its connection); it leaves with its last stream."""

    def __init__(self, room: Room, account: str) -> None:
        self.room = room
        self.account = account
        self.connection = Connection(self._write, self._hung_up)
        self.connection.account = account
        self.streams: list[asyncio.Queue[bytes | None]] = []
        #: The room's latest ``room`` message and ``state`` fields, as JSON.
        self._news: dict[str, Any] | None = None
        self._state: dict[str, Any] | None = None
        #: The room's other messages that came before both (they follow ``gameFull``).
        self._early: list[bytes] = []
        #: The match's version and phase of the last ``decision`` told.
        self._decided: tuple[int, str] | None = None
        #: The frames of the move being answered (``None``: none is).
        self._answer: list[dict[str, Any]] | None = None
        self._pong: asyncio.Future[None] | None = None
        self._turn = asyncio.Lock()
        self.keys: OrderedDict[str, asyncio.Future[Answer]] = OrderedDict()
        now = room.clock.now()
        self._moves = TokenBucket.full(MOVES_PER_SECOND, MOVES_BURST, now)
        self.closed = False
        #: Called once it has left the room (its keeper forgets it).
        self.on_close: Callable[[], None] | None = None

    def holds_seat(self) -> bool:
        """Whether the account holds a seat of the room."""
        key = name_key(self.account)
        return any(s.account == key for s in self.room.seats)

    # -- streams ---------------------------------------------------------------------

    def listen(self) -> asyncio.Queue[bytes | None]:
        """A new stream's queue of lines (``None``: the stream ends), the ``gameFull``
        first if the room has told it already."""
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.streams.append(queue)
        if self._news is not None and self._state is not None:
            queue.put_nowait(self._full())
            self._maybe_decide(queue)
            if self._news.get("phase") == "over":  # nothing more will come
                self._end_streams()
        return queue

    def forget(self, queue: asyncio.Queue[bytes | None]) -> None:
        """A stream closed; with the last of them the account's connection closes (its
        seat's player is away, as when a page closes)."""
        if queue in self.streams:
            self.streams.remove(queue)
        if not self.streams and self._answer is None:
            self.close()

    def close(self) -> None:
        """Leave the room (as a page's socket closing) and end every stream."""
        if self.closed:
            return
        self.closed = True
        self.room.disconnect(self.connection)
        for queue in self.streams:
            queue.put_nowait(None)
        if self.on_close is not None:
            self.on_close()

    def _line(self, message: dict[str, Any]) -> bytes:
        return orjson.dumps(message) + b"\n"

    def _full(self) -> bytes:
        news, state = self._news or {}, self._state
        return self._line(
            wire(
                to_bot.GameFull(
                    room=self.room.id,
                    game=self.room.options.entry.rules.key,
                    seat=self.connection.seat,
                    seats=news.get("seats", []),
                    options=news.get("options", {}),
                    phase=str(news.get("phase", "lobby")),
                    state=state,
                )
            )
        )

    def _send(self, line: bytes) -> None:
        for queue in list(self.streams):
            if queue.qsize() >= STREAM_BACKLOG:  # not read: that stream ends
                self.streams.remove(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(line)

    def _decision(self) -> bytes | None:
        """The ``decision`` line, when the bot's seat must act now (once for each of the
        match's versions and phases; none during a run-up, when nobody may place yet)."""
        match, seat = self.room.match, self.connection.seat
        if match is None or seat is None or seat >= len(self.room.seats):
            return None
        player = self.room.seats[seat].name
        if player is None or player not in match.match.players:
            return None
        if match.in_runup(self.room.clock.now()) or not match.match.needs_action(player):
            return None
        told = (match.version, match.phase)
        if told == self._decided:
            return None
        self._decided = told
        t = self.room.now()
        return self._line(wire(to_bot.Decision(match.phase, match.deadline, t, match.version)))

    def _maybe_decide(self, queue: asyncio.Queue[bytes | None] | None = None) -> None:
        if queue is not None:  # a new stream: told again
            self._decided = None
        line = self._decision()
        if line is None:
            return
        if queue is None:
            self._send(line)
        else:
            queue.put_nowait(line)

    # -- what the room writes --------------------------------------------------------

    def _write(self, frame: bytes) -> bool:
        """A frame the room sent to the account's connection."""
        if self.closed:
            return False
        payload = frame_payload(frame)
        kind = _kind(payload)
        if kind == b"pong":
            if self._pong is not None and not self._pong.done():
                self._pong.set_result(None)
            return True
        if kind in _LEFT_OUT:
            return True
        message: dict[str, Any] = orjson.loads(payload)
        if self._answer is not None and message.get("type") in _REFUSALS:
            self._answer.append(message)
        if kind == b"room":
            self._room_news(message)
        elif kind == b"state":
            self._new_state(message)
        elif self._news is None or self._state is None:
            self._early.append(payload + b"\n")
        else:
            self._send(payload + b"\n")
            if kind in _NO_STATE_AFTER:  # a card placed mid-round: a new card in hand
                self._maybe_decide()
        return True

    def _send_full(self) -> None:
        """The ``gameFull`` line, then what came before it."""
        self._send(self._full())
        early, self._early = self._early, []
        for line in early:
            self._send(line)
        if self._news is not None and self._news.get("phase") == "over":
            self._end_streams()  # opened on a match over: nothing more will come

    def _room_news(self, message: dict[str, Any]) -> None:
        before = None if self._news is None else self._news.get("phase")
        self._news = message
        phase = message.get("phase")
        if phase == "over":
            self._leave_if_done()
        seat = self.connection.seat
        if phase == "lobby" and seat is not None:  # a bot is always ready
            mine = next((s for s in message.get("seats", []) if s.get("seat") == seat), None)
            if mine is not None and not mine.get("ready"):
                self.room.submit(self.connection, msg.Ready(type="ready"))
        if self._state is None:
            if phase == "over":  # a match over, or never begun: no view to wait for
                self._send_full()
            return
        if before is None:
            self._send_full()
        elif before != phase:
            self._send(self._line(wire(to_bot.GameState(str(phase), self._state))))
        if phase == "over" and before != "over":
            self._end_streams()

    def _new_state(self, message: dict[str, Any]) -> None:
        message.pop("type", None)
        first = self._state is None
        self._state = message
        if self._news is None:
            return
        if first:
            self._send_full()
        else:
            phase = str(self._news.get("phase", "lobby"))
            self._send(self._line(wire(to_bot.GameState(phase, message))))
        self._maybe_decide()

    def _leave_if_done(self) -> None:
        """The match is over and no stream reads it (a bot that only sends moves): the
        account's connection leaves the room, which may then close when nobody uses it.
        Its streams, if any, leave when they end."""
        if not self.streams and self._answer is None:
            self.close()

    def _end_streams(self) -> None:
        """The match is over: every stream ends after its last lines."""
        for queue in self.streams:
            queue.put_nowait(None)
        self.streams = []

    def _hung_up(self, code: int, reason: str) -> None:
        """The room moves to another process (or stops here): the streams end, and the
        bot opens its stream again (docs/bots.md)."""
        self.close()

    # -- moves -----------------------------------------------------------------------

    def limited(self, key: str = "move") -> RateLimited | None:
        """Take one move from the seat's bucket, or what the refusal says (429)."""
        bucket = self._moves
        if bucket.take(self.room.clock.now()):
            return None
        wait = max(1, math.ceil((1 - bucket.tokens) / bucket.rate))
        return RateLimited(key, wait)

    async def act(
        self,
        message: Any,
        key: str | None,
        submit: Callable[[Connection, Any], None] | None = None,
    ) -> Answer:
        """Hand the room ``message`` from the account's connection (through ``submit``:
        the room's, or its ``pose``) and wait for its answer; a ``key`` seen before answers
        what it answered then, without acting twice."""
        if key is not None:
            known = self.keys.get(key)
            if known is not None:
                return await asyncio.shield(known)
            future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
            self.keys[key] = future
            while len(self.keys) > KEYS_KEPT:
                self.keys.popitem(last=False)
        try:
            answer = await self._act(message, submit or self.room.submit)
        except BaseException as exc:
            if key is not None:
                self.keys.pop(key, None)
                if not future.done():
                    future.set_exception(exc)
                    future.exception()  # retrieved: the first caller raises it
            raise
        if key is not None:
            future.set_result(answer)
        return answer

    async def _act(self, message: Any, submit: Callable[[Connection, Any], None]) -> Answer:
        async with self._turn:
            self._answer = []
            self._pong = asyncio.get_running_loop().create_future()
            try:
                submit(self.connection, message)
                self.room.submit(self.connection, msg.Ping(type="ping"))
                await self._pong
                said = [m for m in self._answer if m.get("type") in _REFUSALS]
                match = self.room.match
                version = None if match is None else match.version
            finally:
                self._answer, self._pong = None, None
        if self._news is not None and self._news.get("phase") == "over":
            self._leave_if_done()
        if not said:
            return Answer(version=version)
        first = said[0]
        return Answer(str(first.get("reason") or first.get("message") or ""), version)


def _kind(payload: bytes) -> bytes:
    """The ``type`` of a message the room wrote: every message starts with it (``wire``)."""
    if payload.startswith(b'{"type":"'):
        end = payload.find(b'"', 9)
        if end > 0:
            return payload[9:end]
    found = orjson.loads(payload).get("type", "")
    return str(found).encode()
