"""The FTL expert: the same plot for the same seed, blind to the opponent's secret plot,
legal plots only, and a whole seeded duel against the ``hard`` level played out."""

from __future__ import annotations

import copy
import random

from spacetable.bots.ftl import make_bot
from spacetable.bots.ftl.arena import duel
from spacetable.bots.ftl.expert import ExpertBot
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


def test_a_short_duel_of_the_expert_against_hard_completes() -> None:
    result = duel(make_bot("expert"), make_bot("hard"), 3, turn_limit=4)
    assert 1 <= result.turns <= 4
