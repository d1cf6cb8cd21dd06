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
* ``room_actions``: every action of the match being played, in order, with its match
  time and the seconds its countdown (a deployment's, a plot timer) still had then. The
  primary key (room, match number, seq) makes a second writer of the same room fail
  instead of interleaving its actions: a room's actions have one author.
* ``room_chat``: what was said in the room, one row a message, in order.

A room writes here before anyone hears of what it stores (``rooms/room.py``: durable before
acknowledged); :mod:`~spacetable.server.rooms.rebuild` reads it back. A room that closes
takes its rows with it; a finished match's actions leave with the match's own save; a
room whose process died and that nobody came back to within the room's idle time is swept
(:meth:`LiveStore.sweep`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Engine,
    Float,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.server.store.group_commit import GroupCommit, Write
from spacetable.server.store.storage import (
    Storage,
    add_missing_columns,
    create_tables,
    reaching,
)

#: Seconds between two heartbeats of a process's open rooms (:meth:`LiveStore.beat`): a
#: countdown rebuilt after a crash has at most this much more than it had.
HEARTBEAT_SECONDS = 1.0


class StaleWriter(RuntimeError):
    """Another writer stored this room's action first: this process no longer owns the
    room (its actions would interleave with the other's)."""


def token_digest(token: str) -> str:
    """The digest a seat token is stored as (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


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


#: Columns added to ``live_rooms`` after its first release, each with its SQL type: a
#: database made before one gets it, empty (NULL), when a LiveStore first opens it.
_ADDED_COLUMNS = {"extras": "JSON", "alive_at": "FLOAT", "clock": "FLOAT"}


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


_INSERT_ACTION = insert(cast(Table, _ActionRow.__table__))
_INSERT_CHAT = insert(cast(Table, _ChatRow.__table__))


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


def _row_of(room: LiveRoom) -> _LiveRoomRow:
    """The database row of ``room``."""
    return _LiveRoomRow(
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
    )


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
        """Several rooms' :meth:`write` in one transaction (:meth:`store` groups them).
        Raises StaleWriter if any one is refused (nothing is stored then)."""
        with reaching(), Session(self.storage.engine) as session:
            try:
                with session.begin():
                    for room, room_id, actions, chat in writes:
                        self.writer(room, room_id, actions, chat=chat)(session)
            except sa_exc.IntegrityError as exc:
                room = f"room {writes[0][1]}: " if len(writes) == 1 else ""
                raise StaleWriter(f"{room}{exc.orig}") from exc

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
            if room is not None:
                session.merge(_row_of(room))
            # The actions and chat as plain INSERTs on the session's connection: the ORM's
            # unit of work cost about 185 µs of CPU a transaction against 77 µs so (one
            # action; SQLite, 2,000 transactions), and a busy server writes hundreds a second.
            connection = session.connection()
            if actions:
                _check_follows(connection, room_id, actions[0])
                connection.execute(
                    _INSERT_ACTION,
                    [
                        {
                            "room_id": room_id,
                            "match_number": a.match_number,
                            "seq": a.seq,
                            "t": a.t,
                            "action": a.action,
                            "left": a.left,
                        }
                        for a in actions
                    ],
                )
            if chat:
                connection.execute(
                    _INSERT_CHAT,
                    [{"room_id": room_id, "seq": c.seq, "entry": c.entry} for c in chat],
                )
            if finished is not None:
                session.execute(
                    delete(_ActionRow).where(
                        _ActionRow.room_id == room_id, _ActionRow.match_number == finished
                    )
                )

        return write

    def load(self, room_id: str) -> LiveRoom | None:
        """The room with this id and its current match's actions, or ``None``. Raises
        StorageUnavailable."""
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
        return stale

    def correspondence(self, account: str) -> list[LiveRoom]:
        """The stored rooms played by correspondence whose match is not over and where
        ``account`` (a name's key: ``store/accounts.py``) holds a seat, without their
        actions or chat (``GET /api/me/games``). Raises StorageUnavailable."""
        found = []
        with reaching(), Session(self.storage.engine) as session:
            rows = session.scalars(select(_LiveRoomRow).where(_LiveRoomRow.phase != "over"))
            for row in rows:
                if not _waits_for_players(row.game, row.phase, row.seats):
                    continue
                if not any(seat.get("account") == account for seat in row.seats or ()):
                    continue
                found.append(_live_room(row))
        return found


#: The most messages a room's chat loads back (the room keeps no more: ``rooms/chat.py``).
CHAT_LOADED = 2100


def _check_follows(connection: Any, room_id: str, first: StoredAction) -> None:
    """Raise StaleWriter unless the action before ``first`` in its match is stored: a
    second copy of the room (its process lost the room's lock for a while, and another
    rebuilt it) that writes after the other copy finished that match (whose actions left
    with it) would leave a match whose actions start past 0, which no process can
    rebuild (issue 36 item 7's soak)."""
    if first.seq == 0:
        return
    found = connection.execute(
        select(_ActionRow.seq).where(
            _ActionRow.room_id == room_id,
            _ActionRow.match_number == first.match_number,
            _ActionRow.seq == first.seq - 1,
        )
    ).first()
    if found is None:
        raise StaleWriter(
            f"room {room_id}: action {first.seq - 1} of match {first.match_number} is not "
            "stored: another process plays this room"
        )


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
        session.execute(delete(_LiveRoomRow).where(_LiveRoomRow.id.in_(ids)))
