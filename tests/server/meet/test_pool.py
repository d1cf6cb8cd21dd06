"""Which seeks the pairing pool seats together (``meet/pool.py``'s ``tables``, issue 69
item 2): the closest ratings first, the allowed gap widening with the wait, ranges
respected, blocked players and a player with himself never, a table of three waiting for
three, and seeks of other paces or rated flags apart."""

from __future__ import annotations

from itertools import count

from spacetable.server.meet.pool import BASE_GAP, GAP_PER_MINUTE, allowed_gap, tables
from spacetable.server.store.meetings import Seek

NOW = 10_000.0
_ids = count()


def seek(
    player: str,
    rating: float,
    *,
    waited: float = 0.0,
    seats: int = 2,
    rated: bool = True,
    hours: float | None = None,
    span: tuple[float | None, float | None] = (None, None),
    game: str = "lightspeed",
) -> Seek:
    n = next(_ids)
    return Seek(f"s{n}", player, player, game, seats, rated, hours, rating, *span, NOW - waited)


def players(found: list[list[Seek]]) -> list[set[str]]:
    return [{s.player for s in table} for table in found]


def test_the_closest_ratings_sit_together_first() -> None:
    seeks = [seek("a", 0.0), seek("b", 10.5), seek("c", 1.0), seek("d", 11.0)]
    assert players(tables(seeks, NOW, set())) == [{"b", "d"}, {"a", "c"}]  # 0.5 apart, then 1
    # Of three within the gap, the two nearest play; the third waits.
    seeks = [seek("a", 5.0), seek("b", 6.5), seek("c", 6.0)]
    assert players(tables(seeks, NOW, set())) == [{"b", "c"}]


def test_the_allowed_gap_widens_with_the_wait() -> None:
    assert allowed_gap(0) == BASE_GAP
    assert allowed_gap(60) == BASE_GAP + GAP_PER_MINUTE
    # Ten points apart: nobody at first; once the longer wait makes the gap 10, paired.
    waited = (10 - BASE_GAP) / GAP_PER_MINUTE * 60
    assert tables([seek("a", 0.0), seek("b", 10.0)], NOW, set()) == []
    early = [seek("a", 0.0, waited=waited - 1), seek("b", 10.0)]
    assert tables(early, NOW, set()) == []
    late = [seek("a", 0.0, waited=waited + 1), seek("b", 10.0)]
    assert players(tables(late, NOW, set())) == [{"a", "b"}]


def test_players_who_block_each_other_are_never_paired() -> None:
    seeks = [seek("a", 1.0), seek("b", 1.0), seek("c", 2.5)]
    assert players(tables(seeks, NOW, {frozenset({"a", "b"})})) == [{"a", "c"}]
    # However long they wait.
    alone = [seek("a", 1.0, waited=3600), seek("b", 1.0, waited=3600)]
    assert tables(alone, NOW, {frozenset({"a", "b"})}) == []


def test_a_player_is_never_paired_with_himself() -> None:
    assert tables([seek("a", 1.0), seek("a", 1.0)], NOW, set()) == []


def test_each_player_s_range_is_respected_both_ways() -> None:
    picky = seek("a", 20.0, waited=3600, span=(25.0, None))
    assert tables([picky, seek("b", 21.0)], NOW, set()) == []
    assert players(tables([picky, seek("b", 26.0)], NOW, set())) == [{"a", "b"}]
    capped = seek("b", 26.0, span=(None, 19.0))  # b wants nobody above 19
    assert tables([picky, capped], NOW, set()) == []


def test_a_table_of_three_waits_for_three_of_three() -> None:
    threes = [seek("a", 1.0, seats=3), seek("b", 1.5, seats=3)]
    assert tables([*threes, seek("c", 1.2)], NOW, set()) == []  # c seeks 2 seats
    found = tables([*threes, seek("c", 1.2, seats=3)], NOW, set())
    assert players(found) == [{"a", "b", "c"}]
    fours = [seek(p, 3.0, seats=4, game="stellar") for p in "wxyz"]
    assert players(tables(fours, NOW, set())) == [{"w", "x", "y", "z"}]


def test_other_paces_rated_flags_and_games_are_kept_apart() -> None:
    assert tables([seek("a", 1.0), seek("b", 1.0, rated=False)], NOW, set()) == []
    assert tables([seek("a", 1.0, hours=24), seek("b", 1.0, hours=48)], NOW, set()) == []
    assert tables([seek("a", 1.0), seek("b", 1.0, game="stellar")], NOW, set()) == []
    casual = [seek("a", 1.0, rated=False, hours=24), seek("b", 1.0, rated=False, hours=24)]
    assert players(tables(casual, NOW, set())) == [{"a", "b"}]


def test_a_table_lists_its_seeks_in_the_order_they_came() -> None:
    late, early = seek("late", 1.0, waited=1), seek("early", 1.0, waited=9)
    [table] = tables([late, early], NOW, set())
    assert [s.player for s in table] == ["early", "late"]


def test_among_many_seeks_blocked_neighbours_are_skipped_and_nobody_sits_twice() -> None:
    many = [seek(f"p{n:02d}", n * 0.1) for n in range(40)]  # past every combination's count
    blocked = {frozenset({f"p{n:02d}", f"p{n + 1:02d}"}) for n in range(39)}
    found = tables(many, NOW, blocked)
    seated = [s.player for table in found for s in table]
    assert len(seated) == len(set(seated))  # nobody twice
    assert len(found) >= 18  # closest first, greedily: a pair or two may wait a round
    assert not any(frozenset(s.player for s in table) in blocked for table in found)
