"""Match storage: every finished match with its seed and action log, enough to replay it.

SQLite in the user's data directory by default; any SQLAlchemy URL works (a
``postgresql://`` URL uses psycopg). This is the storage seam of DESIGN section 6: the
server only calls :class:`Storage`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import time
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson
import platformdirs
from sqlalchemy import (
    JSON,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    and_,
    cast,
    create_engine,
    event,
    func,
    inspect,
    or_,
    select,
    text,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.expression import Executable

log = logging.getLogger(__name__)

#: Seconds a SQLite write waits for another connection's lock before it fails.
SQLITE_BUSY_SECONDS = 0.25

#: The same wait for the writes made on threads, off the event loop
#: (:attr:`Storage.threads_engine`): a burst of them, or a loaded machine that holds the
#: writer off the processor, may keep the file's lock longer than a quarter second.
SQLITE_THREADS_BUSY_SECONDS = 5.0

#: The most matches one page of the match list holds.
PAGE_LIMIT = 200


def default_db_url() -> str:
    """SQLite in the user's data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("spacetable", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'spacetable.db'}"


def normalise_url(url: str) -> str:
    """Map a plain ``postgresql://`` URL to the psycopg driver SQLAlchemy should use, and a
    plain file path (``matches.db``, ``~/games/spacetable.db``) to that SQLite file."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_digest(secret: str) -> str:
    """What a database keeps of a secret (a session id, a seat token): its SHA-256 digest,
    never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


class _Base(DeclarativeBase):
    pass


class _MatchRow(_Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    room: Mapped[str] = mapped_column(String(64), index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    actions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float] = mapped_column(Float, index=True)
    # Added by issue 19: databases made before it get the column from _add_missing_columns.
    chat: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)


_MATCHES = typing.cast(SqlTable, _MatchRow.__table__)


@dataclass(slots=True)
class StoredMatch:
    """One finished match as stored: who sat where, the seed, every action with its
    server time (seconds since the match began), the event log and the result."""

    id: str
    room: str
    ruleset: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    result: dict[str, Any]
    started_at: float = field(default_factory=time.time)
    finished_at: float = field(default_factory=time.time)
    #: What was said at the table during the match, oldest first: ``t`` (match seconds),
    #: ``seat`` (``None``: a spectator), ``name``, ``channel`` ("players" or
    #: "spectators"), ``text`` (free text) or ``quick`` (a quick message's id).
    chat: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The match as a JSON object (what ``/api/matches/{id}`` returns): every field,
        in the order declared (the stored row's columns are the same names)."""
        return {name: getattr(self, name) for name in _MATCH_FIELDS}

    def summary(self) -> dict[str, Any]:
        """A short description for the match list."""
        return _summary(self.id, self.ruleset, self.seats, self.result, self.finished_at)


#: The fields of a stored match, in order.
_MATCH_FIELDS = tuple(f.name for f in fields(StoredMatch))


def _summary(
    match_id: str,
    ruleset: str,
    seats: list[dict[str, Any]],
    result: dict[str, Any],
    finished_at: float,
) -> dict[str, Any]:
    return {
        "id": match_id,
        "ruleset": ruleset,
        "players": [seat.get("player") or seat.get("name") for seat in seats],
        # Whose seat an account held (his page: /players/{name}); never a guest's or a bot's,
        # nor a deleted account's (store/anonymous.py).
        "registered": [bool(seat.get("registered")) for seat in seats],
        "scores": result.get("scores", {}),
        "winner": result.get("winner"),
        "turns": result.get("turns"),  # games played in turns (FTL, hex fleet)
        "strength": result.get("strength"),  # hex fleet: each side's systems left, 0..1
        # How it ended (core/endings.py): matches stored before issue 19 ended by the rules.
        "ending": result.get("ending", "rules"),
        "ending_by": result.get("ending_by"),
        "finished_at": finished_at,
    }


class UnknownMatch(LookupError):
    """A match id that names no stored match (a list page's cursor, say)."""


class StorageUnavailable(RuntimeError):
    """The database cannot be reached now (down, restarting, locked): worth trying again
    later, unlike a row the database refuses."""


@contextlib.contextmanager
def reaching() -> Iterator[None]:
    """Turn the driver's "cannot reach the database" errors into StorageUnavailable."""
    try:
        yield
    except (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError) as exc:
        first_line = str(exc.orig if isinstance(exc, sa_exc.DBAPIError) else exc).strip()
        raise StorageUnavailable(first_line.split("\n", 1)[0]) from exc


#: How many times :func:`create_tables` tries before it gives up.
_SCHEMA_TRIES = 4


def create_tables(
    engine: Engine, metadata: MetaData, then: Callable[[Engine], None] | None = None
) -> None:
    """Create the tables of ``metadata`` the database lacks, then run ``then`` (a migration).

    Several processes that start on one database at once (``serve --workers``, a rolling
    deploy) race to create the same tables: each looks, finds none, and all but one fail
    with "table already exists" (or "database is locked" while SQLite's first writer holds
    it). Such a failure is tried again after a short pause, when the look finds the tables
    made; a database that still refuses after :data:`_SCHEMA_TRIES` tries raises."""
    for attempt in range(1, _SCHEMA_TRIES + 1):
        try:
            metadata.create_all(engine)
            if then is not None:
                then(engine)
            return
        except (sa_exc.DatabaseError, StorageUnavailable):
            if attempt == _SCHEMA_TRIES:
                raise
            time.sleep(0.05 * attempt)


def upsert(connection: Connection, table: SqlTable, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` into ``table``, each replacing the row with its primary key if there
    is one: one ``INSERT ... ON CONFLICT DO UPDATE`` (SQLite and PostgreSQL say it alike).
    The ORM's ``merge`` read each row first and ran its unit of work."""
    connection.execute(upsert_statement(connection.dialect.name, table), rows)


@functools.cache
def upsert_statement(dialect_name: str, table: SqlTable) -> Executable:
    """:func:`upsert`'s statement for ``table`` in a database of ``dialect_name``."""
    from sqlalchemy.dialects import postgresql, sqlite

    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(table)
    keys = sorted(column.name for column in table.primary_key)
    replaced = {
        column.name: statement.excluded[column.name]
        for column in table.columns
        if column.name not in keys
    }
    upserting: Executable = statement.on_conflict_do_update(index_elements=keys, set_=replaced)
    return upserting


def _json_text(value: Any) -> str:
    """A JSON column's text (numpy numbers as plain numbers, dictionary keys as text)."""
    return orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS).decode()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """A write-ahead log, synced at checkpoints rather than at every commit: a server saves
    a match every few seconds under load, and readers never wait for writers. A crash of
    the machine (not of the server) may lose the last matches saved; never corrupts."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Storage:
    """Stores and reads finished matches. Each save is one transaction."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_db_url())
        # A SQLite file another connection writes is waited for this long, then counts as
        # away (StorageUnavailable: the room says so and tries again). The live rooms
        # write a file from the event loop (``group_commit.py``), which must not stand
        # still for the driver's default 5 s; a save of a match holds the lock for a few
        # milliseconds.
        self._closed = False
        self._engine = self._new_engine(SQLITE_BUSY_SECONDS)
        self._threads_engine: Engine | None = None
        # The schema is Alembic's (store/migrations): an older database upgrades in place.
        create_tables(self._engine, MetaData(), _migrate)
        #: Run in each save's transaction, after the match is written (the accounts'
        #: ratings: ``ratings.py``); one that fails is rolled back alone and logged.
        self.on_save: list[Callable[[Session, StoredMatch], None]] = []

    def _new_engine(self, sqlite_busy_seconds: float) -> Engine:
        """An engine on the database; a SQLite write waits ``sqlite_busy_seconds`` for
        another connection's lock."""
        # A pooled connection may have died with the database server (a PostgreSQL
        # restart): test each one as it is taken, so the first save after it does not fail.
        # Not SQLite's: a file does not go away under an open connection, and the test
        # (one more statement a transaction) was a tenth of a live room's write.
        served = not self.url.startswith("sqlite")
        sqlite = {} if served else {"connect_args": {"timeout": sqlite_busy_seconds}}
        # JSON columns written with orjson, as the sockets write their messages: the
        # standard library's encoder was most of a live room's write (py-spy, 100 rooms).
        engine = create_engine(
            self.url,
            pool_pre_ping=served,
            json_serializer=_json_text,
            json_deserializer=orjson.loads,
            **sqlite,
        )
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "checkin", self._let_go)
        return engine

    @property
    def threads_engine(self) -> Engine:
        """The engine for stores that write on threads, off the event loop (tournaments):
        on SQLite its writes wait up to :data:`SQLITE_THREADS_BUSY_SECONDS` for the file's
        lock (the event loop's writer must not stand still that long; a thread may); on
        PostgreSQL, :attr:`engine` itself."""
        if self._engine.dialect.name != "sqlite":
            return self._engine
        if self._threads_engine is None:
            self._threads_engine = self._new_engine(SQLITE_THREADS_BUSY_SECONDS)
        return self._threads_engine

    @property
    def engine(self) -> Engine:
        """The database engine (the live rooms' store shares it: ``live_store.py``)."""
        return self._engine

    def save(self, match: StoredMatch, also: Callable[[Session], None] | None = None) -> None:
        """Store a finished match (replacing one with the same id), and whatever ``also``
        writes in the same transaction (the room marked finished: ``live_store.py``).
        Raises StorageUnavailable if the database cannot be reached."""
        with reaching(), Session(self._engine) as session, session.begin():
            upsert(session.connection(), _MATCHES, [match.to_json()])
            if also is not None:
                also(session)
            for hook in self.on_save:
                try:
                    with session.begin_nested():
                        hook(session, match)
                except Exception as exc:  # a rating's bug must not lose the match
                    if isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError):
                        raise  # the database is away: the save is tried again
                    log.exception("match %s: stored, but %r failed", match.id, hook)

    def get(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or ``None``. Raises StorageUnavailable."""
        with reaching(), Session(self._engine) as session:
            row = session.get(_MatchRow, match_id)
            return _to_match(row) if row else None

    def recent(self, limit: int = 50) -> list[StoredMatch]:
        """The most recently finished matches, newest first. Raises StorageUnavailable."""
        query = select(_MatchRow).order_by(_MatchRow.finished_at.desc()).limit(limit)
        with reaching(), Session(self._engine) as session:
            return [_to_match(row) for row in session.scalars(query)]

    def page(
        self,
        limit: int = 50,
        before: str | None = None,
        after: str | None = None,
        *,
        ruleset: str | None = None,
        player: str | None = None,
    ) -> list[dict[str, Any]]:
        """One page of the match list, newest first, as :meth:`StoredMatch.summary`
        gives them: the ``limit`` (at most :data:`PAGE_LIMIT`) matches that finished
        just before the match ``before``, or just after the match ``after``, or the
        newest. Matches that finished at the same time are ordered by id, so pages never
        overlap or skip one. ``ruleset`` keeps the matches of that game, ``player`` those
        where someone of that name sat (a seat's player or name; A to Z in either case, the
        database's sieve lowers no other letter); a cursor
        may be any stored match, listed or not. Raises :class:`UnknownMatch` for a cursor
        that names no stored match, ``ValueError`` for a bad ``limit`` or both cursors,
        StorageUnavailable."""
        if not 1 <= limit <= PAGE_LIMIT:
            raise ValueError(f"limit must be 1 to {PAGE_LIMIT}, got {limit}")
        if before is not None and after is not None:
            raise ValueError("give 'before' or 'after', not both")
        row = _MatchRow
        query = select(row.id, row.ruleset, row.seats, row.result, row.finished_at)
        if ruleset is not None:
            query = query.where(row.ruleset == ruleset)
        wanted = player.casefold() if player else None
        if player:
            # The seats as stored hold the name as a JSON string: a first sieve in the
            # database (ASCII letters in any case), the exact test on each row found. A
            # name beyond ASCII is written as it is (orjson, ``_json_text``), or escaped
            # in a match stored before (the standard library's encoder): either is found.
            seats = func.lower(cast(row.seats, String))
            written = {json.dumps(player).lower(), _json_text(player).lower()}
            query = query.where(or_(*(seats.contains(w, autoescape=True) for w in written)))
        with reaching(), Session(self._engine) as session:
            cursor = before if before is not None else after
            newer = after is not None
            if cursor is not None:
                finished = session.scalar(select(row.finished_at).where(row.id == cursor))
                if finished is None:
                    raise UnknownMatch(f"no stored match {cursor!r}")
                if newer:
                    later = or_(
                        row.finished_at > finished,
                        and_(row.finished_at == finished, row.id > cursor),
                    )
                    query = query.where(later)
                else:
                    earlier = or_(
                        row.finished_at < finished,
                        and_(row.finished_at == finished, row.id < cursor),
                    )
                    query = query.where(earlier)
            if newer:  # the closest ones after the cursor, then shown newest first
                query = query.order_by(row.finished_at.asc(), row.id.asc())
            else:
                query = query.order_by(row.finished_at.desc(), row.id.desc())
            if wanted is None:
                rows = [_summary(*found) for found in session.execute(query.limit(limit))]
            else:
                rows = []
                # Read in batches (a server-side cursor on PostgreSQL), closed when the page
                # is full rather than left for the garbage collector.
                with session.execute(query.execution_options(yield_per=100)) as found_rows:
                    for found in found_rows:
                        if _seated(found[2], wanted):
                            rows.append(_summary(*found))
                            if len(rows) == limit:
                                break
        return rows[::-1] if newer else rows

    def summaries(self, match_ids: list[str]) -> list[dict[str, Any]]:
        """The matches of these ids that are stored, newest first, as
        :meth:`StoredMatch.summary` gives them. Raises StorageUnavailable."""
        row = _MatchRow
        query = (
            select(row.id, row.ruleset, row.seats, row.result, row.finished_at)
            .where(row.id.in_(match_ids))
            .order_by(row.finished_at.desc(), row.id.desc())
        )
        with reaching(), Session(self._engine) as session:
            return [_summary(*found) for found in session.execute(query)]

    def close(self) -> None:
        """Release the database connections: those in the pool now, and each one a save or
        a read on another thread still holds when it lets it go."""
        self._closed = True
        self._engine.dispose()
        if self._threads_engine is not None:
            self._threads_engine.dispose()

    def _let_go(self, dbapi_connection: DBAPIConnection | None, entry: ConnectionPoolEntry) -> None:
        """A connection back in the pool (the ``checkin`` event): closed if the storage
        is. The pool :meth:`close` disposed of keeps what comes back to it open, for the
        garbage collector to find (psycopg warns of an open connection deleted)."""
        if self._closed and dbapi_connection is not None:
            entry.invalidate()


def _seated(seats: list[dict[str, Any]], wanted: str) -> bool:
    """Whether someone named ``wanted`` (casefolded) sat in one of ``seats``."""
    for seat in seats:
        for name in (seat.get("player"), seat.get("name")):
            if isinstance(name, str) and name.casefold() == wanted:
                return True
    return False


def _to_match(row: _MatchRow) -> StoredMatch:
    return StoredMatch(
        row.id,
        row.room,
        row.ruleset,
        row.options,
        row.seats,
        row.seed,
        row.actions,
        row.events,
        row.result,
        row.started_at,
        row.finished_at,
        row.chat or [],
    )


#: Columns added to ``matches`` after its first release, each with its SQL type: a
#: database made before one gets it, empty (NULL), when a Storage first opens it.
_ADDED_COLUMNS = {"chat": "JSON"}


def add_missing_columns(engine: Engine, table: str, added: Mapping[str, str]) -> None:
    """Migrate a database made by an older release: add to ``table`` the columns of
    ``added`` (name: SQL type) it lacks, empty (NULL) in its rows (SQLite and PostgreSQL
    both take ``ALTER TABLE ... ADD COLUMN``, and a JSON column). Raises
    StorageUnavailable when the database cannot be reached."""
    with reaching():
        present = {column["name"] for column in inspect(engine).get_columns(table)}
        missing = {name: kind for name, kind in added.items() if name not in present}
        if not missing:
            return
        with engine.begin() as connection:
            for name, kind in missing.items():
                connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))


def _add_missing_columns(engine: Engine) -> None:
    add_missing_columns(engine, "matches", _ADDED_COLUMNS)


def _migrate(engine: Engine) -> None:
    """Bring the database to the newest revision (``store/migrations``); one made before
    the migrations first gets the columns it lacks, then is stamped as the baseline."""
    from spacetable.server.store.migrations import migrate

    migrate(engine, _add_missing_columns)
