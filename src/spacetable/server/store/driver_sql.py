"""Statements written with SQLAlchemy, compiled once for a database, run on its driver.

A live room's write (``live_store.py``) is a few small statements a group of rooms, many
times a second under load. Through SQLAlchemy's ``Connection`` each statement paid its
execution context (parameters processed, a result set up) and each transaction the pool's
events: more than half of the write's processor time (a group of one action among 100
rooms on SQLite, written in a loop as ``tests/server/durable/bench.py`` writes its groups:
83 µs through the engine's connection, 34 µs on the driver's). :class:`DriverStatement`
keeps what SQLAlchemy says the statement is in that database's dialect (its SQL text, the
order of its parameters, the functions that turn each value into what the driver takes,
such as a JSON column's orjson text) and hands rows straight to the DB-API cursor.
:func:`driver_errors` turns the driver's "cannot reach" exceptions into the store's, as
``storage.reaching`` does SQLAlchemy's.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from spacetable.server.store.storage import StorageUnavailable


class DriverStatement:
    """One statement in one dialect: its SQL and how a row's values become its
    parameters (a tuple in the order of the SQL's ``?`` for a positional driver such as
    sqlite3, a mapping for a named one such as psycopg)."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql = compiled.string
        #: The parameters' names in their order (``None``: the driver takes them by name).
        self.order: tuple[str, ...] | None = (
            tuple(compiled.positiontup or ()) if compiled.positional else None
        )
        processors: dict[str, Callable[[Any], Any]] = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors[name] = process
        self._processors = processors

    def parameters(self, row: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """``row``'s values (by parameter name) as the driver takes them."""
        processors = self._processors
        if self.order is not None:
            return tuple(
                processors[name](row[name]) if name in processors else row[name]
                for name in self.order
            )
        return {
            name: processors[name](value) if name in processors else value
            for name, value in row.items()
        }

    def execute(self, cursor: Any, row: Mapping[str, Any]) -> Any:
        """Run the statement once with ``row``; the cursor, to fetch from."""
        cursor.execute(self.sql, self.parameters(row))
        return cursor

    def execute_many(self, cursor: Any, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run the statement for each of ``rows`` (one ``executemany``)."""
        cursor.executemany(self.sql, [self.parameters(row) for row in rows])


@functools.lru_cache(maxsize=256)
def driver_statement(statement: ClauseElement, dialect: Dialect) -> DriverStatement:
    """``statement`` compiled for ``dialect``, once (statements are module constants)."""
    return DriverStatement(statement, dialect)


def driver(dialect: Dialect) -> Any:
    """The DB-API module of ``dialect``'s driver (``sqlite3``, ``psycopg``): its
    exceptions."""
    module = dialect.dbapi
    if module is None:
        raise RuntimeError(f"the {dialect.name} dialect has no driver loaded")
    return module


@contextlib.contextmanager
def driver_errors(dialect: Dialect) -> Iterator[None]:
    """The driver's "cannot reach the database" errors raised as
    :class:`StorageUnavailable` with their first line, as ``storage.reaching`` raises
    SQLAlchemy's."""
    dbapi = driver(dialect)
    try:
        yield
    except (dbapi.OperationalError, dbapi.InterfaceError) as exc:
        raise StorageUnavailable(str(exc).strip().split("\n", 1)[0]) from exc
