"""Personal access tokens of the bot API (issue 72 item 1; docs/bots.md).

An account makes a token for a program that acts for it (a bot): the token is shown once,
starts with :data:`TOKEN_PREFIX`, and only its SHA-256 digest is stored (migration
``0015_bot_api``). Each token grants some of :data:`SCOPES`. A revoked token's row is
deleted, and every request reads the database, so a revoked token stops at once on every
process of a cluster; so does the token of an account a moderator bans (its ``sanctions``
row is read in the same query). Every call blocks on the database: the server calls them
off the event loop.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Float, ForeignKey, Integer, String, delete, func, select, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.server.store.accounts import Account
from spacetable.server.store.storage import Storage, reaching, secret_digest

#: What every token starts with (so a leaked one is recognised by secret scanners).
TOKEN_PREFIX = "spt_"
#: The scopes a token may grant.
SCOPES = ("bot:play", "challenge:read", "challenge:write")
#: The most tokens one account keeps.
TOKENS_MAX = 20
#: The longest description, in characters.
DESCRIPTION_MAX = 200


class _Base(DeclarativeBase):
    pass


class _AccountRef(_Base):
    """The accounts' ids (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)


class _TokenRow(_Base):
    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    description: Mapped[str] = mapped_column(String(200))
    scopes: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A token as its owner sees it listed: never the token itself."""

    id: str
    description: str
    scopes: tuple[str, ...]
    created_at: float


@dataclass(frozen=True, slots=True)
class Bearer:
    """Who a request's token acts for, and what it may do."""

    account: Account
    scopes: frozenset[str]
    token_id: str


#: The token's account and row, unless the account is banned now.
_BEARER = text(
    "SELECT a.id, a.name, a.key, a.created_at, t.scopes, t.id FROM api_tokens t "
    "JOIN accounts a ON a.id = t.account_id WHERE t.digest = :digest "
    "AND NOT EXISTS (SELECT 1 FROM sanctions s WHERE s.account_id = a.id AND s.kind = 'ban' "
    "AND (s.until IS NULL OR s.until > :now))"
)


class TokenStore:
    """The personal access tokens of the accounts in ``storage``'s database; ``wall``: the
    wall clock the rows are dated by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self._wall = wall

    def create(
        self, account: Account, description: str, scopes: tuple[str, ...]
    ) -> tuple[str, str] | None:
        """A new token of ``account``: ``(id, token)`` (the token is never stored), or
        ``None`` when the account already keeps :data:`TOKENS_MAX`."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token_id = secrets.token_hex(8)
        row = _TokenRow(
            id=token_id,
            account_id=account.id,
            digest=secret_digest(token),
            description=description,
            scopes=" ".join(scopes),
            created_at=self._wall(),
        )
        with reaching(), Session(self._engine) as session, session.begin():
            if session.get_bind().dialect.name == "postgresql":
                session.execute(
                    text("SELECT id FROM accounts WHERE id = :id FOR UPDATE"), {"id": account.id}
                )
            kept = session.scalar(
                select(func.count())
                .select_from(_TokenRow)
                .where(_TokenRow.account_id == account.id)
            )
            if (kept or 0) >= TOKENS_MAX:
                return None
            session.add(row)
        return token_id, token

    def listed(self, account: Account) -> list[TokenInfo]:
        """The tokens of ``account``, oldest first."""
        query = (
            select(_TokenRow)
            .where(_TokenRow.account_id == account.id)
            .order_by(_TokenRow.created_at, _TokenRow.id)
        )
        with reaching(), Session(self._engine) as session:
            return [
                TokenInfo(r.id, r.description, tuple(r.scopes.split()), r.created_at)
                for r in session.scalars(query)
            ]

    def revoke(self, account: Account, token_id: str) -> bool:
        """Delete the token ``token_id`` of ``account``: whether there was one."""
        with reaching(), Session(self._engine) as session, session.begin():
            gone = session.execute(
                delete(_TokenRow)
                .where(_TokenRow.id == token_id)
                .where(_TokenRow.account_id == account.id)
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def bearer(self, token: str | None) -> Bearer | None:
        """Who ``token`` acts for (``None``: unknown, revoked, or its account banned)."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 128:
            return None
        values = {"digest": secret_digest(token), "now": self._wall()}
        with reaching(), self._engine.connect() as connection:
            row = connection.execute(_BEARER, values).first()
        if row is None:
            return None
        account = Account(row[0], row[1], row[2], row[3])
        return Bearer(account, frozenset(str(row[4]).split()), str(row[5]))
