"""The FTL bots' choices pinned: the shared helpers (the evaluation, the greedy plot) were
made faster for the expert's search, and every level must choose as it did before.

The plots below were recorded before the speed-ups (the evaluation read the board once per
side and per count; the greedy plot scored the orders so far once per piece and resolved
every option with the engine, where it now remembers each piece's order resolved alone
and merges them while they do not meet); they are
the yardstick the ``hard`` level is for the expert: a faster helper that changes one of
them changes a level."""

from __future__ import annotations

import random

from spacetable.bots.ftl import make_bot
from spacetable.bots.ftl._plots import Resolved, board_from_view, random_orders, resolve
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


def test_a_plot_composed_of_its_pieces_orders_resolves_as_the_engine_does() -> None:
    """Random plots of both sides, some whose pieces meet (a tape touching a piece another
    order put in normal space): composed of each order resolved alone, or resolved at once
    when they may meet, the board is the engine's."""
    met = 0
    for k, match in enumerate(positions(12)):
        board = board_from_view(match.view("red"))
        table = match.options.table_size_in
        rng = random.Random(k)
        for _ in range(20):
            orders = random_orders(board, "red", rng) | random_orders(board, "blue", rng)
            engine = resolve(board, orders, table)
            after = dict(board)
            after.update(Resolved.composed(board, orders, table).changed)
            assert after == engine, orders
            apart = dict(board)
            for pid, order in orders.items():
                apart.update(Resolved.of(board, {pid: order}, table).changed)
            met += apart != engine
    assert met > 0  # the plots that meet were tried
