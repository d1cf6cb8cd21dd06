"""Live rooms as they happen, so that a room outlives the process that holds it.

Two tables beside the finished ``matches`` (``storage.py``), in the same database:

* ``live_rooms``: one row a room, written when it opens and again whenever its seats,
  options or phase change: what it plays, the seed of its matches, its seats (names, bots
  and their levels, each player's seat token as a SHA-256 digest), and the match being
  played (its number, id, seed, players and start) or the last result.
* ``room_actions``: every action of the match being played, in order, with its match
  time and the seconds its countdown (a deployment's, a plot timer) still had then. The
  primary key (room, match number, seq) makes a second writer of the same room fail
  instead of interleaving its actions: a room's actions have one author.

A room writes here before anyone hears of what it stores (``rooms.py``: durable before
acknowledged); :mod:`~spacetable.server._room_rebuild` reads it back. A room that closes
takes its rows with it; a finished match's actions leave with the match's own save.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Float, Integer, String, delete, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.server.storage import Storage, create_tables, reaching


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


class _ActionRow(_Base):
    __tablename__ = "room_actions"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    t: Mapped[float] = mapped_column(Float)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Seconds the running countdown had left at ``t`` (``None``: none ran).
    left: Mapped[float | None] = mapped_column(Float, nullable=True)


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One action of a live match: its place in the match (``seq``, from 0), its match
    time, its JSON and the seconds its countdown had left (``None``: none ran)."""

    match_number: int
    seq: int
    t: float
    action: dict[str, Any]
    left: float | None = None


@dataclass(slots=True)
class LiveRoom:
    """A room as stored while it lives.

    ``seats``: each seat's ``kind``, ``name``, ``level``, ``token_digest``, ``ready``,
    ``rematch``, ``host``, ``stand_in``. ``match`` (while one is played): its ``id``,
    ``seed``, ``players`` (seat order) and ``started_at`` (wall time). ``phase``: lobby,
    playing or over; ``last_result``: the message that ended the last match."""

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

    def _row(self) -> _LiveRoomRow:
        return _LiveRoomRow(
            id=self.id,
            ruleset=self.ruleset,
            seats_count=self.seats_count,
            game=self.game,
            seed=self.seed,
            phase=self.phase,
            seats=self.seats,
            match_number=self.match_number,
            match=self.match,
            last_result=self.last_result,
            created=self.created,
        )


class LiveStore:
    """Reads and writes live rooms in ``storage``'s database (each call one transaction;
    blocking: a room calls it on a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        with reaching():
            create_tables(storage.engine, _Base.metadata)

    def write(self, room: LiveRoom | None, room_id: str, actions: list[StoredAction]) -> None:
        """Store ``room`` (when it changed) and its new ``actions`` together. Raises
        StaleWriter if one of the actions is stored already (another process plays the
        room), StorageUnavailable if the database cannot be reached."""
        with reaching(), Session(self.storage.engine) as session:
            try:
                with session.begin():
                    self.writer(room, room_id, actions)(session)
            except sa_exc.IntegrityError as exc:
                raise StaleWriter(f"room {room_id}: {exc.orig}") from exc

    def writer(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        *,
        finished: int | None = None,
    ) -> Any:
        """What :meth:`write` does, as a function of a session (``Storage.save`` runs it
        in the transaction that stores a finished match): with ``finished``, that match's
        actions leave the table (they are in the stored match now)."""

        def write(session: Session) -> None:
            if room is not None:
                session.merge(room._row())
            session.add_all(
                _ActionRow(
                    room_id=room_id,
                    match_number=a.match_number,
                    seq=a.seq,
                    t=a.t,
                    action=a.action,
                    left=a.left,
                )
                for a in actions
            )
            session.flush()
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
                actions,
            )

    def ruleset(self, room_id: str) -> str | None:
        """The ruleset of the stored room with this id, or ``None``. Raises
        StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session:
            found = session.scalar(select(_LiveRoomRow.ruleset).where(_LiveRoomRow.id == room_id))
            return None if found is None else str(found)

    def forget(self, room_id: str) -> None:
        """The room closed: its rows go. Raises StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session, session.begin():
            session.execute(delete(_ActionRow).where(_ActionRow.room_id == room_id))
            session.execute(delete(_LiveRoomRow).where(_LiveRoomRow.id == room_id))
