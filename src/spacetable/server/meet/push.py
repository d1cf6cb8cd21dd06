"""Web Push (issue 70 item 2; docs/notifications.md): a notification reaches the devices
where its player allowed it, with no page open.

The server signs each request with its VAPID key (made once and kept in the database:
``store/notifications.py``) and encrypts the payload for the subscription's keys
(aes128gcm) with pywebpush, on :data:`SEND_THREADS` threads of its own: never on the event
loop, never on the rooms' task. A push endpoint is a URL the server calls: it must be
``https`` and every address its host resolves to must be public (not private, loopback,
link-local, multicast or reserved), checked when a browser subscribes and again before
each send, and again as the send's socket connects (``meet/push_connect.py``: a name
answering otherwise the second time reaches nothing private), and redirects are not
followed (:func:`endpoint_problem`); the hosts the
operator names (``--push-allow-host``) are trusted as they are, over plain HTTP too (the
tests' local push service). An endpoint answering 404 or 410 is gone: its subscription is
deleted. One answering 429 or 5xx, or unreachable, is tried again after
:data:`RETRY_SECONDS` doubled at each try (its ``Retry-After`` if longer), on the
server's clock, :data:`TRIES` times at most.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import hashlib
import logging
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import orjson

from spacetable.i18n.phrase import Reason, refusal
from spacetable.server.meet.push_connect import PublicOnly, public
from spacetable.server.rooms.clock import LoopClock, RoomClock
from spacetable.server.store.notifications import NotificationStore, Subscription
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger(__name__)

#: The threads that send pushes (each send is a TLS request: seconds at worst).
SEND_THREADS = 2
#: Seconds before a failed send's first retry (doubled at each).
RETRY_SECONDS = 30.0
#: How many times a push is tried at most.
TRIES = 4
#: Seconds a push service keeps a push for a device that is off (its ``TTL``).
TTL_SECONDS = 24 * 3600
#: Seconds a send waits for the push service.
TIMEOUT_SECONDS = 10.0

#: Resolves a host name to its addresses (``socket.getaddrinfo``'s answers' addresses).
Resolve = Callable[[str, int], list[str]]


def _resolve(host: str, port: int) -> list[str]:
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def endpoint_problem(
    endpoint: str, allowed_hosts: Iterable[str] = (), resolve: Resolve = _resolve
) -> Reason | None:
    """Why the server will not send to ``endpoint`` (``None``: it may): not ``https``
    (but for ``allowed_hosts``), no host, credentials in it, a host that does not resolve,
    or one of its addresses not public. Blocks on the name's resolution: call it off the
    event loop."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return refusal("The push endpoint is not a URL.")
    host = (parts.hostname or "").lower()
    if not host:
        return refusal("The push endpoint has no host.")
    if parts.username is not None or parts.password is not None:
        return refusal("The push endpoint must not hold a user name or password.")
    if host in {h.lower() for h in allowed_hosts}:
        if parts.scheme in ("http", "https"):
            return None
        return refusal("The push endpoint must be an https URL.")
    if parts.scheme != "https":
        return refusal("The push endpoint must be an https URL.")
    try:
        addresses = resolve(host, port or 443)
    except (OSError, UnicodeError):
        return refusal("The push endpoint's host {host} cannot be found.", host=host)
    if not addresses:
        return refusal("The push endpoint's host {host} cannot be found.", host=host)
    if not all(public(address) for address in addresses):
        return refusal(
            "The push endpoint's host {host} is a private, loopback or link-local address.",
            host=host,
        )
    return None


def _topic(tag: str) -> str:
    """The ``Topic`` header of a push of ``tag`` (at most 32 URL-safe base64 characters:
    a digest of the tag), by which a push service keeps only the newest of a room's."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(tag.encode()).digest()).rstrip(b"=")
    return digest.decode()[:32] if tag else ""


def make_vapid_key() -> tuple[str, str]:
    """A new VAPID key pair: the private key as PEM, the public key as base64url (what a
    browser's ``pushManager.subscribe`` takes as ``applicationServerKey``)."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02  # type: ignore[import-untyped]

    vapid = Vapid02()
    vapid.generate_keys()
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    pem = vapid.private_pem().decode()
    return pem, base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushSender:
    """Sends the pushes of the accounts in ``store``, signed for ``subject`` (the
    operator's ``mailto:`` or ``https:`` contact, ``--vapid-subject``); ``allowed_hosts``:
    the push hosts trusted as they are (``--push-allow-host``); ``clock``: the server's
    (the test clock's with ``--test-clock``), which times the retries."""

    def __init__(
        self,
        store: NotificationStore,
        subject: str,
        allowed_hosts: Iterable[str] = (),
        clock: RoomClock | None = None,
        resolve: Resolve = _resolve,
    ) -> None:
        self.store = store
        self.subject = subject
        self.allowed_hosts = frozenset(h.lower() for h in allowed_hosts)
        self._clock = clock
        self._resolve = resolve
        self._threads = concurrent.futures.ThreadPoolExecutor(
            SEND_THREADS, thread_name_prefix="push"
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[asyncio.Future[Any]] = set()
        self._private_pem: str | None = None
        self._vapid: Any = None
        #: The public key (base64url), once :meth:`start` read or made it.
        self.public_key: str | None = None
        #: Sends answered 2xx (for tests and the log).
        self.delivered = 0

    async def start(self) -> None:
        """Read the server's VAPID key (made and stored the first time), off the loop; a
        database away now is asked again when the key is first needed."""
        self._loop = asyncio.get_running_loop()
        if self._clock is None:
            self._clock = LoopClock(self._loop)
        try:
            await self.key()
        except StorageUnavailable as exc:
            log.warning("the push key could not be read yet (%s): read when first needed", exc)

    async def key(self) -> str:
        """The public VAPID key (base64url), read or made once. Raises
        StorageUnavailable."""
        return await asyncio.to_thread(self._load_key)

    def _load_key(self) -> str:
        if self.public_key is None:
            pem, public = self.store.vapid_key(make_vapid_key)
            from py_vapid import Vapid02

            self._vapid = Vapid02.from_pem(pem.encode())
            self._private_pem, self.public_key = pem, public
        return self.public_key

    def problem(self, endpoint: str) -> Reason | None:
        """:func:`endpoint_problem` with this server's trusted hosts (blocks: a thread)."""
        return endpoint_problem(endpoint, self.allowed_hosts, self._resolve)

    def push(self, key: str, payload: Callable[[str], dict[str, Any]], kind: str = "") -> None:
        """Send every device of the account ``key`` its ``payload`` (given a language:
        the device's), from the event loop, unless the account turned push off for
        notifications of ``kind`` (or every push: its settings); it never waits: the
        sends run on the push threads."""
        if self._loop is None:
            return  # not started (an application built without its lifespan)
        self._spawn(self._targets_then_send, key, payload, kind)

    def _spawn(self, work: Callable[..., Any], *args: Any) -> None:
        assert self._loop is not None
        try:
            future = self._loop.run_in_executor(self._threads, work, *args)
        except RuntimeError:
            return  # the sender closed (a retry armed before the server stopped)
        self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future[Any]) -> None:
        self._pending.discard(future)
        if not future.cancelled() and (error := future.exception()) is not None:
            log.error("a push could not be sent", exc_info=error)

    def _targets_then_send(
        self, key: str, payload: Callable[[str], dict[str, Any]], kind: str
    ) -> None:
        if kind and not self.store.choices(key).pushes(kind):
            return  # turned off in the account's settings (the bell still lists it)
        self._load_key()  # (read at the start, unless the database was away then)
        for subscription in self.store.targets(key):
            said = payload(subscription.lang)
            topic = _topic(str(said.get("tag") or ""))
            self._send(subscription, orjson.dumps(said), topic, 1)

    def _send(self, subscription: Subscription, body: bytes, topic: str, attempt: int) -> None:
        """One try (on a push thread); a retry is armed on the server's clock."""
        problem = self.problem(subscription.endpoint)
        if problem is not None:
            log.warning("push endpoint refused at send time: %s", problem)
            self.store.forget(subscription.endpoint)
            return
        status, retry_after = self._post(subscription, body, topic)
        if 200 <= status < 300:
            self.delivered += 1
            return
        if status in (404, 410):
            self.store.forget(subscription.endpoint)
            return
        if (status == 429 or status >= 500 or status == 0) and attempt < TRIES:
            delay = max(RETRY_SECONDS * 2 ** (attempt - 1), retry_after)
            self._later(delay, subscription, body, topic, attempt + 1)
            return
        log.warning("push refused by its service (%s), not retried", status)

    def _later(
        self, delay: float, subscription: Subscription, body: bytes, topic: str, attempt: int
    ) -> None:
        loop, clock = self._loop, self._clock
        assert loop is not None and clock is not None

        def arm() -> None:
            clock.after(delay, self._spawn, self._send, subscription, body, topic, attempt)

        loop.call_soon_threadsafe(arm)

    def _post(self, subscription: Subscription, body: bytes, topic: str) -> tuple[int, float]:
        """POST the encrypted ``body``: the answer's status (0: unreachable) and its
        ``Retry-After`` in seconds (0 without)."""
        import requests
        from pywebpush import WebPusher  # type: ignore[import-untyped]

        endpoint = subscription.endpoint
        parts = urlsplit(endpoint)
        claims: dict[str, str | int] = {
            "sub": self.subject,
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(time.time()) + 12 * 3600,
        }
        headers: dict[str, str | int | float] = dict(self._vapid.sign(claims))
        if topic:
            headers["Topic"] = topic  # the push service keeps only the newest of a topic
        headers["Urgency"] = "normal"
        with requests.Session() as session:
            session.max_redirects = 0  # a redirect could lead anywhere: not followed
            if (parts.hostname or "").lower() not in self.allowed_hosts:
                # the address connected to is checked too (a name may answer otherwise
                # now than when it was checked: meet/push_connect.py)
                session.mount("https://", PublicOnly())
            try:
                answer = WebPusher(subscription.info(), requests_session=session).send(
                    body, headers, ttl=TTL_SECONDS, timeout=TIMEOUT_SECONDS
                )
            except requests.RequestException as exc:
                log.warning("push service unreachable: %s", type(exc).__name__)
                return 0, 0.0
        assert not isinstance(answer, str)
        try:
            retry_after = float(answer.headers.get("Retry-After", "0"))
        except ValueError:
            retry_after = 0.0
        return answer.status_code, retry_after

    async def close(self) -> None:
        """Stop sending (the sends under way finish; the retries armed are dropped)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=TIMEOUT_SECONDS)
