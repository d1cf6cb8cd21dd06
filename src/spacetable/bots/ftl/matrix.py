"""The FTL matrix bot (levels ``easy``, ``medium``, ``hard``): a restricted Nash response.

It draws K candidate plots for itself and M plausible plots for the opponents from each
side's menu of sensible orders (:mod:`~spacetable.bots.ftl._tactics`: doing nothing, the
greedy reply, then plots leaning to one kind of order), resolves every pair with the
engine, scores each result as the match will be judged
(:func:`~spacetable.bots.ftl._value.evaluate`) into a K x M payoff matrix, and plays a
mixed strategy over its candidates found by regret matching: a restricted Nash response
(Johanson et al., 2007), in which the opponents play the sampled plots as sampled with
probability ``model_weight`` and the worst case for us otherwise. The plot it plays is
drawn from that mixture with the rng.

Every level weighs few plots of its own (doing nothing, the greedy reply, the best reply
to the opponent's greedy plot, then three drawn from the menu): measured, weighing more
drawn plots made a bot weaker, since the one that looks best against a few samples is
often only lucky against them. The drawn plots aim missiles at the enemy ship's post
(``foresight`` off; the greedy plots aim at its reach). Every level counts being ahead
as the turn limit would judge it (:attr:`Level.lead`) far above the threat it builds,
since a side ahead wins by keeping still (docs/rulings.md F14): the first hit or piece
lost nearly decides a duel, so the bots no longer trade a missile for a better aim.
``easy`` trusts three samples entirely (doing nothing and two drawn: a best reply to
few guesses) and counts a lead half as much; ``medium`` and ``hard`` sample twelve, the
opponent's greedy plot among them with half the weight, and guard against the
opponent's best reply. ``easy`` slips (:attr:`Level.slip`): it draws one plot in four
evenly from its candidates instead of from its mixture, a seeded imperfection that
leaves it beatable (docs/performance.md has the studies that set both). ``medium`` and ``hard``
never slip, and spare themselves the press while one of their missiles already aims at
the enemy ship (:attr:`Level.spare`: measured against a bot without it, 22 duels won and
12 lost in 40). ``hard`` looks a turn further (:attr:`Level.lookahead`): it scores each
pair of plots on the position after the next turn, both sides playing their greedy plot
in it (:func:`next_turn`), so a missile that strikes a turn later, or a post the enemy's
missiles reach in two turns, counts for what it is; it weighs ten plots of its own and
guards against the opponent's best reply three times in four (``model_weight`` 0.25;
docs/performance.md has the studies). Every level presses for the lead
as the limit nears (:attr:`Level.press`): a turn it does not press while not ahead
(launch, turn its ship, or move a missile off its launch point: :func:`presses`) costs
it more and more, up to more than a lead is worth, so that two careful bots do not
both keep still to a draw (docs/performance.md has the studies).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.bots.ftl._aim import clean_strike
from spacetable.bots.ftl._plots import (
    Board,
    Orders,
    Resolved,
    Seat,
    combine,
    plot_key,
    resolve,
    to_plot,
)
from spacetable.bots.ftl._tactics import IDLE, launch_blockers, menu, presses, waiting
from spacetable.bots.ftl._value import evaluate, standing_ships
from spacetable.bots.ftl.greedy import greedy_orders
from spacetable.games.ftl.match import ROOM_TURN_LIMIT, Plot


@dataclass(frozen=True, slots=True)
class Level:
    """How a matrix bot searches: its candidate plots, the opponent plots it samples,
    whether its missiles aim where the enemy can be next turn (``foresight``) or at its
    post, and how far it trusts its model of the opponent (``model_weight``, 1: a plain
    best reply to the samples; 0: the matrix game's equilibrium).

    ``counter``: one candidate is the best reply, piece by piece, to the opponent's greedy
    plot. ``anticipate``: the opponent's greedy plot is sampled with this share of the
    model's weight (0: not sampled; the other samples share the rest). ``slip``: this
    share of the plot drawn goes uniformly to the candidates (a deliberate, seeded
    imperfection of a lower level; every candidate is still a plot with a purpose).
    ``lead``: what being ahead (or behind) as the turn limit would judge it is worth in
    the evaluation (:func:`~spacetable.bots.ftl._value.evaluate`); ``even``: what a
    position where neither side is ahead costs it. ``press``: what it charges itself, on
    top of :data:`IDLE`, for a turn it does not press (:func:`presses`) while not
    ahead, growing from nothing to this over the last :data:`PRESS_TURNS` turns before
    the limit (the last turns are worth playing for: a draw in the making is a duel not
    yet won). ``spare``:
    no such charge while one of its missiles already aims at an enemy ship (its tape
    crosses the ship's post): the threat is there, a launch is not forced.
    ``lookahead``: every pair of plots is scored on the position one turn later, every
    side playing its greedy plot in that turn (:func:`next_turn`; about twenty times
    the thinking)."""

    candidates: int
    samples: int
    foresight: bool
    model_weight: float
    anticipate: float = 0.0
    slip: float = 0.0
    counter: bool = False
    lead: float = 0.0
    even: float = 0.0
    press: float = 0.0
    spare: bool = False
    lookahead: bool = False


#: What being ahead as the turn limit would judge it is worth to the matrix levels (in the
#: evaluation's points, a hit being 100): a side ahead wins by keeping still (F14), so
#: the first hit or piece that puts one side ahead nearly decides the duel.
LEAD = 400.0
#: What every matrix level charges itself for a position where neither side is ahead: it
#: takes a fair chance of the lead over waiting for a draw.
EVEN = 150.0
#: What every matrix level charges itself, at the limit, for a turn it does not press
#: while not ahead (:attr:`Level.press`): more than a lead is worth, so that two careful
#: bots do not both keep still to a draw (docs/performance.md).
PRESS = 400.0
#: The careful search of ``medium`` and ``hard``: twelve sampled replies, the opponent's
#: greedy plot among them with half the weight, a guard against its best reply.
CAREFUL = Level(6, 12, False, 0.5, counter=True, anticipate=0.5, lead=LEAD, even=EVEN, press=PRESS)
#: The matrix bot's levels, weakest first.
MATRIX_LEVELS: dict[str, Level] = {
    "easy": Level(
        6, 3, False, 1.0, counter=True, slip=0.25, lead=LEAD / 2.0, even=EVEN, press=PRESS
    ),
    "medium": replace(CAREFUL, spare=True),
    "hard": replace(CAREFUL, candidates=10, model_weight=0.25, spare=True, lookahead=True),
}
#: The turns before the limit over which :attr:`Level.press` grows to its full size: a
#: room's default limit, so that it grows over a whole default duel.
PRESS_TURNS = float(ROOM_TURN_LIMIT)
#: Regret-matching iterations per decision.
ITERATIONS = 400

FloatArray = npt.NDArray[np.float64]


class MatrixBot:
    """Weighs candidate plots of its own against sampled opponent plots and plays a mixed
    strategy over its candidates, as its :class:`Level` says (see the module's
    docstring)."""

    def __init__(self, level: Level) -> None:
        if level.candidates < 1 or level.samples < 1:
            raise ValueError("a matrix bot needs at least one candidate and one sample")
        self.level = level

    @property
    def candidates(self) -> int:
        """The most candidate plots it weighs."""
        return self.level.candidates

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The plot for ``view["player"]``, drawn from the mixture over its candidates."""
        seat = Seat.of(view)
        plots, mixture = self.mixture(view, rng)
        pick = rng.random()
        index = int(np.searchsorted(np.cumsum(mixture), pick * float(mixture.sum()), "right"))
        return to_plot(seat.player, plots[min(index, len(plots) - 1)])

    def mixture(self, view: dict[str, Any], rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """The candidate plots and the probability of each (they sum to 1)."""
        return self.mixture_at(Seat.of(view), rng)

    def mixture_at(self, seat: Seat, rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """:meth:`mixture` from a seat already read (another player's, to model it)."""
        level = self.level
        replies = _greedy_replies(seat) if level.counter or level.anticipate > 0.0 else None
        mine = self.own_plots(seat, rng, replies)
        if not seat.opponents or len(mine) == 1:
            return mine, np.eye(1, len(mine))[0]
        theirs, prior = self.opponent_plots(seat, rng, replies)
        payoff = payoff_matrix(seat, mine, theirs, level.lead, level.even, level.lookahead)
        if waiting(seat.board, seat.player, seat.players) and not (level.spare and _aimed(seat)):
            # Playing to win: a side that does not press while the match is even or lost
            # is charged for the turn it lets go by, more as the limit nears.
            closing = max(0.0, 1.0 - seat.turns_left / PRESS_TURNS)
            barring = launch_blockers(seat.board, seat.player)
            idle = np.array([not presses(plot, seat.player, barring) for plot in mine])
            payoff -= (IDLE + level.press * closing) * idle[:, None]
        mixture = regret_matching(payoff, prior, ITERATIONS, level.model_weight)
        if level.slip > 0.0:
            mixture = (1.0 - level.slip) * mixture + level.slip / len(mixture)
        return mine, mixture

    def own_plots(
        self, seat: Seat, rng: random.Random, replies: Orders | None = None
    ) -> list[Orders]:
        """Distinct candidate plots: doing nothing, the greedy reply, the best reply to
        the opponents' greedy ``replies`` (with ``counter``), then plots drawn from the
        seat's menu."""
        options = menu(seat.board, seat.player, seat.players, seat.table_in,
                       foresight=self.level.foresight)  # fmt: skip
        lead = self.level.lead
        first = [{}, greedy_orders(seat, lead=lead)]
        if self.level.counter:
            against = _greedy_replies(seat) if replies is None else replies
            first.append(greedy_orders(seat, against, lead))
        return _distinct(first, self.level.candidates, lambda: options.draw(rng))

    def opponent_plots(
        self, seat: Seat, rng: random.Random, replies: Orders | None = None
    ) -> tuple[list[Orders], FloatArray]:
        """Sampled joint plots of every opponent (their greedy ``replies`` first with
        ``anticipate``, doing nothing, then drawn from their menus, aiming where our ship
        can be) and how likely each is thought."""
        menus = [menu(seat.board, other, seat.players, seat.table_in) for other in seat.opponents]

        def joint() -> Orders:
            orders: Orders = {}
            for other in menus:
                orders |= other.draw(rng)
            return orders

        anticipate = self.level.anticipate
        first: list[Orders] = [{}]
        if anticipate > 0.0:
            first.insert(0, _greedy_replies(seat) if replies is None else replies)
        plots = _distinct(first, self.level.samples, joint)
        prior = np.ones(len(plots))
        prior /= prior.sum()
        if anticipate > 0.0 and len(plots) > 1:
            prior = np.concatenate(([anticipate], (1.0 - anticipate) * prior[1:] / prior[1:].sum()))
        return plots, prior


def payoff_matrix(
    seat: Seat,
    mine: Sequence[Orders],
    theirs: Sequence[Orders],
    lead: float = 0.0,
    even: float = 0.0,
    lookahead: bool = False,
    bonus: Callable[[Board], float] | None = None,
) -> FloatArray:
    """Our evaluation of the engine's resolution of every pair (our plot, theirs), a
    lead counted ``lead`` (:func:`~spacetable.bots.ftl._value.evaluate`); with
    ``lookahead``, of the position one turn later, every side playing its greedy plot
    then (:func:`next_turn`), plus ``bonus`` of the position between the two turns (the
    one the next turn's plots are made on; the matrix levels give none)."""
    board, table_in = seat.board, seat.table_in
    rows = [Resolved.of(board, own, table_in) for own in mine]
    cols = [Resolved.of(board, other, table_in) for other in theirs]
    payoff = np.empty((len(rows), len(cols)))
    for i, own in enumerate(rows):
        for j, other in enumerate(cols):
            after = combine(board, own, other, table_in)
            left = seat.turns_left
            extra = 0.0
            if lookahead and left > 0 and len(standing_ships(after, seat.players)) > 1:
                if bonus is not None:
                    extra = bonus(after)
                after, left = next_turn(replace(seat, board=after, turns_left=left - 1), lead)
            value = evaluate(after, seat.player, seat.players, table_in, left, lead, even)
            payoff[i, j] = value + extra
    return payoff


def next_turn(seat: Seat, lead: float) -> tuple[Board, int]:
    """The board after one more turn from ``seat`` in which every side with a ship plays
    its greedy plot (the best reply to the others doing nothing, a lead counted ``lead``),
    and the turns left after it."""
    orders: Orders = {}
    for player in standing_ships(seat.board, seat.players):
        if player.id != seat.player:
            orders |= greedy_orders(replace(seat, player=player.id), lead=lead)
    orders |= greedy_orders(seat, lead=lead)
    return resolve(seat.board, orders, seat.table_in), seat.turns_left


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


def _greedy_replies(seat: Seat) -> Orders:
    """Every opponent's greedy plot (its best shot if we stood still)."""
    orders: Orders = {}
    for other in seat.opponents:
        orders |= greedy_orders(replace(seat, player=other))
    return orders


def _aimed(seat: Seat) -> bool:
    """Whether one of the seat's missiles already aims at an enemy ship (a strike from an
    angle its launch does not block)."""
    enemies = [seat.board[p] for p in seat.opponents]
    return any(
        clean_strike(piece, enemy)
        for piece in seat.board.values()
        if piece.owner == seat.player and not piece.is_ship and piece.on_table
        for enemy in enemies
    )


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
