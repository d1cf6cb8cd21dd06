"""The bots of a room: their turns, scheduled on the room's clock and thought out on a
worker thread, and the bot that stands in for a player who went away.

:class:`RoomBots` is a mixin of :class:`~spacetable.server.rooms.Room`: its methods run on
the room's task like the rest of the room, with the room's state (declared below for the
type checker, set by ``Room.__init__``). A bot's turn is a :class:`BotTurn` posted into the
room's queue; its choice comes back as a :class:`BotMove`.

A bot's card in hand is seen like a person's: it waits on the bot's side of the table when
drawn, then travels to where the bot chose to put it, its poses streamed through the same
``poses`` messages as a person's hand (:meth:`RoomBots._glide`), and lands at the end. When
the cards freeze, a bot that drops its card drops it where everyone saw it (or discards it,
if it would touch a card there), as a person must.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from spacetable.core.match import IllegalAction
from spacetable.registry import Bots
from spacetable.server._clock import RoomClock
from spacetable.server._connection import Connection
from spacetable.server._room_match import RoomMatch
from spacetable.server._seats import Seat

log = logging.getLogger("spacetable.rooms")

#: Seconds between two poses of a bot's travelling card (a person's page streams 20 a
#: second).
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
    #: Its card has travelled to where it lands (:meth:`RoomBots._glide`).
    glided: bool = False


class RoomBots:
    """Bots' turns in the match, and bots taking a seat over from a player."""

    # The room's state (rooms.py) that the bots read and change.
    id: str
    bots: Bots
    seats: list[Seat]
    match: RoomMatch | None
    match_number: int
    _bot_turns: dict[int, int]
    _bot_hands: dict[str, tuple[float, float, float]]
    #: The bots' choices being thought out on worker threads.
    _thinking: set[asyncio.Task[None]]
    clock: RoomClock

    if TYPE_CHECKING:
        # The room's methods the bots call (rooms.py).

        def submit(self, connection: Connection | None, message: Any) -> None: ...
        def _player(self, seat: Seat) -> str: ...
        def now(self) -> float: ...
        def _apply(self, action: Any) -> None: ...
        def _runup_left(self) -> float: ...
        def _note_pose(self, player: str, x: float, y: float, rotation: float) -> None: ...

    def _bot_pause(self, seat: Seat) -> float:
        """Seconds until the bot of ``seat`` chooses its next action: its time for it but
        the time its card then travels."""
        if self.match is None:
            return 0.0
        player = self._player(seat)
        pause = self.match.bot_pause(seat.level, player)
        return max(0.0, pause - self.match.glide_seconds(seat.level, player))

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
        self.clock.after(delay, self.submit, None, BotTurn(seat, self.match_number, turn))

    def _on_bot_turn(self, turn: BotTurn) -> None:
        seat = self.seats[turn.seat]
        match = self.match
        if match is None or turn.match_number != self.match_number or seat.bot is None:
            return
        if self._bot_turns.get(turn.seat) != turn.turn:
            return
        runup = self._runup_left()
        if runup > 0:  # a bot taking over in the 3-2-1 waits for it like everyone
            self._schedule_bot(turn.seat, runup + 0.05)
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
            self.submit(None, BotMove(turn.seat, turn.match_number, turn.turn, action))

        task = asyncio.create_task(think())
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)
        task.add_done_callback(_log_failure)

    def _on_bot_move(self, move: BotMove) -> None:
        seat = self.seats[move.seat]
        if self.match is None or move.match_number != self.match_number:
            return
        if self._bot_turns.get(move.seat) != move.turn:
            return  # the match moved on while it thought (the freeze): a new turn is due
        if not move.glided and self.match.placing and move.action.type_name == "place":
            self._glide(move)
            return
        t = self.now()
        action = move.action.with_time(t)
        held = self._bot_hands.get(self._player(seat))
        fallback = None
        if held is not None:
            # A frozen card falls where it is, a bot's as a person's: everyone saw it there.
            action, fallback = self.match.where_held(action, held)
        try:
            self._apply(action)
        except IllegalAction:
            if fallback is not None:
                self._apply(fallback)
                return
            # The table changed while the bot was thinking: think again soon.
            self._schedule_bot(move.seat, 0.05)
            return
        if self.match is not None and self.match.match.needs_action(self._player(seat)):
            self._show_bot_hand(seat)
            self._schedule_bot(move.seat, self._bot_pause(seat))

    def _show_bot_hand(self, seat: Seat) -> None:
        """The bot of ``seat`` drew a card: it waits on the bot's side of the table."""
        match = self.match
        player = self._player(seat)
        if match is None or not match.placing or match.hand(player) is None:
            return
        pose = match.home_pose(seat.index)
        self._bot_hands[player] = pose
        self._note_pose(player, *pose)

    def _glide(self, move: BotMove) -> None:
        """Move the bot's card from where it waits to where it chose to place it, a pose
        every :data:`GLIDE_STEP_SECONDS`, then land it (``move`` again, ``glided``). A
        freeze, the match's end or a newer turn of the bot stops it where it is."""
        match = self.match
        assert match is not None
        seat = self.seats[move.seat]
        player = self._player(seat)
        action = move.action
        start = self._bot_hands.get(player) or match.home_pose(seat.index)
        end = (float(action.x), float(action.y), float(action.rotation_deg))
        turn_deg = math.remainder(end[2] - start[2], 360.0)  # the short way round
        steps = max(1, round(match.glide_seconds(seat.level, player) / GLIDE_STEP_SECONDS))

        def step(k: int) -> None:
            if (
                self.match is not match
                or self._bot_turns.get(move.seat) != move.turn
                or not match.placing
            ):
                return
            if k > steps:
                self.submit(None, replace(move, glided=True))
                return
            f = k / steps
            f = f * f * (3 - 2 * f)  # eases in and out, as a hand does
            pose = (
                start[0] + (end[0] - start[0]) * f,
                start[1] + (end[1] - start[1]) * f,
                math.remainder(start[2] + turn_deg * f, 360.0),
            )
            self._bot_hands[player] = pose
            self._note_pose(player, round(pose[0], 1), round(pose[1], 1), round(pose[2], 1))
            self.clock.after(GLIDE_STEP_SECONDS, step, k + 1)

        step(1)

    def bot_takes_over(self, seat: Seat, *, stand_in: bool) -> None:
        """A bot plays for the seat's player: until he rejoins with his token
        (``stand_in``), or for good (he left)."""
        seat.cancel_abandon()
        level = self.bots.stand_in_level
        seat.kind, seat.level, seat.stand_in = "bot", level, stand_in
        if not stand_in:
            seat.token = None
        if self.match is not None:
            seat.bot = self.bots.bot(level)
            self._schedule_bot(seat.index, 0.2)

    def _give_back(self, seat: Seat) -> None:
        """The player is back: the bot standing in for him stops."""
        seat.kind, seat.level, seat.stand_in, seat.bot = "human", None, False, None
        self._bot_turns[seat.index] = self._bot_turns.get(seat.index, 0) + 1  # its turns are stale


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())
