"""Faster Than Light bots: ``make_bot(level).choose(view, rng) -> Plot``.

Each turn of FTL is a simultaneous game: every player plots in secret, then the engine
resolves all plots at once. The bots see only what the seat's view shows (every piece on
the table, never the others' plots) and answer with a :class:`~spacetable.games.ftl.Plot`
stamped ``t = 0`` (whoever drives the match stamps the time).

- ``random``: a random legal order (or none) for each piece (:class:`.random_bot.RandomBot`).
- ``greedy``: the one-ply best reply to opponents who do nothing, which hunts while it
  is not ahead: it launches and its missiles close in (:class:`.greedy.GreedyBot`).
- ``easy``, ``medium``, ``hard``: the matrix bot (:class:`.matrix.MatrixBot`), which weighs
  candidate plots of its own against plausible plots of the opponents and plays a mixed
  strategy over its candidates; ``medium`` and ``hard`` expect the opponent's best shot
  and guard against its best reply, ``hard`` scores each exchange on where it leaves the
  pieces after one more turn, and ``easy`` slips now and then (a seeded, deliberate
  weaker plot).
- ``expert``: each turn solved as a simultaneous game (:class:`.expert.ExpertBot`): the
  opponent modelled by the ``hard`` level's own search from its seat, the expert's
  candidates (``hard``'s and its best replies to the opponent's likeliest plots) weighed
  against that mixture and its best reply.

Every level but ``random`` gives only orders with a purpose (:mod:`._tactics`): missiles
aimed where an enemy ship can be next turn (:mod:`._aim`), launches when they help, no
idle ``R+0``, no two missiles sent to one point, no launch onto a missile of its own;
and it keeps its ship still once ahead, which wins at the turn limit (docs/rulings.md
F14). Positions are judged as the match is
(:mod:`._value`).

Everything is pure: chance comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacetable.bots import Bot
    from spacetable.games.ftl.match import Plot

# The levels are named without importing the bots (the command line lists them in its help).
__all__ = ["LEVELS", "make_bot"]

#: Every level :func:`make_bot` knows: ``random``, ``greedy``, then the matrix bot's,
#: weakest first (:data:`.matrix.MATRIX_LEVELS`, in its order; tests/bots holds them
#: equal). ``greedy``, which hunts, beats ``easy`` and loses to ``medium``
#: (docs/performance.md); it stays second, the lobby's "Play a bot" level.
LEVELS: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard", "expert")


def make_bot(level: str) -> Bot[Plot]:
    """An FTL bot of one of :data:`LEVELS`. Raises ``ValueError`` for an unknown level."""
    from spacetable.bots.ftl.greedy import GreedyBot
    from spacetable.bots.ftl.matrix import MATRIX_LEVELS, MatrixBot
    from spacetable.bots.ftl.random_bot import RandomBot

    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level in MATRIX_LEVELS:
        return MatrixBot(MATRIX_LEVELS[level])
    if level == "expert":
        from spacetable.bots.ftl.expert import ExpertBot

        return ExpertBot()
    raise ValueError(f"unknown FTL bot level {level!r} (choose from {', '.join(LEVELS)})")
