"""The FTL expert: the same plot for the same seed, blind to the opponent's secret plot,
legal plots only, its opponent modelled by the ``hard`` level's search, and a whole
seeded duel against the ``hard`` level played out."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import numpy as np

from spacetable.bots.ftl import make_bot
from spacetable.bots.ftl._plots import Seat, plot_key
from spacetable.bots.ftl.arena import duel
from spacetable.bots.ftl.expert import ExpertBot
from spacetable.bots.ftl.greedy import greedy_orders
from spacetable.bots.ftl.matrix import MATRIX_LEVELS, MatrixBot
from spacetable.games.ftl.match import FtlMatch, FtlOptions
from tests.bots.test_ftl_bots import positions


def test_the_expert_plots_the_same_for_a_seed_and_a_legal_plot() -> None:
    for k, match in enumerate(positions(4)):
        view = match.view("red")
        first = make_bot("expert").choose(view, random.Random(k))
        assert ExpertBot().choose(copy.deepcopy(view), random.Random(k)) == first
        assert match.check(first) is None, first


def test_the_expert_never_reads_the_opponents_secret_plot() -> None:
    """Blue plots first, differently in two copies of a position: red's view, and red's
    plot for the same seed, are the same in both."""
    match = positions(3)[-1]
    seen = []
    for seed in (1, 2):
        played = copy.deepcopy(match)
        blue = make_bot("random").choose(played.view("blue"), random.Random(seed))
        played.apply(blue)
        assert not played.needs_action("blue")
        seen.append(ExpertBot().choose(played.view("red"), random.Random(7)))
    assert seen[0] == seen[1]


def test_the_expert_answers_what_a_searching_opponent_would_play() -> None:
    """Its opponent model is the ``hard`` level's mixture from the opponent's seat (drawn
    with the expert's generator): its best reply to the likeliest plot of that mixture
    is among the plots it weighs, and nothing it weighs is chosen for the opponent by
    anything but the public board."""
    match = positions(3)[-1]
    seat = Seat.of(match.view("red"))
    hard = MatrixBot(MATRIX_LEVELS["hard"])
    theirs, prior = hard.mixture_at(replace(seat, player="blue"), random.Random(5))
    likeliest = theirs[int(np.argmax(prior))]
    answer = greedy_orders(seat, likeliest, MATRIX_LEVELS["hard"].lead)
    expert = ExpertBot()
    modelled, weights = expert.opponent_model(seat, random.Random(5))
    assert [plot_key(p) for p in modelled] == [plot_key(p) for p in theirs]
    assert np.allclose(weights, prior / prior.sum())
    mine, mixture = expert.mixture_at(seat, random.Random(5))
    assert plot_key(answer) in {plot_key(plot) for plot in mine}
    assert len(mixture) == len(mine) and abs(float(mixture.sum()) - 1.0) < 1e-9


def test_with_two_opponents_the_expert_plays_as_hard() -> None:
    match = FtlMatch(FtlOptions(players=("red", "blue", "green")), 0)
    view = match.view("green")
    plot = ExpertBot().choose(view, random.Random(3))
    assert plot == make_bot("hard").choose(view, random.Random(3))
    assert match.check(plot) is None


def test_a_short_duel_of_the_expert_against_hard_completes() -> None:
    result = duel(make_bot("expert"), make_bot("hard"), 3, turn_limit=4)
    assert 1 <= result.turns <= 4
