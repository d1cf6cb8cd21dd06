"""Accounts and their sessions (issue 37 item 1), in the same database as the matches.

What is stored (docs/accounts.md): an account's name as given and its ``key`` (the name
after NFKC and case folding: ``Alice`` and ``ALICE`` are one name), the argon2id hash of
its password (never the password), when it was made; and each open session as the
SHA-256 digest of its random id (the id itself is only in the browser's cookie). The
tables are made by the migration ``0002_accounts`` (``store/migrations``).

Argon2 is slow on purpose: the hasher is given (:func:`password_hasher`), so that tests
that make many accounts may use cheap parameters. Every call here blocks on the database
or on hashing: the server calls them off the event loop.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Float, ForeignKey, Integer, String, Text, cast, delete, or_, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.i18n.phrase import Reason, phrase_n, refusal
from spacetable.server.store.anonymous import anonymise
from spacetable.server.store.names import NAME_MAX, NAME_MIN, AccountRefused, check_name, skeleton
from spacetable.server.store.storage import Storage, _MatchRow, reaching, secret_digest

__all__ = ["NAME_MAX", "NAME_MIN", "AccountRefused", "check_name"]  # (their home: names.py)

#: Passwords: 8 to 256 characters.
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: How long a session lasts, in seconds (30 days), on the server as in the cookie.
SESSION_SECONDS = 30 * 24 * 3600
#: The tables of later revisions that hold an account's rows (``ratings.py``,
#: ``moderation.py``: the reports on it, its role, its mute or ban; ``relations.py``: whom
#: it follows or blocks).
_ACCOUNT_TABLES = (
    "ratings",
    "account_matches",
    "reports",
    "moderators",
    "sanctions",
    "follows",
    "blocks",
    "email_addresses",  # (``email.py``: its address and the links mailed to it)
    "email_tokens",
    "notifications",  # (``notifications.py``: its notifications and push subscriptions)
    "push_subscriptions",
    "api_tokens",  # (``tokens.py``: its personal access tokens, for its bots)
    "bot_accounts",  # (``bots.py``: whether it is a bot account)
)
#: The tables whose rows also name an account as their ``target_id`` (``relations.py``:
#: who follows or blocks it).
_TARGET_TABLES = ("follows", "blocks")
#: The session cookie's name.
SESSION_COOKIE = "spacetable_session"


def password_hasher(cheap: bool = False) -> PasswordHasher:
    """argon2id with argon2-cffi's recommended parameters, or (``cheap``, for tests that
    make many accounts) the smallest ones: still argon2id, hashed in a millisecond."""
    if cheap:
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher()


class AccountBanned(PermissionError):
    """The account is banned (``store/moderation.py``): it may not log in; the argument
    says so, in a sentence."""


class NameTaken(LookupError):
    """An account of that name (compared after NFKC and case folding) exists, or one whose
    name looks like it (the same :func:`~spacetable.server.store.names.skeleton`); its
    argument says which, in a sentence."""


def name_key(name: str) -> str:
    """What names are compared by: NFKC, case folded, outer spaces removed."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def check_password(password: Any) -> str:
    """The password, if it has 8 to 256 characters. Raises :class:`AccountRefused` saying
    what is wrong, in the sign-up page's own sentences (figures written in them)."""
    if not isinstance(password, str) or not password:
        raise AccountRefused(refusal("Type a password."))
    if len(password) < PASSWORD_MIN:
        raise AccountRefused(
            Reason(
                phrase_n(
                    "A password has at least 8 characters: yours has {n}.",
                    "A password has at least 8 characters: yours has {n}.",
                    len(password),
                )
            )
        )
    if len(password) > PASSWORD_MAX:
        raise AccountRefused(
            Reason(
                phrase_n(
                    "A password has at most 256 characters: yours has {n}.",
                    "A password has at most 256 characters: yours has {n}.",
                    len(password),
                )
            )
        )
    return password


class _Base(DeclarativeBase):
    pass


class _AccountRow(_Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(80), unique=True)
    #: What look-alike names share (``names.skeleton``), unique: ``None`` only for an
    #: account made before it that looked like an older one (``0006_name_skeletons``).
    skeleton: Mapped[str | None] = mapped_column(String(255), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[float] = mapped_column(Float)


class _SessionRow(_Base):
    __tablename__ = "sessions"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[float] = mapped_column(Float)


#: A session written unless the account is banned now (``moderation.py``'s ``sanctions``).
_OPEN_UNLESS_BANNED = text(
    "INSERT INTO sessions (digest, account_id, created_at) SELECT :digest, :id, :now "
    "WHERE NOT EXISTS (SELECT 1 FROM sanctions WHERE account_id = :id AND kind = 'ban' "
    "AND (until IS NULL OR until > :now))"
)
#: The account's row, locked against a ban's change for the rest of the transaction.
_LOCK_SHARED = text("SELECT id FROM accounts WHERE id = :id FOR SHARE")


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player: his name as shown, the key it is compared by, since when."""

    id: int
    name: str
    key: str
    since: float


def _account(row: _AccountRow) -> Account:
    return Account(row.id, row.name, row.key, row.created_at)


class AccountStore:
    """Accounts and sessions in ``storage``'s database. ``hasher``: the password hasher
    (:func:`password_hasher`); ``wall``: the wall clock sessions expire by."""

    def __init__(
        self,
        storage: Storage,
        hasher: PasswordHasher | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._engine = storage.engine
        self._hasher = hasher or password_hasher()
        self._wall = wall
        # Checked against an unknown name's password, so that it takes as long as a
        # wrong password for a known one (made at the first login: start-up stays cheap).
        self._dummy: str | None = None

    def create(self, name: Any, password: Any) -> Account:
        """A new account. Raises :class:`AccountRefused`, :class:`NameTaken`,
        StorageUnavailable."""
        shown, password = check_name(name), check_password(password)
        key, shape = name_key(shown), skeleton(shown)
        self._vacant(key, shape)  # before the slow hash
        hashed = self._hasher.hash(password)
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                self._vacant(key, shape, session)
                row = _AccountRow(
                    name=shown,
                    key=key,
                    skeleton=shape,
                    password_hash=hashed,
                    created_at=self._wall(),
                )
                session.add(row)
                session.flush()
                return _account(row)
        except IntegrityError:
            # Another sign-up took the name, or one like it, since it was looked for: the
            # unique indexes refused this one. Say which.
            self._vacant(key, shape)
            raise NameTaken(refusal("That name is taken: choose another.")) from None

    def _vacant(self, key: str, shape: str, session: Session | None = None) -> None:
        """Raise :class:`NameTaken` if an account has the name ``key`` or one that looks
        like it (the skeleton ``shape``)."""
        query = select(_AccountRow.key, _AccountRow.name).where(
            or_(_AccountRow.key == key, _AccountRow.skeleton == shape)
        )
        if session is None:
            with reaching(), Session(self._engine) as own:
                found = own.execute(query).first()
        else:
            found = session.execute(query).first()
        if found is None:
            return
        if found.key == key:
            raise NameTaken(refusal("That name is taken: choose another."))
        raise NameTaken(
            refusal(
                "This name looks too much like “{name}”, another player's name: choose another.",
                name=found.name,
            )
        )

    def verify(self, name: Any, password: Any) -> Account | None:
        """The account if ``password`` is its password, else ``None`` (an unknown name
        takes as long as a wrong password: a hash is checked either way)."""
        key = name_key(name) if isinstance(name, str) else ""
        given = password if isinstance(password, str) else ""
        with reaching(), Session(self._engine) as session:
            row = session.scalar(select(_AccountRow).where(_AccountRow.key == key))
            found = _account(row) if row is not None else None
            stored = row.password_hash if row is not None else self._dummy_hash()
        try:
            self._hasher.verify(stored, given[:PASSWORD_MAX])
        except (VerificationError, InvalidHashError):
            return None
        return found

    def hash_password(self, password: str) -> str:
        """The hash of ``password`` (checked already: :func:`check_password`), slow on
        purpose: for a password set anew (``store/email.py``'s reset)."""
        return self._hasher.hash(password)

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self._hasher.hash(secrets.token_hex(16))
        return self._dummy

    def open_session(self, account: Account) -> str:
        """A new session of ``account``: its random id (only its digest is stored). Raises
        :class:`AccountBanned` when a moderator banned it (``store/moderation.py``: asked
        in the statement that writes the session, the account's row locked under
        PostgreSQL as a ban locks it, so that no session outlives a ban)."""
        session_id = secrets.token_urlsafe(32)
        values = {"digest": secret_digest(session_id), "id": account.id, "now": self._wall()}
        with reaching(), self._engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(_LOCK_SHARED, {"id": account.id})
            opened = connection.execute(_OPEN_UNLESS_BANNED, values).rowcount
        if opened != 1:
            said = refusal("This account is banned by a moderator: you cannot log in.")
            raise AccountBanned(said)
        return session_id

    def session_account(self, session_id: str | None) -> Account | None:
        """The account of an open session, or ``None`` (unknown, revoked or expired)."""
        if not session_id or len(session_id) > 128:
            return None
        oldest = self._wall() - SESSION_SECONDS
        query = (
            select(_AccountRow)
            .join(_SessionRow, _SessionRow.account_id == _AccountRow.id)
            .where(_SessionRow.digest == secret_digest(session_id))
            .where(_SessionRow.created_at > oldest)
        )
        with reaching(), Session(self._engine) as session:
            row = session.scalar(query)
            return _account(row) if row is not None else None

    def revoke(self, session_id: str) -> None:
        """End a session: its id no longer names an account."""
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(
                delete(_SessionRow).where(_SessionRow.digest == secret_digest(session_id))
            )

    def find(self, name: str) -> Account | None:
        """The account whose name is ``name`` (compared after NFKC and case folding)."""
        with reaching(), Session(self._engine) as session:
            row = session.scalar(select(_AccountRow).where(_AccountRow.key == name_key(name)))
            return _account(row) if row is not None else None

    def is_registered(self, name: str) -> bool:
        """Whether ``name`` is an account's name (compared after NFKC and case folding) or
        looks like one (the same skeleton: ``names.py``): a guest asking for it sits as
        ``name (guest)``."""
        shape = skeleton(name)
        query = select(_AccountRow.id).where(
            or_(_AccountRow.key == name_key(name), _AccountRow.skeleton == shape)
        )
        with reaching(), Session(self._engine) as session:
            return session.scalar(query.limit(1)) is not None

    def delete(self, account: Account, password: Any) -> bool:
        """Delete ``account`` if ``password`` is its password: its sessions go with it and
        its seats in stored matches are renamed ``anonymous`` (``anonymous 2``... when
        another seat of the match has that name). False for a wrong password."""
        if self.verify(account.name, password) is None:
            return False
        self.erase(account)
        return True

    def erase(self, account: Account) -> None:
        """Delete ``account`` (its password checked already, its rooms left:
        ``http/leaving.py``), as :meth:`delete` does."""
        # The matches its seats are in: those noted for it (``ratings.py``), and, for
        # matches stored before, those whose seats' JSON holds its name (as written: a
        # name beyond ASCII is escaped there; "#" escapes nothing a name may hold).
        seats = cast(_MatchRow.seats, Text)
        written = {account.name, json.dumps(account.name)[1:-1]}
        named = [seats.like(f"%{name}%", escape="#") for name in written]
        noted = text("SELECT match_id FROM account_matches WHERE account_id = :id")
        with reaching(), Session(self._engine) as session, session.begin():
            ids = list(session.scalars(noted, {"id": account.id}))
            rows = session.scalars(select(_MatchRow).where(or_(_MatchRow.id.in_(ids), *named)))
            for row in rows:
                _anonymise(row, account)
            session.execute(delete(_SessionRow).where(_SessionRow.account_id == account.id))
            for table in _ACCOUNT_TABLES:  # (SQLite does not cascade: foreign keys are off)
                session.execute(
                    text(f"DELETE FROM {table} WHERE account_id = :id"), {"id": account.id}
                )
            for table in _TARGET_TABLES:
                session.execute(
                    text(f"DELETE FROM {table} WHERE target_id = :id"), {"id": account.id}
                )
            session.execute(delete(_AccountRow).where(_AccountRow.id == account.id))


def _anonymise(row: _MatchRow, account: Account) -> None:
    """Rename the account's seats of a stored match everywhere the match names them
    (``anonymous.py``: its replay still plays exactly)."""

    def mine(seat: dict[str, Any]) -> bool:
        registered = seat.get("registered") and name_key(str(seat.get("player") or ""))
        return seat.get("account") == account.key or registered == account.key

    anonymise(row, mine)
