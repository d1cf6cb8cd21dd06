"""Light Speed and Stellar Conflict bots: ``make_bot(level).choose(view, rng) -> action``.

The two laser games share a placing round, so they share their bots: the view names its
ruleset (:meth:`LightSpeedMatch.view <spacetable.games.lightspeed.LightSpeedMatch.view>`,
:meth:`StellarMatch.view <spacetable.games.stellar.StellarMatch.view>`). A Stellar
Conflict bot first picks its fleet within the credits.

- ``random``: places each card anywhere legal (:class:`.random_bot.RandomBot`);
- ``beginner``, ``easy``, ``medium``, ``hard``: greedy bots (:class:`.greedy.GreedyBot`)
  that weigh :data:`POSES_WEIGHED` candidate poses for each card (the beginner weighs
  few: it aims roughly, and the room gives it a person's pace, ``server/rooms/realtime.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacetable.bots import Bot
    from spacetable.bots.lasers._view import BotAction

# This package names its levels without importing the bots: they load the numba kernels,
# and the command line lists levels in its help (imports on demand, docs/performance.md).
__all__ = ["LEVELS", "POSES_WEIGHED", "make_bot", "warm_up"]

#: The candidate poses a greedy bot of each level weighs for each card.
POSES_WEIGHED: dict[str, int] = {"beginner": 4, "easy": 40, "medium": 300, "hard": 1500}
#: Every level :func:`make_bot` knows, in the order the rooms offer them.
LEVELS: tuple[str, ...] = ("beginner", "random", "easy", "medium", "hard")


def make_bot(level: str) -> Bot[BotAction]:
    """A bot of one of :data:`LEVELS`. Raises ``ValueError`` for an unknown level."""
    from spacetable.bots.lasers.greedy import GreedyBot
    from spacetable.bots.lasers.random_bot import RandomBot

    if level == "random":
        return RandomBot()
    if level in POSES_WEIGHED:
        return GreedyBot(POSES_WEIGHED[level])
    raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")


def warm_up() -> None:
    """Load (or compile) the batch resolver the greedy bots use and the compiled battle
    resolver, so neither the first bot move nor the first battle waits for it. Takes
    seconds (a minute where nothing is cached); call it off the event loop. Everything
    compiles in the calling thread: the bot weighs one candidate, which the batch
    resolver scores there, not on its pool (whose threads the interpreter joins at exit:
    a server stopped during a compile there waited for its end)."""
    import random

    from spacetable.bots.lasers.greedy import GreedyBot
    from spacetable.games.lightspeed import LightSpeedMatch, LightSpeedOptions
    from spacetable.lasers.fast import resolve_fast

    match = LightSpeedMatch(LightSpeedOptions(), seed=0)
    GreedyBot(1).choose(match.view(match.players[0]), random.Random(0))
    match.to_table().resolve(resolve_fast)
