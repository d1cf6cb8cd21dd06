"""Who a request or a socket is (issue 69): an account, by the session cookie, else a
guest, by the guest cookie ``spacetable_guest``.

The guest cookie is a random value the server sets on every page it serves to a browser
that has none (:class:`GuestCookie`, HttpOnly, SameSite=Lax, a year): the guest keeps one
key across his pages and reloads, so that his seeks, his lobby sockets and his pairings
are one player's. Only a digest of the value is ever used (``guest:<digest>``, the key of
:class:`~spacetable.server.meet.hub.Player`): the value itself never reaches a log or a
table, so a key read from Redis or a database cannot be turned back into a cookie that
would speak for the guest.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spacetable.server.meet.hub import Player
from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore
from spacetable.server.store.storage import StorageUnavailable

#: The guest cookie's name.
GUEST_COOKIE = "spacetable_guest"
#: How long a browser keeps its guest cookie (seconds: a year).
GUEST_SECONDS = 365 * 24 * 3600
#: The prefix of a guest's key.
GUEST_PREFIX = "guest:"
#: The name a guest is shown under (guests are counted, not listed, in the online list).
GUEST_NAME = "guest"
#: The shortest and longest guest cookie value taken (the server makes 32 characters).
_GUEST_CHARS = (16, 128)


def guest_key(value: str) -> str:
    """The key of the guest whose cookie holds ``value``: ``guest:`` and 32 hexadecimal
    digits of its SHA-256 (never the value itself)."""
    digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:32]
    return GUEST_PREFIX + digest


def guest(value: str) -> Player:
    """The guest whose cookie holds ``value``."""
    return Player(guest_key(value), GUEST_NAME, None)


def guest_value(connection: HTTPConnection) -> str | None:
    """The guest cookie of a request or socket, if it has a well-formed one."""
    value = connection.cookies.get(GUEST_COOKIE)
    if value is None or not _GUEST_CHARS[0] <= len(value) <= _GUEST_CHARS[1]:
        return None
    return value


async def account_player(connection: HTTPConnection, accounts: AccountStore) -> Player | None:
    """The account whose session the connection's cookie carries (looked up off the
    event loop), or None: no session, an ended one, or the database away."""
    session_id = connection.cookies.get(SESSION_COOKIE)
    if not session_id:
        return None
    try:
        account = await asyncio.to_thread(accounts.session_account, session_id)
    except StorageUnavailable:
        return None
    return None if account is None else Player(account.key, account.name, account.key)


async def player_of(connection: HTTPConnection, accounts: AccountStore) -> Player:
    """The player behind a request or a websocket: the account of its session cookie,
    else the guest of its guest cookie. A client with neither (a script, a browser that
    refuses cookies) is a guest of its own, whose key is new at each call: nothing it
    does can be found again by a later request or a lobby socket."""
    found = await account_player(connection, accounts)
    if found is not None:
        return found
    value = guest_value(connection)
    return guest(value if value is not None else secrets.token_urlsafe(24))


def _has_guest_cookie(header: str) -> bool:
    if GUEST_COOKIE not in header:
        return False
    try:
        return GUEST_COOKIE in SimpleCookie(header)
    except CookieError:
        return False


class GuestCookie:
    """ASGI middleware: every page (an HTML answer) to a browser without a guest cookie
    sets one, a new random value, ``Secure`` when ``https`` says the browser asked over
    HTTPS (directly or through a trusted proxy: the application knows which)."""

    def __init__(self, app: ASGIApp, https: Callable[[HTTPConnection], bool] | None = None) -> None:
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookie_header = ""
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookie_header += value.decode("latin-1") + ";"
        if _has_guest_cookie(cookie_header):
            await self.app(scope, receive, send)
            return
        secure = self.https(HTTPConnection(scope)) if self.https else scope["scheme"] == "https"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if headers.get("content-type", "").startswith("text/html"):
                    headers.append("set-cookie", guest_cookie_header(secure))
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def guest_cookie_header(secure: bool) -> str:
    """A ``Set-Cookie`` value giving a browser a new guest cookie."""
    value = secrets.token_urlsafe(24)
    parts = [f"{GUEST_COOKIE}={value}", "Path=/", f"Max-Age={GUEST_SECONDS}", "HttpOnly"]
    parts.append("SameSite=Lax")
    if secure:
        parts.append("Secure")
    return "; ".join(parts)
