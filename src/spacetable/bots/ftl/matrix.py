"""The FTL matrix bot (levels ``easy``, ``medium``, ``hard``): a restricted Nash response.

It draws K candidate plots for itself and M plausible plots for the opponents (doing
nothing, the greedy reply, random and tactical plots), resolves every pair with the engine,
scores each result (:func:`~spacetable.bots.ftl._plots.evaluate`) into a K x M payoff
matrix, and plays a mixed strategy over its candidates found by regret matching: a
restricted Nash response (Johanson et al., 2007), in which the opponents play the sampled
plots as sampled with probability :data:`MODEL_WEIGHT` and the worst case for us otherwise.
The plot it plays is drawn from that mixture with the rng.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.bots.ftl._plots import (
    Orders,
    Resolved,
    Seat,
    combine,
    evaluate,
    greedy_orders,
    plot_key,
    random_orders,
    tactical_orders,
    to_plot,
)
from spacetable.games.ftl.match import Plot

#: Matrix bot levels: (candidate plots K, opponent samples M).
MATRIX_LEVELS: dict[str, tuple[int, int]] = {"easy": (8, 8), "medium": (16, 16), "hard": (32, 24)}
#: Regret-matching iterations per decision.
ITERATIONS = 400
#: How often the modelled opponents play their sampled plots as sampled (the rest of the
#: time they play the worst reply for us): 0 is the matrix game's equilibrium.
MODEL_WEIGHT = 0.5

FloatArray = npt.NDArray[np.float64]


class MatrixBot:
    """Weighs ``candidates`` plots of its own against ``samples`` plausible opponent plots
    and plays a mixed strategy over its candidates (see the module's docstring)."""

    def __init__(self, candidates: int, samples: int) -> None:
        if candidates < 1 or samples < 1:
            raise ValueError("a matrix bot needs at least one candidate and one sample")
        self.candidates = candidates
        self.samples = samples

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The plot for ``view["player"]``, drawn from the mixture over its candidates."""
        seat = Seat.of(view)
        plots, mixture = self.mixture(view, rng)
        pick = rng.random()
        index = int(np.searchsorted(np.cumsum(mixture), pick * float(mixture.sum()), "right"))
        return to_plot(seat.player, plots[min(index, len(plots) - 1)])

    def mixture(self, view: dict[str, Any], rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """The candidate plots and the probability of each (they sum to 1)."""
        seat = Seat.of(view)
        mine = self.own_plots(seat, rng)
        if not seat.opponents:
            return mine, np.eye(1, len(mine))[0]
        theirs, prior = self.opponent_plots(seat, rng)
        payoff = payoff_matrix(seat, mine, theirs)
        return mine, regret_matching(payoff, prior, ITERATIONS, MODEL_WEIGHT)

    def own_plots(self, seat: Seat, rng: random.Random) -> list[Orders]:
        """K distinct candidate plots: doing nothing, the greedy reply, then tactical and
        (one in four) random plots."""
        first = [{}, greedy_orders(seat.board, seat.player, seat.players, seat.table_in)]
        return _distinct(first, self.candidates, lambda: (
            random_orders(seat.board, seat.player, rng) if rng.random() < 0.25
            else tactical_orders(seat.board, seat.player, seat.players, rng)
        ))  # fmt: skip

    def opponent_plots(self, seat: Seat, rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """M joint plots of every opponent (doing nothing, the greedy replies, then
        tactical and random plots half and half) and how likely each is thought to be."""
        others = seat.opponents

        def joint(kind: str) -> Orders:
            orders: Orders = {}
            for other in others:
                if kind == "greedy":
                    orders |= greedy_orders(seat.board, other, seat.players, seat.table_in)
                elif kind == "random":
                    orders |= random_orders(seat.board, other, rng)
                else:
                    orders |= tactical_orders(seat.board, other, seat.players, rng)
            return orders

        first = [{}, joint("greedy")]
        plots = _distinct(first, self.samples, lambda: joint(rng.choice(("random", "tactical"))))
        prior = np.ones(len(plots))
        prior[: len(first)] = max(1.0, len(plots) / 6.0)  # nothing and greedy: likely replies
        return plots, prior / prior.sum()


def payoff_matrix(seat: Seat, mine: Sequence[Orders], theirs: Sequence[Orders]) -> FloatArray:
    """Our evaluation of the engine's resolution of every pair (our plot, theirs)."""
    board, table_in = seat.board, seat.table_in
    rows = [Resolved.of(board, own, table_in) for own in mine]
    cols = [Resolved.of(board, other, table_in) for other in theirs]
    payoff = np.empty((len(rows), len(cols)))
    for i, own in enumerate(rows):
        for j, other in enumerate(cols):
            after = combine(board, own, other, table_in)
            payoff[i, j] = evaluate(after, seat.player, seat.players, table_in)
    return payoff


def regret_matching(
    payoff: FloatArray, prior: FloatArray, iterations: int, model_weight: float
) -> FloatArray:
    """Our mixed strategy over the rows of ``payoff`` (our gain; the opponent loses it).

    Both sides run regret matching+ for ``iterations`` rounds, our strategy averaged with
    linear weights; the opponent plays ``prior`` with probability ``model_weight`` and its
    own regret-matching strategy otherwise (a restricted Nash response). Returns a
    probability vector.
    """
    rows, cols = payoff.shape
    scale = float(np.ptp(payoff)) or 1.0
    matrix = payoff / scale
    row_regret, col_regret = np.zeros(rows), np.zeros(cols)
    average = np.zeros(rows)
    for step in range(1, iterations + 1):
        row = _strategy(row_regret)
        col = model_weight * prior + (1.0 - model_weight) * _strategy(col_regret)
        row_values = matrix @ col
        row_regret = np.maximum(row_regret + row_values - row @ row_values, 0.0)
        col_values = -(row @ matrix)
        col_regret = np.maximum(col_regret + col_values - _strategy(col_regret) @ col_values, 0.0)
        average += step * row
    mixture: FloatArray = average / float(average.sum())
    return mixture


def _strategy(regret: FloatArray) -> FloatArray:
    total = float(regret.sum())
    if total <= 0.0:
        return np.full(len(regret), 1.0 / len(regret))
    return regret / total


def _distinct(first: list[Orders], count: int, draw: Any) -> list[Orders]:
    """``first`` and then ``draw()``'s plots, without repeats, up to ``count`` (giving up
    after a few draws in a row bring nothing new)."""
    plots: list[Orders] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    misses = 0
    for orders in first:
        if plot_key(orders) not in seen and len(plots) < count:
            seen.add(plot_key(orders))
            plots.append(orders)
    while len(plots) < count and misses < 3 * count:
        orders = draw()
        key = plot_key(orders)
        if key in seen:
            misses += 1
            continue
        seen.add(key)
        plots.append(orders)
    return plots
