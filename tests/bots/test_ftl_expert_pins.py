"""The FTL bots' choices pinned: the shared helpers (the evaluation, the greedy plot) were
made faster for the expert's search, and every level must choose as it did before.

The plots below were recorded before the speed-up (the evaluation read the board once per
side and per count; the greedy plot scored the orders so far once per piece); they are
the yardstick the ``hard`` level is for the expert: a faster helper that changes one of
them changes a level."""

from __future__ import annotations

import random

from spacetable.bots.ftl import make_bot
from spacetable.games.ftl.match import FtlMatch, FtlOptions
from tests.bots.test_ftl_bots import positions

#: ``hard``'s plot for red then blue in each position of ``positions(5)`` (four: one
#: match of the five was over), seed k for the k-th.
HARD_PLOTS = [
    "red-m2:R-90 red-m3:R-105 red-m4:R-120 red-m5:R-120",
    "blue:R-90 blue-m3:R+135",
    "red:R-90 red-m1:S8",
    "blue:R+90",
    "red:R+90 red-m2:S8",
    "blue:R-90 blue-m1:S8",
    "red:R+90 red-m1:S8 red-m2:S8",
    "blue:R+90",
]
#: Every plot of an 8-turn duel of ``medium`` (red) against ``greedy`` (blue), seed 2.
MEDIUM_GREEDY_PLOTS = [
    "red:R-90", "blue:L", "red:L", "blue:S1 blue-m1:S8", "red-m1:S1.5", "blue:L blue-m1:S8",
    "red:R-90", "blue:R+90 blue-m1:S8 blue-m2:S8", "red:R+180 red-m1:R+90",
    "blue:L blue-m1:S7.5 blue-m2:S8", "red:L", "blue:S8 blue-m1:S3 blue-m2:S8",
    "red:L red-m1:S8", "blue:L blue-m2:S6.5", "red:S8 red-m1:S8 red-m3:S8", "blue-m2:S3",
]  # fmt: skip


def test_hard_chooses_as_before_the_speed_up() -> None:
    played = [
        " ".join(make_bot("hard").choose(match.view(player), random.Random(k)).orders)
        for k, match in enumerate(positions(5))
        for player in ("red", "blue")
    ]
    assert played == HARD_PLOTS


def test_a_seeded_duel_plays_as_before_the_speed_up() -> None:
    match = FtlMatch(FtlOptions(players=("red", "blue"), turn_limit=8), 2)
    bots = {"red": make_bot("medium"), "blue": make_bot("greedy")}
    rngs = {"red": random.Random("2:a"), "blue": random.Random("2:b")}
    played = []
    while not match.is_over:
        for player in match.players:
            if match.needs_action(player):
                plot = bots[player].choose(match.view(player), rngs[player])
                match.apply(plot)
                played.append(" ".join(plot.orders))
    assert played == MEDIUM_GREEDY_PLOTS
