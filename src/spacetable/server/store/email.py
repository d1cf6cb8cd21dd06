"""Accounts' e-mail addresses and the single-use tokens of the links mailed to them (issue 70
items 3 and 4; docs/notifications.md), in the accounts' database. Tables: migration
``0010_email``.

* An account has at most one **address**: as the player typed it (checked and normalised by
  ``http/mailer.py``'s ``checked_address``), the form it is compared by (lower case), and
  when it was verified (``None`` until its link is followed; a new address starts
  unverified again).
* A **token** is a random secret mailed in a link; only its SHA-256 digest is stored, with
  its purpose (:data:`VERIFY`: 24 hours; :data:`RESET`: one hour), the address it went to,
  when it runs out and when it was used. A token is used at most once: by one conditional
  ``UPDATE`` (``used_at IS NULL AND expires_at > now``), so two requests racing with it
  never both succeed.
* The tokens count the mails: at most :data:`MAILS_PER_HOUR` of a purpose an hour per
  account and per address, counted and written by one conditional ``INSERT`` (the account's
  row locked first under PostgreSQL), so that parallel requests on several processes never
  overrun it.

Times are the server's wall clock (``wall``: the test clock's when there is one). Every
call blocks on the database: the server calls them off the event loop.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Connection, text

from spacetable.server.store.accounts import name_key
from spacetable.server.store.storage import Storage, reaching, secret_digest

#: What a token is for.
Purpose = Literal["verify", "reset", "unsubscribe"]
#: A verification link's token: valid a day.
VERIFY: Purpose = "verify"
#: A password reset link's token: valid an hour.
RESET: Purpose = "reset"
#: A daily digest's one-click unsubscribe link: valid 60 days, used any number of times.
UNSUBSCRIBE: Purpose = "unsubscribe"
#: How long each purpose's token is valid (seconds).
LIFETIMES: dict[str, float] = {VERIFY: 24 * 3600.0, RESET: 3600.0, UNSUBSCRIBE: 60 * 86400.0}
#: Mails of one purpose an account, or an address, is sent at most in an hour.
MAILS_PER_HOUR: dict[str, int] = {VERIFY: 5, RESET: 3, UNSUBSCRIBE: 2}
#: How late a digest still goes after its hour (a server that was down then), seconds.
DIGEST_LATE_SECONDS = 6 * 3600.0
#: Why a token was not used.
Spent = Literal["unknown", "used", "expired", "changed"]


@dataclass(frozen=True, slots=True)
class Address:
    """An account's address: as given, whether verified, the digest's hour (``None``: no
    digest) and its time zone."""

    address: str
    verified: bool
    digest_hour: int | None = None
    digest_zone: str | None = None


@dataclass(frozen=True, slots=True)
class Digest:
    """A daily digest due now: the account's id, key and name, its address, the language
    it reads and the token of its one-click unsubscribe link."""

    account_id: int
    key: str
    name: str
    address: str
    lang: str
    unsubscribe: str


def digest_slot(now: float, hour: int, zone: str) -> float:
    """When the digest of ``hour`` (in the time zone ``zone``; UTC if unknown) was last
    due at or before ``now`` (a wall time)."""
    try:
        tz: tzinfo = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    local = datetime.fromtimestamp(now, tz)
    slot = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if slot > local:
        slot = (local - timedelta(days=1)).replace(hour=hour, minute=0, second=0, microsecond=0)
    return slot.timestamp()


@dataclass(frozen=True, slots=True)
class Mailing:
    """A link to mail: the account's ``account_id`` and ``name``, the ``address`` to mail
    and the ``token`` (the secret itself: it goes into the mail, never into a table)."""

    account_id: int
    name: str
    address: str
    token: str


@dataclass(frozen=True, slots=True)
class Reset:
    """A password set anew by a reset link: the account's ``key``."""

    key: str


def address_key(address: str) -> str:
    """What addresses are compared by: the whole address in lower case."""
    return address.strip().lower()


def _lock(connection: Connection, account_id: int, key: str) -> None:
    """Under PostgreSQL, lock the account's row and the address ``key`` (an advisory lock)
    for the rest of the transaction, so that two requests for one account, or for one
    address, count its mails one after the other (SQLite writes one transaction at a
    time). Always the account first, then one address: no two transactions wait on each
    other."""
    if connection.dialect.name == "postgresql":
        locking = text("SELECT id FROM accounts WHERE id = :id FOR UPDATE")
        connection.execute(locking, {"id": account_id})
        connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})


#: A token written only if neither its account nor its address had the hour's mails.
_ISSUE = text(
    "INSERT INTO email_tokens (digest, account_id, purpose, address_key, created_at, "
    "expires_at) SELECT :digest, :account, :purpose_value, :key_value, :now, :expires WHERE "
    "(SELECT COUNT(*) FROM email_tokens WHERE account_id = :account AND purpose = :purpose "
    "AND created_at > :since) < :most AND (SELECT COUNT(*) FROM email_tokens WHERE "
    "address_key = :key AND purpose = :purpose AND created_at > :since) < :most"
)
#: A token used, if it is one of ``purpose``, unused and not run out.
_USE = text(
    "UPDATE email_tokens SET used_at = :now WHERE digest = :digest AND purpose = :purpose "
    "AND used_at IS NULL AND expires_at > :now"
)


class EmailStore:
    """Addresses and tokens in ``storage``'s database; ``wall``: the clock tokens expire
    and mails are counted by."""

    def __init__(self, storage: Storage, wall: Callable[[], float] = time.time) -> None:
        self._engine = storage.engine
        self.wall = wall

    def address_of(self, account_id: int) -> Address | None:
        """The account's address, if it gave one."""
        query = text(
            "SELECT address, verified_at, digest_hour, digest_zone FROM email_addresses "
            "WHERE account_id = :id"
        )
        with reaching(), self._engine.connect() as connection:
            row = connection.execute(query, {"id": account_id}).first()
        if row is None:
            return None
        verified = row.verified_at is not None
        return Address(row.address, verified, row.digest_hour, row.digest_zone)

    def _issue(
        self, connection: Connection, account_id: int, purpose: Purpose, key: str
    ) -> str | None:
        """A new token of ``purpose`` for the account and the address ``key``, written in
        ``connection``'s transaction; ``None`` when either had the hour's mails."""
        now = self.wall()
        token = secrets.token_urlsafe(32)
        values = {
            "digest": secret_digest(token),
            "account": account_id,
            "purpose": purpose,
            "purpose_value": purpose,  # (PostgreSQL types a parameter by its first use)
            "key": key,
            "key_value": key,
            "now": now,
            "expires": now + LIFETIMES[purpose],
            "since": now - 3600.0,
            "most": MAILS_PER_HOUR[purpose],
        }
        _lock(connection, account_id, key)
        if connection.execute(_ISSUE, values).rowcount != 1:
            return None
        return token

    def set_address(self, account_id: int, address: str) -> str | None:
        """Give the account ``address`` (unverified, unless it is the address it verified
        already) and a verification token for it: the token, ``""`` when the address is
        verified already (no mail needed), ``None`` when the hour's verification mails to
        the account or the address were sent (the address is then not changed)."""
        key, now = address_key(address), self.wall()
        current = self.address_of(account_id)
        if current is not None and current.verified and address_key(current.address) == key:
            return ""
        with reaching(), self._engine.begin() as connection:
            token = self._issue(connection, account_id, VERIFY, key)
            if token is None:
                return None
            connection.execute(
                text("DELETE FROM email_addresses WHERE account_id = :id"), {"id": account_id}
            )
            connection.execute(
                text(
                    "INSERT INTO email_addresses (account_id, address, address_key, "
                    "verified_at, digest_hour, changed_at) VALUES (:id, :address, :key, NULL, "
                    "NULL, :now)"
                ),
                {"id": account_id, "address": address, "key": key, "now": now},
            )
        return token

    def resend(self, account_id: int) -> str | None:
        """A new verification token for the account's unverified address (``None``: no
        such address, or the hour's mails were sent; ``""``: verified already)."""
        current = self.address_of(account_id)
        if current is None:
            return None
        if current.verified:
            return ""
        with reaching(), self._engine.begin() as connection:
            return self._issue(connection, account_id, VERIFY, address_key(current.address))

    def remove_address(self, account_id: int) -> None:
        """Forget the account's address (its links mailed already then verify nothing)."""
        with reaching(), self._engine.begin() as connection:
            connection.execute(
                text("DELETE FROM email_addresses WHERE account_id = :id"), {"id": account_id}
            )

    def _spent(self, connection: Connection, digest: str, purpose: Purpose) -> Spent:
        """Why the token ``digest`` could not be used."""
        query = text(
            "SELECT used_at, expires_at FROM email_tokens WHERE digest = :digest "
            "AND purpose = :purpose"
        )
        row = connection.execute(query, {"digest": digest, "purpose": purpose}).first()
        if row is None:
            return "unknown"
        return "used" if row.used_at is not None else "expired"

    def verify(self, token: str) -> int | Spent:
        """Use a verification token: the id of the account whose address is now verified,
        or why not (unknown, used, run out, or the account's address changed since)."""
        digest, now = secret_digest(token), self.wall()
        with reaching(), self._engine.begin() as connection:
            if (
                connection.execute(_USE, {"digest": digest, "purpose": VERIFY, "now": now}).rowcount
                != 1
            ):
                return self._spent(connection, digest, VERIFY)
            row = connection.execute(
                text("SELECT account_id, address_key FROM email_tokens WHERE digest = :digest"),
                {"digest": digest},
            ).one()
            verified = connection.execute(
                text(
                    "UPDATE email_addresses SET verified_at = :now WHERE account_id = :id "
                    "AND address_key = :key"
                ),
                {"now": now, "id": row.account_id, "key": row.address_key},
            ).rowcount
            if verified != 1:
                return "changed"
            return int(row.account_id)

    def reset_mailing(self, name_or_email: str) -> Mailing | None:
        """A password reset token for the account named ``name_or_email``, or whose
        verified address it is, if that account has a verified address and neither it nor
        the address had the hour's reset mails; else ``None`` (nothing is mailed)."""
        given = name_or_email.strip()
        by = (
            "a.key = :given" if "@" not in given else "e.address_key = :given"
        )  # (a name holds no '@': names.py)
        query = text(
            "SELECT a.id, a.name, e.address, e.address_key FROM accounts a JOIN "
            "email_addresses e ON e.account_id = a.id WHERE e.verified_at IS NOT NULL AND "
            f"{by} ORDER BY e.verified_at LIMIT 1"
        )
        wanted = address_key(given) if "@" in given else name_key(given)
        with reaching(), self._engine.begin() as connection:
            row = connection.execute(query, {"given": wanted}).first()
            if row is None:
                return None
            token = self._issue(connection, int(row.id), RESET, row.address_key)
        if token is None:
            return None
        return Mailing(int(row.id), row.name, row.address, token)

    def reset_account(self, token: str) -> int | Spent:
        """The account a reset token would set a new password for (the token not used
        yet), or why none."""
        digest, now = secret_digest(token), self.wall()
        query = text(
            "SELECT account_id, used_at, expires_at FROM email_tokens WHERE digest = :digest "
            "AND purpose = :purpose"
        )
        with reaching(), self._engine.connect() as connection:
            row = connection.execute(query, {"digest": digest, "purpose": RESET}).first()
        if row is None:
            return "unknown"
        if row.used_at is not None:
            return "used"
        if row.expires_at <= now:
            return "expired"
        return int(row.account_id)

    def reset_password(self, token: str, password_hash: str) -> Reset | Spent:
        """Use a reset token: its account's password becomes ``password_hash`` and every
        session of the account ends, in one transaction; whose it was, or why not."""
        digest, now = secret_digest(token), self.wall()
        with reaching(), self._engine.begin() as connection:
            if (
                connection.execute(_USE, {"digest": digest, "purpose": RESET, "now": now}).rowcount
                != 1
            ):
                return self._spent(connection, digest, RESET)
            account_id = int(
                connection.execute(
                    text("SELECT account_id FROM email_tokens WHERE digest = :digest"),
                    {"digest": digest},
                ).scalar_one()
            )
            connection.execute(
                text("UPDATE accounts SET password_hash = :hash WHERE id = :id"),
                {"hash": password_hash, "id": account_id},
            )
            connection.execute(
                text("DELETE FROM sessions WHERE account_id = :id"), {"id": account_id}
            )
            # The other reset links mailed to it are spent with this one.
            connection.execute(
                text(
                    "UPDATE email_tokens SET used_at = :now WHERE account_id = :id AND "
                    "purpose = :purpose AND used_at IS NULL"
                ),
                {"now": now, "id": account_id, "purpose": RESET},
            )
            key = connection.execute(
                text("SELECT key FROM accounts WHERE id = :id"), {"id": account_id}
            ).scalar_one()
        return Reset(str(key))

    # -- the daily digest ------------------------------------------------------------------

    def set_digest(self, account_id: int, hour: int | None, zone: str, lang: str) -> bool:
        """Mail the account a digest every day at ``hour`` in the time zone ``zone``, in
        ``lang`` (``hour`` ``None``: none); the first goes at the next such hour. False when
        the account has no verified address (nothing is changed)."""
        query = text(
            "UPDATE email_addresses SET digest_hour = :hour, digest_zone = :zone, "
            "digest_lang = :lang, digest_sent = :now WHERE account_id = :id "
            "AND verified_at IS NOT NULL"
        )
        values = {"hour": hour, "zone": zone, "lang": lang, "now": self.wall(), "id": account_id}
        with reaching(), self._engine.begin() as connection:
            return connection.execute(query, values).rowcount == 1

    def due_digests(self) -> list[Digest]:
        """The digests due now, each taken by this call alone (a conditional ``UPDATE`` of
        when the last went: of several processes sweeping at once, one sends each), with
        its unsubscribe link's token."""
        now = self.wall()
        query = text(
            "SELECT e.account_id, e.address, e.address_key, e.digest_hour, e.digest_zone, "
            "e.digest_lang, e.digest_sent, a.key, a.name FROM email_addresses e JOIN accounts "
            "a ON a.id = e.account_id WHERE e.digest_hour IS NOT NULL "
            "AND e.verified_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM notify_choices c "
            "WHERE c.account_id = e.account_id AND c.all_off = :yes)"
        )
        claim = text(
            "UPDATE email_addresses SET digest_sent = :now WHERE account_id = :id AND "
            "digest_hour IS NOT NULL AND (digest_sent IS NULL OR digest_sent < :slot)"
        )
        due = []
        with reaching(), self._engine.connect() as connection:
            rows = connection.execute(query, {"yes": True}).all()
        for row in rows:
            slot = digest_slot(now, int(row.digest_hour), row.digest_zone or "UTC")
            if row.digest_sent is not None and row.digest_sent >= slot:
                continue
            if now - slot > DIGEST_LATE_SECONDS:
                continue
            with reaching(), self._engine.begin() as connection:
                values = {"now": now, "id": row.account_id, "slot": slot}
                if connection.execute(claim, values).rowcount != 1:
                    continue  # another process took it
                token = self._issue(connection, row.account_id, UNSUBSCRIBE, row.address_key)
            if token is None:
                continue
            lang = row.digest_lang or "en"
            due.append(Digest(row.account_id, row.key, row.name, row.address, lang, token))
        return due

    def unsubscribe(self, token: str) -> bool:
        """Follow a digest's unsubscribe link: the account gets no more digests. False for
        a token that is none, or has run out (60 days)."""
        query = text(
            "UPDATE email_addresses SET digest_hour = NULL WHERE account_id = (SELECT "
            "account_id FROM email_tokens WHERE digest = :digest AND purpose = :purpose "
            "AND expires_at > :now)"
        )
        known = text(
            "SELECT 1 FROM email_tokens WHERE digest = :digest AND purpose = :purpose "
            "AND expires_at > :now"
        )
        values = {"digest": secret_digest(token), "purpose": UNSUBSCRIBE, "now": self.wall()}
        with reaching(), self._engine.begin() as connection:
            connection.execute(query, values)
            return connection.execute(known, values).first() is not None
