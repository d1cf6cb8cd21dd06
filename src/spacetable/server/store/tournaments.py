"""Swiss tournaments (issue 71), in the same database as the accounts, so that every
process of a cluster and every restart sees the same ones (migration ``0012_tournaments``).

A tournament's state changes are each one conditional statement whose row count says
whether it happened: starting (``status = 'upcoming'``), finishing, recording a result
(an unplayed table, unless the director corrects it). **Pairing** a round raises the
tournament's ``round`` from ``r`` to ``r + 1`` by an ``UPDATE ... WHERE round = r`` first,
then reads its players and tables and writes the new ones in the same transaction: of two
processes pairing the same round, one updates the row and pairs, the other finds the
round moved on and pairs nothing. A **join** takes the same row first (``round = round
WHERE round = r``), so that a player joining while a round is paired is either in it or
given his bye for it, never forgotten.

Every call blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, Text, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.server.store.storage import Storage, reaching

__all__ = [
    "Joined",
    "Table",
    "Tournament",
    "TournamentPlayer",
    "TournamentStore",
    "Unfinished",
]


class _Base(DeclarativeBase):
    pass


class _TournamentRow(_Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    seats: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    turn_hours: Mapped[float | None] = mapped_column(Float, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    starts_at: Mapped[float] = mapped_column(Float)
    venue: Mapped[str] = mapped_column(String(16))
    director: Mapped[str] = mapped_column(String(80))
    director_name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)


class _PlayerRow(_Base):
    __tablename__ = "tournament_players"

    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(80))
    rating: Mapped[int] = mapped_column(Integer)
    joined_round: Mapped[int] = mapped_column(Integer)
    withdrawn: Mapped[bool] = mapped_column(Boolean)


class _MatchRef(_Base):
    """The finished matches' rooms, seats and results (read only: ``storage.py`` owns
    the table)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    room: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class _GameRow(_Base):
    __tablename__ = "tournament_games"

    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    seats: Mapped[str] = mapped_column(Text)
    places: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)
    code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    report: Mapped[str | None] = mapped_column(Text, nullable=True)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored: ``venue`` is ``online`` or ``board`` (over the board),
    ``director`` the directing account's key, ``status`` ``upcoming``, ``running`` or
    ``finished``, ``round`` the last round paired (0: none yet)."""

    id: str
    name: str
    game: str
    options: dict[str, Any]
    seats: int
    rounds: int
    turn_hours: float | None
    rated: bool
    starts_at: float
    venue: str
    director: str
    director_name: str
    status: str = "upcoming"
    round: int = 0

    def summary(self) -> dict[str, Any]:
        """The tournament as ``GET /api/tournaments`` lists it."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "seats": self.seats,
            "status": self.status,
            "rounds": self.rounds,
            "round": self.round,
            "director": self.director_name,
            "rated": self.rated,
            "turn_hours": self.turn_hours,
            "starts_at": self.starts_at,
            "venue": self.venue,
        }


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    """An entrant: starting ``number``, account ``key`` and ``name``, ``rating`` when he
    joined, the first round he could be paired in (``joined_round``), ``withdrawn``."""

    number: int
    key: str
    name: str
    rating: int
    joined_round: int
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Table:
    """One table of one round: ``seats`` (starting numbers), ``places`` (``None``:
    unplayed), ``source``, its ``room`` (online), its over-the-board ``code`` and a
    ``report`` waiting for the other player's confirmation (``{by, places, ...}``)."""

    round: int
    table: int
    seats: tuple[int, ...]
    places: tuple[int, ...] | None
    source: str
    room: str | None = None
    code: str | None = None
    report: dict[str, Any] | None = field(default=None)


class Unfinished(ValueError):
    """A round cannot be paired: games of the last are unplayed."""


class Joined(ValueError):
    """The account is already an entrant of the tournament."""


def _tournament(row: _TournamentRow) -> Tournament:
    return Tournament(
        row.id,
        row.name,
        row.game,
        json.loads(row.options),
        row.seats,
        row.rounds,
        row.turn_hours,
        row.rated,
        row.starts_at,
        row.venue,
        row.director,
        row.director_name,
        row.status,
        row.round,
    )


def _table(row: _GameRow) -> Table:
    return Table(
        row.round,
        row.table,
        tuple(json.loads(row.seats)),
        None if row.places is None else tuple(json.loads(row.places)),
        row.source,
        row.room,
        row.code,
        None if row.report is None else json.loads(row.report),
    )


def _player(row: _PlayerRow) -> TournamentPlayer:
    return TournamentPlayer(
        row.number, row.key, row.name, row.rating, row.joined_round, row.withdrawn
    )


def new_id() -> str:
    """A fresh tournament id."""
    return secrets.token_urlsafe(9)


def table_code() -> str:
    """A table's over-the-board code: six digits, typed on a phone."""
    return f"{secrets.randbelow(10**6):06d}"


#: What :meth:`TournamentStore.pair` asks of its caller: the new round's tables (their
#: seats, places and source: a bye has its points already) from the tournament, its
#: players and every table so far, read under the round's lock.
Pairer = Callable[
    [Tournament, list[TournamentPlayer], list[Table]],
    Sequence[tuple[tuple[int, ...], tuple[int, ...] | None, str]],
]


class TournamentStore:
    """The tournaments of ``storage``'s database; ``wall``: the server's clock."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        # Called on threads: on SQLite, its writes may wait seconds for the file's lock
        # (a burst of 30 joins; a loaded machine), where the rooms' writer waits 0.25 s.
        self._engine = storage.threads_engine
        self.wall = wall
        # And this process's writers queue here, one on the file at a time: thirty threads
        # on SQLite's lock at once each poll it, and keep the holder from the processor.
        sqlite = self._engine.dialect.name == "sqlite"
        self._one_writer: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if sqlite else contextlib.nullcontext()
        )

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Session]:
        """A write transaction (one at a time in this process, on SQLite)."""
        with self._one_writer, reaching(), Session(self._engine) as session, session.begin():
            yield session

    def create(self, tournament: Tournament) -> None:
        """Store a new tournament."""
        row = _TournamentRow(
            id=tournament.id,
            name=tournament.name,
            game=tournament.game,
            options=json.dumps(tournament.options),
            seats=tournament.seats,
            rounds=tournament.rounds,
            turn_hours=tournament.turn_hours,
            rated=tournament.rated,
            starts_at=tournament.starts_at,
            venue=tournament.venue,
            director=tournament.director,
            director_name=tournament.director_name,
            status=tournament.status,
            round=tournament.round,
            created_at=self.wall(),
        )
        with self._writing() as session:
            session.add(row)

    def get(self, tournament_id: str) -> Tournament | None:
        """The tournament ``tournament_id``, if there is one."""
        with reaching(), Session(self._engine) as session:
            row = session.get(_TournamentRow, tournament_id)
            return None if row is None else _tournament(row)

    def listing(self, limit: int = 200) -> list[Tournament]:
        """The newest tournaments (at most ``limit``), soonest start first."""
        query = select(_TournamentRow).order_by(_TournamentRow.created_at.desc()).limit(limit)
        with reaching(), Session(self._engine) as session:
            rows = [_tournament(row) for row in session.scalars(query)]
        return sorted(rows, key=lambda t: t.starts_at)

    def players(self, tournament_id: str) -> list[TournamentPlayer]:
        """The entrants, by starting number."""
        query = (
            select(_PlayerRow)
            .where(_PlayerRow.tournament == tournament_id)
            .order_by(_PlayerRow.number)
        )
        with reaching(), Session(self._engine) as session:
            return [_player(row) for row in session.scalars(query)]

    def tables(self, tournament_id: str) -> list[Table]:
        """Every table of every round, in order."""
        query = (
            select(_GameRow)
            .where(_GameRow.tournament == tournament_id)
            .order_by(_GameRow.round, _GameRow.table)
        )
        with reaching(), Session(self._engine) as session:
            return [_table(row) for row in session.scalars(query)]

    def join(
        self, tournament_id: str, key: str, name: str, rating: int, late_byes: bool = True
    ) -> tuple[int, int]:
        """Enter ``key`` (shown ``name``): his starting number and the rounds already
        paired, each given him as a half-point bye. Raises :class:`Joined` if he is in,
        ``LookupError`` if the tournament finished or half its rounds are paired (the
        late-join window, checked again under the round's lock)."""
        for _ in range(5):
            with self._writing() as session:
                row = session.get(_TournamentRow, tournament_id)
                if row is None or row.status == "finished":
                    raise LookupError(tournament_id)
                seen = row.round
                if row.status == "running" and 2 * seen >= row.rounds:
                    raise LookupError(tournament_id)  # the late-join window closed meanwhile
                held = session.execute(
                    update(_TournamentRow)
                    .where(_TournamentRow.id == tournament_id, _TournamentRow.round == seen)
                    .values(round=_TournamentRow.round)
                )
                if held.rowcount != 1:  # type: ignore[attr-defined]
                    continue
                if session.scalar(
                    select(_PlayerRow.number).where(
                        _PlayerRow.tournament == tournament_id, _PlayerRow.key == key
                    )
                ):
                    raise Joined(key)
                number = 1 + (
                    session.scalar(
                        select(func.max(_PlayerRow.number)).where(
                            _PlayerRow.tournament == tournament_id
                        )
                    )
                    or 0
                )
                session.add(
                    _PlayerRow(
                        tournament=tournament_id,
                        number=number,
                        key=key,
                        name=name,
                        rating=rating,
                        joined_round=seen + 1,
                        withdrawn=False,
                    )
                )
                for r in range(1, seen + 1):
                    last = session.scalar(
                        select(func.max(_GameRow.table)).where(
                            _GameRow.tournament == tournament_id, _GameRow.round == r
                        )
                    )
                    session.add(
                        _GameRow(
                            tournament=tournament_id,
                            round=r,
                            table=(last or 0) + 1,
                            seats=json.dumps([number]),
                            places=None,
                            source="late",
                        )
                    )
                try:
                    session.flush()
                except IntegrityError:
                    raise Joined(key) from None
                return number, seen
        raise LookupError(tournament_id)

    def withdraw(self, tournament_id: str, number: int) -> bool:
        """Withdraw entrant ``number`` (not paired again); whether he was in."""
        query = (
            update(_PlayerRow)
            .where(
                _PlayerRow.tournament == tournament_id,
                _PlayerRow.number == number,
                _PlayerRow.withdrawn.is_(False),
            )
            .values(withdrawn=True)
        )
        with self._writing() as session:
            return bool(session.execute(query).rowcount == 1)  # type: ignore[attr-defined]

    def set_status(self, tournament_id: str, was: str, now: str) -> bool:
        """Move the tournament from status ``was`` to ``now``; whether this call did."""
        query = (
            update(_TournamentRow)
            .where(_TournamentRow.id == tournament_id, _TournamentRow.status == was)
            .values(status=now)
        )
        with self._writing() as session:
            return bool(session.execute(query).rowcount == 1)  # type: ignore[attr-defined]

    def start(self, tournament_id: str) -> bool:
        """Start an upcoming tournament (whether this call did) and give its entrants
        their starting numbers by rating, the Swiss convention: the highest first, equal
        ratings by name. One transaction: a join waiting on the tournament's row comes
        after, numbered next."""
        moved = (
            update(_TournamentRow)
            .where(_TournamentRow.id == tournament_id, _TournamentRow.status == "upcoming")
            .values(status="running")
        )
        mine = _PlayerRow.tournament == tournament_id
        with self._writing() as session:
            if session.execute(moved).rowcount != 1:  # type: ignore[attr-defined]
                return False
            rows = list(session.scalars(select(_PlayerRow).where(mine)))
            order = sorted(rows, key=lambda r: (-r.rating, r.name.casefold(), r.number))
            wanted = {row.number: i for i, row in enumerate(order, 1)}
            # two steps, so that no number is held twice in between (the primary key)
            session.execute(update(_PlayerRow).where(mine).values(number=-_PlayerRow.number))
            for was, now in wanted.items():
                session.execute(
                    update(_PlayerRow).where(mine, _PlayerRow.number == -was).values(number=now)
                )
            return True

    def pair(self, tournament_id: str, done: int, pairer: Pairer) -> list[Table] | None:
        """Pair round ``done + 1`` with ``pairer`` (see :data:`Pairer`): its tables, or
        ``None`` if the tournament is not running at round ``done`` any more (another
        call paired it). Raises :class:`Unfinished` while tables of round ``done`` are
        unplayed (nothing is written)."""
        moved = (
            update(_TournamentRow)
            .where(
                _TournamentRow.id == tournament_id,
                _TournamentRow.round == done,
                _TournamentRow.status == "running",
            )
            .values(round=done + 1)
        )
        with self._writing() as session:
            if session.execute(moved).rowcount != 1:  # type: ignore[attr-defined]
                return None
            row = session.get(_TournamentRow, tournament_id)
            assert row is not None
            players = [
                _player(p)
                for p in session.scalars(
                    select(_PlayerRow)
                    .where(_PlayerRow.tournament == tournament_id)
                    .order_by(_PlayerRow.number)
                )
            ]
            tables = [
                _table(g)
                for g in session.scalars(
                    select(_GameRow)
                    .where(_GameRow.tournament == tournament_id)
                    .order_by(_GameRow.round, _GameRow.table)
                )
            ]
            if any(t.places is None and t.source not in ("bye", "late") for t in tables):
                session.rollback()
                raise Unfinished(done)
            drafts = pairer(_tournament(row), players, tables)
            made = []
            for i, (seats, places, source) in enumerate(drafts, 1):
                code = table_code() if row.venue == "board" and len(seats) > 1 else None
                session.add(
                    _GameRow(
                        tournament=tournament_id,
                        round=done + 1,
                        table=i,
                        seats=json.dumps(list(seats)),
                        places=None if places is None else json.dumps(list(places)),
                        source=source,
                        code=code,
                    )
                )
                made.append(Table(done + 1, i, tuple(seats), places, source, None, code))
            return made

    def record(
        self,
        tournament_id: str,
        round_: int,
        table: int,
        places: Sequence[int],
        source: str,
        *,
        correct: bool = False,
        report: dict[str, Any] | None = None,
    ) -> bool:
        """Record the places of a table: an unplayed one's (or any, ``correct``: the
        director's correction); whether this call recorded them."""
        query = update(_GameRow).where(
            _GameRow.tournament == tournament_id,
            _GameRow.round == round_,
            _GameRow.table == table,
            _GameRow.source.not_in(("bye", "late")),
        )
        if not correct:
            query = query.where(_GameRow.places.is_(None))
        values: dict[str, Any] = {"places": json.dumps(list(places)), "source": source}
        if report is not None:
            values["report"] = json.dumps(report)
        with self._writing() as session:
            return bool(session.execute(query.values(**values)).rowcount == 1)  # type: ignore[attr-defined]

    def set_report(
        self, tournament_id: str, round_: int, table: int, report: dict[str, Any] | None
    ) -> bool:
        """Keep (or clear: ``None``) the report waiting on an unplayed table."""
        query = (
            update(_GameRow)
            .where(
                _GameRow.tournament == tournament_id,
                _GameRow.round == round_,
                _GameRow.table == table,
                _GameRow.places.is_(None),
            )
            .values(report=None if report is None else json.dumps(report))
        )
        with self._writing() as session:
            return bool(session.execute(query).rowcount == 1)  # type: ignore[attr-defined]

    def set_room(self, tournament_id: str, round_: int, table: int, room: str) -> None:
        """Note the room a table is played in."""
        query = (
            update(_GameRow)
            .where(
                _GameRow.tournament == tournament_id,
                _GameRow.round == round_,
                _GameRow.table == table,
            )
            .values(room=room)
        )
        with self._writing() as session:
            session.execute(query)

    def open_rooms(self) -> list[tuple[str, Table]]:
        """The unplayed tables with a room, of every running tournament (the sweep reads
        their matches' stored results)."""
        query = (
            select(_GameRow)
            .join(_TournamentRow, _TournamentRow.id == _GameRow.tournament)
            .where(
                _TournamentRow.status == "running",
                _GameRow.room.is_not(None),
                _GameRow.places.is_(None),
            )
        )
        with reaching(), Session(self._engine) as session:
            return [(row.tournament, _table(row)) for row in session.scalars(query)]

    def finished_matches(self, rooms: Sequence[str]) -> dict[str, tuple[list[str], dict[str, Any]]]:
        """The stored matches of ``rooms`` that finished: by room, its seats' players (in
        seat order) and its result."""
        if not rooms:
            return {}
        query = select(_MatchRef).where(_MatchRef.room.in_(list(rooms)))
        with reaching(), Session(self._engine) as session:
            return {
                row.room: (
                    [str(seat.get("player") or seat.get("name")) for seat in row.seats],
                    dict(row.result),
                )
                for row in session.scalars(query)
            }
