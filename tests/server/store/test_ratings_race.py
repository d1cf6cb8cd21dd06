"""Ratings under PostgreSQL (issue 67 item 11): two processes storing two matches of one
account at the same instant both count. Each process is a storage of its own (its own
engine, its own connections) on one database; the first is held right after it read the
account's rating, the second is let run, and the first goes on only once the second either
read the rating too (the lost update: both then write what they computed from the same
old rating) or waits on PostgreSQL's lock for it (it then reads the first one's result).
No sleeps: the test polls PostgreSQL's own view of who waits on a lock."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import text

from spacetable.server.store import ratings as ratings_module
from spacetable.server.store.accounts import AccountStore, password_hasher
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.storage import Storage
from tests._postgres import postgres_schema
from tests.server.store.test_ratings import seat, stored

MODEL = PlackettLuce()
#: How long a step may take before the test gives up (a safety net: no step waits on it).
PATIENCE = 60.0


class _HeldModel:
    """openskill's model, except that the store named ``held`` stops in ``rate`` (after it
    read the ratings, before it writes them) until ``go`` is set; every store tells
    ``read`` when it got there."""

    def __init__(self) -> None:
        self.read = {name: threading.Event() for name in ("first", "second")}
        self.go = threading.Event()

    def rating(self, **kwargs: Any) -> Any:
        return MODEL.rating(**kwargs)

    def rate(self, teams: Any, **kwargs: Any) -> Any:
        name = threading.current_thread().name
        if name in self.read:
            self.read[name].set()
            if name == "first":
                assert self.go.wait(PATIENCE)
        return MODEL.rate(teams, **kwargs)


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as found:
        yield found


def test_two_matches_of_one_account_stored_at_once_both_move_his_rating(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_store, second_store = Storage(url), Storage(url)
    try:
        accounts = AccountStore(first_store, password_hasher(cheap=True))
        for name in ("ann", "bob", "cyd"):
            accounts.create(name, "12345678")
        books = [
            RatingBook(first_store, accounts),
            RatingBook(second_store, AccountStore(second_store, password_hasher(cheap=True))),
        ]
        # Ann is rated already: both stores will read her rating row, then write it.
        first_store.save(stored("m0", [seat("ann"), seat("bob")], {"winner": "ann"}, 1.0))
        held = _HeldModel()
        monkeypatch.setattr(ratings_module, "MODEL", held)
        failures: list[BaseException] = []

        def store(storage: Storage, match_id: str, other: str, at: float) -> None:
            try:
                match = stored(match_id, [seat("ann"), seat(other)], {"winner": "ann"}, at)
                storage.save(match)
            except BaseException as exc:  # reported by the test's thread
                failures.append(exc)

        first = threading.Thread(target=store, args=(first_store, "m1", "bob", 2.0), name="first")
        second = threading.Thread(
            target=store, args=(second_store, "m2", "cyd", 3.0), name="second"
        )
        first.start()
        assert held.read["first"].wait(PATIENCE)
        second.start()
        # The second store either reads Ann's rating too or waits on a lock for it.
        waiting = text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        with first_store.engine.connect() as watcher:
            for _ in range(int(PATIENCE * 100)):
                if held.read["second"].wait(0.01) or watcher.scalar(waiting):
                    break
            else:
                pytest.fail("the second store neither read the rating nor waited on a lock")
        held.go.set()
        first.join(PATIENCE)
        second.join(PATIENCE)
        assert not failures
        monkeypatch.setattr(ratings_module, "MODEL", MODEL)
        ann = accounts.find("ann")
        assert ann is not None
        [rating] = books[0].ratings_of(ann)
        # Three matches won, each counted: none lost to the other store's write.
        assert (rating.matches, rating.wins) == (3, 3)
    finally:
        first_store.close()
        second_store.close()
