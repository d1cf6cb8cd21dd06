"""The accounts' tables and the schema's migrations (issue 37 item 1): a database made
before the migrations (without ``alembic_version``, even without issue 19's ``chat``
column) upgrades in place and keeps its matches; a database at the newest revision opens
without loading Alembic; the same on PostgreSQL with a rated match (skipped
without ``SPACETABLE_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect, text

from spacetable.server.store.accounts import AccountStore, password_hasher
from spacetable.server.store.migrations import HEAD, current_revision
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.storage import Storage, StoredMatch
from tests._postgres import postgres_schema

#: The ``matches`` table as the first release made it (no ``chat``).
OLD_SCHEMA = """
CREATE TABLE matches (
    id VARCHAR(64) NOT NULL PRIMARY KEY, room VARCHAR(64) NOT NULL,
    ruleset VARCHAR(32) NOT NULL, options JSON NOT NULL, seats JSON NOT NULL,
    seed INTEGER NOT NULL, actions JSON NOT NULL, events JSON NOT NULL,
    result JSON NOT NULL, started_at FLOAT NOT NULL, finished_at FLOAT NOT NULL
)
"""


def old_database(path: Path) -> str:
    url = f"sqlite:///{path}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(OLD_SCHEMA))
        seats = json.dumps([{"seat": 0, "player": "ann"}, {"seat": 1, "player": "bob"}])
        connection.execute(
            text(
                "INSERT INTO matches VALUES ('old', 'r', 'lightspeed', '{}', :seats, 7, '[]',"
                " '[]', '{\"winner\": \"ann\"}', 1.0, 2.0)"
            ),
            {"seats": seats},
        )
    engine.dispose()
    return url


def test_a_database_made_before_the_migrations_upgrades_in_place(tmp_path: Path) -> None:
    url = old_database(tmp_path / "old.db")
    storage = Storage(url)
    try:
        assert current_revision(storage.engine) == HEAD
        tables = set(inspect(storage.engine).get_table_names())
        assert {"matches", "accounts", "sessions", "alembic_version"} <= tables
        old = storage.get("old")
        assert old is not None and old.result == {"winner": "ann"} and old.chat == []
        accounts = AccountStore(storage, password_hasher(cheap=True))
        made = accounts.create("Ann", "12345678")
        assert accounts.verify("ann", "12345678") == made
    finally:
        storage.close()
    again = Storage(url)  # opened again: nothing left to do
    assert current_revision(again.engine) == HEAD
    again.close()


def test_a_database_at_the_newest_revision_opens_without_loading_alembic(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    Storage(url).close()  # made from nothing by the migrations
    code = (
        "import sys\nfrom spacetable.server.store.storage import Storage\n"
        f"Storage({url!r}).close()\nprint('alembic' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_accounts_on_postgresql() -> None:
    with postgres_schema() as url:
        storage = Storage(url)
        try:
            assert current_revision(storage.engine) == HEAD
            accounts = AccountStore(storage, password_hasher(cheap=True))
            made = accounts.create("Émile", "12345678")
            assert accounts.find("ÉMILE") == made
            session_id = accounts.open_session(made)
            assert accounts.session_account(session_id) == made
            accounts.revoke(session_id)
            assert accounts.session_account(session_id) is None
            # A rated match, and the account deleted with its rows (no cascade needed).
            ratings = RatingBook(storage, accounts)
            accounts.create("Zoé", "12345678")
            seats = [
                {"player": name, "registered": True, "account": name.casefold()}
                for name in ("Émile", "Zoé")
            ]
            match = StoredMatch("pg", "r", "lightspeed", {}, seats, 1, [], [], {"winner": "Zoé"})
            storage.save(match)
            storage.save(match)  # once
            board = ratings.leaderboard("lightspeed")
            assert [(p["name"], p["matches"]) for p in board] == [("Zoé", 1), ("Émile", 1)]
            assert accounts.delete(made, "12345678") and accounts.find("émile") is None
            assert [p["name"] for p in ratings.leaderboard("lightspeed")] == ["Zoé"]
            kept = storage.get("pg")
            assert kept is not None and kept.seats[0]["player"] == "anonymous"
        finally:
            storage.close()
