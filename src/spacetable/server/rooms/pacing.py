"""The clocks of a room's match, the players' moves and the hands that move on them: the
3-2-1 before a placing round, the countdowns (a deployment's, a plot timer), the seconds to
drop or discard after "stop!", the moves the players send, and the poses of the cards in
hand, streamed to everyone.

:class:`Pacing` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the room's
task like the rest of it (and, for the poses' windows, by plain callbacks on the same
event loop), that sees the room through a :class:`PacingRoom`. Its timers post markers
into the room's queue (:class:`StopExpired`, :class:`CountdownExpired`,
:class:`RunupOver`), each naming the match it was set for: a marker of a match over is
stale. What the match does when they run out is the pacing's of its game
(``rooms/realtime.py``, ``rooms/plots.py``, ``rooms/turns.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, get_args

from spacetable.core.match import IllegalAction
from spacetable.i18n import N_
from spacetable.i18n.phrase import says
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.payloads import Pose
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.clock import Timer
from spacetable.server.rooms.context import Handler, RoomContext
from spacetable.server.rooms.match import Change, GameMessage, RoomMatch
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection, message_frame
from spacetable.server.sockets.protocol import POSE_PULSE


@dataclass(frozen=True, slots=True)
class StopExpired:
    """The seconds to drop or discard after "stop!" ran out (posted into the queue)."""

    match_number: int


@dataclass(frozen=True, slots=True)
class CountdownExpired:
    """A countdown of the match ran out (posted into the room's queue)."""

    match_number: int
    deadline: float


@dataclass(frozen=True, slots=True)
class RunupOver:
    """The 3-2-1 before a placing round is over (posted into the room's queue)."""

    match_number: int


class PacingRoom(RoomContext, Protocol):
    """The room as its pacing sees it: the context, and what the pacing asks of it."""

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the match and tell everyone. Raises IllegalAction."""
        ...

    def broadcast_state(self) -> None:
        """Send everyone the match as he sees it."""
        ...


class Pacing:
    """The match's run-ups, countdowns and freezes on the room's clock, and the poses of
    the hands. ``runup_began`` hears of each run-up (the bots' cards wait then)."""

    def __init__(self, room: PacingRoom, runup_began: Callable[[], None]) -> None:
        self._room = room
        self._runup_began = runup_began
        #: The poses noted since the last ``poses`` message, by player.
        self._poses: dict[str, Pose] = {}
        self._window: Timer | None = None  # the noted poses' window, while it is open
        #: The players whose poses left in the last ``poses`` message: while two or more
        #: hands move, the window closes as soon as each of them has posed again.
        self._posers: frozenset[str] = frozenset()
        #: The room's pose pulse: pages aim their poses at ``origin + k * POSE_PULSE``.
        self._pulse_origin = room.clock.now()
        # The countdown (deployment, plot timer) whose expiry is scheduled.
        self._armed: float | None = None
        #: Whether a person (not a bot, not a timer) played an action in the current match.
        self.person_acted = False

    def handlers(self) -> dict[type, Handler]:
        """The markers the pacing's timers post, with their handlers."""
        return {
            **dict.fromkeys(get_args(GameMessage), self._on_game_message),
            StopExpired: self._on_stop_expired,
            CountdownExpired: self._on_countdown,
            RunupOver: self._on_runup_over,
        }

    def match_begins(self) -> None:
        """A match begins: no pose noted, no countdown armed, nobody played yet."""
        self._poses = {}
        self._posers = frozenset()
        self._armed = None
        self.person_acted = False

    # -- the players' moves ---------------------------------------------------------------

    def _on_game_message(self, connection: Connection | None, message: GameMessage) -> None:
        """A player's move: refused in the 3-2-1, else the match makes it an action (or
        keeps it, as a draft) and the room applies it."""
        room = self._room
        if connection is None or connection.seat is None or room.match is None:
            if connection is not None:
                problem = (
                    N_("only seated players can play")
                    if connection.seat is None
                    else N_("the match is over")
                    if room.phase == "over"
                    else N_("no match is being played")
                )
                connection.error(problem)
            return
        player = room.seats[connection.seat].name
        left = self.runup_left()
        if left > 0:
            reason = connection.tr.gettext(
                "the round starts in {s} s: wait for the count", s=connection.tr.number(left, "0.0")
            )
            connection.send(wire(to_page.Refused(message.type, reason)))
            return
        try:
            action = room.match.action(player, message, room.now())
            self.person_acted = True
            if action is not None:
                room.apply(action)
            else:  # kept, not applied (an FTL draft): stored with the room (_room_extras)
                room.changed()
        except IllegalAction as exc:
            refused = to_page.Refused(message.type, str(exc))
            said = says(exc.args[0]) if exc.args else None
            if said is not None:  # a game's reason in the socket's language, and as a phrase
                reason = exc.args[0].phrase.text(connection.tr)
                refused = to_page.Refused(message.type, reason, said)
            connection.send(wire(refused))

    # -- the hands ----------------------------------------------------------------------

    def pose(self, connection: Connection, message: msg.Pose) -> None:
        """A pose streamed by a player's page (``Room.pose``): most of what a room reads,
        so it looks the match up once."""
        match = self._room.match
        seat = connection.seat
        if seat is None or match is None:
            return  # poses from spectators or outside a match are dropped silently
        player = match.match.players[seat]  # seat order, fixed for the match
        self._note(match, player, message.x, message.y, message.rotation)

    def note_pose(self, player: str, x: float, y: float, rotation: float) -> None:
        """Note where ``player``'s card in hand is now, a person's (streamed by his page)
        or a bot's (``rooms/bots.py``): it leaves with the next ``poses`` message."""
        match = self._room.match
        if match is not None:
            self._note(match, player, x, y, rotation)

    def _note(self, match: RoomMatch, player: str, x: float, y: float, rotation: float) -> None:
        if not match.placing:
            return  # before the deployment, and after "stop!", no hand moves
        hand = match.hand(player)
        if hand is None:
            return
        poses = self._poses
        poses[player] = {"x": x, "y": y, "rotation": rotation, "ship": hand}
        if self._window is None:
            # Coalescing: the first pose starts a short window; poses from the room's other
            # players that arrive within it leave in the same message. A fixed ticker would
            # make every pose wait up to a whole interval; this bounds the wait by the window.
            room = self._room
            self._window = room.clock.after(room.timing.pose_interval, self._flush)
        elif (
            len(posers := self._posers) > 1 and len(poses) >= len(posers) and posers <= poses.keys()
        ):
            # Every hand of the last message has moved again (the pages aim at the room's
            # pulse, so they arrive together): nothing more to wait for.
            self._window.cancel()
            self._flush()

    def _flush(self) -> None:
        """Send the poses gathered since the first of them arrived, as one message, with
        the milliseconds to the room's next pose pulse (``next``). A player whose own pose
        is the only one in it is skipped (his hand is his)."""
        self._window = None
        poses, self._poses = self._poses, {}
        match = self._room.match
        if not poses or match is None:
            return  # nothing moved, or the match ended within the window
        self._posers = frozenset(poses)
        since = (self._room.clock.now() - self._pulse_origin) % POSE_PULSE
        frame = message_frame(wire(to_page.Poses(poses, round((POSE_PULSE - since) * 1000))))
        players = match.match.players  # seat order
        alone = players.index(next(iter(poses))) if len(poses) == 1 else None
        for connection in self._room.connections:
            if alone is None or connection.seat != alone:
                connection.send_frame(frame)

    # -- the clocks ---------------------------------------------------------------------

    def runup_left(self) -> float:
        """Seconds left of the run-up (0 outside it)."""
        match = self._room.match
        ends = None if match is None else match.runup_ends
        return 0.0 if ends is None else max(0.0, ends - self._room.clock.now())

    def begin_runup(self) -> None:
        """The placing round begins: the 3-2-1 first (no card lands before it ends, the
        bots wait for it; a ``state`` says when it has), and the bots' first cards wait on
        their side of the table."""
        room = self._room
        match = room.match
        assert match is not None
        match.begin_runup(room.clock.now())
        if match.runup_ends is not None:
            room.clock.at(match.runup_ends, room.submit, None, RunupOver(room.match_number))
        self._runup_began()

    def applied(self, action: Any, change: Change) -> None:
        """``action`` was applied and changed the match so: a hand that moved on, a
        placing round that began, cards that froze."""
        room = self._room
        match = room.match
        assert match is not None
        player = getattr(action, "player", None)
        if player is not None:
            self._poses.pop(player, None)  # his hand moved on: the pose is stale
        if change.wake == "began" and match.placing:
            self.begin_runup()
        if change.froze:
            room.clock.after(
                room.timing.stop_seconds, room.submit, None, StopExpired(room.match_number)
            )

    def arm_countdown(self) -> None:
        """Schedule the end of the match's countdown, if one began since the last."""
        room = self._room
        match = room.match
        deadline = None if match is None else match.deadline
        if match is None or deadline is None or deadline == self._armed:
            return
        self._armed = deadline
        room.clock.at(
            match.started + deadline,
            room.submit,
            None,
            CountdownExpired(room.match_number, deadline),
        )

    def resume(self, t_resume: float) -> None:
        """A match rebuilt from storage plays on from match time ``t_resume``: a placing
        round begins with its 3-2-1 again, for the players to find their cards; the
        stop's and the countdown's timers run with what they had left."""
        room = self._room
        match = room.match
        assert match is not None
        if match.placing:
            self.begin_runup()
        left = match.stop_left(t_resume)
        if left is not None:
            room.clock.after(
                self.runup_left() + left, room.submit, None, StopExpired(room.match_number)
            )

    def _on_stop_expired(self, connection: Connection | None, message: StopExpired) -> None:
        """The time to drop or discard after "stop!" is over: the cards in hand freeze."""
        room = self._room
        match = room.match
        if message.match_number != room.match_number or match is None:
            return
        action = match.stop_action(room.now())
        if action is not None:  # a game with no freeze has no stop to end
            room.apply(action)

    def _on_runup_over(self, connection: Connection | None, message: RunupOver) -> None:
        if message.match_number == self._room.match_number:
            self._room.broadcast_state()  # the count is over: everyone plays from this state

    def _on_countdown(self, connection: Connection | None, message: CountdownExpired) -> None:
        """A countdown ran out (the deployment's: every card in hand freezes; a turn's
        plot timer: the turn resolves with the plots that are in)."""
        room = self._room
        match = room.match
        if message.match_number != room.match_number or match is None:
            return
        if match.deadline != message.deadline:
            return  # it was over before its time: every card down, every plot in
        # The loop may wake a hair early; the countdown ran out at its deadline anyway.
        at = max(room.now(), message.deadline)
        for action in match.before_timer(at):  # drafts become plots (FTL)
            room.apply(action)
            if room.match is not match or match.deadline != message.deadline:
                return  # the last draft completed the turn
        room.apply(match.timer_action(at))
