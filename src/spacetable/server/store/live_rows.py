"""The live rooms' tables and the records read from and written to them.

The four tables :mod:`~spacetable.server.store.live_store` describes (``live_rooms``,
``room_actions``, ``room_chat``, ``live_room_accounts``) as SQLAlchemy rows, the
statements written once for them, the records a room stores (:class:`LiveRoom`,
:class:`StoredAction`, :class:`StoredChat`) and the conversions between the two: what a
room's row holds, column by column, and the room a row holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    insert,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.server.store.storage import add_missing_columns


class Base(DeclarativeBase):
    """The live rooms' tables (their own metadata, beside ``storage.py``'s ``matches``)."""


class LiveRoomRow(Base):
    """A row of ``live_rooms``: one room, as :class:`LiveRoom` holds it."""

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
ADDED_COLUMNS = {"extras": "JSON", "alive_at": "FLOAT", "clock": "FLOAT", "deadline": "FLOAT"}


def add_live_columns(engine: Engine) -> None:
    """Migrate a database made by an older release (as ``storage.py`` does ``matches``)."""
    add_missing_columns(engine, "live_rooms", ADDED_COLUMNS)


class ChatRow(Base):
    """A row of ``room_chat``: one line said in a room."""

    __tablename__ = "room_chat"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class ActionRow(Base):
    """A row of ``room_actions``: one action of the match a room plays."""

    __tablename__ = "room_actions"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    t: Mapped[float] = mapped_column(Float)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Seconds the running countdown had left at ``t`` (``None``: none ran).
    left: Mapped[float | None] = mapped_column(Float, nullable=True)


class AccountRow(Base):
    """A row of ``live_room_accounts``: a registered player seated in a correspondence room."""

    __tablename__ = "live_room_accounts"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[str] = mapped_column(String(80), primary_key=True)

    # Migration 0005 gives a database made before it the same table and index.
    __table_args__ = (Index("live_room_accounts_by_account", "account"),)


#: The tables, and the statements a write runs on the driver's cursor (compiled once).
LIVE_ROOMS = cast(Table, LiveRoomRow.__table__)
ACCOUNTS = cast(Table, AccountRow.__table__)
INSERT_ACTION = insert(cast(Table, ActionRow.__table__))
INSERT_CHAT = insert(cast(Table, ChatRow.__table__))
INSERT_ACCOUNT = insert(ACCOUNTS)
DELETE_ACCOUNTS = delete(ACCOUNTS).where(ACCOUNTS.c.room_id == bindparam("room_id"))


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


def room_values(room: LiveRoom) -> dict[str, Any]:
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


def action_values(room_id: str, action: StoredAction) -> dict[str, Any]:
    """The database row of one of room ``room_id``'s actions."""
    return {
        "room_id": room_id,
        "match_number": action.match_number,
        "seq": action.seq,
        "t": action.t,
        "action": action.action,
        "left": action.left,
    }


def chat_values(room_id: str, said: StoredChat) -> dict[str, Any]:
    """The database row of one line of room ``room_id``'s chat."""
    return {"room_id": room_id, "seq": said.seq, "entry": said.entry}


def seated_accounts(game: Any, seats: Any) -> frozenset[str]:
    """The accounts seated in a room played by correspondence (none in another room): what
    ``live_room_accounts`` holds for it."""
    if not (isinstance(game, dict) and game.get(CORRESPONDENCE_OPTION)):
        return frozenset()
    return frozenset(s["account"] for s in seats or () if isinstance(s, dict) and s.get("account"))


def stored_deadline(phase: str, extras: Any) -> float | None:
    """The wall time a stored room's correspondence turn runs out (``extras``'
    ``correspondence``: ``rooms/correspondence.py``), or ``None``: no match waits on
    anyone (a room played live, a lobby, a match over)."""
    about = extras.get("correspondence") if isinstance(extras, dict) else None
    if phase != "playing" or not isinstance(about, dict) or not about.get("waiting"):
        return None
    deadline = about.get("deadline")
    return float(deadline) if isinstance(deadline, int | float) else None


def live_room(
    row: LiveRoomRow,
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


def waits_for_players(game: Any, phase: str, seats: Any) -> bool:
    """Whether a stored room is played by correspondence, not over, with a registered
    player seated: it waits for its players however long nobody holds it (never swept)."""
    by_post = isinstance(game, dict) and bool(game.get(CORRESPONDENCE_OPTION))
    seated = any(isinstance(s, dict) and s.get("account") for s in seats or ())
    return phase != "over" and by_post and seated
