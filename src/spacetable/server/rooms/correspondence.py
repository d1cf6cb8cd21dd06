"""Correspondence play (issue 37 item 4, docs/correspondence.md): a room whose option
``turn_hours`` is set waits up to that many hours for each move, between registered
players who need not stay connected.

:class:`Correspondence` is a part of a :class:`~spacetable.server.rooms.room.Room`, run
on the room's task like the rest of it, seeing the room through a
:class:`CorrespondenceRoom`. It keeps the turn's deadline as a wall time read from the
room's clock (:meth:`~spacetable.server.rooms.clock.RoomClock.wall`, which a test moves),
stored with the room (``rooms/extras.py``) and armed again when the room is rebuilt: a
deadline that passed while no process held the room runs out at once, and each turn
after it gets its own hours from the one before, so a room opened after days has lived
them. When the time runs out every player the match waits on (the match's own
``needs_action``) misses his turn: the pacing says what passing means
(:meth:`~spacetable.server.rooms.match.RoomMatch.pass_turn`: FTL plots no orders, hex
fleet's activation ends). A player who misses :data:`TIMEOUTS_TO_LOSE` turns in a row
loses (docs/rulings.md, C1). The room's lobby keeps such a room's seats without an abandon
timer, no bot stands in, and the room is not closed for being idle (``rooms/lobby.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from spacetable.core.endings import Ending
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.clock import Timer
from spacetable.server.rooms.context import Handler, RoomContext
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.sockets.connection import Connection

#: Turns in a row a player may let run out; the next one loses him the match (C1).
TIMEOUTS_TO_LOSE = 3


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """A correspondence turn's time ran out (posted into the room's queue): stale unless
    the room still plays match ``match_number`` with this ``deadline`` (wall time)."""

    match_number: int
    deadline: float


class CorrespondenceRoom(RoomContext, Protocol):
    """The room as its correspondence part sees it."""

    @property
    def options(self) -> RoomOptions:
        """What the room plays (``turn_hours``)."""
        ...

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the match and tell everyone."""
        ...

    def end(self, how: Ending, by: list[str] | None = None) -> None:
        """End the match."""
        ...

    def broadcast_room(self, at_once: bool = False) -> None:
        """Tell everyone the room changed (its row is written again)."""
        ...


class Correspondence:
    """The turn's deadline, the timeouts in a row, and what a timeout does."""

    def __init__(self, room: CorrespondenceRoom) -> None:
        self._room = room
        self._timer: Timer | None = None
        self._passing = False
        self.reset()

    @property
    def hours(self) -> int | None:
        """Hours a turn waits, or ``None``: the room is played live."""
        return self._room.options.turn_hours

    @property
    def on(self) -> bool:
        """Whether the room is played by correspondence."""
        return self.hours is not None

    def handlers(self) -> dict[type, Handler]:
        """The marker the turn's timer posts."""
        return {TurnTimeout: self._on_timeout}

    def reset(self) -> None:
        """No match: no deadline, nobody missed a turn."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        #: Wall time the turn's time runs out, or ``None``.
        self.deadline: float | None = None
        #: The players the match waits on now (seat names).
        self.waiting: list[str] = []
        #: Turns in a row each player let run out.
        self.missed: dict[str, int] = {}
        #: The numbers of those turns (the match's ``turn`` as each ran out), per player.
        self.ran_out: dict[str, list[int]] = {}

    def _waiting_now(self) -> list[str]:
        match = self._room.match
        if match is None or match.phase == "over":
            return []
        return [p for p in match.match.players if match.match.needs_action(p)]

    def started(self) -> None:
        """A match began (or the room changed with no player to thank): a turn begins."""
        if not self.on:
            return
        self.missed = {}
        self.ran_out = {}
        self._set(self._waiting_now(), fresh=True)

    def applied(self, player: str | None) -> None:
        """An action was applied (``player``'s, or a timer's): a player who plays has
        missed no turn in a row; the time starts again when someone the match did not
        wait on is waited on, or when the player who acted still has to play (hex fleet's
        activation: each action resets it)."""
        if not self.on or self._passing:
            return
        cleared = False
        if player is not None:
            cleared = self.missed.pop(player, None) is not None
            self.ran_out.pop(player, None)
        waiting = self._waiting_now()
        fresh = bool(set(waiting) - set(self.waiting)) or player in waiting
        self._set(waiting, fresh=fresh, changed=cleared)  # his warning goes (room, My games)

    def _set(
        self,
        waiting: list[str],
        *,
        fresh: bool,
        deadline: float | None = None,
        changed: bool = False,
    ) -> None:
        room = self._room
        hours = self.hours
        assert hours is not None
        changed = changed or waiting != self.waiting
        self.waiting = waiting
        if not waiting:
            new: float | None = None
        elif deadline is not None:
            new = deadline
        elif fresh or self.deadline is None:
            new = room.clock.wall() + hours * 3600.0
        else:
            new = self.deadline
        if new != self.deadline:
            self.deadline = new
            self._arm()
            changed = True
        if changed:
            room.broadcast_room()  # everyone sees whom it waits on, till when (stored too)

    def _arm(self) -> None:
        room = self._room
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.deadline is not None:
            self._timer = room.clock.at_wall(
                self.deadline, room.submit, None, TurnTimeout(room.match_number, self.deadline)
            )

    def _on_timeout(self, connection: Connection | None, message: TurnTimeout) -> None:
        """The turn's time ran out: the players it waited on miss it (they lose at the
        third in a row), and the match moves on without them."""
        room = self._room
        match = room.match
        hours = self.hours
        if (
            hours is None
            or match is None
            or message.match_number != room.match_number
            or message.deadline != self.deadline
        ):
            return  # played in time, or the match is over
        self._timer = None
        late = self._waiting_now()
        turn = getattr(match.match, "turn", None)
        for player in late:
            self.missed[player] = self.missed.get(player, 0) + 1
            if isinstance(turn, int):
                self.ran_out.setdefault(player, []).append(turn)
        room.changed()
        timed_out = to_page.TimedOut(
            players=late,
            missed={p: self.missed[p] for p in late},
            turns={p: list(self.ran_out.get(p, ())) for p in late},
            lose_at=TIMEOUTS_TO_LOSE,
        )
        room.broadcast(wire(timed_out))
        lost = [p for p in late if self.missed[p] >= TIMEOUTS_TO_LOSE]
        if lost:
            room.end("timeout", lost)
            return
        t = room.now()
        self._passing = True
        try:
            for player in late:
                if room.match is not match or match.phase == "over":
                    break
                action = match.pass_turn(player, t)
                if action is not None:
                    room.apply(action)
        finally:
            self._passing = False
        if room.match is match:
            # The next turn's time counts from this deadline: a room rebuilt days later
            # lives each turn it missed.
            self._set(self._waiting_now(), fresh=True, deadline=message.deadline + hours * 3600.0)

    # -- what the room stores ---------------------------------------------------------

    def snapshot(self) -> dict[str, Any] | None:
        """The deadline (wall time), whom it waits on, the turns missed in a row (how
        many, and which: ``ran_out``)."""
        if not self.on:
            return None
        return {
            "turn_hours": self.hours,
            "deadline": self.deadline,
            "waiting": list(self.waiting),
            "missed": dict(self.missed),
            "ran_out": {p: list(turns) for p, turns in self.ran_out.items()},
        }

    def restore(self, stored: dict[str, Any] | None) -> None:
        """Take back what :meth:`snapshot` gave (a room rebuilt, its match replayed), and
        arm the deadline again: at once if it passed while no process held the room."""
        if not self.on or self._room.match is None:
            return
        if not stored:
            self.started()
            return
        self.missed = {str(p): int(n) for p, n in (stored.get("missed") or {}).items()}
        self.ran_out = {
            str(p): [int(n) for n in turns] for p, turns in (stored.get("ran_out") or {}).items()
        }
        self.waiting = [str(p) for p in stored.get("waiting") or ()]
        deadline = stored.get("deadline")
        self.deadline = float(deadline) if isinstance(deadline, int | float) else None
        if self.deadline is None:
            self._set(self._waiting_now(), fresh=True)
        else:
            self._arm()

    def about(self) -> dict[str, Any] | None:
        """What the ``room`` message says of it: the hours, the deadline (wall time),
        whom the match waits on, the turns each missed in a row (how many and which) and
        how many in a row lose (``lose_at``)."""
        about = self.snapshot()
        return None if about is None else {**about, "lose_at": TIMEOUTS_TO_LOSE}
