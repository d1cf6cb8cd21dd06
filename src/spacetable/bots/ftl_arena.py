"""Seeded Faster Than Light duels between two bots, and their win rates with intervals.

Each duel drives a real :class:`~spacetable.games.ftl.FtlMatch` with the bots' plots,
with a turn limit so that every duel ends (a draw at the limit). The bots swap seats from
one duel to the next, and each bot draws from its own ``random.Random`` seeded from the
duel's seed, so a study replays exactly. Pure: no clock, no I/O — a caller who wants the
bots' thinking time passes a clock (``spacetable duels`` passes ``time.perf_counter``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spacetable.bots.ftl import FtlBot
from spacetable.core.stats import wilson
from spacetable.games.ftl.match import FtlMatch, FtlOptions

#: Turns before a duel ends as a draw, unless told otherwise.
DUEL_TURN_LIMIT = 60


@dataclass(frozen=True, slots=True)
class DuelResult:
    """One duel: the winner (``"a"``, ``"b"`` or ``None`` for a draw), the turns played,
    which seat bot ``a`` held, and each bot's decisions' seconds (empty without a clock)."""

    winner: str | None
    turns: int
    a_seat: str
    seconds_a: tuple[float, ...] = ()
    seconds_b: tuple[float, ...] = ()


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
        """The study as JSON: counts, win rate and score with their intervals."""
        win, win_ci = self.win_rate
        score, score_ci = self.score
        return {
            "duels": len(self.duels), "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": win, "win_rate_95": list(win_ci),
            "score": score, "score_95": list(score_ci),
            "mean_turns": sum(d.turns for d in self.duels) / len(self.duels),
            "decision_seconds": {"bot": _timing([d.seconds_a for d in self.duels]),
                                 "against": _timing([d.seconds_b for d in self.duels])},
        }  # fmt: skip


def _timing(per_duel: list[tuple[float, ...]]) -> dict[str, float] | None:
    """Mean, 99th percentile and longest of the decisions' seconds, if they were timed."""
    times = sorted(t for duel in per_duel for t in duel)
    if not times:
        return None
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return {"decisions": len(times), "mean": sum(times) / len(times), "p99": p99, "max": times[-1]}


def duel(
    a: FtlBot,
    b: FtlBot,
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = DUEL_TURN_LIMIT,
    clock: Callable[[], float] | None = None,
) -> DuelResult:
    """Play one duel of ``a`` against ``b`` on the default table (``a`` seated red if
    ``a_first``), each bot drawing from its own rng seeded from ``seed``; with a
    ``clock``, each decision is timed by it (seconds)."""
    options = FtlOptions(players=("red", "blue"), turn_limit=turn_limit)
    match = FtlMatch(options, seed)
    seat_a, seat_b = ("red", "blue") if a_first else ("blue", "red")
    bots = {seat_a: a, seat_b: b}
    rngs = {seat_a: random.Random(f"{seed}:a"), seat_b: random.Random(f"{seed}:b")}
    seconds: dict[str, list[float]] = {seat_a: [], seat_b: []}
    while not match.is_over:
        for player in match.players:
            if match.needs_action(player):
                view = match.view(player)
                started = clock() if clock is not None else 0.0
                plot = bots[player].choose(view, rngs[player])
                if clock is not None:
                    seconds[player].append(clock() - started)
                match.apply(plot)
    result = match.result()
    assert result is not None
    winner = None if result.winner is None else ("a" if result.winner == seat_a else "b")
    return DuelResult(winner, result.turns, seat_a, tuple(seconds[seat_a]), tuple(seconds[seat_b]))


def study(
    a: FtlBot,
    b: FtlBot,
    duels: int,
    *,
    seed: int = 0,
    turn_limit: int = DUEL_TURN_LIMIT,
    progress: Callable[[int, DuelResult], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> DuelStudy:
    """``duels`` seeded duels of ``a`` against ``b`` (seeds ``seed``, ``seed + 1``, ...),
    the bots swapping seats each duel; ``progress(k, result)`` is told of each duel; with
    a ``clock``, every decision is timed."""
    results = []
    for k in range(duels):
        one = duel(a, b, seed + k, a_first=k % 2 == 0, turn_limit=turn_limit, clock=clock)
        results.append(one)
        if progress is not None:
            progress(k, results[-1])
    return DuelStudy(tuple(results))
