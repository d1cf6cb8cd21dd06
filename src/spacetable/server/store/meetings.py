"""Seeks and challenges (issue 69 items 2 and 3), in the same database as the accounts,
so that every process of a cluster sees the same ones (migration ``0008_meetings``).

A **seek** is a player waiting to be paired for a game (``meet/pool.py`` pairs them): one
a game and player (a unique index: a second is refused, whatever the process). A real-time
seek is kept alive while its player has a lobby socket (``alive_at``, refreshed by the
pool of any process while he is online): a seek whose process died lapses
:data:`SEEK_LAPSE_SECONDS` after its last refresh. A correspondence seek waits until it
is taken or cancelled. The pool **claims** the seeks it pairs by deleting them in one
transaction that counts its rows: of two processes pairing the same seek, one deletes
them all and pairs, the other deletes fewer, rolls back and pairs nobody.

A **challenge** goes from one account to another; it is open until it is accepted,
declined, cancelled or expires, and each of those is one conditional ``UPDATE`` (``status
= 'open'``) whose row count says who closed it: an accept racing a cancel, or two
processes expiring it, close it once. Closed challenges are kept an hour: an account sends
at most :data:`CHALLENGES_AN_HOUR`, counted by the statement that adds the row, the
account's row locked first under PostgreSQL, so that parallel requests never pass it.

Times are the server's wall clock (``wall``: the test clock's in tests). Every call blocks
on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    Integer,
    String,
    Text,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.types import TypeEngine

from spacetable.server.store.bots import not_a_bot
from spacetable.server.store.storage import Storage, reaching

#: How long a real-time seek outlives the last time its player was seen online (seconds).
SEEK_LAPSE_SECONDS = 10.0
#: How many challenges an account may send in an hour.
CHALLENGES_AN_HOUR = 20
#: How long a real-time challenge waits for its answer (seconds).
REALTIME_CHALLENGE_SECONDS = 120.0
#: How long a correspondence challenge waits for its answer (seconds: a week).
CORRESPONDENCE_CHALLENGE_SECONDS = 7 * 24 * 3600.0
#: How long a closed challenge is kept (the hourly limit counts it).
_KEPT_SECONDS = 3600.0


class _Base(DeclarativeBase):
    pass


class _SeekRow(_Base):
    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    turn_hours: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating: Mapped[float] = mapped_column(Float)
    range_min: Mapped[float | None] = mapped_column(Float, nullable=True)
    range_max: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    alive_at: Mapped[float] = mapped_column(Float)


class _ChallengeRow(_Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_key: Mapped[str] = mapped_column(String(80))
    from_name: Mapped[str] = mapped_column(String(80))
    to_key: Mapped[str] = mapped_column(String(80))
    to_name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    rated: Mapped[bool] = mapped_column(Boolean)
    turn_hours: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)


class _AccountRef(_Base):
    """The accounts' ids and keys (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80))


@dataclass(frozen=True, slots=True)
class Seek:
    """A player waiting to be paired: ``player`` (his key), ``name`` (as shown), the
    ``game`` and its ``seats``, ``rated``, ``turn_hours`` (``None``: real time), his
    ``rating`` in the game (``0``: not rated yet), the ratings he accepts (``range_min``,
    ``range_max``; ``None``: any) and since when he waits (``created_at``)."""

    id: str
    player: str
    name: str
    game: str
    seats: int
    rated: bool
    turn_hours: float | None
    rating: float
    range_min: float | None
    range_max: float | None
    created_at: float

    @property
    def realtime(self) -> bool:
        """Whether the seek is for a game played live (its player's socket keeps it)."""
        return self.turn_hours is None

    def to_json(self) -> dict[str, Any]:
        """The seek as ``GET /api/seeks`` shows its own to a player."""
        return {
            "id": self.id,
            "game": self.game,
            "seats": self.seats,
            "rated": self.rated,
            "turn_hours": self.turn_hours,
            "range": [self.range_min, self.range_max],
            "since": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge from the account ``from_key`` (shown ``from_name``) to ``to_key``."""

    id: str
    from_key: str
    from_name: str
    to_key: str
    to_name: str
    game: str
    options: dict[str, Any]
    rated: bool
    turn_hours: float | None
    created_at: float
    expires_at: float
    status: str = "open"
    reason: str | None = None
    room: str | None = None

    def view(self) -> dict[str, Any]:
        """The challenge as the ``challenge`` message and ``GET /api/challenges`` show it
        (``protocol/lobby_messages.py``'s ``ChallengeView``)."""
        return {
            "id": self.id,
            "from": self.from_name,
            "to": self.to_name,
            "game": self.game,
            "options": self.options,
            "rated": self.rated,
            "turn_hours": self.turn_hours,
            "expires_at": self.expires_at,
        }


class _Lost(Exception):
    """A claim found fewer seeks than it took: its deletions are rolled back."""


class SeekTaken(ValueError):
    """The player already has an open seek for that game (its id: ``args[0]``)."""


class TooManyChallenges(ValueError):
    """The account sent :data:`CHALLENGES_AN_HOUR` challenges within the hour."""


def _seek(row: _SeekRow) -> Seek:
    return Seek(
        row.id,
        row.player,
        row.name,
        row.game,
        row.seats,
        row.rated,
        row.turn_hours,
        row.rating,
        row.range_min,
        row.range_max,
        row.created_at,
    )


def _challenge(row: _ChallengeRow) -> Challenge:
    return Challenge(
        row.id,
        row.from_key,
        row.from_name,
        row.to_key,
        row.to_name,
        row.game,
        json.loads(row.options),
        row.rated,
        row.turn_hours,
        row.created_at,
        row.expires_at,
        row.status,
        row.reason,
        row.room,
    )


def new_id() -> str:
    """A fresh seek or challenge id (16 random bytes, URL-safe)."""
    return secrets.token_urlsafe(12)


class MeetingStore:
    """The seeks and challenges of ``storage``'s database; ``wall``: the clock they are
    timed by (the server's)."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self.wall = wall

    # Seeks -----------------------------------------------------------------------------

    def add_seek(self, seek: Seek) -> None:
        """Store ``seek`` (alive from now). Raises :class:`SeekTaken` with the id of the
        player's open seek for the game, if he has one (the unique index says so)."""
        row = _SeekRow(
            id=seek.id,
            player=seek.player,
            name=seek.name,
            game=seek.game,
            seats=seek.seats,
            rated=seek.rated,
            turn_hours=seek.turn_hours,
            rating=seek.rating,
            range_min=seek.range_min,
            range_max=seek.range_max,
            created_at=seek.created_at,
            alive_at=self.wall(),
        )
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                session.add(row)
        except IntegrityError:
            held = self.seek_of(seek.player, seek.game)
            raise SeekTaken(held.id if held is not None else "") from None

    def seek_of(self, player: str, game: str) -> Seek | None:
        """The player's open seek for ``game``, if any."""
        query = select(_SeekRow).where(_SeekRow.player == player, _SeekRow.game == game)
        with reaching(), Session(self._engine) as session:
            row = session.scalar(query)
            return None if row is None else _seek(row)

    def seeks_of(self, player: str) -> list[Seek]:
        """The player's open seeks."""
        query = select(_SeekRow).where(_SeekRow.player == player).order_by(_SeekRow.created_at)
        with reaching(), Session(self._engine) as session:
            return [_seek(row) for row in session.scalars(query)]

    def cancel_seek(self, seek_id: str, player: str) -> bool:
        """Remove the player's seek ``seek_id``; whether there was one of his."""
        query = delete(_SeekRow).where(_SeekRow.id == seek_id, _SeekRow.player == player)
        with reaching(), Session(self._engine) as session, session.begin():
            return bool(session.execute(query).rowcount == 1)  # type: ignore[attr-defined]

    def drop_live_seeks(self, player: str) -> int:
        """The player left (no lobby socket anywhere): his real-time seeks go; how many."""
        query = delete(_SeekRow).where(_SeekRow.player == player, _SeekRow.turn_hours.is_(None))
        with reaching(), Session(self._engine) as session, session.begin():
            return int(session.execute(query).rowcount)  # type: ignore[attr-defined]

    def waiting(self) -> list[Seek]:
        """Every open seek, oldest first (but a bot account's: ``bots.py``), after the
        real-time seeks that lapsed (:data:`SEEK_LAPSE_SECONDS` without their player seen
        online) are removed (a write only when some did: an idle server's rounds only
        read)."""
        lapsed = _SeekRow.turn_hours.is_(None) & (
            _SeekRow.alive_at < self.wall() - SEEK_LAPSE_SECONDS
        )
        with reaching(), Session(self._engine) as session:
            stale = session.scalar(select(_SeekRow.id).where(lapsed).limit(1))
        if stale is not None:
            with reaching(), Session(self._engine) as session, session.begin():
                session.execute(delete(_SeekRow).where(lapsed))
        query = (
            select(_SeekRow)
            .where(not_a_bot(_SeekRow.player))  # a bot account's: never paired (issue 72)
            .order_by(_SeekRow.created_at, _SeekRow.id)
        )
        with reaching(), Session(self._engine) as session:
            return [_seek(row) for row in session.scalars(query)]

    def live_players(self) -> list[str]:
        """The players with a real-time seek (the pool keeps those online alive)."""
        query = select(_SeekRow.player).where(_SeekRow.turn_hours.is_(None)).distinct()
        with reaching(), Session(self._engine) as session:
            return [str(key) for key in session.scalars(query)]

    def keep_alive(self, players: Iterable[str]) -> None:
        """The ``players`` are online: their real-time seeks live on."""
        keys = list(players)
        if not keys:
            return
        query = (
            update(_SeekRow)
            .where(_SeekRow.player.in_(keys), _SeekRow.turn_hours.is_(None))
            .values(alive_at=self.wall())
        )
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(query)

    def claim(self, seek_ids: list[str]) -> bool:
        """Take the seeks ``seek_ids`` out to pair them: all of them, or none (another
        process took one first, or its player cancelled it). Whether they are ours."""
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                gone = session.execute(delete(_SeekRow).where(_SeekRow.id.in_(seek_ids)))
                if gone.rowcount != len(set(seek_ids)):  # type: ignore[attr-defined]
                    raise _Lost  # rolled back: the seeks still there stay
        except _Lost:
            return False
        return True

    def put_back(self, seeks: Iterable[Seek]) -> None:
        """Store again seeks claimed for a room that could not be made (the server holds
        as many rooms as it may): they wait as before (a player who sought again meanwhile
        keeps his new one)."""
        for seek in seeks:
            with contextlib.suppress(SeekTaken):
                self.add_seek(seek)

    def counts(self) -> list[dict[str, Any]]:
        """How many seek each game, seat count and pace (``GET /api/seeks``)."""
        lapsed = self.wall() - SEEK_LAPSE_SECONDS
        live = (_SeekRow.turn_hours.is_not(None)) | (_SeekRow.alive_at >= lapsed)
        query = (
            select(_SeekRow.game, _SeekRow.seats, _SeekRow.turn_hours, func.count())
            .where(live)
            .group_by(_SeekRow.game, _SeekRow.seats, _SeekRow.turn_hours)
            .order_by(_SeekRow.game, _SeekRow.seats)
        )
        with reaching(), Session(self._engine) as session:
            return [
                {"game": game, "seats": seats, "turn_hours": hours, "waiting": n}
                for game, seats, hours, n in session.execute(query)
            ]

    # Challenges ------------------------------------------------------------------------

    def add_challenge(self, challenge: Challenge) -> None:
        """Store ``challenge`` (open). Raises :class:`TooManyChallenges` when its sender
        sent :data:`CHALLENGES_AN_HOUR` within the hour (counted in the statement that
        adds it, his account's row locked first under PostgreSQL)."""
        row = _ChallengeRow
        since = challenge.created_at - 3600.0
        with reaching(), Session(self._engine) as session, session.begin():
            # The sender's row locked (PostgreSQL; SQLite writes one at a time): his
            # parallel requests count one after the other. ``FOR NO KEY UPDATE``.
            session.execute(
                select(_AccountRef.id)
                .where(_AccountRef.key == challenge.from_key)
                .with_for_update(key_share=True)
            )
            sent = (
                select(func.count())
                .select_from(row)
                .where(row.from_key == challenge.from_key, row.created_at > since)
            )
            values: dict[str, Any] = {
                "id": challenge.id,
                "from_key": challenge.from_key,
                "from_name": challenge.from_name,
                "to_key": challenge.to_key,
                "to_name": challenge.to_name,
                "game": challenge.game,
                "options": json.dumps(challenge.options),
                "rated": challenge.rated,
                "turn_hours": challenge.turn_hours,
                "created_at": challenge.created_at,
                "expires_at": challenge.expires_at,
                "status": "open",
            }
            columns: dict[str, TypeEngine[Any]] = {
                "id": String(32),
                "from_key": String(80),
                "from_name": String(80),
                "to_key": String(80),
                "to_name": String(80),
                "game": String(32),
                "options": Text(),
                "rated": Boolean(),
                "turn_hours": Float(),
                "created_at": Float(),
                "expires_at": Float(),
                "status": String(16),
            }
            added = session.connection().execute(
                insert(row)
                .from_select(
                    list(values),
                    select(*(literal(values[k], columns[k]) for k in values)).where(
                        sent.scalar_subquery() < CHALLENGES_AN_HOUR
                    ),
                )
                .returning(row.id)
            )
            # The rows returned, not the row count: psycopg gives this INSERT ... SELECT
            # a row count of -1, never 0, when the limit keeps the row out (30 parallel
            # challenges were all answered 201 on PostgreSQL while 20 rows were written).
            if not added.all():
                raise TooManyChallenges(CHALLENGES_AN_HOUR)

    def challenge(self, challenge_id: str) -> Challenge | None:
        """The challenge ``challenge_id``, whatever its status."""
        with reaching(), Session(self._engine) as session:
            row = session.get(_ChallengeRow, challenge_id)
            return None if row is None else _challenge(row)

    def open_challenges(self, key: str) -> tuple[list[Challenge], list[Challenge]]:
        """The open challenges (not expired) the account ``key`` received, and sent."""
        row = _ChallengeRow
        now = self.wall()
        query = (
            select(row)
            .where(row.status == "open", row.expires_at > now)
            .where((row.to_key == key) | (row.from_key == key))
            .order_by(row.created_at)
        )
        with reaching(), Session(self._engine) as session:
            found = [_challenge(r) for r in session.scalars(query)]
        return [c for c in found if c.to_key == key], [c for c in found if c.from_key == key]

    def close(
        self,
        challenge_id: str,
        status: str,
        *,
        by: str,
        reason: str | None = None,
        room: str | None = None,
    ) -> Challenge | None:
        """Close the open challenge ``challenge_id`` with ``status`` (``accepted`` or
        ``declined``: by its receiver ``by``; ``cancelled``: by its sender ``by``), if it
        is still open and not expired: the closed challenge, or ``None`` (nothing closed:
        another request closed it first, it expired, or it is not ``by``'s to close)."""
        row = _ChallengeRow
        side = row.from_key if status == "cancelled" else row.to_key
        query = (
            update(row)
            .where(row.id == challenge_id, row.status == "open", side == by)
            .where(row.expires_at > self.wall())
            .values(status=status, reason=reason, room=room)
        )
        with reaching(), Session(self._engine) as session, session.begin():
            if session.execute(query).rowcount != 1:  # type: ignore[attr-defined]
                return None
            closed = session.get(_ChallengeRow, challenge_id)
            assert closed is not None
            return _challenge(closed)

    def set_room(self, challenge_id: str, room: str) -> None:
        """The accepted challenge ``challenge_id`` is played in ``room``."""
        query = update(_ChallengeRow).where(_ChallengeRow.id == challenge_id).values(room=room)
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(query)

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose room could not be made is open again."""
        query = (
            update(_ChallengeRow)
            .where(_ChallengeRow.id == challenge_id)
            .values(status="open", room=None)
        )
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(query)

    def expire_due(self) -> list[Challenge]:
        """Close the open challenges whose time ran out (``expired``): those this call
        closed (another process sweeping at once closes the others), and forget the
        closed ones older than the hourly limit looks."""
        row = _ChallengeRow
        now = self.wall()
        expired = []
        with reaching(), Session(self._engine) as session:
            due = session.scalars(
                select(row.id).where(row.status == "open", row.expires_at <= now)
            ).all()
        if due:  # (an idle server's rounds only read)
            with reaching(), Session(self._engine) as session, session.begin():
                for challenge_id in due:
                    closing = (
                        update(row)
                        .where(row.id == challenge_id, row.status == "open")
                        .values(status="expired")
                    )
                    if session.execute(closing).rowcount == 1:  # type: ignore[attr-defined]
                        expired.append(challenge_id)
        old = (row.status != "open") & (row.created_at < now - _KEPT_SECONDS)
        with reaching(), Session(self._engine) as session:
            forgotten = session.scalar(select(row.id).where(old).limit(1)) is not None
        if forgotten:
            with reaching(), Session(self._engine) as session, session.begin():
                session.execute(delete(row).where(old))
        if not expired:
            return []
        with reaching(), Session(self._engine) as session:
            rows = session.scalars(select(row).where(row.id.in_(expired))).all()
            return [_challenge(r) for r in rows]

    # An account leaves -----------------------------------------------------------------

    def close_account(self, key: str) -> list[Challenge]:
        """The account ``key`` is banned or deleted: its seeks go, and its open
        challenges, either way, are ``cancelled``: those it closed (the others' players
        are told by ``meet/challenges.py``)."""
        row = _ChallengeRow
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(delete(_SeekRow).where(_SeekRow.player == key))
            mine = (row.from_key == key) | (row.to_key == key)
            found = session.scalars(select(row.id).where(row.status == "open", mine)).all()
            closed = []
            for challenge_id in found:
                closing = (
                    update(row)
                    .where(row.id == challenge_id, row.status == "open")
                    .values(status="cancelled")
                )
                if session.execute(closing).rowcount == 1:  # type: ignore[attr-defined]
                    closed.append(challenge_id)
        with reaching(), Session(self._engine) as session:
            rows = session.scalars(select(row).where(row.id.in_(closed))).all()
            return [_challenge(r) for r in rows]

    def drop_account(self, key: str) -> None:
        """The account ``key`` is banned or deleted: its seeks and open challenges go
        (:meth:`close_account`; ``meet/challenges.py``'s ``drop_account`` also tells the
        other players)."""
        self.close_account(key)
