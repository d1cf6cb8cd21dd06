"""One match as a room plays it, for either game: the options a room is created with, the
match machine, its clock and action log, and the messages that describe it.

:class:`Room <spacetable.server.rooms.Room>` owns seats, sockets and timers; it hands each
player's message to :meth:`RoomMatch.action` and the result to :meth:`RoomMatch.apply`,
which tells it what changed (the deployment began, the cards froze, the match is over) so
it can start the countdowns. Everything that differs between Light Speed and Stellar
Conflict in the room lives here.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.core.match import IllegalAction
from spacetable.games.lightspeed import LightSpeedMatch
from spacetable.games.stellar import (
    Discard,
    Drop,
    Fleet,
    Place,
    StellarMatch,
    Timeout,
    TimerExpired,
)
from spacetable.lasers.fast import resolve_fast
from spacetable.server import protocol as msg
from spacetable.server.storage import StoredMatch

Ruleset = Literal["lightspeed", "stellar"]
AnyMatch = LightSpeedMatch | StellarMatch
RoomAction = Place | Drop | Discard | Fleet | TimerExpired | Timeout

#: The phases in which cards in hand move and are placed (Light Speed's fast round,
#: Stellar Conflict's deployment).
PLACING_PHASES = ("fast", "deployment")
#: Seconds a bot pauses between cards, by level, where a fast hand wins (Light Speed, and
#: Stellar Conflict under the stop rule).
BOT_PAUSE = {"random": 1.2, "easy": 2.0, "medium": 1.4, "hard": 1.0}
#: The same under Stellar Conflict's countdown: about what a quick person needs to place a
#: card with care, so that a bot deploys some seven or eight cards in a Dispute's 30 s and
#: may miss its Flag ship at the bottom of a bigger deck, as a person would.
BOT_PAUSE_TIMED = {"random": 3.5, "easy": 4.5, "medium": 3.5, "hard": 2.5}


@dataclass(frozen=True, slots=True)
class Timing:
    """The room's clocks, in seconds (tests shorten them)."""

    pose_interval: float = 0.025  # the longest a pose waits to leave with others
    stop_seconds: float = 5.0  # after "stop!" or the countdown: time to drop or discard
    # A seat whose player has no connection this long is emptied in the lobby, and taken
    # by a bot (standing in until the player comes back) once the match has started.
    abandon_seconds: float = 30.0
    bot_pace: float = 1.0  # multiplies the bots' thinking pauses
    countdown_seconds: float | None = None  # Stellar Conflict: instead of 30 / 60 / 120 s
    # A room nobody is connected to closes after this long, unless a match is being played
    # in it (never played, or finished: a link to it then says it has closed).
    room_idle_seconds: float = 600.0


@dataclass(frozen=True, slots=True)
class RoomOptions:
    """What a room plays: the ruleset, the number of seats, and the game's own options
    (``game``: the match options' JSON without the players, already validated)."""

    ruleset: Ruleset = "lightspeed"
    seats: int = 2
    game: Mapping[str, Any] = field(
        default_factory=lambda: {"asteroids": "single", "rocks": None, "piracy": False}
    )

    def to_json(self) -> dict[str, Any]:
        """The options as sent to clients: ruleset, seats and the game's options."""
        return {"ruleset": self.ruleset, "seats": self.seats, **self.game}

    def match_options(self, players: tuple[str, ...], timing: Timing) -> Any:
        """The match options for ``players`` (seat order). Raises InvalidOptions."""
        data: dict[str, Any] = {"players": list(players), **self.game}
        if self.ruleset == "stellar" and timing.countdown_seconds is not None:
            data["countdown"] = timing.countdown_seconds
        return _MATCHES[self.ruleset].options_from_json(data)

    def check(self) -> None:
        """Raise InvalidOptions if no match could be played with these options."""
        self.match_options(tuple(f"seat {i + 1}" for i in range(self.seats)), Timing())


_MATCHES: dict[str, type[LightSpeedMatch] | type[StellarMatch]] = {
    "lightspeed": LightSpeedMatch,
    "stellar": StellarMatch,
}


@dataclass(frozen=True, slots=True)
class Change:
    """What one applied action changed that the room must act on."""

    began: bool  # Stellar Conflict: every fleet is in, the deployment begins
    froze: bool  # stop was called or the countdown ran out: the cards in hand froze
    over: bool  # the battle is resolved


class RoomMatch:
    """One match in a room: the match machine, its clock (``started``, loop seconds) and
    its action log as stored."""

    def __init__(
        self, options: RoomOptions, players: tuple[str, ...], timing: Timing, started: float
    ) -> None:
        self.options = options
        self.timing = timing
        self.id = uuid.uuid4().hex
        self.seed = secrets.randbits(31)
        self.started = started
        self.started_wall = time.time()
        match_type = _MATCHES[options.ruleset]
        self.match: AnyMatch = match_type(options.match_options(players, timing), self.seed)
        # The battle resolves on the event loop: the compiled resolver keeps it from
        # stalling every other room (same outcome and events as the reference).
        self.match.resolver = resolve_fast
        #: Every action applied, as JSON with its server time.
        self.actions: list[dict[str, Any]] = []
        #: Match time the cards in hand froze.
        self.frozen_at: float | None = None

    @property
    def phase(self) -> str:
        """The match's phase (``preparation``, ``fast`` / ``deployment``, ``stop``,
        ``over``)."""
        return str(self.match.phase)

    @property
    def placing(self) -> bool:
        """Whether cards in hand are moving now."""
        return self.phase in PLACING_PHASES

    @property
    def deadline(self) -> float | None:
        """Match time the deployment countdown runs out (Stellar Conflict under the
        timer, once the deployment began), else ``None``."""
        return self.match.deadline if isinstance(self.match, StellarMatch) else None

    def hand(self, player: str) -> str | None:
        """The ship in ``player``'s hand."""
        return self.match.hand(player)

    def action(
        self, player: str, message: msg.Place | msg.Drop | msg.Discard | msg.Fleet, t: float
    ) -> RoomAction:
        """The match action a player's message asks for at match time ``t``. Raises
        IllegalAction for a message this game has no action for."""
        if isinstance(message, msg.Place):
            return Place(player, message.x, message.y, message.rotation, t)
        if isinstance(message, msg.Drop):
            return Drop(player, message.x, message.y, message.rotation, t)
        if isinstance(message, msg.Discard):
            return Discard(player, t)
        if not isinstance(self.match, StellarMatch):
            raise IllegalAction("there are no fleets to choose in Light Speed: every deck is whole")
        return Fleet(player, tuple(message.ships), t)

    def apply(self, action: RoomAction) -> Change:
        """Apply one action and log it. Raises IllegalAction (nothing changed)."""
        before = self.phase
        match = self.match
        if isinstance(match, StellarMatch):
            match.apply(action)
        elif isinstance(action, Fleet | TimerExpired):
            raise IllegalAction(f"Light Speed has no {action.type_name} action")
        else:
            match.apply(action)
        self.actions.append(action.to_json())
        froze = before in PLACING_PHASES and self.phase == "stop"
        if froze:
            self.frozen_at = action.t
        return Change(
            began=before == "preparation" and self.phase != "preparation",
            froze=froze,
            over=self.phase == "over",
        )

    # -- what the players see ---------------------------------------------------------

    def state(self, player: str | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``player`` (``None``: a spectator) at match time
        ``now``: the match's view, the freeze (``stop``) and the ``countdown``."""
        view = self.match.view(player)
        stop, countdown = self.stop(now), self.countdown(now)
        return {"type": "state", **view, "stop": stop, "countdown": countdown, "t": now}

    def stop(self, now: float) -> dict[str, Any] | None:
        """After the freeze: who called stop (``None`` when the countdown ran out),
        whether it was the countdown, and the seconds left to drop or discard."""
        if self.phase != "stop":
            return None
        frozen_at = self.frozen_at if self.frozen_at is not None else now
        return {
            "by": self.match.stopped_by,
            "timer": self.match.stopped_by is None,
            "seconds": self.timing.stop_seconds,
            "seconds_left": round(max(0.0, self.timing.stop_seconds - (now - frozen_at)), 3),
        }

    def stop_message(self, now: float) -> dict[str, Any]:
        """The ``stop`` message sent when the cards in hand freeze."""
        stop = self.stop(now)
        assert stop is not None
        return {"type": "stop", **{k: stop[k] for k in ("by", "timer", "seconds")}}

    def countdown(self, now: float) -> dict[str, Any] | None:
        """While the deployment countdown runs: its ``deadline`` (match time), its
        length (``seconds``) and the ``seconds_left``."""
        deadline = self.deadline
        if deadline is None or self.phase != "deployment":
            return None
        assert isinstance(self.match, StellarMatch)
        return {
            "deadline": deadline,
            "seconds": self.match.options.countdown_seconds,
            "seconds_left": round(max(0.0, deadline - now), 3),
        }

    def bot_pause(self, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` waits before its next action: longer while choosing a
        fleet, a careful hand's pace under the countdown."""
        level = level or "medium"
        pace = self.timing.bot_pace
        if self.phase == "preparation":
            return 2 * BOT_PAUSE.get(level, 1.4) * pace
        if self.deadline is not None and self.placing:
            return BOT_PAUSE_TIMED.get(level, 3.5) * pace
        return BOT_PAUSE.get(level, 1.4) * pace

    # -- the end ------------------------------------------------------------------------

    def battle_message(self) -> dict[str, Any]:
        """The ``battle`` message: the final table and the result with its event log."""
        outcome = self.match.result()
        assert outcome is not None
        return {
            "type": "battle",
            "match_id": self.id,
            "ruleset": self.options.ruleset,
            "table": self.match.to_table().to_json(),
            "result": outcome.to_json(),
        }

    def record(self, room: str, seats: list[dict[str, Any]], battle: dict[str, Any]) -> StoredMatch:
        """The finished match as stored: the match options (enough to replay it with
        :meth:`~spacetable.core.match.Match.from_record`), seats, seed, actions, events."""
        result = battle["result"]
        return StoredMatch(
            id=self.id,
            room=room,
            ruleset=self.options.ruleset,
            options=self.match.options.to_json(),
            seats=seats,
            seed=self.seed,
            actions=list(self.actions),
            events=result["events"],
            result={k: v for k, v in result.items() if k != "events"} | {"table": battle["table"]},
            started_at=self.started_wall,
            finished_at=time.time(),
        )
