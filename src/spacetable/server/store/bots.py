"""Bot accounts (issue 72 item 2; docs/bots.md): an account that has played no rated match
may become a bot account, for good (``POST /api/bot/account/upgrade``). Its profile and its
seats say BOT; it plays challenges, never the quick-pairing pools (its seeks are refused
and the pool skips any it had: ``store/meetings.py``); its ratings are ranked apart from
the people's, on the bots' leaderboard (``store/ratings.py``).

The table is ``bot_accounts`` (migration ``0016_bot_accounts``), one row per bot account.
Becoming one is a single conditional ``INSERT`` (no rated match, no row yet), the
account's row locked first under PostgreSQL, as a rated match's save locks it
(``ratings.py``): of an upgrade and a rated match stored at once, either the match is
rated first and the upgrade refused, or the account is a bot when it is rated. Every call
blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Literal

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    exists,
    literal,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql.elements import ColumnElement

from spacetable.server.store.accounts import Account
from spacetable.server.store.storage import Storage, reaching

#: What an upgrade did: ``made`` a bot account, found it ``already`` one, or refused it
#: because the account has played a ``rated`` match.
Upgrade = Literal["made", "already", "rated"]

_META = MetaData()
#: The bot accounts (``0016_bot_accounts``).
BOT_ACCOUNTS = Table(
    "bot_accounts",
    _META,
    Column("account_id", Integer, primary_key=True),
    Column("made_at", Float),
)
#: The ratings' match counts (read only: ``ratings.py`` owns the table).
_RATINGS = Table("ratings", _META, Column("account_id", Integer), Column("matches", Integer))

#: The accounts' ids and keys (read only: ``accounts.py`` owns the table).
_ACCOUNTS = Table("accounts", _META, Column("id", Integer), Column("key", String(80)))

#: The keys (names' keys) of the bot accounts among ``:keys``.
_BOT_KEYS = text(
    "SELECT a.key FROM bot_accounts b JOIN accounts a ON a.id = b.account_id WHERE a.key IN :keys"
).bindparams(bindparam("keys", expanding=True))


def not_a_bot(key: ColumnElement[str] | InstrumentedAttribute[str]) -> ColumnElement[bool]:
    """True of a row whose ``key`` column is not a bot account's name's key (the pool's
    seeks skip those: ``store/meetings.py``)."""
    held = (
        select(_ACCOUNTS.c.id)
        .join(BOT_ACCOUNTS, BOT_ACCOUNTS.c.account_id == _ACCOUNTS.c.id)
        .where(_ACCOUNTS.c.key == key)
    )
    return ~held.exists()


class BotBook:
    """The bot accounts of ``storage``'s database; ``wall``: the clock they are dated by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self._wall = wall

    def upgrade(self, account: Account) -> Upgrade:
        """Make ``account`` a bot account, for good, unless it has played a rated match."""
        rated = exists().where(_RATINGS.c.account_id == account.id, _RATINGS.c.matches > 0)
        held = exists().where(BOT_ACCOUNTS.c.account_id == account.id)
        adding = BOT_ACCOUNTS.insert().from_select(
            ["account_id", "made_at"],
            select(literal(account.id, Integer), literal(self._wall(), Float)).where(~rated, ~held),
        )
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                if session.get_bind().dialect.name == "postgresql":
                    session.execute(
                        text("SELECT id FROM accounts WHERE id = :id FOR UPDATE"),
                        {"id": account.id},
                    )
                if session.execute(adding).rowcount == 1:  # type: ignore[attr-defined]
                    return "made"
                if session.scalar(select(held)):
                    return "already"
                return "rated"
        except IntegrityError:  # made at once by another request: one row
            return "already"

    def is_bot(self, key: str) -> bool:
        """Whether the account whose name's key is ``key`` is a bot account."""
        return bool(self.bots_among([key]))

    def bots_among(self, keys: Iterable[str]) -> set[str]:
        """The keys among ``keys`` (accounts' names' keys) of bot accounts."""
        wanted = sorted(set(keys))
        if not wanted:
            return set()
        with reaching(), self._engine.connect() as connection:
            found = connection.execute(_BOT_KEYS, {"keys": wanted}).scalars()
            return {str(key) for key in found}
