"""Players that choose actions from a player's view: ``choose(view, rng) -> action``.

Bots see exactly what a person sees (:meth:`LightSpeedMatch.view`,
:meth:`StellarMatch.view <spacetable.games.stellar.StellarMatch.view>`) and play through the
same match machine, in either game: the view names its ruleset. Their actions carry
``t = 0``; whoever drives the match (the server's room, or :mod:`spacetable.bots.arena`)
stamps the real time with ``with_time``.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from spacetable.bots._view import BotAction
from spacetable.bots.greedy import GreedyBot
from spacetable.bots.random_bot import RandomBot
from spacetable.games.lightspeed import LightSpeedMatch, LightSpeedOptions
from spacetable.lasers.fast import resolve_fast

#: Bot levels: ``random`` places anywhere legal; the others are greedy bots that weigh
#: this many candidate poses for each card (``beginner`` weighs few: it aims roughly, and
#: the room gives it a person's pace, ``server/_realtime.py``).
LEVELS: dict[str, int] = {"beginner": 4, "random": 0, "easy": 40, "medium": 300, "hard": 1500}


class Bot(Protocol):
    """Anything that picks a Light Speed or Stellar Conflict action from a view."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> BotAction:
        """The action to play now, for ``view["player"]`` who must act."""
        ...


def make_bot(level: str) -> Bot:
    """A bot of one of :data:`LEVELS`. Raises ``ValueError`` for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    return RandomBot() if level == "random" else GreedyBot(LEVELS[level])


def warm_up() -> None:
    """Load (or compile) the batch resolver the greedy bots use and the compiled battle
    resolver, so neither the first bot move nor the first battle waits for it. Takes
    seconds; call it off the event loop."""
    match = LightSpeedMatch(LightSpeedOptions(), seed=0)
    GreedyBot(4).choose(match.view(match.players[0]), random.Random(0))
    match.to_table().resolve(resolve_fast)
