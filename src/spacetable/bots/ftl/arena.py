"""Seeded Faster Than Light duels between two bots (``Game.duel`` of FTL).

Each duel plays a real :class:`~spacetable.games.ftl.FtlMatch` on a room's default table
and turn limit with the bots' plots (:func:`spacetable.core.duels.play_duel`): at the
limit the most hits scored, then the most pieces left, win.
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.bots import Bot
from spacetable.core.duels import DuelResult, play_duel
from spacetable.games.ftl.match import ROOM_TABLE_IN, ROOM_TURN_LIMIT, FtlMatch, FtlOptions, Plot

#: Turns before a duel ends, unless told otherwise: a room's default.
DUEL_TURN_LIMIT = ROOM_TURN_LIMIT


def duel(
    a: Bot[Plot],
    b: Bot[Plot],
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = DUEL_TURN_LIMIT,
    clock: Callable[[], float] | None = None,
    table_in: float | str = ROOM_TABLE_IN[0],
) -> DuelResult:
    """Play one duel of ``a`` against ``b`` on a square table ``table_in`` inches a side
    (``a`` seated red if ``a_first``); with a ``clock``, each decision is timed by it
    (seconds)."""
    side = float(table_in)  # from the command line, a text
    options = FtlOptions(players=("red", "blue"), table_size_in=(side, side), turn_limit=turn_limit)
    return play_duel(FtlMatch(options, seed), a, b, seed, a_first=a_first, clock=clock)
