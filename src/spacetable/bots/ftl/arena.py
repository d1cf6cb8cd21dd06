"""Seeded Faster Than Light duels between two bots (``Game.duel`` of FTL).

Each duel plays a real :class:`~spacetable.games.ftl.FtlMatch` on the default table with
the bots' plots (:func:`spacetable.core.duels.play_duel`), with a turn limit so that every
duel ends (a draw at the limit).
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.bots import Bot
from spacetable.core.duels import DuelResult, play_duel
from spacetable.games.ftl.match import FtlMatch, FtlOptions, Plot

#: Turns before a duel ends as a draw, unless told otherwise.
DUEL_TURN_LIMIT = 60


def duel(
    a: Bot[Plot],
    b: Bot[Plot],
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = DUEL_TURN_LIMIT,
    clock: Callable[[], float] | None = None,
) -> DuelResult:
    """Play one duel of ``a`` against ``b`` on the default table (``a`` seated red if
    ``a_first``); with a ``clock``, each decision is timed by it (seconds)."""
    options = FtlOptions(players=("red", "blue"), turn_limit=turn_limit)
    return play_duel(FtlMatch(options, seed), a, b, seed, a_first=a_first, clock=clock)
