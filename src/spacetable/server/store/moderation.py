"""Reports, moderators, mutes, bans and the audit log (issue 69 item 5; docs/moderation.md),
in the accounts' database. Tables: migration ``0009_moderation``.

* A **report** names an account, why (one of :data:`REASONS`), optionally the room and the
  words (at most :data:`TEXT_MAX` characters); it is ``open`` until a moderator marks it
  ``handled``. An account files at most :data:`REPORTS_PER_HOUR` an hour: counted and
  written by one conditional ``INSERT`` (after the reporter's row is locked, under
  PostgreSQL), so that parallel reports from several processes never overrun it.
* A **moderator** is an account given ``/admin`` by ``spacetable admin grant NAME``.
* A **sanction** is an account's ``mute`` (its chat refused in every room) or ``ban`` (its
  sessions ended, logging in refused: ``AccountStore.open_session`` asks the same table in
  the statement that opens a session), until a time or for good (``until`` ``None``).
* The **audit log** keeps every action: who (the moderator's name, or ``console`` for the
  command line), what, on whom (a name or a room's id, as text: it outlives the account),
  why, when.

Times are the server's wall clock (``wall``: the test clock's when there is one). Every
call blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection, Float, Integer, String, delete, insert, select, text, update
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from spacetable.server.store.accounts import Account, name_key
from spacetable.server.store.storage import Storage, reaching

#: Why a player may be reported (the report dialog offers them, in this order).
REASONS = ("abuse", "cheating", "spam", "name", "other")
#: The most characters of a report's words (a chat line, what happened).
TEXT_MAX = 500
#: The most characters of a moderator's reason.
REASON_MAX = 500
#: Reports one account may file in :data:`REPORT_WINDOW` seconds.
REPORTS_PER_HOUR = 5
#: The window :data:`REPORTS_PER_HOUR` counts over (seconds).
REPORT_WINDOW = 3600.0
#: The most rows the report queue and the audit log show at once.
SHOWN = 200
#: What a sanction is.
Kind = Literal["mute", "ban"]
#: The actor the audit log names for the command line.
CONSOLE = "console"


class _Base(DeclarativeBase):
    pass


class _ReportRow(_Base):
    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer)
    reporter_id: Mapped[int] = mapped_column(Integer)
    reporter: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str | None] = mapped_column(String(500), nullable=True)
    status: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)


class _ModeratorRow(_Base):
    __tablename__ = "moderators"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    granted_at: Mapped[float] = mapped_column(Float)


class _SanctionRow(_Base):
    __tablename__ = "sanctions"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[float] = mapped_column(Float)


class _AuditRow(_Base):
    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(String(500))


@dataclass(frozen=True, slots=True)
class Sanction:
    """An account's mute or ban in force: whose (name and key), until when (``None``: for
    good), why, since when."""

    name: str
    key: str
    kind: str
    until: float | None
    reason: str
    since: float

    def to_json(self) -> dict[str, Any]:
        """As ``/api/admin/sanctions`` lists it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "until": self.until,
            "reason": self.reason,
            "since": self.since,
        }


def _lock(connection: Connection, account_id: int) -> None:
    """Under PostgreSQL, lock the account's row for the rest of the transaction, so that a
    ban and a login (``AccountStore.open_session`` locks it to share), or two reports of one
    reporter, run one after the other. SQLite runs one write at a time."""
    if connection.dialect.name == "postgresql":
        locking = text("SELECT id FROM accounts WHERE id = :id FOR UPDATE")
        connection.execute(locking, {"id": account_id})


class ModerationStore:
    """Reports, moderators, sanctions and the audit log in ``storage``'s database;
    ``wall``: the clock reports, sanctions and the log are timed by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self.wall = wall

    # -- reports ---------------------------------------------------------------------------

    def report(
        self, reporter: Account, reported: Account, reason: str, room: str | None, said: str | None
    ) -> int | None:
        """File a report by ``reporter`` on ``reported``: its id, or ``None`` when the
        reporter filed :data:`REPORTS_PER_HOUR` already in the last hour (counted and
        written in one statement: parallel reports never overrun it)."""
        now = self.wall()
        insert = text(
            "INSERT INTO reports (account_id, reporter_id, reporter, reason, room, text, "
            "status, created_at) SELECT :account, :reporter_id, :reporter, :reason, :room, "
            ":text, 'open', :now WHERE (SELECT COUNT(*) FROM reports WHERE reporter_id = "
            ":reporter_id AND created_at > :since) < :most RETURNING id"
        )
        values = {
            "account": reported.id,
            "reporter_id": reporter.id,
            "reporter": reporter.name,
            "reason": reason,
            "room": room,
            "text": said,
            "now": now,
            "since": now - REPORT_WINDOW,
            "most": REPORTS_PER_HOUR,
        }
        with reaching(), self._engine.begin() as connection:
            _lock(connection, reporter.id)
            found = connection.execute(insert, values).scalar()
        return None if found is None else int(found)

    def reports(self, status: str = "open") -> list[dict[str, Any]]:
        """The reports of ``status`` (``open`` or ``handled``), newest first (at most
        :data:`SHOWN`): ``id``, ``name`` (the account reported), ``reporter``, ``reason``,
        ``room``, ``text``, ``status``, ``at``, and what stands against the account now
        (``muted``, ``banned``)."""
        query = text(
            "SELECT r.id, a.name, r.reporter, r.reason, r.room, r.text, r.status, "
            "r.created_at FROM reports r JOIN accounts a ON a.id = r.account_id "
            "WHERE r.status = :status ORDER BY r.created_at DESC, r.id DESC LIMIT :most"
        )
        with reaching(), self._engine.connect() as connection:
            rows = connection.execute(query, {"status": status, "most": SHOWN}).all()
        standing = {(s.key, s.kind) for s in self.sanctions()}
        return [
            {
                "id": row.id,
                "name": row.name,
                "reporter": row.reporter,
                "reason": row.reason,
                "room": row.room,
                "text": row.text,
                "status": row.status,
                "at": row.created_at,
                "muted": (name_key(row.name), "mute") in standing,
                "banned": (name_key(row.name), "ban") in standing,
            }
            for row in rows
        ]

    def settle(self, report_id: int, actor: str) -> str | None:
        """Mark an open report handled, noted in the audit log by ``actor``: the name of
        the account it reported, or ``None`` (no such open report)."""
        with reaching(), self._engine.begin() as connection:
            done = connection.execute(
                update(_ReportRow)
                .where(_ReportRow.id == report_id, _ReportRow.status == "open")
                .values(status="handled")
            )
            if done.rowcount != 1:
                return None
            name = connection.execute(
                text(
                    "SELECT a.name FROM reports r JOIN accounts a ON a.id = r.account_id "
                    "WHERE r.id = :id"
                ),
                {"id": report_id},
            ).scalar_one()
            self._note(connection, actor, "handled", str(name), f"report {report_id}")
            return str(name)

    # -- moderators ------------------------------------------------------------------------

    def is_moderator(self, account: Account) -> bool:
        """Whether ``account`` may use ``/admin``."""
        with reaching(), self._engine.connect() as connection:
            found = connection.execute(
                select(_ModeratorRow.account_id).where(_ModeratorRow.account_id == account.id)
            ).first()
        return found is not None

    def grant(self, account: Account, actor: str = CONSOLE) -> bool:
        """Make ``account`` a moderator (noted in the audit log): False if it was one."""
        with reaching(), self._engine.begin() as connection:
            if self._moderator(connection, account.id):
                return False
            connection.execute(
                insert(_ModeratorRow),
                {"account_id": account.id, "granted_at": self.wall()},
            )
            self._note(connection, actor, "grant", account.name, "")
        return True

    def revoke(self, account: Account, actor: str = CONSOLE) -> bool:
        """Take ``/admin`` from ``account`` (noted in the audit log): False if it was no
        moderator."""
        with reaching(), self._engine.begin() as connection:
            done = connection.execute(
                delete(_ModeratorRow).where(_ModeratorRow.account_id == account.id)
            )
            if done.rowcount != 1:
                return False
            self._note(connection, actor, "revoke", account.name, "")
        return True

    @staticmethod
    def _moderator(connection: Connection, account_id: int) -> bool:
        query = select(_ModeratorRow.account_id).where(_ModeratorRow.account_id == account_id)
        return connection.execute(query).first() is not None

    # -- sanctions -------------------------------------------------------------------------

    def sanction(
        self, account: Account, kind: Kind, until: float | None, reason: str, actor: str
    ) -> None:
        """Mute or ban ``account`` until ``until`` (``None``: for good) for ``reason``,
        noted in the audit log by ``actor``; a ban also ends every session of the account
        (in the same transaction: a login at the same moment either opened its session
        before, which goes, or finds the ban)."""
        now = self.wall()
        with reaching(), self._engine.begin() as connection:
            _lock(connection, account.id)
            connection.execute(
                delete(_SanctionRow).where(
                    _SanctionRow.account_id == account.id, _SanctionRow.kind == kind
                )
            )
            connection.execute(
                insert(_SanctionRow),
                {
                    "account_id": account.id,
                    "kind": kind,
                    "until": until,
                    "reason": reason,
                    "created_at": now,
                },
            )
            if kind == "ban":
                connection.execute(
                    text("DELETE FROM sessions WHERE account_id = :id"), {"id": account.id}
                )
            self._note(connection, actor, kind, account.name, reason)

    def lift(self, account: Account, kind: Kind, reason: str, actor: str) -> bool:
        """End ``account``'s mute or ban (noted in the audit log as ``unmute`` or
        ``unban``): False if it had none."""
        with reaching(), self._engine.begin() as connection:
            done = connection.execute(
                delete(_SanctionRow).where(
                    _SanctionRow.account_id == account.id, _SanctionRow.kind == kind
                )
            )
            if done.rowcount != 1:
                return False
            self._note(connection, actor, f"un{kind}", account.name, reason)
        return True

    def sanctions(self, kind: Kind | None = None) -> list[Sanction]:
        """The mutes and bans in force now (of ``kind`` only, if given), newest first."""
        query = (
            "SELECT a.name, a.key, s.kind, s.until, s.reason, s.created_at FROM sanctions s "
            "JOIN accounts a ON a.id = s.account_id WHERE (s.until IS NULL OR s.until > :now)"
        )
        values: dict[str, Any] = {"now": self.wall()}
        if kind is not None:
            query += " AND s.kind = :kind"
            values["kind"] = kind
        with reaching(), self._engine.connect() as connection:
            rows = connection.execute(text(query + " ORDER BY s.created_at DESC"), values).all()
        return [Sanction(r.name, r.key, r.kind, r.until, r.reason, r.created_at) for r in rows]

    def standing(self, account: Account, kind: Kind) -> Sanction | None:
        """``account``'s mute or ban in force now, if any."""
        return next((s for s in self.sanctions(kind) if s.key == account.key), None)

    # -- the audit log ---------------------------------------------------------------------

    def note(self, actor: str, action: str, target: str, reason: str) -> None:
        """Add an action to the audit log (one with no table of its own: a room closed)."""
        with reaching(), self._engine.begin() as connection:
            self._note(connection, actor, action, target, reason)

    def _note(
        self, connection: Connection, actor: str, action: str, target: str, reason: str
    ) -> None:
        connection.execute(
            insert(_AuditRow),
            {
                "at": self.wall(),
                "actor": actor[:80],
                "action": action,
                "target": target[:80],
                "reason": reason[:REASON_MAX],
            },
        )

    def audit(self) -> list[dict[str, Any]]:
        """The audit log, newest first (at most :data:`SHOWN`): ``at``, ``actor``,
        ``action``, ``target``, ``reason``."""
        query = select(_AuditRow).order_by(_AuditRow.at.desc(), _AuditRow.id.desc()).limit(SHOWN)
        with reaching(), self._engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            {
                "at": row.at,
                "actor": row.actor,
                "action": row.action,
                "target": row.target,
                "reason": row.reason,
            }
            for row in rows
        ]
