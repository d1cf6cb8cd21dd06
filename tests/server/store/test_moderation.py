"""Reports, moderators and sanctions in the database (``store/moderation.py``), on SQLite
and PostgreSQL, through two stores on one database as two processes of a cluster have:
30 reports of one account sent at once from both file exactly the hour's 5; 30 logins
racing a ban leave no session open once the ban is written, and every login after it is
refused; a sanction with an end stops by itself; an account deleted takes its reports,
role and sanctions with it while the audit log keeps its name."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import text

from spacetable.server.store.accounts import AccountBanned, AccountStore, password_hasher
from spacetable.server.store.moderation import REPORTS_PER_HOUR, ModerationStore
from spacetable.server.store.storage import Storage
from tests._postgres import postgres_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'moderation.db'}"
        return
    with postgres_schema() as found:
        yield found


@pytest.fixture
def stores(url: str) -> Iterator[tuple[Storage, Storage]]:
    """Two storages of one database, as two processes have."""
    first, second = Storage(url), Storage(url)
    yield first, second
    first.close()
    second.close()


def test_thirty_reports_at_once_from_two_processes_file_the_hours_five(
    stores: tuple[Storage, Storage],
) -> None:
    accounts = AccountStore(stores[0], password_hasher(cheap=True))
    ann, bob = accounts.create("Ann", "12345678"), accounts.create("Bob", "12345678")
    both = [ModerationStore(storage) for storage in stores]

    def report(i: int) -> int | None:
        return both[i % 2].report(ann, bob, "spam", None, f"line {i}")

    with ThreadPoolExecutor(30) as pool:
        filed = [found for found in pool.map(report, range(30)) if found is not None]
    assert len(filed) == REPORTS_PER_HOUR
    assert sorted(r["id"] for r in both[1].reports()) == sorted(filed)


def test_no_session_outlives_a_ban_that_races_thirty_logins(
    stores: tuple[Storage, Storage],
) -> None:
    accounts = [AccountStore(storage, password_hasher(cheap=True)) for storage in stores]
    bob = accounts[0].create("Bob", "12345678")
    mira = ModerationStore(stores[1])

    def login(i: int) -> str | None:
        if i == 15:
            mira.sanction(bob, "ban", None, "threats", "Mira")
            return None
        try:
            return accounts[i % 2].open_session(bob)
        except AccountBanned:
            return None

    with ThreadPoolExecutor(30) as pool:
        sessions = [s for s in pool.map(login, range(30)) if s is not None]
    # Every session opened before the ban went with it; none opened after.
    assert all(accounts[1].session_account(s) is None for s in sessions)
    with stores[0].engine.connect() as connection:
        left = connection.execute(text("SELECT COUNT(*) FROM sessions")).scalar()
    assert left == 0
    with pytest.raises(AccountBanned):
        accounts[0].open_session(bob)


def test_a_sanction_with_an_end_stops_by_itself(stores: tuple[Storage, Storage]) -> None:
    now = [1000.0]
    accounts = AccountStore(stores[0], password_hasher(cheap=True), lambda: now[0])
    bob = accounts.create("Bob", "12345678")
    store = ModerationStore(stores[0], lambda: now[0])
    store.sanction(bob, "ban", now[0] + 3600, "cool down", "Mira")
    store.sanction(bob, "mute", None, "spam", "Mira")
    assert {(s.kind, s.until) for s in store.sanctions()} == {("mute", None), ("ban", 4600.0)}
    with pytest.raises(AccountBanned):
        accounts.open_session(bob)
    now[0] += 3601
    assert accounts.open_session(bob)
    assert [s.kind for s in store.sanctions()] == ["mute"]


def test_a_deleted_account_takes_its_reports_and_sanctions_the_log_keeps_its_name(
    stores: tuple[Storage, Storage],
) -> None:
    accounts = AccountStore(stores[0], password_hasher(cheap=True))
    ann, bob = accounts.create("Ann", "12345678"), accounts.create("Bob", "12345678")
    store = ModerationStore(stores[0])
    store.report(ann, bob, "abuse", "room1234", "insults")
    store.grant(bob)
    store.sanction(bob, "mute", None, "spam", "console")
    assert accounts.delete(bob, "12345678")
    assert store.reports() == []
    assert store.sanctions() == []
    assert [(e["action"], e["target"]) for e in store.audit()] == [
        ("mute", "Bob"),
        ("grant", "Bob"),
    ]
    # Someone who takes the name later is nobody's moderator and not muted.
    again = accounts.create("Bob", "12345678")
    assert not store.is_moderator(again)
    assert store.standing(again, "mute") is None
