"""The Swiss arithmetic (``meet/swiss.py``, ``meet/tournaments.py``'s pairer, issue 71
item 2), pure: the points of a place at a table, the table sizes, and a 7-player Light
Speed tournament of 4 rounds at tables of 3 and 4 paired by score groups with as few
repeat meetings as any split allows."""

from __future__ import annotations

import itertools
import random

import pytest

from spacetable.server.meet import swiss
from spacetable.server.meet.tournaments import pairer
from spacetable.server.store.tournaments import Table, Tournament, TournamentPlayer


def test_points_by_place_ties_share() -> None:
    assert swiss.points([1, 2]) == [1.0, 0.0]
    assert swiss.points([1, 1]) == [0.5, 0.5]
    assert swiss.points([2, 1, 3, 4]) == pytest.approx([2 / 3, 1.0, 1 / 3, 0.0])
    assert swiss.points([1, 1, 3]) == pytest.approx([0.75, 0.75, 0.0])


def test_table_sizes() -> None:
    assert swiss.table_sizes(7, 4) == ([4, 3], 0)
    assert swiss.table_sizes(5, 4) == ([4], 1)
    assert swiss.table_sizes(9, 3) == ([3, 3, 3], 0)
    assert swiss.table_sizes(2, 3) == ([], 2)


def _repeats(table: tuple[int, ...], met: dict[frozenset[int], int]) -> int:
    return sum(met.get(frozenset(p), 0) for p in itertools.combinations(table, 2))


def _cost(
    three: tuple[int, ...], order: list[int], met: dict[frozenset[int], int]
) -> tuple[int, int]:
    """A split's repeats at both tables, then table 1's standing places."""
    first = (order[0], *three)
    second = tuple(n for n in order[1:] if n not in three)
    return _repeats(first, met) + _repeats(second, met), sum(order.index(n) for n in three)


def test_seven_player_light_speed_by_score_groups_with_few_repeats() -> None:
    """The rule checked, round by round: tables of 4 and 3; the leader (first of the
    standings: score, tie-breaks, starting number) sits at table 1; and the split has the
    fewest repeat meetings (pairs who sat together before, counted as often as they did)
    of all 20 ways to put three others beside the leader, and among those the best-placed
    table 1 (the smallest sum of standing places): computed here by brute force."""
    tournament = Tournament(
        "t", "LS night", "lightspeed", {}, 4, 4, None, False, 0, "online", "d", "D"
    )
    players = [TournamentPlayer(n, f"k{n}", f"P{n}", 0, 1, False) for n in range(1, 8)]
    rng = random.Random(7)
    tables: list[Table] = []
    for round_ in range(1, 5):
        drafts = pairer(tournament, players, tables)
        seated = [d[0] for d in drafts]
        assert sorted(len(s) for s in seated) == [3, 4] and all(d[2] == "played" for d in drafts)
        games = [swiss.Game(t.round, t.table, t.seats, t.places, t.source) for t in tables]
        order = [
            s.number
            for s in swiss.standings([swiss.Entrant(p.number, p.name) for p in players], games)
        ]
        met: dict[frozenset[int], int] = {}
        for t in tables:
            for pair in itertools.combinations(t.seats, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        leader, others = order[0], order[1:]
        best = min(itertools.combinations(others, 3), key=lambda three: _cost(three, order, met))
        chosen = tuple(n for n in seated[0] if n != leader)
        assert leader in seated[0], (round_, seated, order)
        assert _cost(chosen, order, met) == _cost(best, order, met), (round_, seated, order)
        for i, seats in enumerate(seated, 1):
            places = list(range(1, len(seats) + 1))
            rng.shuffle(places)
            tables.append(Table(round_, i, tuple(seats), tuple(places), "played"))
