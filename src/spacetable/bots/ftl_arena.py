"""Seeded Faster Than Light duels between two bots (``Game.duel`` of FTL).

Each duel drives a real :class:`~spacetable.games.ftl.FtlMatch` with the bots' plots,
with a turn limit so that every duel ends (a draw at the limit). Each bot draws from its
own ``random.Random`` seeded from the duel's seed, so a study replays exactly
(:func:`spacetable.core.duels.study` swaps the seats from one duel to the next). Pure: no
clock, no I/O — unless a clock is passed to time the bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from spacetable.bots.ftl import FtlBot
from spacetable.core import duels
from spacetable.core.duels import DuelResult, DuelStudy, Stopwatch
from spacetable.games.ftl.match import FtlMatch, FtlOptions

__all__ = ["DUEL_TURN_LIMIT", "DuelResult", "DuelStudy", "duel", "study"]

#: Turns before a duel ends as a draw, unless told otherwise.
DUEL_TURN_LIMIT = 60


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
    watches = {seat_a: Stopwatch(clock), seat_b: Stopwatch(clock)}
    while not match.is_over:
        for player in match.players:
            if match.needs_action(player):
                choose, view = bots[player].choose, match.view(player)
                match.apply(watches[player].timed(choose, view, rngs[player]))
    result = match.result()
    assert result is not None
    winner = None if result.winner is None else ("a" if result.winner == seat_a else "b")
    return DuelResult(
        winner,
        result.turns,
        seat_a,
        tuple(watches[seat_a].seconds),
        tuple(watches[seat_b].seconds),
    )


def study(
    a: FtlBot,
    b: FtlBot,
    count: int,
    *,
    seed: int = 0,
    turn_limit: int = DUEL_TURN_LIMIT,
    progress: Callable[[int, DuelResult], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> DuelStudy:
    """``count`` seeded FTL duels of ``a`` against ``b`` (:func:`spacetable.core.duels.
    study` with :func:`duel`)."""
    return duels.study(
        duel, a, b, count, seed=seed, turn_limit=turn_limit, progress=progress, clock=clock
    )
