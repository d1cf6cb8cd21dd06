"""The database's schema, as Alembic migrations (``versions/``): ``0001_matches`` (the
finished matches), ``0002_accounts`` (accounts and their sessions), ``0003_ratings``
(ratings, and the matches each account played), ``0004_deadlines`` (the correspondence
turns' deadlines of the live rooms), ``0005_room_accounts`` (the accounts seated in each
correspondence room), ``0006_name_skeletons`` (what look-alike account names share),
``0010_email`` (e-mail addresses and their tokens: issue 70), ``0011_notifications``
(the accounts' notifications, push subscriptions and the VAPID key: issue 70),
``0012_tournaments`` (Swiss tournaments, their players and tables: issue 71),
``0014_notify_choices`` (which kinds each account is pushed, and its switch that turns
every push and the digest off: issue 70), ``0015_bot_api`` (the bot API's personal access
tokens: issue 72), ``0016_bot_accounts`` (which accounts are bot accounts: issue 72);
``columns.py``, the columns several of them write.
:func:`migrate` brings a database to the newest revision when a
:class:`~spacetable.server.store.storage.Storage` opens it.

Alembic is imported only when a database needs migrating: a database already at
:data:`HEAD` is recognised with one query, so a server starts without loading it. A
database made before the migrations existed (a ``matches`` table, no ``alembic_version``)
is brought up to the first revision's schema by the caller's ``legacy`` step (the columns
added since, ``storage.py``) and stamped ``0001_matches``, then upgraded from there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

#: The newest revision (the last of ``versions/``).
HEAD = "0016_bot_accounts"
#: The revision a database made before the migrations is stamped with.
BASELINE = "0001_matches"
_HERE = Path(__file__).parent


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: no ``alembic_version`` table, or empty)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine, legacy: Callable[[Engine], None] | None = None) -> None:
    """Bring the database to :data:`HEAD`. A database with a ``matches`` table but no
    revision is first given ``legacy`` (the columns an older release lacked) and stamped
    :data:`BASELINE`; an empty one is built by every revision in turn.

    Processes that open one new database at once (``serve --workers``) migrate it one at a
    time (:func:`_one_at_a_time`): the first builds it, the others find it at :data:`HEAD`
    once they get the lock. Without it, one could stamp a database another was building
    (SQLite's driver runs each ``CREATE TABLE`` outside the transaction, so the tables show
    before their revision does), and ``alembic_version`` ended with two revisions."""
    if current_revision(engine) == HEAD:
        return  # nothing to do: Alembic is not even imported
    from alembic import command  # lazily: hundreds of milliseconds, needed only here
    from alembic.config import Config

    with engine.connect() as connection:
        present = inspect(connection)
        unstamped = not present.has_table("alembic_version") and present.has_table("matches")
    if unstamped and legacy is not None:
        legacy(engine)  # before the migration's transaction: it writes on its own
    with engine.begin() as connection, _one_at_a_time(connection):
        present = inspect(connection)
        if present.has_table("alembic_version"):
            found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            if found == HEAD:
                return  # another process migrated it while this one waited
        unstamped = not present.has_table("alembic_version") and present.has_table("matches")
        config = Config()
        config.set_main_option("script_location", str(_HERE))
        config.attributes["connection"] = connection
        if unstamped:
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")


#: How long a process waits for another's migration of the same database (seconds).
MIGRATION_WAIT_SECONDS = 60
#: The key of PostgreSQL's advisory lock held while a process migrates.
_MIGRATION_LOCK = 0x5370_6163  # "Spac"


@contextlib.contextmanager
def _one_at_a_time(connection: Connection) -> Iterator[None]:
    """Hold the database's migration lock for the rest of ``connection``'s transaction:
    PostgreSQL's advisory lock; SQLite's write lock (``BEGIN IMMEDIATE``), waited for up to
    :data:`MIGRATION_WAIT_SECONDS` instead of the live writes' quarter of a second."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        yield
        return
    if connection.dialect.name != "sqlite":
        yield
        return
    before = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
    connection.exec_driver_sql(f"PRAGMA busy_timeout = {MIGRATION_WAIT_SECONDS * 1000}")
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        yield
    finally:
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {int(before or 0)}")
