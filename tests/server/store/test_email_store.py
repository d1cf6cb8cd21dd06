"""The e-mail addresses and their tokens in the database (``store/email.py``, migration
``0010_email``; issue 70), on SQLite and on PostgreSQL: 30 parallel requests for links to
one account, or to one address, get the hour's mails and no more (one conditional
``INSERT``); 30 parallel uses of one token use it once (one conditional ``UPDATE``); a
reset sets the password and ends the sessions in the same transaction; a deleted
account's address and tokens go with it; a digest is taken once, at its hour in its
time zone, by one of several sweeps at once."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from spacetable.server.store.accounts import AccountStore, password_hasher
from spacetable.server.store.email import MAILS_PER_HOUR, RESET, VERIFY, EmailStore, Reset
from spacetable.server.store.storage import Storage
from tests._postgres import postgres_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        stored = Storage(f"sqlite:///{tmp_path / 'email.db'}")
        yield stored
        stored.close()
        return
    with postgres_schema() as url:
        stored = Storage(url)
        yield stored
        stored.close()


def test_thirty_parallel_requests_get_the_hour_s_links_and_one_use_each(storage: Storage) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    ann = accounts.create("Ann", "correct horse")
    emails = EmailStore(storage)
    first = emails.set_address(ann.id, "ann@example.org")
    assert first and emails.verify(first) == ann.id

    def ask(_: int) -> str | None:
        mailing = emails.reset_mailing("ann")
        return None if mailing is None else mailing.token

    with ThreadPoolExecutor(30) as pool:
        tokens = [t for t in pool.map(ask, range(30)) if t is not None]
    assert len(tokens) == MAILS_PER_HOUR[RESET]
    with ThreadPoolExecutor(30) as pool:
        used = list(pool.map(lambda _: emails.reset_password(tokens[0], "hash"), range(30)))
    assert used.count(Reset("ann")) == 1
    assert set(used) - {Reset("ann")} == {"used"}
    # The reset set the hash, and spent the account's other reset links.
    assert emails.reset_password(tokens[1], "other") == "used"
    with storage.engine.connect() as connection:
        assert connection.execute(text("SELECT password_hash FROM accounts")).scalar_one() == "hash"
    # Verification links too: the hour's for the account, whatever was asked at once.
    with ThreadPoolExecutor(30) as pool:
        given = list(pool.map(lambda n: emails.set_address(ann.id, f"a{n}@example.org"), range(30)))
    assert sum(1 for t in given if t) == MAILS_PER_HOUR[VERIFY] - 1  # (one went earlier)


def test_thirty_accounts_giving_one_address_at_once_get_the_address_s_hourly_links(
    storage: Storage,
) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    ids = [
        accounts.create(f"Pilot{chr(97 + n % 26)}{chr(97 + n // 26)}", "correct horse").id
        for n in range(30)
    ]
    emails = EmailStore(storage)
    with ThreadPoolExecutor(30) as pool:
        given = list(pool.map(lambda i: emails.set_address(i, "target@example.org"), ids))
    assert sum(1 for t in given if t) == MAILS_PER_HOUR[VERIFY]


def test_a_reset_ends_the_sessions_and_a_deletion_takes_the_address(storage: Storage) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    ann = accounts.create("Ann", "correct horse")
    session = accounts.open_session(ann)
    emails = EmailStore(storage)
    token = emails.set_address(ann.id, "ann@example.org")
    assert token and emails.verify(token) == ann.id
    mailing = emails.reset_mailing("ANN@example.org")
    assert mailing is not None and mailing.address == "ann@example.org"
    done = emails.reset_password(mailing.token, accounts.hash_password("new horse battery"))
    assert done == Reset("ann")
    assert accounts.session_account(session) is None
    assert accounts.verify("Ann", "new horse battery") is not None
    accounts.erase(ann)
    with storage.engine.connect() as connection:
        for table in ("email_addresses", "email_tokens"):
            assert connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one() == 0


def test_a_digest_is_due_once_a_day_at_its_hour_in_its_time_zone(storage: Storage) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    ann = accounts.create("Ann", "correct horse")
    # 2026-03-02 06:30 UTC is 07:30 in Paris.
    now = [datetime(2026, 3, 2, 6, 30, tzinfo=UTC).timestamp()]
    emails = EmailStore(storage, lambda: now[0])
    token = emails.set_address(ann.id, "ann@example.org")
    assert token and emails.verify(token) == ann.id
    assert emails.set_digest(ann.id, 8, "Europe/Paris", "fr")
    assert emails.due_digests() == []  # 07:30 in Paris: not yet
    now[0] += 45 * 60  # 08:15 in Paris
    with ThreadPoolExecutor(10) as pool:  # ten processes sweeping at once: one sends it
        taken = [d for found in pool.map(lambda _: emails.due_digests(), range(10)) for d in found]
    assert [(d.key, d.address, d.lang) for d in taken] == [("ann", "ann@example.org", "fr")]
    now[0] += 3600.0
    assert emails.due_digests() == []  # once a day
    now[0] += 23 * 3600.0  # the next day's 08:15
    (tomorrow,) = emails.due_digests()
    assert emails.unsubscribe(tomorrow.unsubscribe)
    now[0] += 86400.0
    assert emails.due_digests() == []  # unsubscribed
    assert not emails.unsubscribe("not-a-token-at-all")
