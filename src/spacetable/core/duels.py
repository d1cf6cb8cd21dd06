"""Seeded duels between two bots of one game, and their record with intervals.

A game that can be measured this way names, in its registry entry (``Game.duel``), a
function ``duel(a, b, seed, *, a_first, turn_limit, clock, **options) -> DuelResult``
that plays one whole match of bot ``a`` against bot ``b`` (``a`` in the first seat if
``a_first``; ``turn_limit`` has the game's default; ``options`` are the game's own, such
as the hex fleet's ``scenario``) and says who won; :func:`study` plays many, the bots
swapping seats, and :class:`DuelStudy` adds them up. ``spacetable duels`` reaches every
game this way. A game played in turns builds its match and hands it to :func:`play_duel`,
the one loop of a duel (the seats, each bot's seeded rng and stopwatch, the outcome).
Pure: the duels read no clock unless given one (the command passes ``time.thread_time``
to time the bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

from spacetable.core.batch import Call, Runner, run_here
from spacetable.core.match import Match
from spacetable.core.stats import wilson


@dataclass(frozen=True, slots=True)
class DuelResult:
    """One duel: the winner (``"a"``, ``"b"`` or ``None`` for a draw), how long it lasted
    (``turns``: turns of a game played in turns, cards placed in a placing round), which
    seat bot ``a`` held, and each bot's decisions' seconds (empty without a clock)."""

    winner: str | None
    turns: int
    a_seat: str
    seconds_a: tuple[float, ...] = ()
    seconds_b: tuple[float, ...] = ()

    @classmethod
    def between(
        cls, winner: str | None, seat_a: str, turns: int, watch_a: Stopwatch, watch_b: Stopwatch
    ) -> DuelResult:
        """The duel whose ``winner`` is a seat (``None``: a draw), bot ``a`` in ``seat_a``,
        each bot timed by its stopwatch."""
        side = None if winner is None else "a" if winner == seat_a else "b"
        return cls(side, turns, seat_a, tuple(watch_a.seconds), tuple(watch_b.seconds))


#: One game's duel (``Game.duel``): ``duel(a, b, seed, *, a_first, clock, turn_limit=...,
#: **options) -> DuelResult``.
Duel = Callable[..., DuelResult]


@dataclass(frozen=True, slots=True)
class DuelStudy:
    """Bot ``a``'s record against bot ``b`` over ``duels``."""

    duels: tuple[DuelResult, ...]

    @property
    def wins(self) -> int:
        """Duels ``a`` won."""
        return sum(d.winner == "a" for d in self.duels)

    @property
    def draws(self) -> int:
        """Duels nobody won."""
        return sum(d.winner is None for d in self.duels)

    @property
    def losses(self) -> int:
        """Duels ``b`` won."""
        return sum(d.winner == "b" for d in self.duels)

    @property
    def decisive(self) -> float:
        """The share of duels somebody won (not drawn)."""
        return (self.wins + self.losses) / len(self.duels)

    @property
    def win_rate(self) -> tuple[float, tuple[float, float]]:
        """``a``'s share of wins and its Wilson 95% interval."""
        n = len(self.duels)
        return self.wins / n, wilson(self.wins, n)

    @property
    def score(self) -> tuple[float, tuple[float, float]]:
        """``a``'s score (a draw counts half) and its Wilson 95% interval."""
        n = len(self.duels)
        points = self.wins + 0.5 * self.draws
        return points / n, wilson(points, n)

    def summary(self) -> dict[str, Any]:
        """The study as JSON: counts, win rate and score with their intervals, the share of
        decisive duels, the mean length, and the bots' thinking time (``None`` where it was
        not timed)."""
        win, win_ci = self.win_rate
        score, score_ci = self.score
        return {
            "duels": len(self.duels), "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": win, "win_rate_95": list(win_ci),
            "score": score, "score_95": list(score_ci), "decisive": self.decisive,
            "mean_turns": sum(d.turns for d in self.duels) / len(self.duels),
            "decision_seconds": {"bot": _timing([d.seconds_a for d in self.duels]),
                                 "against": _timing([d.seconds_b for d in self.duels])},
        }  # fmt: skip


def _timing(per_duel: list[tuple[float, ...]]) -> dict[str, float] | None:
    """Mean, median (``p50``), 99th percentile and longest of the decisions' seconds, if
    they were timed."""
    times = sorted(t for duel in per_duel for t in duel)
    if not times:
        return None
    p50 = times[min(len(times) - 1, int(0.5 * len(times)))]
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    mean = sum(times) / len(times)
    return {"decisions": len(times), "mean": mean, "p50": p50, "p99": p99, "max": times[-1]}


def study(
    duel: Duel,
    a: Any,
    b: Any,
    duels: int,
    *,
    seed: int = 0,
    turn_limit: int | None = None,
    progress: Callable[[int, DuelResult], None] | None = None,
    clock: Callable[[], float] | None = None,
    options: Mapping[str, Any] | None = None,
    runner: Runner = run_here,
) -> DuelStudy:
    """``duels`` seeded duels of ``a`` against ``b`` (seeds ``seed``, ``seed + 1``, ...),
    the bots swapping seats each duel; ``progress(k, result)`` is told of duel ``k`` as it
    ends; with a ``clock``, every decision is timed. ``turn_limit`` (``None``: the game's
    default) and ``options`` go to every duel. ``runner`` runs the duels (by default here,
    one after another; see :mod:`spacetable.core.batch`): the record is the same wherever
    they run."""
    extra = dict(options or {})
    if turn_limit is not None:
        extra["turn_limit"] = turn_limit
    calls = [
        Call(duel, (a, b, seed + k), {"a_first": k % 2 == 0, "clock": clock, **extra})
        for k in range(duels)
    ]
    return DuelStudy(tuple(runner(calls, progress)))


class Stopwatch:
    """Times calls with an optional clock: ``timed(f, *args)`` runs ``f(*args)`` and notes
    its seconds in ``seconds`` when there is a clock (nothing otherwise)."""

    def __init__(self, clock: Callable[[], float] | None) -> None:
        self.clock = clock
        self.seconds: list[float] = []

    def timed(self, work: Callable[..., Any], *args: Any) -> Any:
        """The result of ``work(*args)``, timed."""
        if self.clock is None:
            return work(*args)
        started = self.clock()
        result = work(*args)
        self.seconds.append(self.clock() - started)
        return result


class _Outcome(Protocol):
    """A finished match's result, as a duel reads it."""

    @property
    def winner(self) -> str | None: ...

    @property
    def turns(self) -> int: ...


def play_duel(
    match: Match[Any, Any],
    a: Any,
    b: Any,
    seed: int,
    *,
    a_first: bool = True,
    clock: Callable[[], float] | None = None,
) -> DuelResult:
    """Play ``match`` (two seats, no action yet) to its end, bot ``a`` in its first seat if
    ``a_first``, else its second: whenever the match waits for a seat, that seat's bot
    chooses from its view, drawing from its own ``random.Random`` seeded from ``seed``
    (``"{seed}:a"``, ``"{seed}:b"``), timed by ``clock`` if given. The result's ``turns``
    are the match's. Raises ``RuntimeError`` if the match waits for nobody before its end
    (and the match's errors if a bot breaks a rule)."""
    first, second = match.players
    seat_a, seat_b = (first, second) if a_first else (second, first)
    bots = {seat_a: a, seat_b: b}
    rngs = {seat_a: random.Random(f"{seed}:a"), seat_b: random.Random(f"{seed}:b")}
    watches = {seat_a: Stopwatch(clock), seat_b: Stopwatch(clock)}
    while not match.is_over:
        acted = False
        for player in match.players:
            if match.needs_action(player):
                view = match.view(player)
                match.apply(watches[player].timed(bots[player].choose, view, rngs[player]))
                acted = True
        if not acted:
            raise RuntimeError(f"the {match.title} match waits for nobody before its end")
    result = cast(_Outcome, match.result())
    return DuelResult.between(result.winner, seat_a, result.turns, watches[seat_a], watches[seat_b])
