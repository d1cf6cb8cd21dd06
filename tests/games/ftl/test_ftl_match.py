"""The FTL match machine: secret plots, undo, the plot timer, the end phase, the turn limit,
and determinism (a match replays its log exactly)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from spacetable.core.match import IllegalAction, InvalidOptions
from spacetable.games.ftl.events import GameOver
from spacetable.games.ftl.match import (
    FtlMatch,
    FtlOptions,
    Phase,
    Plot,
    PlotTimerExpired,
    Unplot,
    limit_winner,
    starting_ships,
)
from spacetable.games.ftl.orders import orders_for


def plot(player: str, *orders: str, t: float = 1.0) -> Plot:
    return Plot(player, tuple(orders), t)


def test_ships_start_facing_each_other_across_the_table() -> None:
    red, blue = starting_ships(FtlOptions())
    assert (red.x, red.y, red.heading) == (0, -18, 0)
    assert (blue.x, blue.y, blue.heading) == (0, 18, 180)
    four = starting_ships(FtlOptions(("a", "b", "c", "d")))
    assert [(s.x, s.y, s.heading) for s in four] == [
        (0, -18, 0), (0, 18, 180), (-18, 0, -90), (18, 0, 90)
    ]  # fmt: skip
    three = starting_ships(FtlOptions(("a", "b", "c")))
    assert [s.heading for s in three] == [0, 120, -120]
    for ship in three:  # every ship faces the centre
        dx, dy = ship.direction
        assert abs(ship.x * dy - ship.y * dx) < 1e-9 and ship.x * dx + ship.y * dy < 0


def test_plots_stay_secret_until_the_turn_resolves() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    match.apply(plot("red", "red:S2.5"))
    red_view = match.view("red")
    assert red_view["plot"] == ["red:S2.5"]
    for viewer in ("blue", None):
        view = match.view(viewer)
        assert view["plot"] is None
        assert view["players"]["red"]["plotted"] is True
        assert "S2.5" not in json.dumps(view)
    assert "S2.5" not in json.dumps([e.to_json() for e in match.events])
    match.apply(plot("blue", "blue:R+45"))
    revealed = match.view(None)["last_turn"]
    assert {"type": "plot", "player": "red", "orders": ["red:S2.5"]} in revealed
    assert match.view("blue")["plot"] is None and match.turn == 2


def test_a_plot_may_be_replaced_or_taken_back_until_the_last_is_in() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    match.apply(plot("red", "red:S8"))
    match.apply(plot("red", "red:L", t=2))
    match.apply(Unplot("red", 3))
    assert not match.has_plotted("red") and match.needs_action("red")
    with pytest.raises(IllegalAction, match="no plot to take back"):
        match.apply(Unplot("red", 4))
    match.apply(plot("red", "red:R-90", t=5))
    match.apply(plot("blue", t=6))
    assert match.pieces["red"].heading == 90 and match.turn == 2
    with pytest.raises(IllegalAction, match="no plot to take back"):
        match.apply(Unplot("red", 7))


@pytest.mark.parametrize(
    ("orders", "words"),
    [
        (("blue:S3",), "blue's"),
        (("red:R+10",), re.escape("'R+10'")),
        (("red:S8.5",), re.escape("'S8.5'")),
        (("red:X",), "'X'"),
        (("S3",), "not 'piece:order'"),
        (("red-m1:S3",), "no such piece"),
    ],
)
def test_bad_plots_are_refused_naming_the_piece_and_the_order(
    orders: tuple[str, ...], words: str
) -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    with pytest.raises(IllegalAction, match=words):
        match.apply(Plot("red", orders, 1))
    assert not match.has_plotted("red")


def test_a_second_order_for_a_piece_is_ignored() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    match.apply(plot("red", "red:S4", "red:R+90"))
    match.apply(plot("blue"))
    red = match.pieces["red"]
    assert (red.y, red.heading) == (-14, 0)
    assert {"type": "ignored", "piece": "red", "order": "R+90"} in match.view(None)["last_turn"]


def test_a_ship_with_no_missiles_left_cannot_launch() -> None:
    match = FtlMatch(FtlOptions(missiles=1), seed=1)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue"))
    assert "red-m1" in match.pieces
    with pytest.raises(IllegalAction, match="no missiles left"):
        match.apply(plot("red", "red:L", t=2))


def test_the_plot_timer_resolves_with_the_plots_that_are_in() -> None:
    match = FtlMatch(FtlOptions(plot_timer_s=30), seed=1)
    match.apply(plot("red", "red:S4", t=5))
    assert match.plot_deadline == 30
    with pytest.raises(IllegalAction, match="runs out at t=30"):
        match.apply(PlotTimerExpired(29.5))
    match.apply(PlotTimerExpired(30))
    assert match.turn == 2 and match.pieces["red"].y == -14 and match.pieces["blue"].y == 18
    assert match.plot_deadline == 60
    assert {"type": "plot", "player": "blue", "orders": []} in match.view(None)["last_turn"]


def test_no_timer_no_timer_action() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    with pytest.raises(IllegalAction, match="no plot timer"):
        match.apply(PlotTimerExpired(1000))


def test_the_last_ship_standing_wins() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue", "blue:R+180", t=2))  # blue now faces the near edge
    match.apply(plot("red", "red-m1:S8", t=3))
    match.apply(plot("blue", "blue:S8", t=3))  # its post ends at y = 26: off the table
    assert match.phase == Phase.OVER and not match.in_play("blue")
    result = match.result()
    assert result is not None and result.to_json() == {
        "winner": "red",
        "reason": "last-ship",
        "ending": "rules",
        "turns": 2,
        "hits_scored": {"red": 0, "blue": 0},
        "pieces_left": {"red": 11, "blue": 0},
    }
    assert match.view("red")["result"] == result.to_json()
    with pytest.raises(IllegalAction, match="over"):
        match.apply(plot("red", t=4))


def test_a_collision_of_the_last_two_ships_is_a_draw() -> None:
    match = FtlMatch(FtlOptions(), seed=1)
    for t in (1.0, 2.0):  # both sprint: red ends at y = -2, blue at y = 2, never touching
        match.apply(plot("red", "red:S8", t=t))
        match.apply(plot("blue", "blue:S8", t=t))
    assert match.in_play("red") and match.in_play("blue")
    match.apply(plot("red", "red:S8", t=3))
    match.apply(plot("blue", "blue:R+0", t=3))  # blue waits in normal space
    result = match.result()
    assert result is not None and (result.winner, result.reason) == (None, "no-ships")


def test_three_hits_remove_a_ship_and_its_player_is_out() -> None:
    match = FtlMatch(FtlOptions(("red", "blue", "green")), seed=1)
    # Blue has two hits already and stands on red's centre line.
    match.pieces["blue"] = match.pieces["blue"].evolve(hits=2, x=0.0, y=-10.0, heading=0.0)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue", "blue:R+0"))
    match.apply(plot("green", "green:R+0"))
    match.apply(plot("red", "red-m1:S8", t=2))
    match.apply(plot("blue", "blue:R+0", t=2))
    assert match.needs_action("green") and match.turn == 2
    match.apply(plot("green", "green:R+0", t=2))
    assert not match.in_play("blue") and match.pieces["blue"].hits == 3
    assert not match.needs_action("blue") and match.phase == Phase.PLOT
    with pytest.raises(IllegalAction, match="no ship on the table"):
        match.apply(plot("blue", t=3))
    assert [p for p in match.players if match.needs_action(p)] == ["red", "green"]


def test_the_turn_limit_with_nothing_scored_or_lost_is_a_draw() -> None:
    match = FtlMatch(FtlOptions(turn_limit=2), seed=1)
    for t in (1.0, 2.0):
        match.apply(plot("red", "red:L" if t == 1.0 else "red:R+15", t=t))
        match.apply(plot("blue", "blue:L", t=t))
    result = match.result()
    assert result is not None and (result.winner, result.reason, result.turns) == (
        None,
        "turn-limit",
        2,
    )
    assert result.to_json()["ending"] == "turn_limit"
    assert result.pieces_left == {"red": 11, "blue": 11}


def small_table_match(turn_limit: int) -> FtlMatch:
    """Red at (0, -4.5) facing up, blue at (0, 4.5) facing down, on the smallest table."""
    return FtlMatch(FtlOptions(table_size_in=(12.0, 12.0), turn_limit=turn_limit), seed=1)


def test_at_the_turn_limit_the_hit_scored_wins() -> None:
    match = small_table_match(turn_limit=2)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue", "blue:L"))
    match.apply(plot("red", "red-m1:S8", t=2))  # through blue's missile: it lies in wait
    match.apply(plot("blue", "blue-m1:R+0", t=2))
    result = match.result()
    # A missile on a missile: both gone and no hit, so nothing tells the sides apart.
    assert result is not None and result.winner is None
    assert result.pieces_left == {"red": 10, "blue": 10}

    match = small_table_match(turn_limit=2)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue", "blue:R+0"))
    match.apply(plot("red", "red-m1:S8", t=2))
    match.apply(plot("blue", "blue:R+0", t=2))  # in normal space: the missile strikes
    result = match.result()
    assert match.pieces["blue"].hits == 1
    assert result is not None and result.to_json() == {
        "winner": "red",
        "reason": "turn-limit",
        "ending": "turn_limit",
        "turns": 2,
        "hits_scored": {"red": 1, "blue": 0},
        "pieces_left": {"red": 10, "blue": 11},  # the hit outweighs the missile spent
    }
    assert GameOver("red", "turn-limit").to_json() in match.view("blue")["last_turn"]


def test_at_the_turn_limit_with_hits_even_the_pieces_left_decide() -> None:
    match = small_table_match(turn_limit=3)
    match.apply(plot("red", "red:L"))
    match.apply(plot("blue"))
    match.apply(plot("red", "red-m1:R+180", t=2))
    match.apply(plot("blue", t=2))
    match.apply(plot("red", "red-m1:S8", t=3))  # back past red's own ship, off the table
    match.apply(plot("blue", t=3))
    result = match.result()
    assert not match.pieces["red-m1"].on_table
    assert result is not None and (result.winner, result.reason) == ("blue", "turn-limit")
    assert result.hits_scored == {"red": 0, "blue": 0}
    assert result.pieces_left == {"red": 10, "blue": 11}


def test_the_turn_limit_ranks_the_players_still_in_play() -> None:
    assert limit_winner(["a", "b", "c"], {"a": 1, "b": 1}, {"a": 5, "b": 7, "c": 9}) == "b"
    assert limit_winner(["a", "b"], {"a": 1, "b": 1}, {"a": 7, "b": 7}) is None
    assert limit_winner(["a", "c"], {"a": 0, "b": 3}, {"a": 5, "c": 6}) == "c"


@pytest.mark.parametrize(
    "options",
    [
        {"players": ["red"]},
        {"players": ["a", "b", "c", "d", "e"]},
        {"players": ["red", "red"]},
        {"players": ["red", "blue-m1"]},
        {"table_size_in": [6, 48]},
        {"missiles": -1},
        {"missiles": 1.5},
        {"turn_limit": 0},
        {"plot_timer_s": 0},
        {"plot_timer_s": float("nan")},
        {"colour": "red"},
    ],
)
def test_impossible_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        FtlOptions.from_json(options)


def random_match(seed: int, players: tuple[str, ...], turns: int = 40) -> FtlMatch:
    """A match played by random plots (orders drawn with their own seeded generator),
    with some plots replaced or taken back and a timer that sometimes runs out."""
    rng = random.Random(seed)
    match = FtlMatch(FtlOptions(players, table_size_in=(24.0, 24.0), plot_timer_s=10), seed)
    t = 0.0
    while not match.is_over and match.turn <= turns:
        turn = match.turn
        for player in players:
            if not match.in_play(player) or rng.random() < 0.1:
                continue
            entries = tuple(
                f"{piece.id}:{rng.choice(orders_for(piece)).text}"
                for piece in match.pieces_of(player)
                if rng.random() < 0.8
            )
            others = [p for p in players if p != player and match.needs_action(p)]
            if rng.random() < 0.1 and entries and others:
                match.apply(Plot(player, entries[:1], t))
                match.apply(Unplot(player, t))
            t += rng.random()
            match.apply(Plot(player, entries, t))
        if match.turn == turn and not match.is_over:  # somebody did not plot: time runs out
            deadline = match.plot_deadline
            assert deadline is not None
            t = max(t, deadline)
            match.apply(PlotTimerExpired(t))
    return match


def events_json(match: FtlMatch) -> list[dict[str, Any]]:
    stored: list[dict[str, Any]] = json.loads(json.dumps([e.to_json() for e in match.events]))
    return stored


@pytest.mark.parametrize(
    ("seed", "players"),
    [(1, ("red", "blue")), (2, ("red", "blue", "green")), (3, ("a", "b", "c", "d")),
     (4, ("red", "blue"))],
)  # fmt: skip
def test_a_match_replays_its_log_exactly(seed: int, players: tuple[str, ...]) -> None:
    match = random_match(seed, players)
    assert any(e["type"] == "tape" for e in events_json(match))
    record = json.loads(json.dumps(match.record()))
    replayed = FtlMatch.from_record(record)
    assert events_json(replayed) == events_json(match)
    assert replayed.view(None) == match.view(None)
    assert replayed.result() == match.result()
    again = random_match(seed, players)
    assert events_json(again) == events_json(match)
