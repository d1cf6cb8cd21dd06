"""The server's mail (issue 70 items 3 and 4; docs/notifications.md): the addresses players
type, checked; the mails, built; and their sending, off the rooms' event loop.

* An address is checked by ``email-validator`` (its syntax, internationalised domains, no
  DNS look-up while the request waits) and kept in its normalised form; one with a line
  break or any character a header may not hold never gets that far.
* A mail is an :class:`email.message.EmailMessage` under the SMTP policy: the standard
  library folds and encodes every header, and refuses a header value with a line break, so
  nothing a player typed can add a header.
* :class:`Mailer` sends on **one worker thread with its own event loop**, fed by a bounded
  queue (:data:`QUEUE_SIZE` jobs: a job more is dropped and logged, never waited for). A job
  is a function run on that thread (it may read the database: a password reset's look-up
  runs there, after its request was answered) that returns the mails to send, if any.
  Each mail is sent with aiosmtplib, STARTTLS where the server offers it (or TLS from the
  start for ``smtps://``), tried :data:`TRIES` times with a backoff between tries. The SMTP
  URL's password is never logged (:meth:`SmtpUrl.shown`).
"""

from __future__ import annotations

import asyncio
import email.policy
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from email.headerregistry import Address as HeaderAddress
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from spacetable.i18n.phrase import refusal

log = logging.getLogger(__name__)

#: Jobs waiting for the mail thread at most.
QUEUE_SIZE = 1000
#: How many times a mail is tried before it is given up (logged).
TRIES = 3
#: Seconds before the second try; each next one waits four times longer.
BACKOFF_SECONDS = 2.0
#: Seconds one SMTP conversation may take.
SMTP_TIMEOUT = 30.0
#: The longest address accepted (RFC 5321's path limit).
ADDRESS_MAX = 254

#: A job of the mail thread: the mail to send, several, or ``None`` (nothing to send).
Job = Callable[[], EmailMessage | list[EmailMessage] | None]


class AddressRefused(ValueError):
    """The address is not one: its argument says why, in a sentence (a phrase)."""


def checked_address(value: Any) -> str:
    """``value`` as an e-mail address, normalised (the domain in lower case, internationalised
    domains as the validator writes them). Raises :class:`AddressRefused`."""
    from email_validator import EmailNotValidError, validate_email

    if not isinstance(value, str) or not value.strip():
        raise AddressRefused(refusal("Type an e-mail address."))
    if len(value) > ADDRESS_MAX or any(c in value for c in "\r\n\0"):
        raise AddressRefused(refusal("This is not an e-mail address."))
    try:
        valid = validate_email(value.strip(), check_deliverability=False)
    except EmailNotValidError:
        raise AddressRefused(refusal("This is not an e-mail address.")) from None
    normalized: str = valid.normalized
    return normalized


@dataclass(frozen=True, slots=True)
class SmtpUrl:
    """Where the server sends its mail: ``smtp://[user:password@]host[:port]`` (STARTTLS
    where offered; port 587 by default) or ``smtps://...`` (TLS from the start; 465)."""

    host: str
    port: int
    username: str | None
    password: str | None
    tls: bool

    @classmethod
    def parse(cls, url: str) -> SmtpUrl:
        """The URL's parts; a ``ValueError`` saying what is wrong (never its password)."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp takes smtp://user:password@host:port (or smtps://...)")
        try:
            port = parts.port
        except ValueError:
            raise ValueError("--smtp: the port is not a number from 1 to 65535") from None
        tls = parts.scheme == "smtps"
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port or (465 if tls else 587), user, password, tls)

    def shown(self) -> str:
        """The URL as logs and messages may show it: its password hidden."""
        who = f"{self.username}:***@" if self.username else ""
        return f"{'smtps' if self.tls else 'smtp'}://{who}{self.host}:{self.port}"

    def __repr__(self) -> str:
        return f"SmtpUrl({self.shown()!r})"


def mail(
    sender: str, to: str, subject: str, body: str, headers: dict[str, str] | None = None
) -> EmailMessage:
    """A plain-text mail from ``sender`` to ``to`` (a checked address), under the SMTP policy
    (headers folded and encoded; a value with a line break raises ``ValueError``)."""
    message = EmailMessage(policy=email.policy.SMTP)
    message["From"] = sender
    local, _, domain = to.rpartition("@")
    message["To"] = HeaderAddress(addr_spec=f"{local}@{domain}")
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip("> ") or None)
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return message


class Mailer:
    """Sends mail through ``smtp`` on a thread of its own (see the module's docstring);
    :meth:`start` begins it (the application's start), :meth:`close` ends it. ``backoff``:
    seconds before a mail's second try (tests that try a server away give 0)."""

    def __init__(self, smtp: SmtpUrl, backoff: float = BACKOFF_SECONDS) -> None:
        self.smtp = smtp
        self.backoff = backoff
        self._jobs: queue.Queue[Job | None] = queue.Queue(QUEUE_SIZE)
        self._thread: threading.Thread | None = None
        #: The mails given up after :data:`TRIES` (the tests read it).
        self.failed = 0

    def start(self) -> None:
        """Start the mail thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="mail", daemon=True)
            self._thread.start()

    def submit(self, job: Job) -> bool:
        """Queue ``job`` for the mail thread; ``False`` (logged) when the queue is full."""
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            log.warning("the mail queue is full (%d jobs): a mail is dropped", QUEUE_SIZE)
            return False
        return True

    def close(self) -> None:
        """End the mail thread once the jobs queued before are done (it waits at most a few
        seconds: a mail still being tried is left to the process's end)."""
        if self._thread is None:
            return
        try:
            self._jobs.put(None, timeout=1.0)
        except queue.Full:
            return
        self._thread.join(timeout=5.0)

    def _serve(self) -> None:
        asyncio.run(self._loop())

    async def _loop(self) -> None:
        while True:
            job = await asyncio.to_thread(self._jobs.get)
            if job is None:
                return
            try:
                made = job()
            except Exception:
                log.exception("a mail could not be prepared")
                continue
            for message in [made] if isinstance(made, EmailMessage) else made or []:
                await self._send(message)

    async def _send(self, message: EmailMessage) -> None:
        import aiosmtplib

        wait = self.backoff
        for attempt in range(1, TRIES + 1):
            try:
                await aiosmtplib.send(
                    message,
                    hostname=self.smtp.host,
                    port=self.smtp.port,
                    username=self.smtp.username,
                    password=self.smtp.password,
                    use_tls=self.smtp.tls,
                    start_tls=None if not self.smtp.tls else False,  # STARTTLS where offered
                    timeout=SMTP_TIMEOUT,
                )
                return
            except (aiosmtplib.SMTPException, OSError) as exc:
                if attempt == TRIES:
                    self.failed += 1
                    log.error("a mail could not be sent through %s: %s", self.smtp.shown(), exc)
                    return
                log.warning(
                    "a mail could not be sent through %s (try %d of %d, again in %.0f s): %s",
                    self.smtp.shown(),
                    attempt,
                    TRIES,
                    wait,
                    exc,
                )
                await asyncio.sleep(wait)
                wait *= 4
