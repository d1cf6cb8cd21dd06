"""Seeded hex fleet duels between two bots (``Game.duel`` of hex fleet).

Each duel drives a real :class:`~spacetable.games.hexfleet.match.HexMatch` of two sides
(the ``skirmish`` scenario unless told otherwise) with the bots' actions to its end: the
last side that can fight, or the turn limit on strength (a draw when it is equal). Each
bot draws from its own ``random.Random`` seeded from the duel's seed, so a study replays
exactly (:func:`spacetable.core.duels.study` swaps the seats from one duel to the next).
Pure: no clock, no I/O, unless a clock is passed to time the bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from spacetable.bots.hexfleet import HexBot
from spacetable.core import duels
from spacetable.core.duels import DuelResult, DuelStudy, Stopwatch
from spacetable.games.hexfleet.match import HexMatch, HexOptions

__all__ = ["DUEL_SCENARIO", "DUEL_TURN_LIMIT", "DuelResult", "DuelStudy", "duel", "study"]

#: Turns before a duel is decided on strength, unless told otherwise.
DUEL_TURN_LIMIT = 20
#: The scenario a duel is fought in, unless told otherwise.
DUEL_SCENARIO = "skirmish"


def duel(
    a: HexBot,
    b: HexBot,
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = DUEL_TURN_LIMIT,
    clock: Callable[[], float] | None = None,
    scenario: str = DUEL_SCENARIO,
) -> DuelResult:
    """Play one battle of ``a`` against ``b`` in ``scenario`` (``a`` seated red, on the
    left, if ``a_first``), each bot drawing from its own rng seeded from ``seed``; with a
    ``clock``, each decision is timed by it (seconds). Raises ``IllegalAction`` if a bot
    breaks a rule."""
    options = HexOptions(players=("red", "blue"), scenario=scenario, turn_limit=turn_limit)
    match = HexMatch(options, seed)
    seat_a, seat_b = ("red", "blue") if a_first else ("blue", "red")
    bots = {seat_a: a, seat_b: b}
    rngs = {seat_a: random.Random(f"{seed}:a"), seat_b: random.Random(f"{seed}:b")}
    watches = {seat_a: Stopwatch(clock), seat_b: Stopwatch(clock)}
    while not match.is_over:
        ship = match.active
        assert ship is not None
        player = ship.owner
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
    a: HexBot,
    b: HexBot,
    count: int,
    *,
    seed: int = 0,
    turn_limit: int = DUEL_TURN_LIMIT,
    scenario: str = DUEL_SCENARIO,
    progress: Callable[[int, DuelResult], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> DuelStudy:
    """``count`` seeded hex fleet duels of ``a`` against ``b`` in ``scenario``
    (:func:`spacetable.core.duels.study` with :func:`duel`)."""
    return duels.study(
        duel, a, b, count, seed=seed, turn_limit=turn_limit, progress=progress, clock=clock,
        options={"scenario": scenario},
    )  # fmt: skip
