"""How a group of live rooms' writes reaches the database: the plain statements on the
driver's cursor (:func:`write_rows`) and the check that each room's first new action
follows one stored (:func:`check_follows`), which refuses a second writer of a room
(:class:`StaleWriter`). :class:`~spacetable.server.store.live_store.LiveStore` runs them
in its transactions.
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.elements import TextClause

from spacetable.server.store.driver_sql import driver_statement
from spacetable.server.store.live_rows import (
    DELETE_ACCOUNTS,
    INSERT_ACCOUNT,
    INSERT_ACTION,
    INSERT_CHAT,
    LIVE_ROOMS,
    StoredAction,
)
from spacetable.server.store.storage import upsert_statement


class StaleWriter(RuntimeError):
    """Another writer stored this room's action first: this process no longer owns the
    room (its actions would interleave with the other's)."""


def write_rows(
    cursor: Any,
    dialect: Dialect,
    rooms: list[dict[str, Any]],
    actions: list[dict[str, Any]],
    chat: list[dict[str, Any]],
    firsts: list[tuple[str, StoredAction]],
    accounts: dict[str, frozenset[str]],
) -> None:
    """Rooms' rows (each replacing the one before), new actions and chat lines, one
    statement each, however many rooms they come from, once every room's first new action
    (``firsts``) is found to follow one stored (:func:`check_follows`). Plain statements
    on the driver's ``cursor`` (``driver_sql.py``: SQLAlchemy's connection cost a group of
    one action three times as much; its ORM's unit of work and ``merge``, which reads each
    row first, twice as much again). The seated ``accounts`` of the rooms whose set changed
    replace theirs."""
    check_follows(cursor, dialect, firsts, actions)
    if rooms:
        driver_statement(upsert_statement(dialect.name, LIVE_ROOMS), dialect).execute_many(
            cursor, rooms
        )
    if accounts:
        gone = [{"room_id": room_id} for room_id in accounts]
        driver_statement(DELETE_ACCOUNTS, dialect).execute_many(cursor, gone)
        seated = [{"room_id": r, "account": a} for r, names in accounts.items() for a in names]
        if seated:
            driver_statement(INSERT_ACCOUNT, dialect).execute_many(cursor, seated)
    if actions:
        driver_statement(INSERT_ACTION, dialect).execute_many(cursor, actions)
    if chat:
        driver_statement(INSERT_CHAT, dialect).execute_many(cursor, chat)


def first_actions(room_id: str, actions: list[StoredAction]) -> list[tuple[str, StoredAction]]:
    """Room ``room_id``'s first new action, if it has any, for :func:`check_follows`."""
    return [(room_id, actions[0])] if actions else []


def check_follows(
    cursor: Any,
    dialect: Dialect,
    firsts: list[tuple[str, StoredAction]],
    written: list[dict[str, Any]],
) -> None:
    """Raise StaleWriter unless, for each room's first new action in ``firsts``, the action
    before it in its match is stored, or among those ``written`` with it (one query for
    them all): a second copy of the room (its process lost the room's lock for a while,
    and another rebuilt it) that writes after the other copy finished that match (whose
    actions left with it) would leave a match whose actions start past 0, which no process
    can rebuild (issue 36 item 7's soak)."""
    wanted = {(room_id, a.match_number, a.seq - 1) for room_id, a in firsts if a.seq > 0}
    wanted -= {(a["room_id"], a["match_number"], a["seq"]) for a in written}
    if not wanted:
        return
    params: dict[str, Any] = {}
    for n, (room_id, match_number, seq) in enumerate(sorted(wanted)):
        params |= {f"r{n}": room_id, f"m{n}": match_number, f"s{n}": seq}
    query = driver_statement(found_actions(len(wanted)), dialect)
    found = {tuple(row) for row in query.execute(cursor, params).fetchall()}
    missing = sorted(wanted - found)
    if missing:
        room_id, match_number, seq = missing[0]
        raise StaleWriter(
            f"room {room_id}: action {seq} of match {match_number} is not stored: another "
            "process plays this room"
        )


@functools.cache
def found_actions(count: int) -> TextClause:
    """The query of :func:`check_follows` for ``count`` actions: point lookups joined by
    OR, which SQLite and PostgreSQL each answer from the primary key's index (a row-value
    ``IN`` scanned the whole index in SQLite), written once a count."""
    wanted = " OR ".join(
        f"(room_id = :r{n} AND match_number = :m{n} AND seq = :s{n})" for n in range(count)
    )
    return text(f"SELECT room_id, match_number, seq FROM room_actions WHERE {wanted}")
