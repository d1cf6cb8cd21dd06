"""The Faster Than Light bots: legal plots, determinism, a mixed strategy in a position
that calls for one, and a small seeded study against the random and greedy bots."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from spacetable.bots.ftl import LEVELS, MatrixBot, make_bot
from spacetable.bots.ftl._plots import Orders, Resolved, Seat, combine, random_orders, resolve
from spacetable.bots.ftl.arena import duel
from spacetable.bots.ftl.matrix import payoff_matrix, regret_matching
from spacetable.core.duels import study
from spacetable.core.stats import wilson
from spacetable.games.ftl.match import FtlMatch, FtlOptions
from spacetable.games.ftl.orders import Rotate, Sprint, parse_order
from spacetable.games.ftl.pieces import Piece

QUICK_LEVELS = ("random", "greedy", "easy", "medium")


def positions(count: int) -> list[FtlMatch]:
    """Seeded matches stopped part-way: ships turned and moved, missiles on the table."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        match = FtlMatch(FtlOptions(), seed)
        bots = {"red": make_bot("greedy"), "blue": make_bot("random")}
        for _ in range(rng.randrange(0, 14)):
            if match.is_over:
                break
            for player in match.players:
                if match.needs_action(player):
                    match.apply(bots[player].choose(match.view(player), rng))
        if not match.is_over:
            out.append(match)
    return out


def standoff() -> FtlMatch:
    """Red's missile sits in blue's path, aimed at blue's ship; blue's missile is aimed at
    red's missile. Red may lay a mine (``R+0``: blue sprinting through it takes a hit, but
    blue's missile can then strike it) or strike (which hits blue only if blue turns)."""
    match = FtlMatch(FtlOptions(), 0)
    pieces = [
        Piece.ship("red", "red", 0, -14, 0, missiles=5).evolve(launched=1),
        Piece.ship("blue", "blue", 0, -2.5, 180, missiles=8).evolve(launched=2, hits=1),
        Piece.missile("red-m1", "red", 0, -7.25, 0),
        Piece.missile("blue-m1", "blue", 3, -7.25, 90),
    ]
    match.pieces = {p.id: p for p in pieces}
    return match


@pytest.mark.parametrize("level", [*QUICK_LEVELS, "hard"])
def test_every_plot_is_legal(level: str) -> None:
    bot = make_bot(level)
    matches = positions(12 if level == "hard" else 30)
    assert len(matches) >= 8
    for k, match in enumerate(matches):
        for player in match.players:
            if not match.in_play(player):
                continue
            plot = bot.choose(match.view(player), random.Random(k))
            assert plot.player == player
            assert match.check(plot) is None, plot
            copy.deepcopy(match).apply(plot)  # never raises


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic_for_a_seed(level: str) -> None:
    bot = make_bot(level)
    for k, match in enumerate(positions(6)):
        view = match.view("red")
        assert bot.choose(view, random.Random(k)) == bot.choose(view, random.Random(k))


def test_a_seeded_duel_replays() -> None:
    easy, rand = make_bot("easy"), make_bot("random")
    assert duel(easy, rand, 7, turn_limit=20) == duel(easy, rand, 7, turn_limit=20)


def test_the_random_bot_uses_every_kind_of_order() -> None:
    board = Seat.of(FtlMatch(FtlOptions(), 0).view("red")).board
    rng = random.Random(3)
    texts = [o.text for _ in range(60) for o in random_orders(board, "red", rng).values()]
    assert {t[0] for t in texts} == {"R", "S", "L"}
    assert any(not random_orders(board, "red", rng) for _ in range(60))  # or nothing


def test_combining_two_sides_is_the_engines_resolution() -> None:
    rng = random.Random(5)
    for match in positions(10):
        seat = Seat.of(match.view("red"))
        for _ in range(20):
            mine, theirs = (random_orders(seat.board, p, rng) for p in ("red", "blue"))
            merged = combine(
                seat.board,
                Resolved.of(seat.board, mine, seat.table_in),
                Resolved.of(seat.board, theirs, seat.table_in),
                seat.table_in,
            )
            exact = resolve(seat.board, {**mine, **theirs}, seat.table_in)
            assert {k: _state(p) for k, p in merged.items()} == {
                k: _state(p) for k, p in exact.items()
            }


def _state(piece: Piece) -> tuple[object, ...]:
    return (piece.x, piece.y, piece.heading, piece.hits, piece.missiles, piece.on_table)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_mixture_is_a_probability_distribution(level: str) -> None:
    bot = make_bot(level)
    assert isinstance(bot, MatrixBot)
    for k, match in enumerate(positions(5)):
        plots, mixture = bot.mixture(match.view("blue"), random.Random(k))
        assert len(plots) == len(mixture) <= bot.candidates
        assert np.all(mixture >= 0.0)
        assert mixture.sum() == pytest.approx(1.0)


def test_regret_matching_plays_rock_paper_scissors_evenly() -> None:
    rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    mixture = regret_matching(rps, np.full(3, 1 / 3), 1000, 0.0)
    assert mixture == pytest.approx([1 / 3] * 3, abs=0.02)


def test_a_mine_or_a_strike_is_a_mixed_choice() -> None:
    """Resolved by the engine: the mine beats blue's sprint, the strike beats blue's turn,
    blue's missile punishes the mine; no single plot is safe, so red mixes."""
    seat = Seat.of(standoff().view("red"))
    order = parse_order
    mine: list[Orders] = [{"red-m1": order("R+0")}, {}, {"red-m1": order("S5")}]
    theirs: list[Orders] = [
        {},
        {"blue": order("S8")},
        {"blue-m1": order("S3")},
        {"blue": order("R+90")},
    ]
    payoff = payoff_matrix(seat, mine, theirs)
    assert payoff[0, 1] > payoff[1, 1] and payoff[2, 3] > payoff[1, 3]  # mine / strike land
    assert payoff[0, 2] < payoff[1, 2]  # the mine is struck
    mixture = regret_matching(payoff, np.full(4, 0.25), 1000, 0.0)
    assert mixture.sum() == pytest.approx(1.0)
    assert mixture[0] > 0.1 and mixture[2] > 0.1


def test_the_hard_bot_mixes_in_the_standoff() -> None:
    bot = make_bot("hard")
    assert isinstance(bot, MatrixBot)
    plots, mixture = bot.mixture(standoff().view("red"), random.Random(1))
    assert np.sort(mixture)[-2] > 0.05  # weight on more than one plot
    mines = sum(w for p, w in zip(plots, mixture, strict=True) if p.get("red-m1") == Rotate(0))
    strikes = sum(
        w for p, w in zip(plots, mixture, strict=True) if isinstance(p.get("red-m1"), Sprint)
    )
    assert mines > 0.05 and strikes > 0.05


def test_wilson() -> None:
    low, high = wilson(57, 60)
    assert 0.86 < low < 0.87 and 0.98 < high < 0.99
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        wilson(0, 0)


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown FTL bot level"):
        make_bot("godlike")


def test_the_hard_bot_beats_random_in_a_few_seeded_duels() -> None:
    """The study below in small: the same first seeds, the hard bot wins most."""
    record = study(duel, make_bot("hard"), make_bot("random"), 3, seed=1000)
    assert record.wins >= 2, record.summary()


@pytest.mark.slow
def test_the_hard_bot_beats_random_and_holds_greedy() -> None:
    """A seeded study (-m slow); the full one (400 duels) runs outside."""
    hard = make_bot("hard")
    versus_random = study(duel, hard, make_bot("random"), 60, seed=1000)
    assert versus_random.win_rate[1][0] > 0.5
    versus_greedy = study(duel, hard, make_bot("greedy"), 16, seed=2000, turn_limit=30)
    assert versus_greedy.score[0] >= 0.5


def test_benchmark_hard_decision(benchmark: Any) -> None:
    """The hard bot's time per decision in a mid-game position (pytest-benchmark; a plain
    run under the default ``--benchmark-disable``, never a timed assertion)."""
    match = max(positions(12), key=lambda m: sum(p.on_table for p in m.pieces.values()))
    view = match.view("blue")
    bot = make_bot("hard")
    plot = benchmark(lambda: bot.choose(view, random.Random(0)))
    assert match.check(plot) is None


def test_a_study_times_each_decision_with_the_clock_it_is_given() -> None:
    """``spacetable duels`` reports thinking time from the clock it passes; without one the
    arena stays pure (no timing)."""
    ticks = iter(range(1_000_000))
    timed = study(duel, make_bot("random"), make_bot("greedy"), 2, clock=lambda: next(ticks))
    seconds = timed.summary()["decision_seconds"]
    turns = sum(d.turns for d in timed.duels)
    assert seconds["bot"]["decisions"] == seconds["against"]["decisions"] == turns
    assert seconds["bot"]["mean"] == seconds["bot"]["max"] == 1  # one tick per decision
    plain = study(duel, make_bot("random"), make_bot("greedy"), 2)
    assert plain.summary()["decision_seconds"] == {"bot": None, "against": None}
    assert [d.winner for d in plain.duels] == [d.winner for d in timed.duels]
