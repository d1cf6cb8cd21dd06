"""Follows and blocks (issue 69 item 4, ``store/relations.py``): one way, idempotent,
refused for oneself and for no account, capped per account even under 30 parallel
requests, the blocked pairs among a pool's keys in one query, and an account's rows gone
with it, on either side (SQLite, and PostgreSQL when ``SPACETABLE_TEST_POSTGRES_URL`` is
set)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import text

from spacetable.server.store import relations as relations_module
from spacetable.server.store.accounts import Account, AccountStore, password_hasher
from spacetable.server.store.relations import RelationRefused, RelationStore
from spacetable.server.store.storage import Storage
from tests._postgres import postgres_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        made = Storage(f"sqlite:///{tmp_path / 'relations.db'}")
        yield made
        made.close()
        return
    with postgres_schema() as url:
        made = Storage(url)
        yield made
        made.close()


def _accounts(storage: Storage, *names: str) -> list[Account]:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    return [accounts.create(name, "12345678") for name in names]


def test_a_follow_is_one_way_and_listed_by_name(storage: Storage) -> None:
    ann, bob, cid = _accounts(storage, "Ann", "bob", "Cid")
    relations = RelationStore(storage)
    assert relations.follow(ann.key, "BOB") == "bob"
    assert relations.follow(ann.key, "bob") == "bob"  # again: nothing changes
    relations.follow(ann.key, "cid")
    assert relations.following(ann.key) == ["bob", "Cid"]
    assert relations.following(bob.key) == []  # not asked, not following back
    assert relations.unfollow(ann.key, "Bob") == "bob"
    assert relations.unfollow(ann.key, "Bob") == "bob"  # not following: nothing changes
    assert relations.following(ann.key) == ["Cid"]
    assert relations.following(cid.key) == []


def test_oneself_and_no_account_are_refused(storage: Storage) -> None:
    [ann] = _accounts(storage, "Ann")
    relations = RelationStore(storage)
    with pytest.raises(RelationRefused) as oneself:
        relations.block(ann.key, "ann")
    assert oneself.value.status == 400
    with pytest.raises(RelationRefused) as nobody:
        relations.follow(ann.key, "Zed")
    assert nobody.value.status == 404 and "Zed" in str(nobody.value)
    with pytest.raises(RelationRefused) as gone:
        relations.unblock(ann.key, "Zed")
    assert gone.value.status == 404


def test_blocks_say_who_blocks_whom(storage: Storage) -> None:
    ann, bob, cid, dan = _accounts(storage, "Ann", "Bob", "Cid", "Dan")
    relations = RelationStore(storage)
    relations.block(ann.key, "Bob")
    relations.block(dan.key, "Cid")
    assert relations.is_blocked(ann.key, bob.key)
    assert not relations.is_blocked(bob.key, ann.key)
    assert relations.blocks_either(bob.key, ann.key)
    assert not relations.blocks_either(ann.key, cid.key)
    assert not relations.is_blocked(ann.key, "guest:0123")
    keys = [ann.key, bob.key, cid.key, dan.key, "guest:ab"]
    assert relations.blocking_pairs(keys) == {
        frozenset({ann.key, bob.key}),
        frozenset({cid.key, dan.key}),
    }
    assert relations.blocking_pairs([ann.key, cid.key]) == set()
    assert relations.blocking(ann.key) == ["Bob"]
    assert relations.blocked_keys(ann.key) == {bob.key}
    relations.unblock(ann.key, "Bob")
    assert not relations.blocks_either(ann.key, bob.key)
    assert relations.blocked_keys(ann.key) == frozenset()


def test_parallel_follows_never_pass_the_cap(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relations_module, "FOLLOWS_MAX", 5)
    names = [f"Player{i}" for i in range(30)]
    [ann, *_others] = _accounts(storage, "Ann", *names)
    relations = RelationStore(storage)

    def follow(name: str) -> int:
        try:
            relations.follow(ann.key, name)
        except RelationRefused as refused:
            return refused.status
        return 204

    with ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(follow, names))
    assert answers.count(204) == 5 and answers.count(409) == 25
    assert len(relations.following(ann.key)) == 5


def test_thirty_parallel_blocks_of_one_player_block_him_once(storage: Storage) -> None:
    ann, _bob = _accounts(storage, "Ann", "Bob")
    relations = RelationStore(storage)
    with ThreadPoolExecutor(30) as pool:
        names = list(pool.map(lambda _: relations.block(ann.key, "bob"), range(30)))
    assert names == ["Bob"] * 30
    assert relations.blocking(ann.key) == ["Bob"]


def test_a_deleted_accounts_rows_go_on_both_sides(storage: Storage) -> None:
    ann, bob, cid = _accounts(storage, "Ann", "Bob", "Cid")
    relations = RelationStore(storage)
    relations.follow(ann.key, "Bob")
    relations.block(ann.key, "Bob")
    relations.follow(bob.key, "Cid")
    relations.block(bob.key, "Ann")
    relations.follow(cid.key, "Ann")
    AccountStore(storage, password_hasher(cheap=True)).erase(bob)
    with storage.engine.connect() as connection:
        for table in ("follows", "blocks"):
            rows = connection.execute(text(f"SELECT account_id, target_id FROM {table}")).all()
            assert all(bob.id not in row for row in rows), table
    assert relations.following(ann.key) == []
    assert relations.following(cid.key) == ["Ann"]
    # A new account of the same name inherits nothing.
    [again] = _accounts(storage, "Bob")
    assert not relations.blocks_either(ann.key, again.key)
    assert relations.following(again.key) == []
