"""The FTL expert bot (level ``expert``): each turn solved as a simultaneous game.

It is the matrix bot's search (:class:`~spacetable.bots.ftl.matrix.MatrixBot`) made
wider and two-sided. Its candidate plots are doing nothing, the greedy reply, the best
reply to the opponent's greedy plot, then plots drawn from its menu of sensible orders;
the opponent's are what a strong opponent plays: doing nothing, its greedy plot, *its*
best reply to our greedy plot (what the ``medium`` and ``hard`` levels weigh first),
then plots drawn from its menu. Every pair is resolved by the engine (the exact
referee's movement and hits, :func:`~spacetable.bots.ftl._plots.resolve`) and scored
on the position one turn later (the ``hard`` level's lookahead), and the mixed strategy
over its candidates comes from regret matching, weighing the sampled opponent plots
against the worst case for us (a restricted Nash response). The plot played is drawn
from that mixture with the bot's own ``random.Random``: the choice replays from seed.

It reads the seat's view only. In FTL every piece is on the table for all to see; what
is hidden is the opponent's plot of this turn, which the bot never reads: it weighs
plots the opponent could give instead. The thinking is bounded by counts (candidates,
samples, regret-matching iterations), never by the clock, so a decision is the same on
a slow machine as on a fast one.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from spacetable.bots.ftl._plots import Orders, Seat
from spacetable.bots.ftl.greedy import greedy_orders
from spacetable.bots.ftl.matrix import MATRIX_LEVELS, FloatArray, Level, MatrixBot

#: The expert's search: the ``hard`` level's (lookahead, a guard against the best reply),
#: with more plots of its own and more sampled replies.
EXPERT = replace(MATRIX_LEVELS["hard"], candidates=12, samples=16)
#: The share of the opponent model given to the opponent's counter (its best reply to
#: our greedy plot), the plot a searching opponent leans to.
COUNTER_WEIGHT = 0.25


class ExpertBot(MatrixBot):
    """The matrix bot whose opponent model holds the opponent's own counter-plot (see the
    module's docstring)."""

    def __init__(self, level: Level = EXPERT) -> None:
        super().__init__(level)

    def opponent_plots(
        self, seat: Seat, rng: random.Random, replies: Orders | None = None
    ) -> tuple[list[Orders], FloatArray]:
        """The matrix bot's sampled opponent plots, with every opponent's best reply to
        our greedy plot put first and weighted :data:`COUNTER_WEIGHT`."""
        plots, prior = super().opponent_plots(seat, rng, replies)
        counter = _counters(seat, self.level.lead)
        if counter in plots:
            return plots, prior
        plots = [counter, *plots[: max(1, len(plots) - 1)]]
        rest = prior[: len(plots) - 1]
        prior = np.concatenate(([COUNTER_WEIGHT], (1.0 - COUNTER_WEIGHT) * rest / rest.sum()))
        return plots, prior


def _counters(seat: Seat, lead: float) -> Orders:
    """Every opponent's best reply to our greedy plot."""
    ours = greedy_orders(seat, lead=lead)
    orders: Orders = {}
    for other in seat.opponents:
        orders |= greedy_orders(replace(seat, player=other), ours, lead)
    return orders
