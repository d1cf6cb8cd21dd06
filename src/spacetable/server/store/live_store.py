"""Live rooms as they happen, so that a room outlives the process that holds it.

Two tables beside the finished ``matches`` (``storage.py``), in the same database:

* ``live_rooms``: one row a room, written when it opens and again whenever its seats,
  options or phase change: what it plays, the seed of its matches, its seats (names, bots
  and their levels, each player's seat token as a SHA-256 digest), and the match being
  played (its number, id, seed, players and start) or the last result.
  Its ``extras`` hold what the players had beyond the actions (``rooms/extras.py``: a
  draw offer, who is away and since when, FTL plot drafts, the chat's places); its
  ``alive_at`` and ``clock`` are the wall time its process last said it lived and the
  match time then (:meth:`LiveStore.beat`, every :data:`HEARTBEAT_SECONDS`): a rebuilt
  room's countdown resumes from there, and a room nobody has held for a while is swept.
  Its ``deadline`` (indexed) is the wall time a correspondence turn runs out, copied from
  the extras when the row is written: :meth:`LiveStore.due` finds the rooms whose turn
  ran out with no process holding them (``rooms/deadlines.py``).
* ``room_actions``: every action of the match being played, in order, with its match
  time and the seconds its countdown (a deployment's, a plot timer) still had then. The
  primary key (room, match number, seq) makes a second writer of the same room fail
  instead of interleaving its actions: a room's actions have one author.
* ``room_chat``: what was said in the room, one row a message, in order.
* ``live_room_accounts``: the registered players seated in each correspondence room, one
  row a player, indexed by account: a player's My games (:meth:`LiveStore.correspondence`,
  polled by every signed-in lobby) reads his rooms, not every live room. Written only when
  a room's set changes (and at a room's first write in a process).

A room writes here before anyone hears of what it stores (``rooms/room.py``: durable before
acknowledged); :mod:`~spacetable.server.rooms.rebuild` reads it back. A room that closes
takes its rows with it; a finished match's actions leave with the match's own save; a
room whose process died and that nobody came back to within the room's idle time is swept
(:meth:`LiveStore.sweep`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any, cast

import sqlalchemy
from sqlalchemy import (
    JSON,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.sql.elements import TextClause

from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.server.store.driver_sql import driver, driver_errors, driver_statement
from spacetable.server.store.group_commit import GroupCommit, Write
from spacetable.server.store.storage import (
    Storage,
    add_missing_columns,
    create_tables,
    reaching,
    upsert_statement,
)

#: Seconds between two heartbeats of a process's open rooms (:meth:`LiveStore.beat`): a
#: countdown rebuilt after a crash has at most this much more than it had.
HEARTBEAT_SECONDS = 1.0


class StaleWriter(RuntimeError):
    """Another writer stored this room's action first: this process no longer owns the
    room (its actions would interleave with the other's)."""


class _Base(DeclarativeBase):
    pass


class _LiveRoomRow(_Base):
    __tablename__ = "live_rooms"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    seats_count: Mapped[int] = mapped_column(Integer)
    game: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    phase: Mapped[str] = mapped_column(String(16))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    match_number: Mapped[int] = mapped_column(Integer)
    match: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    last_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    extras: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: Wall time the room's process last said it held the room, and the match time then.
    alive_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Wall time a correspondence turn runs out (:func:`stored_deadline`), or NULL.
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)

    # The index migration 0004 gives a database made before it (same name).
    __table_args__ = (Index("live_rooms_by_deadline", "deadline"),)


#: Columns added to ``live_rooms`` after its first release, each with its SQL type: a
#: database made before one gets it, empty (NULL), when a LiveStore first opens it
#: (``deadline`` is added, indexed and filled by migration 0004 where the table was there
#: already: ``store/migrations``).
_ADDED_COLUMNS = {"extras": "JSON", "alive_at": "FLOAT", "clock": "FLOAT", "deadline": "FLOAT"}


def _add_missing_columns(engine: Engine) -> None:
    """Migrate a database made by an older release (as ``storage.py`` does ``matches``)."""
    add_missing_columns(engine, "live_rooms", _ADDED_COLUMNS)


class _ChatRow(_Base):
    __tablename__ = "room_chat"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class _ActionRow(_Base):
    __tablename__ = "room_actions"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    t: Mapped[float] = mapped_column(Float)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Seconds the running countdown had left at ``t`` (``None``: none ran).
    left: Mapped[float | None] = mapped_column(Float, nullable=True)


class _AccountRow(_Base):
    __tablename__ = "live_room_accounts"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[str] = mapped_column(String(80), primary_key=True)

    # Migration 0005 gives a database made before it the same table and index.
    __table_args__ = (Index("live_room_accounts_by_account", "account"),)


_LIVE_ROOMS = cast(Table, _LiveRoomRow.__table__)
_ACCOUNTS = cast(Table, _AccountRow.__table__)
_INSERT_ACTION = insert(cast(Table, _ActionRow.__table__))
_INSERT_CHAT = insert(cast(Table, _ChatRow.__table__))
_INSERT_ACCOUNT = insert(_ACCOUNTS)
_DELETE_ACCOUNTS = delete(_ACCOUNTS).where(_ACCOUNTS.c.room_id == bindparam("room_id"))


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One action of a live match: its place in the match (``seq``, from 0), its match
    time, its JSON and the seconds its countdown had left (``None``: none ran)."""

    match_number: int
    seq: int
    t: float
    action: dict[str, Any]
    left: float | None = None


@dataclass(frozen=True, slots=True)
class StoredChat:
    """One message said in a room: its place among the room's (``seq``, from 0) and the
    ``chat`` message as sent to the clients."""

    seq: int
    entry: dict[str, Any]


@dataclass(slots=True)
class LiveRoom:
    """A room as stored while it lives.

    ``seats``: each seat's ``kind``, ``name``, ``level``, ``token_digest``, ``ready``,
    ``rematch``, ``host``, ``stand_in``. ``match`` (while one is played): its ``id``,
    ``seed``, ``players`` (seat order) and ``started_at`` (wall time). ``phase``: lobby,
    playing or over; ``last_result``: the message that ended the last match. ``extras``:
    what the players had beyond the actions (``rooms/extras.py``); ``alive_at`` and
    ``clock``: the wall time the room was last known held, and its match time then."""

    id: str
    ruleset: str
    seats_count: int
    game: dict[str, Any]
    seed: int | None
    phase: str
    seats: list[dict[str, Any]]
    match_number: int
    match: dict[str, Any] | None = None
    last_result: dict[str, Any] | None = None
    created: float = 0.0
    #: The current match's actions, in order (filled by :meth:`LiveStore.load`).
    actions: list[StoredAction] = field(default_factory=list)
    extras: dict[str, Any] | None = None
    alive_at: float | None = None
    clock: float | None = None
    #: The room's chat, oldest first (the newest :data:`CHAT_LOADED`, filled by load).
    chat: list[StoredChat] = field(default_factory=list)


def _values_of(room: LiveRoom) -> dict[str, Any]:
    """The database row of ``room``, column by column."""
    return dict(
        id=room.id,
        ruleset=room.ruleset,
        seats_count=room.seats_count,
        game=room.game,
        seed=room.seed,
        phase=room.phase,
        seats=room.seats,
        match_number=room.match_number,
        match=room.match,
        last_result=room.last_result,
        created=room.created,
        extras=room.extras,
        alive_at=room.alive_at,
        clock=room.clock,
        deadline=stored_deadline(room.phase, room.extras),
    )


def _action_values(room_id: str, action: StoredAction) -> dict[str, Any]:
    """The database row of one of room ``room_id``'s actions."""
    return {
        "room_id": room_id,
        "match_number": action.match_number,
        "seq": action.seq,
        "t": action.t,
        "action": action.action,
        "left": action.left,
    }


def _chat_values(room_id: str, said: StoredChat) -> dict[str, Any]:
    """The database row of one line of room ``room_id``'s chat."""
    return {"room_id": room_id, "seq": said.seq, "entry": said.entry}


def _seated_accounts(game: Any, seats: Any) -> frozenset[str]:
    """The accounts seated in a room played by correspondence (none in another room): what
    ``live_room_accounts`` holds for it."""
    if not (isinstance(game, dict) and game.get(CORRESPONDENCE_OPTION)):
        return frozenset()
    return frozenset(s["account"] for s in seats or () if isinstance(s, dict) and s.get("account"))


def _write_rows(
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
    (``firsts``) is found to follow one stored (:func:`_check_follows`). Plain statements
    on the driver's ``cursor`` (``driver_sql.py``: SQLAlchemy's connection cost a group of
    one action three times as much; its ORM's unit of work and ``merge``, which reads each
    row first, twice as much again). The seated ``accounts`` of the rooms whose set changed
    replace theirs."""
    _check_follows(cursor, dialect, firsts, actions)
    if rooms:
        driver_statement(upsert_statement(dialect.name, _LIVE_ROOMS), dialect).execute_many(
            cursor, rooms
        )
    if accounts:
        gone = [{"room_id": room_id} for room_id in accounts]
        driver_statement(_DELETE_ACCOUNTS, dialect).execute_many(cursor, gone)
        seated = [{"room_id": r, "account": a} for r, names in accounts.items() for a in names]
        if seated:
            driver_statement(_INSERT_ACCOUNT, dialect).execute_many(cursor, seated)
    if actions:
        driver_statement(_INSERT_ACTION, dialect).execute_many(cursor, actions)
    if chat:
        driver_statement(_INSERT_CHAT, dialect).execute_many(cursor, chat)


def _firsts(room_id: str, actions: list[StoredAction]) -> list[tuple[str, StoredAction]]:
    """Room ``room_id``'s first new action, if it has any, for :func:`_check_follows`."""
    return [(room_id, actions[0])] if actions else []


def stored_deadline(phase: str, extras: Any) -> float | None:
    """The wall time a stored room's correspondence turn runs out (``extras``'
    ``correspondence``: ``rooms/correspondence.py``), or ``None``: no match waits on
    anyone (a room played live, a lobby, a match over)."""
    about = extras.get("correspondence") if isinstance(extras, dict) else None
    if phase != "playing" or not isinstance(about, dict) or not about.get("waiting"):
        return None
    deadline = about.get("deadline")
    return float(deadline) if isinstance(deadline, int | float) else None


def _live_room(
    row: _LiveRoomRow,
    actions: list[StoredAction] | None = None,
    chat: list[StoredChat] | None = None,
) -> LiveRoom:
    """The room a stored row holds, with its match's ``actions`` and its ``chat`` when
    they were read too."""
    return LiveRoom(
        row.id,
        row.ruleset,
        row.seats_count,
        row.game,
        row.seed,
        row.phase,
        row.seats,
        row.match_number,
        row.match,
        row.last_result,
        row.created,
        actions or [],
        row.extras,
        row.alive_at,
        row.clock,
        chat or [],
    )


class LiveStore:
    """Reads and writes live rooms in ``storage``'s database (each call one transaction;
    blocking: a room calls it on a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: The process's one writer of live rooms (:meth:`store`).
        self.group = GroupCommit(
            self.write_many,
            lambda write: self.write_many([write]),
            StaleWriter,
            inline=storage.engine.dialect.name == "sqlite",
        )
        #: Each room's seated accounts as this process last wrote them (``_write_rows``).
        self._accounts: dict[str, frozenset[str]] = {}
        with reaching():
            create_tables(storage.engine, _Base.metadata, _add_missing_columns)

    def write(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        chat: list[StoredChat] | None = None,
    ) -> None:
        """Store ``room`` (when it changed), its new ``actions`` and what was said
        (``chat``) together. Raises StaleWriter if one of the actions is stored already
        (another process plays the room), StorageUnavailable if the database cannot be
        reached."""
        self.write_many([(room, room_id, actions, chat or [])])

    def write_many(self, writes: list[Write]) -> None:
        """Several rooms' :meth:`write` in one transaction (:meth:`store` groups them):
        their rows, actions and chat as three statements, whatever the number of rooms.
        Raises StaleWriter if any one is refused (nothing is stored then)."""
        rows = [_values_of(room) for room, _, _, _ in writes if room is not None]
        actions = [_action_values(room_id, a) for _, room_id, done, _ in writes for a in done]
        chat = [_chat_values(room_id, c) for _, room_id, _, said in writes for c in said]
        firsts = [first for _, room_id, done, _ in writes for first in _firsts(room_id, done)]
        seated = {row["id"]: _seated_accounts(row["game"], row["seats"]) for row in rows}
        changed = {r: a for r, a in seated.items() if self._accounts.get(r) != a}
        engine = self.storage.engine
        with reaching(), driver_errors(engine.dialect):  # the pool's or the driver's
            connection = engine.raw_connection()
        try:
            with driver_errors(engine.dialect):
                cursor = connection.cursor()
                _write_rows(cursor, engine.dialect, rows, actions, chat, firsts, changed)
                connection.commit()
        except driver(engine.dialect).IntegrityError as exc:
            room = f"room {writes[0][1]}: " if len(writes) == 1 else ""
            raise StaleWriter(f"{room}{exc}") from exc
        finally:
            # Back to the pool, which rolls back a failed write's statements (and drops
            # a connection that cannot: the database went away under it).
            connection.close()
        self._accounts |= changed

    def close(self) -> None:
        """Let the group commit's thread end once the writes it holds are in."""
        self.group.close()

    async def store(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        chat: list[StoredChat] | None = None,
    ) -> None:
        """:meth:`write`, from a room's event loop: committed with the other rooms' writes
        of the moment (``group_commit.py``); returns once it is in. Raises as
        :meth:`write`."""
        await self.group.write((room, room_id, actions, chat or []))

    def writer(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        *,
        finished: int | None = None,
        chat: list[StoredChat] | None = None,
    ) -> Any:
        """What :meth:`write` does, as a function of a session (``Storage.save`` runs it
        in the transaction that stores a finished match): with ``finished``, that match's
        actions leave the table (they are in the stored match now)."""

        def write(session: Session) -> None:
            rows = [] if room is None else [_values_of(room)]
            done = [_action_values(room_id, a) for a in actions]
            said = [_chat_values(room_id, c) for c in chat or ()]
            connection = session.connection()
            dialect = connection.dialect
            try:
                with driver_errors(dialect):  # on the session's transaction
                    cursor = connection.connection.cursor()
                    # The seated accounts wait for the room's next write (:meth:`write_many`).
                    firsts = _firsts(room_id, actions)
                    _write_rows(cursor, dialect, rows, done, said, firsts, {})
            except driver(dialect).IntegrityError as exc:
                raise StaleWriter(f"room {room_id}: {exc}") from exc
            if finished is not None:
                session.execute(
                    delete(_ActionRow).where(
                        _ActionRow.room_id == room_id, _ActionRow.match_number == finished
                    )
                )

        return write

    def load(self, room_id: str) -> LiveRoom | None:
        """The room with this id and its current match's actions, or ``None``. Raises
        StorageUnavailable. (A room read back may have been played elsewhere since this
        process last wrote it: its first write here writes its seated accounts again.)"""
        self._accounts.pop(room_id, None)
        with reaching(), Session(self.storage.engine) as session:
            row = session.get(_LiveRoomRow, room_id)
            if row is None:
                return None
            query = (
                select(_ActionRow)
                .where(_ActionRow.room_id == room_id, _ActionRow.match_number == row.match_number)
                .order_by(_ActionRow.seq)
            )
            actions = [
                StoredAction(a.match_number, a.seq, a.t, a.action, a.left)
                for a in session.scalars(query)
            ]
            said = (
                select(_ChatRow)
                .where(_ChatRow.room_id == room_id)
                .order_by(_ChatRow.seq.desc())
                .limit(CHAT_LOADED)
            )
            chat = [StoredChat(c.seq, c.entry) for c in session.scalars(said)][::-1]
            return _live_room(row, actions, chat)

    def ruleset(self, room_id: str) -> str | None:
        """The ruleset of the stored room with this id, or ``None``. Raises
        StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session:
            found = session.scalar(select(_LiveRoomRow.ruleset).where(_LiveRoomRow.id == room_id))
            return None if found is None else str(found)

    def forget(self, room_id: str) -> None:
        """The room closed: its rows go. Raises StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session, session.begin():
            _delete_rooms(session, [room_id])
        self._accounts.pop(room_id, None)

    def beat(self, clocks: dict[str, float | None], now: float) -> None:
        """The rooms of ``clocks`` are held by this process at wall time ``now``, each
        at the match time given (``None``: no match). Raises StorageUnavailable."""
        if not clocks:
            return
        rows = [{"room": room, "at": now, "t": t} for room, t in clocks.items()]
        table = cast(Table, _LiveRoomRow.__table__)
        statement = (
            update(table)
            .where(table.c.id == bindparam("room"))
            .values(alive_at=bindparam("at"), clock=bindparam("t"))
        )
        with reaching(), Session(self.storage.engine) as session, session.begin():
            session.connection().execute(statement, rows)

    def sweep(self, before: float, keep: set[str]) -> list[str]:
        """Forget the stored rooms nobody has held since wall time ``before`` (their
        process died and nobody came back to them), but those of ``keep`` (open here);
        their ids. A room written by an older release, never marked alive, counts from
        its creation. Raises StorageUnavailable."""
        held = func.coalesce(_LiveRoomRow.alive_at, _LiveRoomRow.created)
        with reaching(), Session(self.storage.engine) as session, session.begin():
            columns = (_LiveRoomRow.id, _LiveRoomRow.game, _LiveRoomRow.phase, _LiveRoomRow.seats)
            found = session.execute(select(*columns).where(held < before))
            stale = [
                room
                for room, game, phase, seats in found
                if room not in keep and not _waits_for_players(game, phase, seats)
            ]
            _delete_rooms(session, stale)
        for room in stale:
            self._accounts.pop(room, None)
        return stale

    def due(self, by: float, limit: int = 500, skip: frozenset[str] = frozenset()) -> list[str]:
        """The stored rooms whose correspondence turn runs out by wall time ``by``, the
        soonest first (at most ``limit``), but those of ``skip`` (rooms that cannot be
        rebuilt: they would fill every batch): one query on the indexed ``deadline``.
        Raises StorageUnavailable."""
        query = select(_LiveRoomRow.id).where(_LiveRoomRow.deadline <= by)
        if skip:
            query = query.where(_LiveRoomRow.id.not_in(sorted(skip)))
        query = query.order_by(_LiveRoomRow.deadline).limit(limit)
        with reaching(), Session(self.storage.engine) as session:
            return [str(room) for room in session.scalars(query)]

    def seated_rooms(self, account: str) -> list[LiveRoom]:
        """The stored rooms, correspondence or real time, where ``account`` (a name's key)
        holds a seat, without their actions or chat (a deletion frees them:
        ``http/leaving.py``). A scan of the rooms' seats, as written (a key beyond ASCII
        escaped), checked seat by seat. Raises StorageUnavailable."""
        seats = sqlalchemy.cast(_LiveRoomRow.seats, Text)
        written = {account, json.dumps(account)[1:-1]}
        named = [seats.like(f"%{name}%", escape="#") for name in written]
        query = select(_LiveRoomRow).where(or_(*named))
        with reaching(), Session(self.storage.engine) as session:
            return [
                _live_room(row)
                for row in session.scalars(query)
                if any(isinstance(s, dict) and s.get("account") == account for s in row.seats or ())
            ]

    def correspondence(self, account: str) -> list[LiveRoom]:
        """The stored rooms played by correspondence whose match is not over and where
        ``account`` (a name's key: ``store/accounts.py``) holds a seat, without their
        actions or chat (``GET /api/me/games``): those ``live_room_accounts`` names him in,
        checked against their seats. Raises StorageUnavailable."""
        found = []
        his = select(_AccountRow.room_id).where(_AccountRow.account == account)
        query = select(_LiveRoomRow).where(_LiveRoomRow.id.in_(his), _LiveRoomRow.phase != "over")
        with reaching(), Session(self.storage.engine) as session:
            rows = session.scalars(query)
            for row in rows:
                if not _waits_for_players(row.game, row.phase, row.seats):
                    continue
                if not any(seat.get("account") == account for seat in row.seats or ()):
                    continue
                found.append(_live_room(row))
        return found


#: The most messages a room's chat loads back (the room keeps no more: ``rooms/chat.py``).
CHAT_LOADED = 2100


def _check_follows(
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
    query = driver_statement(_found_actions(len(wanted)), dialect)
    found = {tuple(row) for row in query.execute(cursor, params).fetchall()}
    missing = sorted(wanted - found)
    if missing:
        room_id, match_number, seq = missing[0]
        raise StaleWriter(
            f"room {room_id}: action {seq} of match {match_number} is not stored: another "
            "process plays this room"
        )


@functools.cache
def _found_actions(count: int) -> TextClause:
    """The query of :func:`_check_follows` for ``count`` actions: point lookups joined by
    OR, which SQLite and PostgreSQL each answer from the primary key's index (a row-value
    ``IN`` scanned the whole index in SQLite), written once a count."""
    wanted = " OR ".join(
        f"(room_id = :r{n} AND match_number = :m{n} AND seq = :s{n})" for n in range(count)
    )
    return text(f"SELECT room_id, match_number, seq FROM room_actions WHERE {wanted}")


def _waits_for_players(game: Any, phase: str, seats: Any) -> bool:
    """Whether a stored room is played by correspondence, not over, with a registered
    player seated: it waits for its players however long nobody holds it (never swept)."""
    by_post = isinstance(game, dict) and bool(game.get(CORRESPONDENCE_OPTION))
    seated = any(isinstance(s, dict) and s.get("account") for s in seats or ())
    return phase != "over" and by_post and seated


def _delete_rooms(session: Session, rooms: list[str]) -> None:
    for chunk in range(0, len(rooms), 500):
        ids = rooms[chunk : chunk + 500]
        session.execute(delete(_ActionRow).where(_ActionRow.room_id.in_(ids)))
        session.execute(delete(_ChatRow).where(_ChatRow.room_id.in_(ids)))
        session.execute(delete(_AccountRow).where(_AccountRow.room_id.in_(ids)))
        session.execute(delete(_LiveRoomRow).where(_LiveRoomRow.id.in_(ids)))
