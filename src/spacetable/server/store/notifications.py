"""The accounts' notifications and their push subscriptions (issue 70 items 1 and 2;
migration ``0011_notifications``, docs/notifications.md), in the same database as the
accounts.

A notification is stored as its ``kind`` and values (``params``), never as text: the
list is written in the reader's language when he reads it (``meet/notices.py``). An
account keeps its newest :data:`KEEP` notifications; older ones go as new ones come.

A push subscription is a browser's push endpoint and its keys, tied to the session that
subscribed (the digest of its id, as ``sessions`` keeps it): a session that ended (logged
out, revoked by a ban or a reset password) sends nothing more, and its subscriptions are
deleted the next time the account is sent one (:meth:`NotificationStore.targets`). The
server's VAPID key pair is made once, by the first process that needs it, and kept here:
a restart signs with the same key, so the browsers' subscriptions stay valid.

Every call blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    Integer,
    String,
    Text,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.server.store.storage import Storage, reaching, secret_digest

#: The notifications an account keeps (the newest).
KEEP = 200
#: The push subscriptions an account keeps (its browsers; the oldest go first).
SUBSCRIPTIONS_MAX = 20
#: A page of ``GET /api/notifications`` at most.
PAGE_MAX = 50


class _Base(DeclarativeBase):
    pass


class _NoticeRow(_Base):
    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    url: Mapped[str] = mapped_column(String(200))
    tag: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    read: Mapped[bool] = mapped_column(Boolean)


class _SubscriptionRow(_Base):
    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer)
    session_digest: Mapped[str] = mapped_column(String(64))
    endpoint: Mapped[str] = mapped_column(String(1000))
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)
    failures: Mapped[int] = mapped_column(Integer)


class _KeyRow(_Base):
    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_key: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[float] = mapped_column(Float)


class _ChoicesRow(_Base):
    __tablename__ = "notify_choices"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    push_off: Mapped[str] = mapped_column(String(200))  # groups, comma-separated
    all_off: Mapped[bool] = mapped_column(Boolean)
    changed_at: Mapped[float] = mapped_column(Float)


class _AccountRef(_Base):
    """The accounts' ids and keys (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80))


class _SessionRef(_Base):
    """The sessions' digests (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "sessions"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True, slots=True)
class Notice:
    """One stored notification: its ``kind`` and ``params`` (the text is written at read
    time), the page it links to (``url``), the ``tag`` a newer notice of the same thing
    replaces on a device, when (``at``, wall time) and whether it was ``read``."""

    id: int
    kind: str
    params: dict[str, Any]
    url: str
    tag: str
    at: float
    read: bool


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's push subscription: where to send (``endpoint``), the keys that
    encrypt for it (``p256dh``, ``auth``: base64url, as the browser gave them) and the
    language its pushes are written in (``lang``: its page's)."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str = "en"

    def info(self) -> dict[str, Any]:
        """As pywebpush takes it (``subscription_info``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


#: The groups of notification kinds a player turns push on or off for, in the order the
#: settings list them (``PUT /api/accounts/me/notify``).
GROUPS = ("your_move", "ran_out", "challenges", "match_over", "tournament_round")
_GROUP_OF = {
    "challenge": "challenges",
    "challenge_accepted": "challenges",
    "challenge_declined": "challenges",
}


def group_of(kind: str) -> str:
    """The group of the notification ``kind`` (a kind of no group is its own)."""
    return _GROUP_OF.get(kind, kind)


@dataclass(frozen=True, slots=True)
class Choices:
    """What an account is told: the groups it wants no push for (``push_off``), and
    whether everything (every push, the daily digest) is off (``all_off``)."""

    push_off: frozenset[str] = frozenset()
    all_off: bool = False

    def pushes(self, kind: str) -> bool:
        """Whether a notification of ``kind`` is pushed to the account's devices."""
        return not self.all_off and group_of(kind) not in self.push_off


def _notice(row: _NoticeRow) -> Notice:
    return Notice(row.id, row.kind, dict(row.params), row.url, row.tag, row.at, bool(row.read))


class NotificationStore:
    """The notifications and push subscriptions of the accounts in ``storage``'s
    database; ``wall``: the wall clock they are dated by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self._wall = wall

    def _account_id(self, session: Session, key: str) -> int | None:
        return session.scalar(select(_AccountRef.id).where(_AccountRef.key == key))

    # Notifications ---------------------------------------------------------------------

    def add(self, key: str, kind: str, params: dict[str, Any], url: str, tag: str) -> Notice | None:
        """Store a notification for the account ``key`` (``None``: no such account, a
        guest's key say); the account's oldest beyond :data:`KEEP` go."""
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return None
            row = _NoticeRow(
                account_id=account,
                kind=kind,
                params=params,
                url=url,
                tag=tag,
                at=self._wall(),
                read=False,
            )
            session.add(row)
            session.flush()
            kept = (
                select(_NoticeRow.id)
                .where(_NoticeRow.account_id == account)
                .order_by(_NoticeRow.id.desc())
                .offset(KEEP)
                .limit(1)
            )
            oldest_gone = session.scalar(kept)
            if oldest_gone is not None:
                session.execute(
                    delete(_NoticeRow).where(
                        _NoticeRow.account_id == account, _NoticeRow.id <= oldest_gone
                    )
                )
            return _notice(row)

    def page(
        self, key: str, before: int | None = None, limit: int = 20
    ) -> tuple[int, list[Notice]]:
        """The account's unread count and its notifications, newest first: at most
        ``limit`` (up to :data:`PAGE_MAX`), those older than id ``before`` if given."""
        limit = max(1, min(limit, PAGE_MAX))
        with reaching(), Session(self._engine) as session:
            account = self._account_id(session, key)
            if account is None:
                return 0, []
            unread = session.scalar(
                select(func.count())
                .select_from(_NoticeRow)
                .where(_NoticeRow.account_id == account, _NoticeRow.read.is_(False))
            )
            query = select(_NoticeRow).where(_NoticeRow.account_id == account)
            if before is not None:
                query = query.where(_NoticeRow.id < before)
            rows = session.scalars(query.order_by(_NoticeRow.id.desc()).limit(limit))
            return int(unread or 0), [_notice(row) for row in rows]

    def mark_read(self, key: str, ids: Iterable[int] | None) -> int:
        """Mark the account's notifications ``ids`` read (``None``: all of them); ids of
        another account's are left alone. Returns how many were unread."""
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return 0
            change = update(_NoticeRow).where(
                _NoticeRow.account_id == account, _NoticeRow.read.is_(False)
            )
            if ids is not None:
                change = change.where(_NoticeRow.id.in_(list(ids)))
            return int(session.execute(change.values(read=True)).rowcount or 0)  # type: ignore[attr-defined]

    # Push subscriptions ----------------------------------------------------------------

    def subscribe(
        self, key: str, session_id: str, subscription: Subscription, lang: str = "en"
    ) -> bool:
        """Keep ``subscription`` for the account ``key``, tied to its session
        ``session_id`` (an endpoint subscribed before is taken over: a browser has one);
        the account's oldest beyond :data:`SUBSCRIPTIONS_MAX` go. False: no such
        account."""
        for _ in range(3):  # two sessions taking one endpoint at once: the second retries
            try:
                return self._subscribe(key, session_id, subscription, lang)
            except IntegrityError:
                continue
        return self._subscribe(key, session_id, subscription, lang)

    def _subscribe(self, key: str, session_id: str, subscription: Subscription, lang: str) -> bool:
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return False
            endpoint = subscription.endpoint
            session.execute(delete(_SubscriptionRow).where(_SubscriptionRow.endpoint == endpoint))
            session.add(
                _SubscriptionRow(
                    account_id=account,
                    session_digest=secret_digest(session_id),
                    endpoint=endpoint,
                    p256dh=subscription.p256dh,
                    auth=subscription.auth,
                    lang=lang,
                    created_at=self._wall(),
                    failures=0,
                )
            )
            session.flush()
            beyond = (
                select(_SubscriptionRow.id)
                .where(_SubscriptionRow.account_id == account)
                .order_by(_SubscriptionRow.id.desc())
                .offset(SUBSCRIPTIONS_MAX)
                .limit(1)
            )
            oldest_gone = session.scalar(beyond)
            if oldest_gone is not None:
                session.execute(
                    delete(_SubscriptionRow).where(
                        _SubscriptionRow.account_id == account,
                        _SubscriptionRow.id <= oldest_gone,
                    )
                )
            return True

    def unsubscribe(self, key: str, endpoint: str) -> bool:
        """Forget the account's subscription at ``endpoint``; False: it had none there."""
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return False
            gone = session.execute(
                delete(_SubscriptionRow).where(
                    _SubscriptionRow.account_id == account,
                    _SubscriptionRow.endpoint == endpoint,
                )
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def targets(self, key: str) -> list[Subscription]:
        """The account's subscriptions whose session is still open; those of sessions
        that ended (logged out, revoked) are deleted."""
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return []
            rows = session.execute(
                select(_SubscriptionRow, _SessionRef.digest)
                .outerjoin(
                    _SessionRef,
                    (_SessionRef.digest == _SubscriptionRow.session_digest)
                    & (_SessionRef.account_id == account),
                )
                .where(_SubscriptionRow.account_id == account)
            ).all()
            ended = [row.id for row, live in rows if live is None]
            if ended:
                session.execute(delete(_SubscriptionRow).where(_SubscriptionRow.id.in_(ended)))
            return [
                Subscription(row.endpoint, row.p256dh, row.auth, row.lang)
                for row, live in rows
                if live
            ]

    def session_subscriptions(self, session_id: str) -> int:
        """How many subscriptions the session ``session_id`` holds (the settings page)."""
        with reaching(), Session(self._engine) as session:
            count = session.scalar(
                select(func.count())
                .select_from(_SubscriptionRow)
                .where(_SubscriptionRow.session_digest == secret_digest(session_id))
            )
            return int(count or 0)

    def forget_session(self, session_id: str) -> int:
        """Delete the subscriptions of the session ``session_id`` (it logged out)."""
        with reaching(), Session(self._engine) as session, session.begin():
            gone = session.execute(
                delete(_SubscriptionRow).where(
                    _SubscriptionRow.session_digest == secret_digest(session_id)
                )
            )
            return int(gone.rowcount or 0)  # type: ignore[attr-defined]

    def forget(self, endpoint: str) -> None:
        """Delete the subscription at ``endpoint`` (its push service said it is gone)."""
        with reaching(), Session(self._engine) as session, session.begin():
            session.execute(delete(_SubscriptionRow).where(_SubscriptionRow.endpoint == endpoint))

    def is_subscribed(self, endpoint: str) -> bool:
        """Whether a subscription at ``endpoint`` is kept."""
        with reaching(), Session(self._engine) as session:
            found = session.scalar(
                select(_SubscriptionRow.id).where(_SubscriptionRow.endpoint == endpoint)
            )
            return found is not None

    # What each account is told -------------------------------------------------------

    def choices(self, key: str) -> Choices:
        """The account's choices (the defaults, everything on, for an account that set
        none, or none at all)."""
        with reaching(), Session(self._engine) as session:
            account = self._account_id(session, key)
            row = None if account is None else session.get(_ChoicesRow, account)
            if row is None:
                return Choices()
            off = frozenset(group for group in row.push_off.split(",") if group)
            return Choices(off, bool(row.all_off))

    def set_choices(self, key: str, choices: Choices) -> bool:
        """Keep the account's choices (False: no such account). One statement writes
        them: of two changes at once, the later stays whole."""
        off = ",".join(group for group in GROUPS if group in choices.push_off)
        with reaching(), Session(self._engine) as session, session.begin():
            account = self._account_id(session, key)
            if account is None:
                return False
            values = {"push_off": off, "all_off": choices.all_off, "changed_at": self._wall()}
            changed = session.execute(
                update(_ChoicesRow).where(_ChoicesRow.account_id == account).values(**values)
            )
            if changed.rowcount:  # type: ignore[attr-defined]
                return True
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                session.add(_ChoicesRow(account_id=account, **values))
        except IntegrityError:  # another request made the row first: write over it
            with reaching(), Session(self._engine) as session, session.begin():
                session.execute(
                    update(_ChoicesRow).where(_ChoicesRow.account_id == account).values(**values)
                )
        return True

    # The VAPID key ---------------------------------------------------------------------

    def vapid_key(self, make: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        """The server's VAPID key pair (its private key as PEM, its public key as
        base64url): the one stored, else one ``make`` returns, stored first (several
        processes starting at once keep the first one written)."""
        with reaching(), Session(self._engine) as session:
            row = session.get(_KeyRow, 1)
            if row is not None:
                return row.private_pem, row.public_key
        private_pem, public_key = make()
        try:
            with reaching(), Session(self._engine) as session, session.begin():
                session.add(
                    _KeyRow(
                        id=1,
                        private_pem=private_pem,
                        public_key=public_key,
                        created_at=self._wall(),
                    )
                )
        except IntegrityError:
            pass  # another process stored its pair first: that one is the server's
        with reaching(), Session(self._engine) as session:
            row = session.get(_KeyRow, 1)
            assert row is not None
            return row.private_pem, row.public_key
