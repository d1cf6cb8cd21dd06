"""Secret-plot pacing: turns in which every seat plots in secret, resolved together.

Each player in play sends his ``plot`` (and may take it back with ``unplot`` until the last
one is in); everyone sees who has plotted, never what (each ``state`` carries only the
receiver's own plot). The turn resolves when every plot is in, or when the room's plot
timer runs out (a missing plot means that player's pieces do nothing). Then everyone gets
the ``turn`` message (the board before it and its events) and the new state. The match is
any :class:`~spacetable.core.match.PlotTurns` (Faster Than Light).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.match import IllegalAction
from spacetable.i18n.phrase import player_said, refusal
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.match import Change, GameMessage, RoomMatch
from spacetable.server.sockets import protocol as msg
from spacetable.server.store.storage import StoredMatch

#: Seconds a bot seems to think before it plots, by level (a person reads the board first).
BOT_PAUSE = {"random": 1.0, "greedy": 1.5, "easy": 2.0, "medium": 2.5, "hard": 3.0}
#: The events of the log that only say a plot came in or was taken back: they are not part
#: of a turn's resolution (``games/ftl/events.py``: ``plotted``, ``unplotted``).
_PLOT_NOTICES = ("plotted", "unplotted")
#: How long (s) each step of a turn's animation takes at normal speed, as the FTL client
#: plays it (web/js/games/ftl/animate.js: MS, with the pause after a step), by event type.
_PLAYBACK_STEP_S = {
    "launch": 0.81, "rotate": 1.01, "hit": 0.52, "removed": 0.78, "move": 0.65,
    "off-table": 0.52, "end": 0.6,
}  # fmt: skip
#: Tapes grow this many inches a second (animate.js TAPE_IN_PER_S), then a pause.
_TAPE_IN_PER_S = 6.0
_TAPE_PAUSE_S = 0.26
#: The longest a turn's playback holds the next turn's plot timer back (s).
PLAYBACK_CAP_S = 10.0


def playback_seconds(events: list[dict[str, Any]]) -> float:
    """How long a turn with ``events`` (its JSON events) takes to play out at normal speed,
    at most :data:`PLAYBACK_CAP_S`: each kind of step once (the client plays all the
    launches together, then all the rotations...), the tapes as long as the longest."""
    kinds = {e["type"] for e in events}
    seconds = sum(_PLAYBACK_STEP_S.get(kind, 0.0) for kind in kinds)
    reaches = [float(e.get("length", 0.0)) for e in events if e["type"] == "tape"]
    if reaches:
        seconds += max(reaches) / _TAPE_IN_PER_S + _TAPE_PAUSE_S
    return round(min(seconds, PLAYBACK_CAP_S), 3)


class PlotsMatch(RoomMatch):
    """A match of secret simultaneous plots in a room."""

    pacing = "plots"
    clock_fields = ("plot_seconds_left",)

    def _setup(self) -> None:
        """The board at the start, no draft, no playback yet."""
        #: The board at the start of turn 1 (stored: a replay starts from it).
        self.start = self.match.snapshot()
        #: The board at the start of the turn being plotted.
        self._before = self.start
        #: Every turn's events so far, in order (each begins with the ``turn`` event).
        self.turn_events: list[dict[str, Any]] = []
        #: Each player's draft for this turn (his plot as he writes it, not sent): plotted
        #: for him when the plot timer runs out. Never shown to anyone; stored with the live
        #: room only, as secret as his plot (``rooms/extras.py``), for a rebuilt room.
        self.drafts: dict[str, tuple[str, ...]] = {}
        #: The last turn's playback (s): the plot timer starts after it.
        self._playback = 0.0

    @property
    def deadline(self) -> float | None:
        """Match time this turn's plot timer runs out, or ``None``: the rules' deadline
        (the timer from the end of the last turn) plus the last turn's playback
        (:func:`playback_seconds`): the timer does not count while the turn plays out on
        the players' screens. The rules accept the timer at any time from their deadline
        on, and the log holds when it ran out, so a match replays from its log alone."""
        deadline: float | None = self.match.plot_deadline
        if deadline is None:
            return None
        return round(deadline + self._playback, 6)

    def timer_action(self, t: float) -> Any:
        """The plot timer ran out at ``t``: the turn resolves with the plots in."""
        return self.match.plot_timer_expired(t)

    def before_timer(self, t: float) -> list[Any]:
        """The plot timer ran out at ``t``: each player still to plot whose draft holds
        orders plots it now (as if he had pressed Submit), in seat order; the room logs
        these plots like any other, so the match replays from its log alone."""
        plots = []
        for player in self.match.players:
            draft = self.drafts.get(player)
            due = draft and self.match.needs_action(player)
            if due and self.match.plot_problem(player, draft) is None:
                plots.append(self.match.plot(player, draft, t))
        return plots

    def pass_turn(self, player: str, t: float) -> Any | None:
        """His time ran out: ``player`` plots no orders this turn (his draft is dropped)."""
        if not self.match.needs_action(player):
            return None
        self.drafts.pop(player, None)
        return self.match.plot(player, (), t)

    def action(self, player: str, message: GameMessage, t: float) -> Any:
        """The match action a ``plot`` or ``unplot`` message asks for at match time ``t``."""
        if isinstance(message, msg.Plot):
            return self.match.plot(player, tuple(message.orders), t)
        if isinstance(message, msg.Draft):
            self._keep_draft(player, tuple(message.orders))
            return None
        if isinstance(message, msg.Unplot):
            return self.match.unplot(player, t)
        raise IllegalAction(
            refusal(
                "{game} is played by plotting orders: there is no {type}", **self._named(message)
            )
        )

    def apply(self, action: Any) -> Change:
        """Apply a plot, an unplot or the timer; when the turn resolves, the ``turn``
        message goes to everyone (the bots are woken for the next one)."""
        turn, before = self.match.turn, self._before
        self._log(action)
        over = self.phase == "over"
        if self.match.turn == turn and not over:
            return Change()  # a plot in or taken back: everyone's "plotted" flags change
        self.drafts = {}
        events = [e.to_json() for e in self.match.last_turn]
        events = [e for e in events if e["type"] not in _PLOT_NOTICES]
        self._playback = playback_seconds(events)
        self.turn_events.extend(events)
        self._before = self.match.snapshot()
        message = wire(to_page.Turn(turn, before, events))
        return Change(messages=(message,), over=over, wake=None if over else "turn")

    def _keep_draft(self, player: str, orders: tuple[str, ...]) -> None:
        """Keep ``player``'s draft; raises IllegalAction (naming the piece and the order)
        for one the match would refuse as a plot, keeping the one before."""
        problem = refusal("the match is over") if self.phase == "over" else None
        if problem is None and not self.match.in_play(player):
            problem = refusal("{player} has no ship on the table", player=player_said(player))
        problem = problem or self.match.plot_problem(player, orders)
        if problem is not None:
            raise IllegalAction(problem)
        self.drafts[player] = orders

    def clocks(self, now: float) -> dict[str, Any]:
        """The ``state``'s clocks: the plot timer's deadline and the seconds left to plot
        (over the view's own ``plot_deadline``)."""
        deadline = self.deadline
        left = None if deadline is None else round(max(0.0, deadline - now), 3)
        return {"plot_deadline": deadline, "plot_seconds_left": left}

    def bot_pause(self, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` seems to think before it plots."""
        return BOT_PAUSE.get(level or "medium", 2.0) * self.timing.bot_pace

    def record(self, room: str, seats: list[dict[str, Any]], end: dict[str, Any]) -> StoredMatch:
        """The finished match as stored: every turn's events, and the result with the
        board at the start (a replay steps from it through the events)."""
        return self._stored(
            room, seats, list(self.turn_events), end["result"] | {"start": self.start}
        )
