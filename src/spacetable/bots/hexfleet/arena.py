"""Seeded hex fleet duels between two bots (``Game.duel`` of hex fleet).

Each duel plays a real :class:`~spacetable.games.hexfleet.match.HexMatch` of two sides
(the ``skirmish`` scenario unless told otherwise) with the bots' actions to its end
(:func:`spacetable.core.duels.play_duel`): the last side that can fight, or the turn limit
on strength (a draw when it is equal).
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.bots import Bot
from spacetable.core.duels import DuelResult, play_duel
from spacetable.games.hexfleet.match import HexAction, HexMatch, HexOptions

#: Turns before a duel is decided on strength, unless told otherwise.
DUEL_TURN_LIMIT = 20
#: The scenario a duel is fought in, unless told otherwise.
DUEL_SCENARIO = "skirmish"


def duel(
    a: Bot[HexAction],
    b: Bot[HexAction],
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = DUEL_TURN_LIMIT,
    clock: Callable[[], float] | None = None,
    scenario: str = DUEL_SCENARIO,
) -> DuelResult:
    """Play one battle of ``a`` against ``b`` in ``scenario`` (``a`` seated red, on the
    left, if ``a_first``); with a ``clock``, each decision is timed by it (seconds).
    Raises ``IllegalAction`` if a bot breaks a rule."""
    options = HexOptions(players=("red", "blue"), scenario=scenario, turn_limit=turn_limit)
    return play_duel(HexMatch(options, seed), a, b, seed, a_first=a_first, clock=clock)
