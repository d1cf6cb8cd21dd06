"""Rooms: seats, connections, bots and the match, each room owned by one asyncio task.

Websocket handlers call :meth:`Room.submit`; everything that changes a room happens in
:meth:`Room._run`, one message at a time, so a room needs no locks. Timers (the deployment
and stop countdowns, bots' turns, abandoned seats) post markers into the same queue. The
pose stream is the exception, for its volume: poses are noted, and sent on when their
window closes, by plain callbacks on the same event loop, which cannot interleave with the
task's handling either. The match itself is the pure state machine of its game, found
through the game registry and paced by the :class:`~spacetable.server._room_match.RoomMatch`
of the game's pacing (``_realtime.py``, ``_plots.py``); the room adds the clock, sockets,
seats, bots and storage, nothing else, and never asks which game it plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from spacetable.core.match import IllegalAction
from spacetable.core.registry import Bots
from spacetable.server import protocol as msg
from spacetable.server._connection import Connection, encode, message_frame, text_frame
from spacetable.server._plots import PlotsMatch
from spacetable.server._realtime import RealtimeMatch
from spacetable.server._room_match import GameMessage, RoomMatch, RoomOptions, Timing
from spacetable.server._save_queue import SaveQueue
from spacetable.server._seats import Seat
from spacetable.server.storage import Storage

__all__ = ["Connection", "Room", "RoomDirectory", "RoomOptions", "RoomsFull", "Seat", "Timing"]

log = logging.getLogger("spacetable.rooms")

#: Seconds between two ``room`` messages of a room: seat changes within them are coalesced.
ROOM_BROADCAST_INTERVAL = 0.1
#: How a room plays each pacing of the game registry.
PACINGS: dict[str, type[RoomMatch]] = {"realtime": RealtimeMatch, "plots": PlotsMatch}
#: The client messages that are moves in the match (the others are about seats).
GAME_MESSAGES = (msg.Place, msg.Drop, msg.Discard, msg.Fleet, msg.Plot, msg.Unplot)


@dataclass(frozen=True, slots=True)
class _Disconnected:
    pass


@dataclass(frozen=True, slots=True)
class _StopExpired:
    match_number: int


@dataclass(frozen=True, slots=True)
class _CountdownExpired:
    match_number: int
    deadline: float


@dataclass(frozen=True, slots=True)
class _BotTurn:
    seat: int
    match_number: int
    turn: int


@dataclass(frozen=True, slots=True)
class _BotMove:
    seat: int
    match_number: int
    turn: int
    action: Any


@dataclass(frozen=True, slots=True)
class _Abandoned:
    seat: int
    absence: int


@dataclass(frozen=True, slots=True)
class _IdleCheck:
    since: float


class Room:
    """One room: its seats, its connections and (while playing) its match.

    Finished matches go to ``saves``; ``on_expired`` hears of the room closing itself
    after ``timing.room_idle_seconds`` without a connection (never played, or finished)."""

    def __init__(
        self,
        room_id: str,
        options: RoomOptions,
        saves: SaveQueue,
        timing: Timing,
        on_expired: Callable[[Room], None] | None = None,
    ) -> None:
        self.id = room_id
        self.options = options
        self.pacing = PACINGS[options.entry.pacing]
        bots = options.entry.bots
        assert bots is not None, "a game played in rooms has bots"
        self.bots: Bots = bots
        self.saves = saves
        self.timing = timing
        self._on_expired = on_expired
        self.seats = [Seat(i) for i in range(options.seats)]
        self.connections: set[Connection] = set()
        self.phase: Literal["lobby", "playing", "over"] = "lobby"
        self.match: RoomMatch | None = None
        self.match_id: str | None = None
        self.match_number = 0
        self.last_result: dict[str, Any] | None = None
        # The latest bot turn scheduled per seat: an older one that fires is stale.
        self._bot_turns: dict[int, int] = {}
        # The countdown (deployment, plot timer) whose expiry is scheduled.
        self._armed_deadline: float | None = None
        self.pending_poses: dict[str, dict[str, Any]] = {}
        self.created = time.time()
        self._queue: asyncio.Queue[tuple[Connection | None, Any]] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._pose_flush_due = False  # the pending poses' window is open
        self._room_window_open = False  # a ``room`` message left less than an interval ago
        self._room_changed = False  # and the room changed since
        self.expired = False
        self._idle_since = self._loop.time()
        self._check_idle_after(timing.room_idle_seconds)
        self._task = asyncio.create_task(self._run())

    # -- called by websocket handlers ------------------------------------------------

    def connect(self, connection: Connection) -> None:
        """A new socket: it watches until it joins."""
        self.submit(connection, msg.Watch(type="watch"))

    def submit(self, connection: Connection | None, message: Any) -> None:
        """Hand a message to the room's task."""
        self._queue.put_nowait((connection, message))

    def pose(self, connection: Connection, message: msg.Pose) -> None:
        """A streamed hand pose, noted at once. Like everything the room's task runs, this
        is synchronous code on the room's event loop, so it cannot interleave with the
        task's handling; only its order against queued messages differs (a pose noted
        before a queued placement is dropped by that placement)."""
        if connection.seat is None or self.match is None:
            return  # poses from spectators or outside a match are dropped silently
        if not self.match.placing:
            return  # before the deployment, and after "stop!", no hand moves
        player = self.match.match.players[connection.seat]  # seat order, fixed for the match
        hand = self.match.hand(player)
        if hand is None:
            return
        self.pending_poses[player] = {
            "x": message.x,
            "y": message.y,
            "rotation": message.rotation,
            "ship": hand,
        }
        if not self._pose_flush_due:
            # Coalescing: the first pose starts a short window; poses from the room's other
            # players that arrive within it leave in the same message. A fixed ticker would
            # make every pose wait up to a whole interval; this bounds the wait by the window.
            self._pose_flush_due = True
            self._loop.call_later(self.timing.pose_interval, self._flush_poses)

    def disconnect(self, connection: Connection) -> None:
        """The socket closed."""
        connection.close()
        self.submit(connection, _Disconnected())

    async def close(self) -> None:
        """Stop the room's task."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def summary(self) -> dict[str, Any]:
        """The room in the lobby's list."""
        return {
            "id": self.id,
            "pacing": self.pacing.pacing,
            "options": self.options.to_json(),
            "phase": self.phase,
            "seats": [s.to_json() for s in self.seats],
        }

    # -- the room's task -------------------------------------------------------------

    async def _run(self) -> None:
        while not self.expired:
            connection, message = await self._queue.get()
            try:
                self._handle(connection, message)
            except Exception:  # a bug must not kill the room for everyone
                log.exception("room %s: error handling %r", self.id, message)
                if connection is not None:
                    connection.send({"type": "error", "message": "internal error"})

    def _handle(self, connection: Connection | None, message: Any) -> None:
        if isinstance(message, GAME_MESSAGES):
            self._on_game_message(connection, message)
        elif isinstance(message, _BotTurn):
            self._on_bot_turn(message)
        elif isinstance(message, _BotMove):
            self._on_bot_move(message)
        elif isinstance(message, _StopExpired):
            match = self.match
            if message.match_number == self.match_number and isinstance(match, RealtimeMatch):
                self._apply(match.stop_action(self._now()))
        elif isinstance(message, _CountdownExpired):
            self._on_countdown(message)
        elif isinstance(message, _Abandoned):
            self._on_abandoned(message)
        elif isinstance(message, _IdleCheck):
            self._on_idle_check(message)
        elif isinstance(message, _Disconnected):
            assert connection is not None
            self._on_disconnect(connection)
        else:
            assert connection is not None
            self._on_lobby(connection, message)

    def _now(self) -> float:
        """Match time: seconds since the match began (ms precision)."""
        started = self.match.started if self.match is not None else self._loop.time()
        return round(self._loop.time() - started, 3)

    # -- lobby ----------------------------------------------------------------------

    def _on_lobby(self, connection: Connection, message: Any) -> None:
        if isinstance(message, msg.Ping):
            connection.send({"type": "pong"})
        elif isinstance(message, msg.Watch):
            self._watch(connection)
        elif isinstance(message, msg.Join):
            self._join(connection, message)
        elif isinstance(message, msg.Rejoin):
            self._rejoin(connection, message.token)
        elif isinstance(message, msg.Leave):
            self._leave(connection)
        elif isinstance(message, msg.SeatBot):
            self._seat_bot(connection, message)
        elif isinstance(message, msg.Ready):
            self._ready(connection, message.ready)
        elif isinstance(message, msg.Rematch):
            self._rematch(connection)
        else:
            connection.send({"type": "error", "message": f"unexpected {message!r}"})

    def _watch(self, connection: Connection) -> None:
        self._release(connection)
        self.connections.add(connection)
        connection.send(
            {"type": "welcome", "role": "spectator", "seat": None, "player": None, "token": None}
        )
        connection.send(self._room_message())
        self._send_state(connection)
        if self.phase == "over" and self.last_result is not None:
            connection.send(self.last_result)

    def _join(self, connection: Connection, message: msg.Join) -> None:
        if self.phase != "lobby":
            connection.send(
                {
                    "type": "error",
                    "message": "the match has started: watch, or wait for the next one",
                }
            )
            return
        if connection.seat is not None:
            connection.send({"type": "error", "message": "you already have a seat"})
            return
        free = [s for s in self.seats if s.kind == "empty"]
        if message.seat is not None:
            free = [s for s in free if s.index == message.seat]
        if not free:
            connection.send(
                {
                    "type": "error",
                    "message": "no free seat"
                    if message.seat is None
                    else f"seat {message.seat} is taken",
                }
            )
            return
        seat = free[0]
        seat.take("human", message.name.strip() or f"player {seat.index + 1}", self._names(seat))
        seat.token = secrets.token_hex(16)
        self._seat_connection(connection, seat)
        self._broadcast_room()

    def _rejoin(self, connection: Connection, token: str) -> None:
        seat = next(
            (s for s in self.seats if s.token == token and (s.kind == "human" or s.stand_in)),
            None,
        )
        if seat is None:
            connection.send({"type": "error", "message": "that seat is no longer yours"})
            self._watch(connection)
            return
        if connection.seat != seat.index:
            self._release(connection)
        if seat.stand_in:
            self._give_back(seat)
        self._seat_connection(connection, seat)
        self._broadcast_room()

    def _seat_connection(self, connection: Connection, seat: Seat) -> None:
        self.connections.add(connection)
        connection.seat = seat.index
        seat.connections.add(connection)
        seat.cancel_abandon()
        connection.send(
            {
                "type": "welcome",
                "role": "player",
                "seat": seat.index,
                "player": self._player(seat),
                "token": seat.token,
            }
        )
        self._send_state(connection)
        if self.phase == "over" and self.last_result is not None:
            connection.send(self.last_result)

    def _unseat(self, connection: Connection) -> None:
        if connection.seat is not None:
            self.seats[connection.seat].connections.discard(connection)
            connection.seat = None

    def _release(self, connection: Connection) -> None:
        """The connection no longer plays for its seat (it closed, or watches now). A
        player's seat left without any connection starts the abandon timer, in every
        phase: when it runs out the seat is emptied (lobby) or a bot takes it (a match)."""
        if connection.seat is None:
            return
        seat = self.seats[connection.seat]
        self._unseat(connection)
        if seat.connections or seat.kind != "human":
            return
        seat.cancel_abandon()
        seat.absences += 1
        seat.abandon_timer = self._loop.call_later(
            self.timing.abandon_seconds, self.submit, None, _Abandoned(seat.index, seat.absences)
        )
        self._broadcast_room()

    def _leave(self, connection: Connection) -> None:
        if connection.seat is None:
            return
        seat = self.seats[connection.seat]
        self._unseat(connection)
        for other in list(seat.connections):
            self._unseat(other)
        if self.phase == "lobby":
            seat.empty()
        else:
            self._bot_takes_over(seat, stand_in=False)
        self._broadcast_room()

    def _seat_bot(self, connection: Connection, message: msg.SeatBot) -> None:
        if connection.seat is None or self.phase != "lobby":
            connection.send(
                {"type": "error", "message": "take a seat first; bots join before the match"}
            )
            return
        if not 0 <= message.seat < len(self.seats) or self.seats[message.seat].kind != "empty":
            connection.send({"type": "error", "message": f"seat {message.seat} is not empty"})
            return
        level = message.level or self.bots.default
        if level not in self.bots.levels:
            connection.send(
                {
                    "type": "error",
                    "message": f"no {level!r} bot in {self.options.entry.title}: "
                    f"choose one of {', '.join(self.bots.levels)}",
                }
            )
            return
        seat = self.seats[message.seat]
        seat.take("bot", f"{level} bot {seat.index + 1}", self._names(seat))
        seat.level = level
        self._broadcast_room()
        self._maybe_start()

    def _ready(self, connection: Connection, ready: bool) -> None:
        if connection.seat is None or self.phase != "lobby":
            connection.send(
                {"type": "error", "message": "only seated players in the lobby can get ready"}
            )
            return
        self.seats[connection.seat].ready = ready
        self._broadcast_room()
        self._maybe_start()

    def _rematch(self, connection: Connection) -> None:
        if connection.seat is None or self.phase != "over":
            connection.send({"type": "error", "message": "a rematch is asked for after a match"})
            return
        self.seats[connection.seat].rematch = True
        self._maybe_rematch()

    def _maybe_rematch(self) -> None:
        """After a match: start the next once every player left at the table asked."""
        humans = [s for s in self.seats if s.kind == "human"]
        if self.phase == "over" and humans and all(s.rematch for s in humans):
            self._start()

    def _on_disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self._release(connection)
        if not self.connections:
            self._idle_since = self._loop.time()
            self._check_idle_after(self.timing.room_idle_seconds)

    def _on_abandoned(self, message: _Abandoned) -> None:
        seat = self.seats[message.seat]
        if seat.absences != message.absence or seat.connections or seat.kind != "human":
            return  # the player came back (perhaps to leave again later), or left for good
        seat.abandon_timer = None
        if self.phase == "lobby":
            seat.empty()  # nobody keeps a seat by opening a socket and closing it
        else:
            self._bot_takes_over(seat, stand_in=True)
        self._broadcast_room()
        self._maybe_rematch()  # the others may have asked for one already

    def _bot_takes_over(self, seat: Seat, *, stand_in: bool) -> None:
        """A bot plays for the seat's player: until he rejoins with his token
        (``stand_in``), or for good (he left)."""
        seat.cancel_abandon()
        seat.kind, seat.level, seat.stand_in = "bot", self.bots.default, stand_in
        if not stand_in:
            seat.token = None
        if self.match is not None:
            seat.bot = self.bots.bot(self.bots.default)
            self._schedule_bot(seat.index, 0.2)

    def _give_back(self, seat: Seat) -> None:
        """The player is back: the bot standing in for him stops."""
        seat.kind, seat.level, seat.stand_in, seat.bot = "human", None, False, None
        self._bot_turns[seat.index] = self._bot_turns.get(seat.index, 0) + 1  # its turns are stale

    def _check_idle_after(self, delay: float) -> None:
        self._loop.call_later(delay, self.submit, None, _IdleCheck(self._idle_since))

    def _on_idle_check(self, check: _IdleCheck) -> None:
        """Nobody has been connected since ``check.since``: close the room, unless a
        match is being played (bots finish it; look again later) or someone is about to
        connect (his ``watch`` waits in the queue)."""
        if self.connections or check.since != self._idle_since:
            return  # someone came since; the last to leave starts a new check
        if self.phase == "playing" or not self._queue.empty():
            self._check_idle_after(self.timing.room_idle_seconds)
            return
        self.expired = True
        for seat in self.seats:
            seat.cancel_abandon()
        log.info("room %s closed after %.0f s without a connection", self.id, self._idle_for())
        if self._on_expired is not None:
            self._on_expired(self)

    def _idle_for(self) -> float:
        return self._loop.time() - self._idle_since

    def _maybe_start(self) -> None:
        if self.phase != "lobby":
            return
        everyone = all(s.kind == "bot" or (s.kind == "human" and s.ready) for s in self.seats)
        if everyone and any(s.kind == "human" for s in self.seats):
            self._start()

    # -- the match --------------------------------------------------------------------

    def _names(self, seat: Seat) -> list[str]:
        """The names of the other seats' occupants."""
        return [s.name for s in self.seats if s is not seat and s.kind != "empty"]

    def _player(self, seat: Seat) -> str:
        """A seat's player name in the match (unique: :meth:`Seat.take` made it so)."""
        return seat.name

    def _start(self) -> None:
        self.match_number += 1
        players = tuple(self._player(s) for s in self.seats)
        self.match = self.pacing(self.options, players, self.timing, self._loop.time())
        self.match_id = self.match.id
        self._armed_deadline = None
        self.phase = "playing"
        self.last_result = None
        self.pending_poses = {}
        for seat in self.seats:
            seat.rematch = False
            if seat.kind == "bot":
                seat.bot = self.bots.bot(seat.level or self.bots.default)
                self._schedule_bot(seat.index, self._bot_pause(seat))
        self._broadcast_room(at_once=True)
        self._broadcast_state()
        self._arm_countdown()

    def _flush_poses(self) -> None:
        """Send the poses gathered since the first of them arrived, as one message. A
        player whose own pose is the only one in it is skipped (his hand is his)."""
        self._pose_flush_due = False
        poses = self.pending_poses
        self.pending_poses = {}
        if not poses or self.match is None:
            return  # nothing moved, or the match ended within the window
        frame = message_frame({"type": "poses", "poses": poses})
        players = self.match.match.players  # seat order
        alone = players.index(next(iter(poses))) if len(poses) == 1 else None
        for connection in self.connections:
            if alone is None or connection.seat != alone:
                connection.send_frame(frame)

    def _on_game_message(self, connection: Connection | None, message: GameMessage) -> None:
        if connection is None or connection.seat is None or self.match is None:
            if connection is not None:
                problem = (
                    "only seated players can play"
                    if connection.seat is None
                    else "the match is over"
                    if self.phase == "over"
                    else "no match is being played"
                )
                connection.send({"type": "error", "message": problem})
            return
        player = self._player(self.seats[connection.seat])
        try:
            self._apply(self.match.action(player, message, self._now()))
        except IllegalAction as exc:
            connection.send({"type": "refused", "action": message.type, "reason": str(exc)})

    def _on_countdown(self, message: _CountdownExpired) -> None:
        """A countdown ran out (the deployment's: every card in hand freezes; a turn's
        plot timer: the turn resolves with the plots that are in)."""
        match = self.match
        if message.match_number != self.match_number or match is None:
            return
        if match.deadline != message.deadline:
            return  # it was over before its time: every card down, every plot in
        # The loop may wake a hair early; the countdown ran out at its deadline anyway.
        self._apply(match.timer_action(max(self._now(), message.deadline)))

    def _arm_countdown(self) -> None:
        """Schedule the end of the match's countdown, if one began since the last."""
        match = self.match
        deadline = None if match is None else match.deadline
        if match is None or deadline is None or deadline == self._armed_deadline:
            return
        self._armed_deadline = deadline
        left = deadline - (self._loop.time() - match.started)
        self._loop.call_later(
            max(0.0, left), self.submit, None, _CountdownExpired(self.match_number, deadline)
        )

    def _apply(self, action: Any) -> None:
        """Apply one action to the match, log it, tell everyone. Raises IllegalAction."""
        match = self.match
        assert match is not None
        change = match.apply(action)
        player = getattr(action, "player", None)
        if player is not None:
            self.pending_poses.pop(player, None)  # his hand moved on: the pose is stale
        for message in change.messages:
            self._broadcast(message)
        if change.froze:
            self._loop.call_later(
                self.timing.stop_seconds, self.submit, None, _StopExpired(self.match_number)
            )
        if change.wake is not None:
            wake = change.wake
            self._schedule_bots(lambda seat: match.wake_delay(wake, seat.level, self._player(seat)))
        if change.over:
            self._finish()
            return
        if change.state:
            self._broadcast_state()
        self._arm_countdown()

    def _finish(self) -> None:
        match = self.match
        assert match is not None
        self.phase = "over"
        self.last_result = match.end_message()
        self._broadcast_state()
        self._broadcast(self.last_result)
        self._broadcast_room(at_once=True)
        seats = [{**s.to_json(), "player": self._player(s)} for s in self.seats]
        self.saves.put(match.record(self.id, seats, self.last_result))
        self.match = None

    # -- bots -------------------------------------------------------------------------

    def _bot_pause(self, seat: Seat) -> float:
        if self.match is None:
            return 0.0
        return self.match.bot_pause(seat.level, self._player(seat))

    def _schedule_bots(self, delay: Any) -> None:
        """Give every bot a turn after ``delay(seat)`` seconds."""
        for seat in self.seats:
            if seat.kind == "bot":
                self._schedule_bot(seat.index, delay(seat))

    def _schedule_bot(self, seat: int, delay: float) -> None:
        """Give the bot in ``seat`` a turn after ``delay`` seconds; any turn scheduled
        before for that seat is dropped."""
        turn = self._bot_turns.get(seat, 0) + 1
        self._bot_turns[seat] = turn
        self._loop.call_later(delay, self.submit, None, _BotTurn(seat, self.match_number, turn))

    def _on_bot_turn(self, turn: _BotTurn) -> None:
        seat = self.seats[turn.seat]
        match = self.match
        if match is None or turn.match_number != self.match_number or seat.bot is None:
            return
        if self._bot_turns.get(turn.seat) != turn.turn:
            return
        player = self._player(seat)
        if not match.match.needs_action(player):
            return
        view = match.match.view(player)
        rng = random.Random(f"{match.seed}/{turn.seat}/{len(match.actions)}")
        bot = seat.bot

        async def think() -> None:
            try:
                action = await asyncio.to_thread(bot.choose, view, rng)
            except Exception:  # a failing bot must not stall the room: play at random
                log.exception("room %s: bot %s failed; playing at random", self.id, player)
                action = self.bots.bot("random").choose(view, rng)
            self.submit(None, _BotMove(turn.seat, turn.match_number, turn.turn, action))

        asyncio.create_task(think()).add_done_callback(_log_failure)

    def _on_bot_move(self, move: _BotMove) -> None:
        seat = self.seats[move.seat]
        if self.match is None or move.match_number != self.match_number:
            return
        if self._bot_turns.get(move.seat) != move.turn:
            return  # the match moved on while it thought (the freeze): a new turn is due
        t = self._now()
        action = move.action.with_time(t)
        try:
            self._apply(action)
        except IllegalAction:
            # The table changed while the bot was thinking: think again soon.
            self._schedule_bot(move.seat, 0.05)
            return
        if self.match is not None and self.match.match.needs_action(self._player(seat)):
            self._schedule_bot(move.seat, self._bot_pause(seat))

    # -- messages out -------------------------------------------------------------------

    def _room_message(self) -> dict[str, Any]:
        return {
            "type": "room",
            "id": self.id,
            "ruleset": self.options.ruleset,
            "pacing": self.pacing.pacing,
            "options": self.options.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "phase": self.phase,
            "match_id": self.match_id,
        }

    def _broadcast(self, message: dict[str, Any]) -> None:
        frame = message_frame(message)
        for connection in self.connections:
            connection.send_frame(frame)

    def _broadcast_room(self, at_once: bool = False) -> None:
        """Tell everyone the room changed. Seat changes are coalesced, so that a player
        toggling "ready" as fast as he can costs the others one message per interval: the
        first change goes at once and opens a window of :data:`ROOM_BROADCAST_INTERVAL`;
        the changes within it leave as one message when it closes, the room as it is then.
        ``at_once`` (a match began or ended) sends it now, before the match's messages."""
        if self._room_window_open and not at_once:
            self._room_changed = True
            return
        self._room_changed = False
        self._broadcast(self._room_message())
        if not self._room_window_open:
            self._room_window_open = True
            self._loop.call_later(ROOM_BROADCAST_INTERVAL, self._close_room_window)

    def _close_room_window(self) -> None:
        """The window of :meth:`_broadcast_room` closes: the room as it is now, if it
        changed within it (which opens the next window)."""
        self._room_window_open = False
        if self._room_changed:
            self._broadcast_room()

    def _broadcast_state(self) -> None:
        """Send each connection the match as its player sees it. The views differ in a few
        fields but share the table, so the table is encoded once for all of them."""
        match = self.match
        if match is None:
            return
        now = self._now()
        frames: dict[str | None, bytes] = {}
        table_json: bytes | None = None
        for connection in self.connections:
            player = None if connection.seat is None else self._player(self.seats[connection.seat])
            frame = frames.get(player)
            if frame is None:
                state = match.state(player, now)
                if "table" not in state:
                    frame = frames[player] = message_frame(state)
                    connection.send_frame(frame)
                    continue
                table = state.pop("table")
                if table_json is None:
                    table_json = encode(table)
                # A JSON object's text ends with "}": add the shared table as its last member.
                own = encode(state)
                frame = frames[player] = text_frame(
                    b"".join((own[:-1], b',"table":', table_json, b"}"))
                )
            connection.send_frame(frame)

    def _send_state(self, connection: Connection) -> None:
        match = self.match
        if match is None:
            return
        player = None if connection.seat is None else self._player(self.seats[connection.seat])
        connection.send(match.state(player, self._now()))


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())


#: The most rooms open at once (an idle room holds about 7 KB until it closes).
MAX_ROOMS = 5000


class RoomsFull(RuntimeError):
    """The server holds as many open rooms as it may: try again once some have closed."""


class RoomDirectory:
    """Every room of this process (the room-directory seam of DESIGN section 6). Rooms
    close themselves when nobody has used them for a while (``Timing.room_idle_seconds``)
    and leave the directory; at most ``max_rooms`` are open at once."""

    def __init__(self, storage: Storage, timing: Timing, max_rooms: int = MAX_ROOMS) -> None:
        self.storage = storage
        self.saves = SaveQueue(storage)
        self.timing = timing
        self.max_rooms = max_rooms
        self._rooms: dict[str, Room] = {}

    def create(self, options: RoomOptions) -> Room:
        """Open a new room. Raises RoomsFull when ``max_rooms`` are open."""
        if len(self._rooms) >= self.max_rooms:
            raise RoomsFull(
                f"the server has {self.max_rooms} open rooms, its most: "
                "try again when some have closed"
            )
        room_id = secrets.token_urlsafe(6)
        room = Room(room_id, options, self.saves, self.timing, self._expired)
        self._rooms[room_id] = room
        return room

    def _expired(self, room: Room) -> None:
        self._rooms.pop(room.id, None)

    def get(self, room_id: str) -> Room | None:
        """The room with this id, if open."""
        return self._rooms.get(room_id)

    def rooms(self, limit: int | None = None) -> list[Room]:
        """Open rooms, newest first (the ``limit`` newest)."""
        if limit is not None:
            return heapq.nlargest(limit, self._rooms.values(), key=lambda r: r.created)
        return sorted(self._rooms.values(), key=lambda r: r.created, reverse=True)

    async def close(self) -> None:
        """Stop every room, then store the matches still waiting for the database."""
        for room in list(self._rooms.values()):
            await room.close()
        await asyncio.to_thread(self.saves.close)
