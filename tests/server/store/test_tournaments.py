"""Tournaments in the database under parallel bursts (``store/tournaments.py``, issue 71),
two storages on one database standing for two processes: 30 pairings of the same round at
once pair it once; 30 players joining at once get 30 different starting numbers. On SQLite
and PostgreSQL."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator

import pytest

from spacetable.server.meet.tournaments import pairer
from spacetable.server.store.storage import Storage
from spacetable.server.store.tournaments import Tournament, TournamentStore
from tests.server.durable._restart import db

__all__ = ["db"]


@pytest.fixture
def stores(db: str) -> Iterator[list[TournamentStore]]:
    opened = [Storage(db), Storage(db)]
    try:
        yield [TournamentStore(storage) for storage in opened]
    finally:
        for storage in opened:
            storage.close()


def test_thirty_joins_and_thirty_pairings_at_once(stores: list[TournamentStore]) -> None:
    made = Tournament("t1", "Burst", "ftl", {}, 2, 5, None, False, 0.0, "online", "d", "D")
    stores[0].create(made)
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        joined = list(pool.map(lambda i: stores[i % 2].join("t1", f"k{i}", f"P{i}", 0), range(30)))
    assert sorted(number for number, _ in joined) == list(range(1, 31))
    assert stores[0].set_status("t1", "upcoming", "running")
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        paired = list(pool.map(lambda i: stores[i % 2].pair("t1", 0, pairer), range(30)))
    winners = [p for p in paired if p is not None]
    assert len(winners) == 1 and len(winners[0]) == 15
    tables = stores[1].tables("t1")
    assert len(tables) == 15 and stores[1].get("t1").round == 1  # type: ignore[union-attr]
    assert sorted(n for t in tables for n in t.seats) == list(range(1, 31))


def test_starting_numbers_go_by_rating_at_the_start(stores: list[TournamentStore]) -> None:
    """The Swiss convention: the highest rating is number 1, equal ratings by name; a
    player joining after the start is numbered next (and the start happens once)."""
    made = Tournament("t2", "Rated", "ftl", {}, 2, 4, None, True, 0.0, "online", "d", "D")
    stores[0].create(made)
    for key, name, rating in [
        ("k1", "zed", 1500),
        ("k2", "Mira", 1720),
        ("k3", "abel", 1500),
        ("k4", "Noor", 0),
        ("k5", "Bo", 1810),
    ]:
        stores[0].join("t2", key, name, rating)
    assert stores[1].start("t2") and not stores[0].start("t2")
    numbered = [(p.number, p.name) for p in stores[1].players("t2")]
    assert numbered == [(1, "Bo"), (2, "Mira"), (3, "abel"), (4, "zed"), (5, "Noor")]
    assert stores[0].join("t2", "k6", "Late", 2000) == (6, 0)
