"""The bots of a room: their turns, scheduled on the room's clock and thought out on a
worker thread, and the bot that stands in for a player who went away.

:class:`BotPlayers` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the
room's task like the rest of it, that sees the room through a :class:`BotsRoom` (the
:class:`~spacetable.server.rooms.context.RoomContext`, and the room's actions) and the
room's pacing (the run-up, the hands' poses). A bot's turn is a :class:`BotTurn` posted
into the room's queue; its choice comes back as a :class:`BotMove`.

A bot's card in hand is seen like a person's: it waits on the bot's side of the table when
drawn, then travels to where the bot chose to put it, its poses streamed through the same
``poses`` messages as a person's hand (:meth:`BotPlayers._glide`), and lands at the end. When
the cards freeze, a bot that drops its card drops it where everyone saw it (or discards it,
if it would touch a card there), as a person must.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from spacetable.core.match import IllegalAction
from spacetable.registry import Bots
from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.seats import Seat
from spacetable.server.sockets.connection import Connection
from spacetable.server.warming import warmed

log = logging.getLogger("spacetable.rooms")

#: Seconds between two poses of a bot's travelling card: a glide of a few tenths of a second
#: takes several (a person's page streams 10 a second; the other pages glide a hand between
#: its poses either way).
GLIDE_STEP_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class BotTurn:
    """The bot in ``seat`` is due to play (its ``turn``-th turn scheduled in the match
    ``match_number``; a later one makes it stale)."""

    seat: int
    match_number: int
    turn: int


@dataclass(frozen=True, slots=True)
class BotMove:
    """The ``action`` the bot in ``seat`` chose on the turn of :class:`BotTurn`."""

    seat: int
    match_number: int
    turn: int
    action: Any
    #: Its card has travelled to where it lands (:meth:`BotPlayers._glide`).
    glided: bool = False


class BotsRoom(RoomContext, Protocol):
    """The room as its bots see it: the context, and the match's actions."""

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the match and tell everyone. Raises IllegalAction."""
        ...


class Hands(Protocol):
    """The hands of a match, as a bot moves its own (the room's pacing)."""

    def runup_left(self) -> float:
        """Seconds left of the 3-2-1 before a placing round (0 outside it)."""
        ...

    def note_pose(self, player: str, x: float, y: float, rotation: float) -> None:
        """Where ``player``'s card in hand is now: it leaves with the next ``poses``."""
        ...


class BotPlayers:
    """Bots' turns in the match, and bots taking a seat over from a player. ``kinds``:
    the bots the game has (the registry's); ``hands``: where the bots' cards in hand are
    shown (the room's pacing)."""

    def __init__(self, room: BotsRoom, kinds: Bots, hands: Hands) -> None:
        self._room = room
        self._hands_shown = hands
        self.kinds = kinds
        # The latest bot turn scheduled per seat: an older one that fires is stale.
        self._turns: dict[int, int] = {}
        # Where each bot's card in hand is (x, y, rotation), as last streamed.
        self._hands: dict[str, tuple[float, float, float]] = {}
        #: The bots' choices being thought out on worker threads.
        self.thinking: set[asyncio.Task[None]] = set()

    def match_begins(self) -> None:
        """A match begins (or a rebuilt one plays on): every bot gets its player, and no
        bot's card is in hand yet."""
        self._hands = {}
        for seat in self._room.seats:
            if seat.kind == "bot":
                seat.give_bot(self.kinds.bot(seat.level or self.kinds.default))

    def pause(self, seat: Seat) -> float:
        """Seconds until the bot of ``seat`` chooses its next action: its time for it but
        the time its card then travels."""
        match = self._room.match
        if match is None:
            return 0.0
        pause = match.bot_pause(seat.level, seat.name)
        return max(0.0, pause - match.glide_seconds(seat.level, seat.name))

    def schedule_all(self, delay: Callable[[Seat], float]) -> None:
        """Give every bot a turn after ``delay(seat)`` seconds."""
        for seat in self._room.seats:
            if seat.kind == "bot":
                self.schedule(seat.index, delay(seat))

    def schedule(self, seat: int, delay: float) -> None:
        """Give the bot in ``seat`` a turn after ``delay`` seconds; any turn scheduled
        before for that seat is dropped."""
        room = self._room
        turn = self._turns.get(seat, 0) + 1
        self._turns[seat] = turn
        room.clock.after(delay, room.submit, None, BotTurn(seat, room.match_number, turn))

    def on_turn(self, connection: Connection | None, turn: BotTurn) -> None:
        """A bot's turn came: it thinks on a worker thread, and its choice comes back as
        a :class:`BotMove`."""
        room = self._room
        seat = room.seats[turn.seat]
        match = room.match
        if match is None or turn.match_number != room.match_number or seat.bot is None:
            return
        if self._turns.get(turn.seat) != turn.turn:
            return
        runup = self._hands_shown.runup_left()
        if runup > 0:  # a bot taking over in the 3-2-1 waits for it like everyone
            self.schedule(turn.seat, runup + 0.05)
            return
        player = seat.name
        if not match.match.needs_action(player):
            return
        view = match.match.view(player)
        rng = bot_chance(match.seed, turn.seat, player, match.actions)
        bot = seat.bot

        async def think() -> None:
            # (not on a thread while the game's code compiles: a stop would wait for it)
            await warmed(self.kinds)
            try:
                action = await asyncio.to_thread(bot.choose, view, rng)
            except Exception:  # a failing bot must not stall the room: play at random
                log.exception("room %s: bot %s failed; playing at random", room.id, player)
                action = self.kinds.bot("random").choose(view, rng)
            room.submit(None, BotMove(turn.seat, turn.match_number, turn.turn, action))

        task = asyncio.create_task(think())
        self.thinking.add(task)
        task.add_done_callback(self.thinking.discard)
        task.add_done_callback(_log_failure)

    def on_move(self, connection: Connection | None, move: BotMove) -> None:
        """A bot chose: its card travels there first (a placing round), then it plays."""
        room = self._room
        seat = room.seats[move.seat]
        match = room.match
        if match is None or move.match_number != room.match_number:
            return
        if self._turns.get(move.seat) != move.turn:
            return  # the match moved on while it thought (the freeze): a new turn is due
        if not move.glided and match.placing and move.action.type_name == "place":
            self._glide(move)
            return
        action = move.action.with_time(room.now())
        held = self._hands.get(seat.name)
        fallback = None
        if held is not None:
            # A frozen card falls where it is, a bot's as a person's: everyone saw it there.
            action, fallback = match.where_held(action, held)
        try:
            room.apply(action)
        except IllegalAction:
            if fallback is not None:
                room.apply(fallback)
                return
            # The table changed while the bot was thinking: think again soon.
            self.schedule(move.seat, 0.05)
            return
        if room.match is not None and room.match.match.needs_action(seat.name):
            self.show_hand(seat)
            self.schedule(move.seat, self.pause(seat))

    def show_hands(self) -> None:
        """A placing round began: every bot's card waits on its side of the table."""
        for seat in self._room.seats:
            if seat.kind == "bot":
                self.show_hand(seat)

    def show_hand(self, seat: Seat) -> None:
        """The bot of ``seat`` drew a card: it waits on the bot's side of the table."""
        match = self._room.match
        player = seat.name
        if match is None or not match.placing or match.hand(player) is None:
            return
        pose = match.home_pose(seat.index)
        self._hands[player] = pose
        self._hands_shown.note_pose(player, *pose)

    def _glide(self, move: BotMove) -> None:
        """Move the bot's card from where it waits to where it chose to place it, a pose
        every :data:`GLIDE_STEP_SECONDS`, then land it (``move`` again, ``glided``). A
        freeze, the match's end or a newer turn of the bot stops it where it is."""
        room = self._room
        match = room.match
        assert match is not None
        seat = room.seats[move.seat]
        player = seat.name
        action = move.action
        start = self._hands.get(player) or match.home_pose(seat.index)
        end = (float(action.x), float(action.y), float(action.rotation_deg))
        turn_deg = math.remainder(end[2] - start[2], 360.0)  # the short way round
        steps = max(1, round(match.glide_seconds(seat.level, player) / GLIDE_STEP_SECONDS))

        def step(k: int) -> None:
            if (
                room.match is not match
                or self._turns.get(move.seat) != move.turn
                or not match.placing
            ):
                return
            if k > steps:
                room.submit(None, replace(move, glided=True))
                return
            f = k / steps
            f = f * f * (3 - 2 * f)  # eases in and out, as a hand does
            pose = (
                start[0] + (end[0] - start[0]) * f,
                start[1] + (end[1] - start[1]) * f,
                math.remainder(start[2] + turn_deg * f, 360.0),
            )
            self._hands[player] = pose
            self._hands_shown.note_pose(
                player, round(pose[0], 1), round(pose[1], 1), round(pose[2], 1)
            )
            room.clock.after(GLIDE_STEP_SECONDS, step, k + 1)

        step(1)

    def take_over(self, seat: Seat, *, stand_in: bool) -> None:
        """A bot plays for the seat's player: until he rejoins with his token
        (``stand_in``), or for good (he left)."""
        level = self.kinds.stand_in_level
        playing = self._room.match is not None
        seat.bot_takes_over(
            level, stand_in=stand_in, bot=self.kinds.bot(level) if playing else None
        )
        if playing:
            self.schedule(seat.index, 0.2)

    def give_back(self, seat: Seat) -> None:
        """The player is back: the bot standing in for him stops."""
        seat.person_back()
        self._turns[seat.index] = self._turns.get(seat.index, 0) + 1  # its turns are stale


def bot_chance(seed: int, seat: int, player: str, actions: list[dict[str, Any]]) -> random.Random:
    """The random source of the bot in ``seat`` for its next move: keyed on the room's
    seed, the seat and how many actions that seat has played, not on the whole log. In a
    game of secret simultaneous plots, whether the other's plot is logged before the bot
    thinks is a matter of timing, and the same seed must give the same match."""
    own = sum(1 for done in actions if done.get("player") == player)
    return random.Random(f"{seed}/{seat}/{own}")


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())
