"""Follows and blocks (issue 69 item 4), in the same database as the accounts.

An account follows another one way (as lichess does: the other is not asked), to see him
in its friends list with his presence; an account blocks another so that the other cannot
challenge it, is never paired with it, and its chat lines are hidden from it in every room.
Both are pairs of account ids (migration ``0007_relations``): a deleted account's rows go
with it, on either side (``accounts.py``'s ``erase``), and an account made later with the
same name inherits none of them.

Callers name accounts by their key (``accounts.name_key``: what names are compared by).
An account follows at most :data:`FOLLOWS_MAX` and blocks at most :data:`BLOCKS_MAX`
accounts: the cap is checked in the statement that adds the row, the account's row locked
first under PostgreSQL, so that parallel requests of one account never pass it. Every call
blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    exists,
    func,
    insert,
    literal,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column

from spacetable.i18n.phrase import Reason, phrase_n, refusal
from spacetable.server.store.accounts import NAME_MAX, name_key
from spacetable.server.store.storage import Storage, reaching

#: The most accounts one account may follow.
FOLLOWS_MAX = 1000
#: The most accounts one account may block.
BLOCKS_MAX = 1000


class _Base(DeclarativeBase):
    pass


class _FollowRow(_Base):
    __tablename__ = "follows"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    target_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[float] = mapped_column(Float)


class _BlockRow(_Base):
    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    target_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[float] = mapped_column(Float)


class _AccountRef(_Base):
    """The accounts' ids, keys and names (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(80))


_Row = type[_FollowRow] | type[_BlockRow]


class RelationRefused(ValueError):
    """A follow or a block refused: its argument says why, in a sentence for the page;
    ``status`` is the HTTP status that tells it (400, 404 or 409)."""

    def __init__(self, said: str, status: int) -> None:
        super().__init__(said)
        self.status = status


class RelationStore:
    """The follows and blocks of the accounts in ``storage``'s database; ``wall``: the
    wall clock the rows are dated by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self._wall = wall

    # Follows ---------------------------------------------------------------------------

    def follow(self, by: str, who: str) -> str:
        """The account ``by`` (a key) follows the one named ``who`` (a name as typed;
        already following: nothing changes). Returns the name ``who`` is shown by. Raises
        :class:`RelationRefused`: no such account (404), oneself (400),
        :data:`FOLLOWS_MAX` reached (409)."""
        return self._add(_FollowRow, by, who, FOLLOWS_MAX)

    def unfollow(self, by: str, who: str) -> str:
        """The account ``by`` (a key) follows the one named ``who`` no more (not following:
        nothing changes). Returns the name ``who`` is shown by. Raises
        :class:`RelationRefused` (404) for no such account."""
        return self._remove(_FollowRow, by, who)

    def following(self, key: str) -> list[str]:
        """The names of the accounts ``key`` follows, in alphabetical order."""
        return self._targets(_FollowRow, key)

    # Blocks ----------------------------------------------------------------------------

    def block(self, by: str, who: str) -> str:
        """The account ``by`` (a key) blocks the one named ``who`` (a name as typed;
        already blocked: nothing changes). Returns the name ``who`` is shown by. Raises
        :class:`RelationRefused`: no such account (404), oneself (400),
        :data:`BLOCKS_MAX` reached (409)."""
        return self._add(_BlockRow, by, who, BLOCKS_MAX)

    def unblock(self, by: str, who: str) -> str:
        """The account ``by`` (a key) blocks the one named ``who`` no more (not blocked:
        nothing changes). Returns the name ``who`` is shown by. Raises
        :class:`RelationRefused` (404) for no such account."""
        return self._remove(_BlockRow, by, who)

    def blocking(self, key: str) -> list[str]:
        """The names of the accounts ``key`` blocks, in alphabetical order."""
        return self._targets(_BlockRow, key)

    def blocked_keys(self, key: str) -> frozenset[str]:
        """The keys of the accounts ``key`` blocks (a room hides their chat lines from
        him: ``rooms/lookups.py``). One indexed query."""
        target = aliased(_AccountRef)
        query = (
            select(target.key)
            .select_from(_BlockRow)
            .join(target, target.id == _BlockRow.target_id)
            .join(_AccountRef, _AccountRef.id == _BlockRow.account_id)
            .where(_AccountRef.key == key)
        )
        with reaching(), Session(self._engine) as session:
            return frozenset(session.scalars(query))

    def is_blocked(self, by: str, who: str) -> bool:
        """Whether the account ``by`` blocks the account ``who`` (keys; a guest's key or
        an unknown one: no)."""
        return bool(self._blocks({by, who}) & {(by, who)})

    def blocks_either(self, a: str, b: str) -> bool:
        """Whether either of the accounts ``a`` and ``b`` blocks the other (keys)."""
        return bool(self._blocks({a, b}) & {(a, b), (b, a)})

    def blocking_pairs(self, keys: Iterable[str]) -> set[frozenset[str]]:
        """The pairs among the accounts ``keys`` where either blocks the other (what the
        pairing pool keeps apart). Keys of guests or of no account are in none. One query,
        whatever the number of keys."""
        return {frozenset(pair) for pair in self._blocks(set(keys)) if pair[0] != pair[1]}

    def _blocks(self, keys: set[str]) -> set[tuple[str, str]]:
        """The blocks (blocker's key, blocked's key) between accounts of ``keys``."""
        if len(keys) < 2:
            return set()
        blocker, blocked = aliased(_AccountRef), aliased(_AccountRef)
        query = (
            select(blocker.key, blocked.key)
            .select_from(_BlockRow)
            .join(blocker, blocker.id == _BlockRow.account_id)
            .join(blocked, blocked.id == _BlockRow.target_id)
            .where(blocker.key.in_(keys), blocked.key.in_(keys))
        )
        with reaching(), Session(self._engine) as session:
            return {(str(a), str(b)) for a, b in session.execute(query)}

    # Shared ----------------------------------------------------------------------------

    def _add(self, row: _Row, by: str, who: str, cap: int) -> str:
        with reaching(), Session(self._engine) as session, session.begin():
            # The account's row locked first (PostgreSQL; SQLite writes one at a time):
            # its parallel requests add their rows one after the other, each seeing the
            # count the one before left. ``FOR NO KEY UPDATE``: rows that refer to it are
            # still written meanwhile.
            mine = session.execute(
                select(_AccountRef.id, _AccountRef.name)
                .where(_AccountRef.key == by)
                .with_for_update(key_share=True)
            ).first()
            theirs = session.execute(
                select(_AccountRef.id, _AccountRef.name).where(_AccountRef.key == name_key(who))
            ).first()
            if mine is None or theirs is None:
                raise _unknown(who)
            if mine.id == theirs.id:
                raise RelationRefused(refusal("You cannot follow or block yourself."), 400)
            held = exists().where(row.account_id == mine.id, row.target_id == theirs.id)
            if session.scalar(select(held)):
                return str(theirs.name)
            count = select(func.count()).select_from(row).where(row.account_id == mine.id)
            # The cap, and the row not there yet, checked by the statement that adds it
            # (SQLite runs it under its write lock: two requests at once add it once).
            added = session.execute(
                insert(row)
                .from_select(
                    ["account_id", "target_id", "created_at"],
                    select(
                        literal(mine.id, Integer()),
                        literal(theirs.id, Integer()),
                        literal(self._wall(), Float()),
                    ).where(count.scalar_subquery() < cap, ~held),
                )
                .returning(row.target_id)
            )
            if added.first() is None:
                if session.scalar(select(held)):
                    return str(theirs.name)  # (added by another request meanwhile)
                raise _too_many(row, cap)
        return str(theirs.name)

    def _remove(self, row: _Row, by: str, who: str) -> str:
        mine = aliased(_AccountRef)
        with reaching(), Session(self._engine) as session, session.begin():
            theirs = session.execute(
                select(_AccountRef.id, _AccountRef.name).where(_AccountRef.key == name_key(who))
            ).first()
            if theirs is None:
                raise _unknown(who)
            session.execute(
                delete(row).where(
                    row.target_id == theirs.id,
                    row.account_id.in_(select(mine.id).where(mine.key == by)),
                )
            )
        return str(theirs.name)

    def _targets(self, row: _Row, key: str) -> list[str]:
        mine = aliased(_AccountRef)
        query = (
            select(_AccountRef.name)
            .select_from(row)
            .join(_AccountRef, _AccountRef.id == row.target_id)
            .join(mine, mine.id == row.account_id)
            .where(mine.key == key)
        )
        with reaching(), Session(self._engine) as session:
            names = [str(name) for name in session.scalars(query)]
        return sorted(names, key=lambda name: (name.casefold(), name))


def _unknown(who: str) -> RelationRefused:
    shown = who if len(who) <= NAME_MAX else who[: NAME_MAX - 1] + "…"  # (not a whole URL back)
    return RelationRefused(refusal("No player is called “{name}”.", name=shown), 404)


def _too_many(row: _Row, cap: int) -> RelationRefused:
    if row is _FollowRow:
        said = phrase_n(
            "You follow {n} players already: unfollow one first.",
            "You follow {n} players already: unfollow one first.",
            cap,
        )
    else:
        said = phrase_n(
            "You block {n} players already: unblock one first.",
            "You block {n} players already: unblock one first.",
            cap,
        )
    return RelationRefused(Reason(said), 409)
