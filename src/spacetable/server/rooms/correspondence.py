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

The players' accounts are told (:attr:`Correspondence.told`, given by the directory: the
notifications of ``meet/notices.py``, issue 70): a turn of theirs begins (``your_move``,
with the hours it waits), a turn of theirs ran out (``ran_out``, with how many more in a
row lose the match), the match is over (``match_over``). Telling never waits: the
notifications are stored off the room's task.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from spacetable.core.endings import Ending
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.payloads import CorrespondenceView
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.clock import Timer
from spacetable.server.rooms.context import Handler, RoomContext
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.sockets.connection import Connection

#: Turns in a row a player may let run out; the next one loses him the match (C1).
TIMEOUTS_TO_LOSE = 3

#: Tells a player's account what happened in his correspondence room (``meet/notices.py``):
#: the account's key, the kind (``your_move``, ``ran_out``, ``match_over``) and its values
#: (``room``, ``ruleset`` and the kind's own). Called on the room's task: it must not wait.
Told = Callable[[str, str, dict[str, Any]], None]


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
        #: Where the players' accounts are told of their turns (none: nobody is).
        self.told: Told | None = None
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
        # his warning goes (room, My games); the others now waited on are told
        self._set(waiting, fresh=fresh, changed=cleared, actor=player)

    def _set(
        self,
        waiting: list[str],
        *,
        fresh: bool,
        deadline: float | None = None,
        changed: bool = False,
        actor: str | None = None,
        tell: Iterable[str] = (),
    ) -> None:
        room = self._room
        hours = self.hours
        assert hours is not None
        changed = changed or waiting != self.waiting
        # Told: who is waited on and was not (not the player who just acted: he is there).
        told = [p for p in waiting if (p not in self.waiting or p in tell) and p != actor]
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
        if told and self.deadline is not None:
            left = max(1, math.ceil((self.deadline - room.clock.wall()) / 3600.0))
            self._tell(told, "your_move", hours=left)

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
        for player in late:
            left = max(0, TIMEOUTS_TO_LOSE - self.missed[player])
            ran = self.ran_out.get(player)
            self._tell([player], "ran_out", turn=ran[-1] if ran else None, left=left)
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
            self._set(
                self._waiting_now(),
                fresh=True,
                deadline=message.deadline + hours * 3600.0,
                tell=late,  # their turn ran out and the next began: "your move" again
            )

    def over(self, result: dict[str, Any]) -> None:
        """The match ended with ``result`` (the ``result`` message): each seated player
        is told whether he won, lost or drew; then no deadline, nobody missed a turn."""
        if self.on:
            winner = (result.get("result") or {}).get("winner")
            for seat in self._room.seats:
                if seat.account is None or not seat.name:
                    continue
                outcome = "draw" if winner is None else "won" if winner == seat.name else "lost"
                self._tell([seat.name], "match_over", outcome=outcome)
        self.reset()

    def _tell(self, players: Iterable[str], kind: str, **values: Any) -> None:
        """Tell the accounts seated as ``players`` (seat names) ``kind`` with ``values``."""
        told = self.told
        if told is None:
            return
        room = self._room
        ruleset = room.options.ruleset
        for name in players:
            seat = next((s for s in room.seats if s.name == name), None)
            if seat is not None and seat.account is not None:
                told(seat.account, kind, {"room": room.id, "ruleset": ruleset, **values})

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

    def about(self) -> CorrespondenceView | None:
        """What the ``room`` message says of it: the hours, the deadline (wall time),
        whom the match waits on, the turns each missed in a row (how many and which) and
        how many in a row lose (``lose_at``)."""
        about = self.snapshot()
        return (
            None
            if about is None
            else cast(CorrespondenceView, {**about, "lose_at": TIMEOUTS_TO_LOSE})
        )
