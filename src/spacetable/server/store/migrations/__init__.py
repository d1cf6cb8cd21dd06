"""The database's schema, as Alembic migrations (``versions/``): ``0001_matches`` (the
finished matches), ``0002_accounts`` (accounts and their sessions), ``0003_ratings``
(ratings, and the matches each account played), ``0004_deadlines`` (the correspondence
turns' deadlines of the live rooms), ``0005_room_accounts`` (the accounts seated in each
correspondence room); ``columns.py``, the columns several of them write.
:func:`migrate` brings a database to the newest revision when a
:class:`~spacetable.server.store.storage.Storage` opens it.

Alembic is imported only when a database needs migrating: a database already at
:data:`HEAD` is recognised with one query, so a server starts without loading it. A
database made before the migrations existed (a ``matches`` table, no ``alembic_version``)
is brought up to the first revision's schema by the caller's ``legacy`` step (the columns
added since, ``storage.py``) and stamped ``0001_matches``, then upgraded from there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, inspect, text

#: The newest revision (the last of ``versions/``).
HEAD = "0005_room_accounts"
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
    :data:`BASELINE`; an empty one is built by every revision in turn."""
    if current_revision(engine) == HEAD:
        return  # nothing to do: Alembic is not even imported
    from alembic import command  # lazily: hundreds of milliseconds, needed only here
    from alembic.config import Config

    with engine.connect() as connection:
        present = inspect(connection)
        unstamped = not present.has_table("alembic_version") and present.has_table("matches")
    if unstamped and legacy is not None:
        legacy(engine)  # before the migration's transaction: it writes on its own
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(_HERE))
        config.attributes["connection"] = connection
        if unstamped:
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")
