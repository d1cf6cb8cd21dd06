"""The FTL expert bot (level ``expert``): each turn solved as a simultaneous game.

Its opponent model is a strong opponent's own search: the ``hard`` level's mixture
(:meth:`~spacetable.bots.ftl.matrix.MatrixBot.mixture_at`) computed from the opponent's
seat, with the expert's own generator, gives the opponent's candidate plots (doing
nothing, its greedy plot, its counter to ours, plots drawn from its menu) and how likely
each is. ``hard`` draws most of its candidates with its own generator, so one run of its
search sees other plots than it will play: the model is :data:`MODEL_RUNS` runs merged
(every plot any run weighs, its probability averaged over the runs). Its own candidates
are the ``hard`` level's (doing nothing, the greedy plot, the counter to the opponent's
greedy plot, plots drawn from its menu) and, beside them, its best reply to each of the
opponent's likeliest plots (:data:`REPLIES`). Every pair is resolved by the engine (the
exact referee's movement and hits, :func:`~spacetable.bots.ftl._plots.resolve`) and
scored on the position one turn later, both sides playing their greedy plot then (the
``hard`` level's lookahead). The mixed strategy over its candidates comes from regret
matching: a restricted Nash response that trusts the model :data:`MODEL_WEIGHT` of the
time and guards against the opponent's best reply otherwise. The plot played is drawn
from that mixture with the bot's own ``random.Random``: the choice replays from seed.

It plays to win as the matrix levels do, charging itself for a turn it does not press
(launch or turn its ship) while the match is even, more as the limit nears, but not
while an enemy missile is ready to strike its ship (:func:`threatened`): a launch or a
turn would put the ship in normal space for that strike, and the charge, more than a
lead is worth near the limit, drove it into the strike (most of the duels it lost to
``hard`` were lost that way). Its even positions cost it :data:`EVEN` (``hard``: 150):
kept from those losses, it takes more chances of the lead.

A ship can be struck only in a turn it launches or turns (docs/rulings.md F14), and
``hard`` does so, pressing, while it is not ahead, has missiles to launch and has no
missile of its own aimed at the expert's ship. So the expert readies strikes for those
turns: a missile of its own aimed at the opponent's post, with none of the opponent's
aimed at its ship, is worth :data:`PREPARED` to it on the board the opponent's next
plot is made on (:func:`prepared`), and its model gives :data:`PRESSING` of its weight
to the opponent's likeliest plot with the ship launching, and turning (the runs of its
search often see none: :meth:`ExpertBot.press_model`), so that it strikes where a
strike costs little.

Why it beats ``hard`` (docs/lab.md has the figures): weighing the plots a searching
opponent actually leans to, as likely as that search finds them, it answers the plots
that are played; it does not press into a missile ready to strike; and its missiles
are ready for the turns ``hard`` must press, where they turn draws into wins.

It reads the seat's view only. In FTL every piece is on the table for all to see; what
is hidden is the opponent's plot of this turn, which the bot never reads: it models the
plots the opponent could give instead. With more than one opponent it plays as ``hard``
does. The thinking is bounded by counts (candidates, samples, model runs,
regret-matching iterations), never by the clock, so a decision is the same on a slow
machine as on a fast one.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np

from spacetable.bots.ftl._aim import clean_strike, strike_ready
from spacetable.bots.ftl._plots import Board, Orders, Seat, plot_key, to_plot
from spacetable.bots.ftl._tactics import IDLE, launch_blockers, menu, presses, waiting
from spacetable.bots.ftl.greedy import greedy_orders
from spacetable.bots.ftl.matrix import (
    ITERATIONS,
    MATRIX_LEVELS,
    PRESS_TURNS,
    FloatArray,
    Level,
    MatrixBot,
    _aimed,
    _greedy_replies,
    payoff_matrix,
    regret_matching,
)
from spacetable.games.ftl.match import Plot

#: The search the expert models its opponent with, and whose candidates it weighs.
MODEL = MATRIX_LEVELS["hard"]
#: How far the expert trusts its model of the opponent (1: a plain best reply to it; 0:
#: the matrix game's equilibrium).
MODEL_WEIGHT = 0.75
#: Its best reply to each of this many of the opponent's likeliest plots joins its
#: candidates.
REPLIES = 2
#: The model's search is run this many times, one after another on the expert's
#: generator, and its mixtures merged (:meth:`ExpertBot.opponent_model`).
MODEL_RUNS = 3
#: What an even position costs it (neither side ahead as the limit would judge it).
EVEN = 300.0
#: What a prepared strike is worth to it, on the board the opponent's next plot is made
#: on (:func:`prepared`): one of its missiles ready to strike the opponent's ship, none
#: of the opponent's ready to strike its own, while the opponent is not ahead and has
#: missiles to launch (``hard`` then presses: it launches or turns its ship, into the
#: strike).
PREPARED = 120.0
#: The share of the model given to the opponent's likeliest plot with its ship's order
#: changed into a launch, and into a turn (:meth:`ExpertBot.press_model`).
PRESSING = 0.1


class ExpertBot:
    """Weighs its candidates against the ``hard`` level's mixture for the opponent (that
    search run ``model_runs`` times and merged) and plays a restricted Nash response
    trusting the model ``model_weight`` of the time; with ``guard``, no press charge
    while :func:`threatened`; an even position costs it ``even``, a prepared strike is
    worth ``prepared`` to it, and ``pressing`` of the model goes to the opponent's
    pressing plots (see the module's docstring)."""

    def __init__(
        self,
        model: Level = MODEL,
        model_weight: float = MODEL_WEIGHT,
        replies: int = REPLIES,
        model_runs: int = MODEL_RUNS,
        guard: bool = True,
        even: float = EVEN,
        prepared: float = PREPARED,
        pressing: float = PRESSING,
    ) -> None:
        self.model = MatrixBot(model)
        self.model_weight = model_weight
        self.replies = replies
        self.model_runs = model_runs
        self.guard = guard
        self.even = even
        self.prepared = prepared
        self.pressing = pressing

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The plot for ``view["player"]``, drawn from the mixture over its candidates."""
        seat = Seat.of(view)
        plots, mixture = self.mixture_at(seat, rng)
        pick = rng.random()
        index = int(np.searchsorted(np.cumsum(mixture), pick * float(mixture.sum()), "right"))
        return to_plot(seat.player, plots[min(index, len(plots) - 1)])

    def mixture_at(self, seat: Seat, rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """The candidate plots of ``seat`` and the probability of each (they sum to 1)."""
        if len(seat.opponents) != 1:
            return self.model.mixture_at(seat, rng)
        level = self.model.level
        theirs, prior = self.opponent_model(seat, rng)
        theirs, prior = self.press_model(seat, theirs, prior)
        mine = self.model.own_plots(seat, rng, _greedy_replies(seat))
        seen = {plot_key(plot) for plot in mine}
        for j in np.argsort(-prior, kind="stable")[: self.replies]:
            reply = greedy_orders(seat, theirs[int(j)], level.lead)
            if plot_key(reply) not in seen:
                seen.add(plot_key(reply))
                mine.append(reply)
        if len(mine) == 1:
            return mine, np.ones(1)
        (rival,) = seat.opponents

        def ready(board: Board) -> float:
            if prepared(board, seat.player, rival) and waiting(board, rival, seat.players):
                return self.prepared
            return 0.0

        bonus = ready if self.prepared else None
        payoff = payoff_matrix(seat, mine, theirs, level.lead, self.even, True, bonus)
        if waiting(seat.board, seat.player, seat.players) and not (level.spare and _aimed(seat)):
            # Playing to win, as the matrix levels do: a turn that does not press while
            # the match is even or lost costs more as the limit nears; but not while an
            # enemy missile is ready to strike (pressing would expose the ship to it).
            closing = max(0.0, 1.0 - seat.turns_left / PRESS_TURNS)
            charge = IDLE + level.press * closing
            if not (self.guard and threatened(seat)):
                barring = launch_blockers(seat.board, seat.player)
                idle = np.array([not presses(plot, seat.player, barring) for plot in mine])
                payoff -= charge * idle[:, None]
        return mine, regret_matching(payoff, prior, ITERATIONS, self.model_weight)

    def opponent_model(self, seat: Seat, rng: random.Random) -> tuple[list[Orders], FloatArray]:
        """The plots the one opponent of ``seat`` may give and how likely each is: the
        model level's mixture from the opponent's seat (public pieces only)."""
        (opponent,) = seat.opponents
        at = replace(seat, player=opponent)
        if self.model_runs <= 1:
            theirs, prior = self.model.mixture_at(at, rng)
            return theirs, prior / float(prior.sum())
        plots: dict[tuple[tuple[str, str], ...], Orders] = {}
        weights: dict[tuple[tuple[str, str], ...], float] = {}
        for _ in range(self.model_runs):
            theirs, prior = self.model.mixture_at(at, rng)
            prior = prior / float(prior.sum())
            for plot, weight in zip(theirs, prior, strict=True):
                key = plot_key(plot)
                plots.setdefault(key, plot)
                weights[key] = weights.get(key, 0.0) + float(weight) / self.model_runs
        return list(plots.values()), np.array([weights[key] for key in plots])

    def press_model(
        self, seat: Seat, theirs: list[Orders], prior: FloatArray
    ) -> tuple[list[Orders], FloatArray]:
        """The opponent model ``theirs``, ``prior`` and its likeliest plot changed to
        press, its ship launching, and (another plot) turning, if the model lacks them:
        they are given :attr:`pressing` of the weight, in equal shares. ``hard`` draws
        its candidates with its own generator: it presses in turns where the runs of its
        search on ours did not, and a strike that meets no press loses only its aim (in
        the last turn, nothing): weighed against presses, the strike is played where it
        costs little."""
        (rival,) = seat.opponents
        options = menu(seat.board, rival, seat.players, seat.table_in).ship
        likeliest = theirs[int(np.argmax(prior))]
        seen = {plot_key(plot) for plot in theirs}
        extra: list[Orders] = []
        for kind in ("launch", "turn"):
            order = next((o for k, o, _ in options if k == kind), None)
            plot = None if order is None else {**likeliest, rival: order}
            if plot is not None and plot_key(plot) not in seen:
                seen.add(plot_key(plot))
                extra.append(plot)
        if not extra or self.pressing <= 0.0:
            return theirs, prior
        shares = np.full(len(extra), self.pressing / len(extra))
        return [*theirs, *extra], np.concatenate(((1.0 - self.pressing) * prior, shares))


def threatened(seat: Seat) -> bool:
    """Whether a missile of an opponent of ``seat`` is ready to strike its ship (its tape
    can cross the ship's post): a launch or a turn, which put the ship in normal space,
    may then cost a hit."""
    ship = seat.board[seat.player]
    return any(
        strike_ready(piece, ship)
        for piece in seat.board.values()
        if piece.owner != seat.player and not piece.is_ship and piece.on_table
    )


def prepared(board: Board, player: str, rival: str) -> bool:
    """Whether a missile of ``player`` is ready to strike ``rival``'s ship from an angle
    its launch does not block (:func:`~spacetable.bots.ftl._aim.clean_strike`) while no
    missile of ``rival`` is so ready to strike ``player``'s: ``hard`` spares itself the
    press only while one of its missiles aims so (``Level.spare``), so a prepared strike
    meets the turn it launches or turns its ship."""
    ship, enemy = board[player], board[rival]
    if not ship.on_table or not enemy.on_table:
        return False
    aimed = False
    for piece in board.values():
        if piece.is_ship or not piece.on_table:
            continue
        if piece.owner == rival and clean_strike(piece, ship):
            return False
        aimed = aimed or (piece.owner == player and clean_strike(piece, enemy))
    return aimed
