"""The FTL expert: the same plot for the same seed, blind to the opponent's secret plot,
legal plots only, its opponent modelled by the ``hard`` level's search, and a whole
seeded duel against the ``hard`` level played out."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import numpy as np

from spacetable.bots.ftl import make_bot
from spacetable.bots.ftl._plots import Orders, Seat, plot_key, resolve
from spacetable.bots.ftl._tactics import launch_blockers, presses
from spacetable.bots.ftl.arena import duel
from spacetable.bots.ftl.expert import PREPARED, PRESSING, ExpertBot, prepared, threatened
from spacetable.bots.ftl.greedy import greedy_orders
from spacetable.bots.ftl.matrix import MATRIX_LEVELS, MatrixBot
from spacetable.games.ftl.match import FtlMatch, FtlOptions
from spacetable.games.ftl.orders import Launch, Rotate
from spacetable.games.ftl.pieces import Piece
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
    with the expert's generator; here one run of that search): its best reply to the
    likeliest plot of that mixture is among the plots it weighs, and nothing it weighs is
    chosen for the opponent by anything but the public board."""
    match = positions(3)[-1]
    seat = Seat.of(match.view("red"))
    hard = MatrixBot(MATRIX_LEVELS["hard"])
    theirs, prior = hard.mixture_at(replace(seat, player="blue"), random.Random(5))
    likeliest = theirs[int(np.argmax(prior))]
    answer = greedy_orders(seat, likeliest, MATRIX_LEVELS["hard"].lead)
    expert = ExpertBot(model_runs=1)
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


def test_the_expert_merges_several_runs_of_the_opponents_search() -> None:
    """``hard`` draws most of its candidates with its own generator, so one run of its
    search from its seat sees other plots than it will: the model merges ``model_runs``
    runs, one after another on the expert's generator (every plot any run weighs, its
    probability averaged over the runs)."""
    match = positions(3)[-1]
    seat = Seat.of(match.view("red"))
    hard = MatrixBot(MATRIX_LEVELS["hard"])
    rng = random.Random(5)
    merged: dict[tuple[tuple[str, str], ...], float] = {}
    for _ in range(3):
        theirs, prior = hard.mixture_at(replace(seat, player="blue"), rng)
        for plot, weight in zip(theirs, prior / prior.sum(), strict=True):
            merged[plot_key(plot)] = merged.get(plot_key(plot), 0.0) + float(weight) / 3
    modelled, weights = ExpertBot(model_runs=3).opponent_model(seat, random.Random(5))
    assert [plot_key(p) for p in modelled] == list(merged)
    assert np.allclose(weights, list(merged.values()))
    assert abs(float(weights.sum()) - 1.0) < 1e-9
    single, _ = ExpertBot(model_runs=1).opponent_model(seat, random.Random(5))
    assert len(modelled) > len(single)


def test_the_expert_does_not_press_into_a_missile_ready_to_strike() -> None:
    """Three turns from the limit, even, blue's ship lies across the tape of red's missile:
    a turn or a launch would put it in normal space for the strike. The matrix levels'
    press charge (more than a lead is worth, this late) drives an unguarded expert to turn
    anyway; the expert, threatened, weighs the risk as it is and keeps its ship still."""
    match = FtlMatch(FtlOptions(turn_limit=20), 0)
    pieces = [
        Piece.ship("red", "red", 0, -14, 0, missiles=5).evolve(launched=1),
        Piece.ship("blue", "blue", 0, -2.5, 180, missiles=5).evolve(launched=1),
        Piece.missile("red-m1", "red", 5, -2.5, 90),
        Piece.missile("blue-m1", "blue", 3, -7.25, 90),
    ]
    match.pieces = {p.id: p for p in pieces}
    match.turn = 17
    seat = Seat.of(match.view("blue"))
    assert threatened(seat) and not threatened(Seat.of(match.view("red")))
    barring = launch_blockers(seat.board, "blue")
    pressing = {}
    for guard in (False, True):
        mine, mixture = ExpertBot(guard=guard).mixture_at(seat, random.Random(1))
        pressing[guard] = sum(
            float(weight)
            for plot, weight in zip(mine, mixture, strict=True)
            if presses(plot, "blue", barring)
        )
    assert pressing[False] > 0.9 and pressing[True] < 0.1


def test_the_expert_readies_a_strike_for_the_turn_the_opponent_must_press() -> None:
    """Even, eight turns from the limit, red has missiles to launch and no missile aimed
    at blue's ship: ``hard`` would press (launch or turn its ship) in a turn or two.
    Blue's missile can turn to strike red's post from the side; a prepared strike is
    worth ``prepared`` to the expert on the board red's next plot is made on, so it
    turns it (without that worth, the aimed missile's threat alone never did)."""
    seat = Seat.of(_even_at(12).view("blue"))
    assert not prepared(seat.board, "blue", "red")
    readied = {}
    for worth in (0.0, PREPARED):
        mine, mixture = ExpertBot(prepared=worth).mixture_at(seat, random.Random(1))
        readied[worth] = sum(
            float(weight)
            for plot, weight in zip(mine, mixture, strict=True)
            if prepared(resolve(seat.board, plot, seat.table_in), "blue", "red")
        )
    assert readied[0.0] < 0.1 and readied[PREPARED] > 0.9


def test_a_strike_is_prepared_only_while_the_opponent_has_none_ready() -> None:
    """``hard`` spares itself the press while one of its missiles aims at our ship: a
    missile aimed at its post is then no prepared strike."""
    aimed = Piece.missile("blue-m1", "blue", 6, -8, 90)
    board = {
        "red": Piece.ship("red", "red", 0, -8, 0, missiles=5),
        "blue": Piece.ship("blue", "blue", 0, 8, 180, missiles=5),
        "blue-m1": aimed,
    }
    assert prepared(board, "blue", "red") and not prepared(board, "red", "blue")
    board["red-m1"] = Piece.missile("red-m1", "red", -6, 8, -90)
    assert not prepared(board, "blue", "red")
    board["blue-m1"] = aimed.evolve(on_table=False)
    assert not prepared(board, "blue", "red")


def test_the_model_of_the_opponent_weighs_its_likeliest_plot_pressing() -> None:
    """``hard`` presses in turns where the runs of its search the expert makes did not:
    its likeliest plot, its ship launching instead, and turning instead, join the model
    with ``pressing`` of the weight between them; the rest keeps its proportions. A
    pressing plot the model has already is not added twice."""
    seat = Seat.of(_even_at(19, heading=90).view("blue"))
    aim: Orders = {"red-m1": Rotate(-105)}
    theirs: list[Orders] = [aim, {}, {"red": Launch()}]
    prior = np.array([0.6, 0.3, 0.1])
    expert = ExpertBot()
    plots, weights = expert.press_model(seat, theirs, prior)
    assert plots == [*theirs, {**aim, "red": Launch()}, {**aim, "red": Rotate(90)}]
    assert np.allclose(weights, [*((1.0 - PRESSING) * prior), PRESSING / 2, PRESSING / 2])
    again, shares = expert.press_model(seat, plots[:4], weights[:4] / weights[:4].sum())
    assert again[4:] == [{**aim, "red": Rotate(90)}] and np.isclose(shares[4], PRESSING)
    unchanged, same = ExpertBot(pressing=0.0).press_model(seat, theirs, prior)
    assert unchanged == theirs and same is prior


def _even_at(turn: int, heading: float = 0.0) -> FtlMatch:
    """Turn ``turn`` of 20, even: red's ship and missile, blue's ship and a missile that
    can turn to strike red's post from the side (heading 0; at heading 90 it is ready
    to), none of red's aimed at blue's ship."""
    match = FtlMatch(FtlOptions(turn_limit=20), 0)
    pieces = [
        Piece.ship("red", "red", 0, -8, 0, missiles=5).evolve(launched=2),
        Piece.ship("blue", "blue", 0, 8, 180, missiles=5).evolve(launched=2),
        Piece.missile("blue-m1", "blue", 6, -8, heading),
        Piece.missile("red-m1", "red", -9, 5, 180),
    ]
    match.pieces = {p.id: p for p in pieces}
    match.turn = turn
    return match
