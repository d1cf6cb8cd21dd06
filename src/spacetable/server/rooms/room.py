"""Rooms: seats, connections, bots and the match, each room owned by one asyncio task.

Websocket handlers call :meth:`Room.submit`; everything that changes a room happens in
:meth:`Room._run`, one message at a time, so a room needs no locks. Timers (the deployment
and stop countdowns, bots' turns, abandoned seats) post markers into the same queue. The
pose stream is the exception, for its volume: poses are noted, and sent on when their
window closes, by plain callbacks on the same event loop, which cannot interleave with the
task's handling either. The match itself is the pure state machine of its game, found
through the game registry and paced by the :class:`~spacetable.server.rooms.match.RoomMatch`
of the game's pacing (``realtime.py``, ``plots.py``, ``turns.py`` beside it); the room adds the
clock, sockets, seats, bots and storage, nothing else, and never asks which game it plays.

A :class:`Room` is its queue, its task and a dispatch table (message type -> handler)
over parts that own their state, each seeing the room through a small context
(``rooms/context.py``):

- :class:`~spacetable.server.rooms.lobby.Lobby`: watching, seats, readiness, rematches, closed
  sockets, abandoned seats, closing when unused;
- :class:`~spacetable.server.rooms.chat.Chat`: the two channels, their throttle and log;
- :class:`~spacetable.server.rooms.manners.Manners`: resigning, draws, absences;
- :class:`~spacetable.server.rooms.correspondence.Correspondence`: a correspondence room's
  turn deadlines and timeouts (``turn_hours``);
- :class:`~spacetable.server.rooms.bots.BotPlayers`: the bots' turns and hands;
- :class:`~spacetable.server.rooms.pacing.Pacing`: the players' moves, the run-up, the
  countdowns, the stop and the hands' poses;
- :class:`~spacetable.server.rooms.news.News`: the ``room`` and ``state`` messages;
- :class:`~spacetable.server.rooms.journal.Journal`: storage, written before anyone is told;
- :class:`~spacetable.server.rooms.lookups.Lookups`: what a join and the seats' ratings ask
  of the accounts, asked on a thread before the room handles it.

The room itself keeps the match's beginning (:meth:`Room.start`), its actions
(:meth:`Room.apply`) and its one end (:meth:`Room.end`, however it ends). What the parts
hold beyond the match's actions is stored by their ``snapshot()`` and given back to a
rebuilt room by their ``restore()`` (``rooms/extras.py``, ``rooms/rebuild.py``). The rooms
of a process are in :class:`~spacetable.server.rooms.directory.RoomDirectory`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from spacetable.core.endings import STOPPED, Ending, stopped_result
from spacetable.i18n import N_
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.bots import BotMove, BotPlayers, BotTurn
from spacetable.server.rooms.chat import BlocksChanged, Chat
from spacetable.server.rooms.clock import LoopClock, RoomClock
from spacetable.server.rooms.context import Handler
from spacetable.server.rooms.correspondence import Correspondence
from spacetable.server.rooms.extras import extras_of
from spacetable.server.rooms.farewell import AccountGone, account_gone, forsake
from spacetable.server.rooms.journal import BATCH_LIMIT, Journal
from spacetable.server.rooms.lobby import Arrived, Disconnected, Lobby
from spacetable.server.rooms.lookups import Lookups
from spacetable.server.rooms.manners import MANNERS, GraceOver, Manners
from spacetable.server.rooms.match import (
    RoomMatch,
    RoomOptions,
    Timing,
    match_seed,
)
from spacetable.server.rooms.news import News
from spacetable.server.rooms.pacing import Pacing
from spacetable.server.rooms.plots import PlotsMatch
from spacetable.server.rooms.realtime import RealtimeMatch
from spacetable.server.rooms.seats import Seat
from spacetable.server.rooms.turns import TurnsMatch
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection, message_frame
from spacetable.server.store.accounts import name_key
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.ratings import stopped_early
from spacetable.server.store.save_queue import SaveQueue

__all__ = ["Connection", "Room", "RoomOptions", "Seat", "Timing"]

log = logging.getLogger("spacetable.rooms")

#: How a room plays each pacing of the game registry.
PACINGS: dict[str, type[RoomMatch]] = {
    "realtime": RealtimeMatch,
    "plots": PlotsMatch,
    "turns": TurnsMatch,
}


@dataclass(frozen=True, slots=True)
class _Stored:
    """Nothing to handle: the room's row is due to be written (a new room's)."""


#: What a muted account reads when it writes in a chat (docs/moderation.md).
MUTED = N_("chat: a moderator muted your account: your messages are not shown")


def _nobody(name: str) -> bool:
    """No name is registered (a room without accounts)."""
    return False


def _no_reason(match_id: str) -> str | None:
    """No reason a match was not rated is known (a room without ratings)."""
    return None


def _no_blocks(account: str) -> list[str]:
    """Nobody is blocked (a room without accounts)."""
    return []


def _unrated(account: str, game: str) -> dict[str, Any] | None:
    """No rating (a room without accounts)."""
    return None


def _told_nobody(room: Room) -> None:
    """Nobody hears of a match over (a room without bot accounts' streams)."""


class Room:
    """One room: its seats, its connections and (while playing) its match.

    Finished matches go to ``saves``; ``on_expired`` hears of the room closing itself
    after ``timing.room_idle_seconds`` without a connection (never played, or finished),
    or ``timing.unjoined_seconds`` after it opened if nobody ever joined.
    Every timer runs on ``clock`` (default: the event loop's); ``seed`` fixes the chance
    of its matches (default: drawn from the system's entropy for each). With ``live``
    the room is stored as it lives, each action before anyone hears of it (``rooms/journal.py``),
    so that it can be rebuilt after its process died (``rooms/rebuild.py``)."""

    def __init__(
        self,
        room_id: str,
        options: RoomOptions,
        saves: SaveQueue,
        timing: Timing,
        on_expired: Callable[[Room], None] | None = None,
        *,
        clock: RoomClock | None = None,
        seed: int | None = None,
        live: LiveStore | None = None,
    ) -> None:
        self.id = room_id
        self.options = options
        #: How the room plays its game's pacing (``realtime.py``, ``plots.py``, ``turns.py``).
        self.match_class = PACINGS[options.entry.rules.pacing]
        bots = options.entry.bots
        assert bots is not None, "a game played in rooms has bots"
        self.timing = timing
        self._on_expired = on_expired
        self.seats = [Seat(i) for i in range(options.seats)]
        self.connections: set[Connection] = set()
        self.phase: Literal["lobby", "playing", "over"] = "lobby"
        self.match: RoomMatch | None = None
        self.match_id: str | None = None
        self.match_number = 0
        self.last_result: dict[str, Any] | None = None
        self.created = time.time()
        self._queue: asyncio.Queue[tuple[Connection | None, Any]] = asyncio.Queue()
        self.clock = clock or LoopClock(asyncio.get_running_loop())
        #: The seed of the room's first match (its rematches' derive from it); ``None``:
        #: each match draws its own from the system's entropy.
        self.seed = seed
        self.expired = False
        #: A correspondence room nobody is connected to may be put away (closed in this
        #: process, its stored rows kept) once idle: the directory says so when something
        #: opens it again when its turn runs out (``rooms/deadlines.py``).
        self.may_put_away = False
        #: It was put away (:meth:`put_away`): its stored rows stay as it closes.
        self.kept_stored = False
        #: Whether a name is a registered player's (the directory gives the accounts'):
        #: a guest asking for one sits as ``name (guest)`` (``lobby.py``). A database
        #: query: asked on a thread (``rooms/lookups.py``), like the next.
        self.registered: Callable[[str], bool] = _nobody
        #: Whether an account (its key) is muted by a moderator (the directory gives the
        #: process's copy of the mutes: ``meet/moderation.py``; no database call).
        self.muted: Callable[[str], bool] = _nobody
        #: A registered player's rating in a game, shown beside his seat (the directory
        #: gives the ratings': ``store/ratings.py``).
        self.rating_of: Callable[[str, str], dict[str, Any] | None] = _unrated
        #: Whether an account (its key) is a bot account: its seat says BOT (the directory
        #: gives ``store/bots.py``'s; a database query, asked on a thread).
        self.bot_account_of: Callable[[str], bool] = _nobody
        #: The accounts' answers, asked on a thread.
        self.lookups = Lookups(self)
        #: A match between accounts just ended: the seats' ratings are read again once
        #: it is stored (the ratings change in its save), before the room is told.
        self._ratings_due = False
        #: Why the match last over between accounts is not rated, or ``None``
        #: (``"early"``: stopped before its first turn or round was over).
        self.unrated: str | None = None
        #: Why a stored match was not rated (the directory gives the ratings': ``None``).
        self.unrated_of: Callable[[str], str | None] = _no_reason
        #: The names of the accounts an account (its key) blocks: his chat hides their
        #: lines (the directory gives the relations': ``store/relations.py``).
        self.blocked_by: Callable[[str], list[str]] = _no_blocks
        #: Called when a match is over (the directory gives the bots' event streams':
        #: ``meet/bot_events.py``, issue 72). On the room's task: it must not wait.
        self.match_over: Callable[[Room], None] = _told_nobody
        self.journal = Journal(self, saves, live)
        self.news = News(self, self.match_class.pacing)
        self.chat = Chat(self, self.journal.note_chat)
        self.pacing = Pacing(self, lambda: self.bots.show_hands())
        self.bots: BotPlayers = BotPlayers(self, bots, self.pacing)
        self.manners = Manners(self, self.bots, lambda connection: self.lobby.watch(connection))
        #: A room played by correspondence (``turn_hours``): its turns' deadlines.
        self.correspondence = Correspondence(self)
        self.lobby: Lobby = Lobby(self, self.chat, self.manners, self.bots)
        # Which part handles each message (its type): the room's dispatch table.
        self._handlers: dict[type, Handler] = {
            **self.lobby.handlers(),
            msg.Chat: self.chat.on_chat,
            msg.OpenChat: self.chat.on_open_chat,
            BlocksChanged: self.chat.on_blocks_changed,
            **dict.fromkeys(MANNERS, self.manners.on_message),
            GraceOver: self.manners.on_grace_over,
            BotTurn: self.bots.on_turn,
            BotMove: self.bots.on_move,
            **self.pacing.handlers(),
            **self.correspondence.handlers(),
            _Stored: lambda connection, message: None,  # only the write after it matters
            AccountGone: lambda connection, message: account_gone(self, message),
            msg.Forsake: lambda connection, message: forsake(self, connection),
        }
        #: Called once the room's next write is in (``after_write``).
        self._after_write: list[Callable[[], object]] = []
        if live is not None:
            self.submit(None, _Stored())  # the new room's row is written at once
        self._task = asyncio.create_task(self._run())

    # -- called by websocket handlers ------------------------------------------------

    def connect(self, connection: Connection) -> None:
        """A new socket: it watches until it joins."""
        connection.outbox = self.journal.outbox
        # A player's socket (its session's account) takes back his seat; others watch.
        self.submit(
            connection, Arrived() if connection.account is not None else msg.Watch(type="watch")
        )

    def submit(self, connection: Connection | None, message: Any) -> None:
        """Hand a message to the room's task (a chat over its throttle, or from an account
        a moderator muted, is refused here, as it arrives: rooms/chat.py)."""
        if connection is not None and isinstance(message, msg.Chat):
            if not self.chat.admitted(connection):
                return
            if connection.account is not None and self.muted(name_key(connection.account)):
                connection.error(MUTED)
                return
        self._queue.put_nowait((connection, message))

    def pose(self, connection: Connection, message: msg.Pose) -> None:
        """A streamed hand pose, noted at once (``rooms/pacing.py``). Like everything the
        room's task runs, this is synchronous code on the room's event loop, so it cannot
        interleave with the task's handling; only its order against queued messages
        differs (a pose noted before a queued placement is dropped by that placement)."""
        self.pacing.pose(connection, message)

    def disconnect(self, connection: Connection) -> None:
        """The socket closed."""
        connection.close()
        self.submit(connection, Disconnected())

    async def close(self) -> None:
        """Stop the room's task."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    @property
    def listed(self) -> bool:
        """Whether the lobby lists the room among the open ones: not when its match is
        over, nor when nobody has been connected to it for ``timing.abandon_seconds`` (its
        players went away; a room just created waits that long for its first)."""
        if self.phase == "over":
            return False
        return bool(self.connections) or self.lobby.idle_for() < self.timing.abandon_seconds

    def summary(self) -> dict[str, Any]:
        """The room in the lobby's list."""
        return {
            "id": self.id,
            "pacing": self.match_class.pacing,
            "options": self.options.to_json(),
            "phase": self.phase,
            "seats": [s.to_json() for s in self.seats],
        }

    # -- the room's task -------------------------------------------------------------

    async def _run(self) -> None:
        """Handle the messages that wait (up to :data:`BATCH_LIMIT`, and none after a
        match ended), the outbox holding what they send until the journal has stored what
        they changed (``rooms/journal.py``)."""
        journal = self.journal
        while not self.expired:
            batch = [await self._queue.get()]
            journal.outbox.hold()
            try:
                await self._handle_next(*batch[0])
                while (
                    len(batch) < BATCH_LIMIT
                    and not self._queue.empty()
                    and not self.expired
                    and not journal.result_due
                ):
                    batch.append(self._queue.get_nowait())
                    await self._handle_next(*batch[-1])
                await journal.write()
                if self._ratings_due:
                    await self._show_new_ratings()
                told, self._after_write = self._after_write, []
                for callback in told:
                    callback()
            except asyncio.CancelledError:
                journal.outbox.held = None  # the room stops: what is not stored is not told
                raise
            finally:
                journal.outbox.release()
                for _ in batch:
                    self._queue.task_done()

    async def _handle_next(self, connection: Connection | None, message: Any) -> None:
        """Handle one message; a ``join`` once the accounts have said what it needs (on a
        thread: ``rooms/lookups.py``)."""
        if isinstance(message, msg.Join):
            message = await self.lookups.vet(connection, message)
        elif isinstance(message, Arrived | BlocksChanged) and connection is not None:
            blocked = await self.lookups.blocked(connection)  # his chat hides their lines
            if blocked is not None:
                self.chat.hide(connection, blocked)
        self._handle_safely(connection, message)

    async def _show_new_ratings(self) -> None:
        """A match between accounts is stored, their ratings with it: the seats show the
        new ones in the ``room`` message that follows the result (the outbox still holds
        the result), and the room's row keeps them."""
        self._ratings_due = False
        await self.lookups.refresh()
        self.broadcast_room(at_once=True)
        await self.journal.write()

    def _handle_safely(self, connection: Connection | None, message: Any) -> None:
        try:
            self._handle(connection, message)
        except Exception:  # a bug must not kill the room for everyone
            log.exception("room %s: error handling %r", self.id, message)
            if connection is not None:
                connection.error(N_("internal error"))

    async def drained(self) -> None:
        """Wait until every message submitted so far has been handled, and those their
        handling submitted, bots' choices included (each thought out on a thread): what a
        test awaits after moving the room's clock."""
        while True:
            await self._queue.join()
            if not self.bots.thinking:
                return
            await asyncio.wait(set(self.bots.thinking))

    def _handle(self, connection: Connection | None, message: Any) -> None:
        handler = self._handlers.get(type(message))
        if handler is None:  # a message a game adds: handled by its kind (registry.messages)
            handler = next(
                (self._handlers[b] for b in type(message).__mro__[1:] if b in self._handlers),
                None,
            )
        if handler is not None:
            handler(connection, message)
        elif connection is not None:
            connection.send(wire(to_page.Error(f"unexpected {message!r}")))

    def changed(self) -> None:
        """What the players have beyond the actions changed (a draw offer, an absence, a
        draft: ``rooms/extras.py``): the room's row is written with the next write."""
        self.journal.changed()

    def after_write(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once what the message being handled changed is stored (the
        room's write after its batch: a deleted account's resignation,
        ``rooms/farewell.py``)."""
        self._after_write.append(callback)

    def extras(self) -> dict[str, Any]:
        """What the players have beyond the actions, as stored (``rooms/extras.py``)."""
        return extras_of(self)

    def now(self) -> float:
        """Match time: seconds since the match began, standing still during a run-up
        (ms precision)."""
        if self.match is None:
            return 0.0
        return self.match.clock(self.clock.now())

    def queued(self) -> bool:
        """Whether messages wait in the room's queue (a socket's ``watch``, say)."""
        return not self._queue.empty()

    def expire(self) -> None:
        """The room closes in this process (nobody used it, or another process took it):
        its task stops after the message it handles, and its directory forgets it."""
        self.expired = True
        for seat in self.seats:
            seat.cancel_abandon()
        if self._on_expired is not None:
            self._on_expired(self)

    def put_away(self) -> None:
        """The room closes in this process and waits in storage (its rows kept) until a
        player opens it or its turn runs out (see :attr:`may_put_away`)."""
        self.kept_stored = True
        self.expire()

    # -- the match --------------------------------------------------------------------

    def start(self) -> None:
        self.match_number += 1
        players = tuple(s.name for s in self.seats)
        seed = match_seed(self.seed, self.match_number)
        self.match = self.match_class(self.options, players, self.timing, self.clock.now(), seed)
        self.match_id = self.match.id
        self._armed_deadline = None
        self.phase = "playing"
        self.last_result = None
        self.chat.match_begins()
        self.manners.reset()
        self.pacing.match_begins()
        self.bots.match_begins()
        if self.match.placing:
            self.pacing.begin_runup()
        for seat in self.seats:
            seat.forget_rematch()
        runup = self.pacing.runup_left()
        self.bots.schedule_all(lambda seat: runup + self.bots.pause(seat))
        self.broadcast_room(at_once=True)
        self.broadcast_state()
        if self.match.phase == "over":  # over before anyone acted (the blank chit every turn)
            self.end("rules")
            return
        self.pacing.arm_countdown()
        self.correspondence.started()

    def resume(self, match: RoomMatch, t_resume: float, *, acted: bool) -> None:
        """Play on ``match``, rebuilt from storage (``rooms/rebuild.py``: replayed from
        its seed and actions, its clock resuming at match time ``t_resume``); ``acted``:
        whether a person had played in it. A match stored up to its end, not its result,
        ends now. A placing round begins with its 3-2-1 again, for the players to find
        their cards; the stop's and the countdown's timers run with what they had left,
        and the bots play on."""
        self.match, self.match_id, self.phase = match, match.id, "playing"
        self.pacing.person_acted = acted
        if match.phase == "over":
            self.end("rules")
            return
        self.pacing.resume(t_resume)
        runup = self.pacing.runup_left()
        self.bots.match_begins()
        self.bots.schedule_all(lambda seat: runup + self.bots.pause(seat))
        self.pacing.arm_countdown()

    def discard(self) -> None:
        """Let go of a room that could not be rebuilt: its task stops before it handles
        anything, so nothing of it is written."""
        self.expired = True
        self._task.cancel()

    def apply(self, action: Any) -> None:
        """Apply one action to the match, log it, tell everyone. Raises IllegalAction."""
        match = self.match
        assert match is not None
        change = match.apply(action)
        self.journal.note_action(match, float(action.t))
        self.pacing.applied(action, change)
        self.correspondence.applied(getattr(action, "player", None))
        for message in change.messages:
            self.broadcast(message)
        if change.wake is not None:
            wake, runup = change.wake, self.pacing.runup_left()
            self.bots.schedule_all(
                lambda seat: runup + match.wake_delay(wake, seat.level, seat.name)
            )
        if change.over:
            self.end("rules")
            return
        if change.state:
            self.broadcast_state()
        self.pacing.arm_countdown()

    def _played_by_people(self) -> bool:
        """Whether the match just over is worth storing: not one every person left without
        playing a single action (say right after "Play again"), which the bots standing in
        for them finished with scores nobody played."""
        return self.pacing.person_acted or any(s.kind == "human" for s in self.seats)

    def end(self, how: Ending, by: list[str] | None = None) -> None:
        """End the match, however it ends: by its rules (``rules``: the game's result,
        ``turn_limit`` included) or stopped by its players (``resigned``, ``agreed_draw``,
        ``claimed``, ``by`` whom). The one way out of a match: the result is stored (unless
        nobody played it: :meth:`_played_by_people`), before anyone hears of it (the outbox
        holds what follows until it is: ``rooms/journal.py``); then everyone gets the last state,
        the result and the room (a match between accounts: the room once their new
        ratings are read, :meth:`_show_new_ratings`), and the match's manners are
        forgotten."""
        match = self.match
        assert match is not None
        if how in STOPPED:
            result = match.stopped_message(stopped_result(match.match.players, how, by))
        else:
            end = match.end_message()
            result = end | {"result": self.manners.ending(end["result"])}
        self.phase = "over"
        self.last_result = result
        self.unrated = None
        accounts = sum(1 for s in self.seats if s.account is not None)
        kept = self._played_by_people()
        if kept:
            # A registered player's seat names his account (rated: store/ratings.py).
            # A casual room's seats say so: the ratings note the match, never rate it.
            casual = {"casual": True} if self.options.casual else {}
            seats = [
                {**s.to_json(), "player": s.name}
                | ({"account": s.account} | casual if s.account else {})
                for s in self.seats
            ]
            stored = match.record(self.id, seats, result)
            stored.chat = self.chat.of_match()
            if accounts >= 2 and self.options.casual:
                self.unrated = "casual"
            elif accounts >= 2 and stopped_early(stored.ruleset, stored.to_json()):
                self.unrated = "early"
            self.journal.store_result(stored)
        self.broadcast_state()  # over: every page puts its controls away
        self.broadcast(result)
        if kept and accounts >= 2:
            self._ratings_due = True  # the room follows once rated (_show_new_ratings)
        else:
            self.broadcast_room(at_once=True)
        self.match = None
        self.manners.reset()
        self.correspondence.over(result)  # the players' accounts are told (meet/notices.py)
        self.match_over(self)  # and the bot accounts' event streams (meet/bot_events.py)

    # -- messages out -------------------------------------------------------------------

    def room_message(self) -> dict[str, Any]:
        """The ``room`` message: the room as it is now (``rooms/news.py``)."""
        return self.news.room_message()

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket in the room."""
        frame = message_frame(message)
        for connection in self.connections:
            connection.send_frame(frame)

    def broadcast_room(self, at_once: bool = False) -> None:
        """Tell everyone the room changed (coalesced unless ``at_once``: ``rooms/news.py``)."""
        self.news.broadcast_room(at_once)

    def broadcast_state(self) -> None:
        """Send each socket the match as its seat (or a spectator) sees it."""
        self.news.broadcast_state()

    def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the whole state (joining, changing seat, asking: ``resync``)."""
        self.news.send_state(connection)
