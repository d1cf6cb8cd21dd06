"""``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed from the trusted proxies
only (``--trusted-proxy``), against a real server process (issue 67 item 4). uvicorn's
own handling of them was on as well, trusting 127.0.0.1 whatever the option said: with
``--trusted-proxy none`` a client on this machine still chose its address with
``X-Forwarded-For`` (wrong logins from "rotating addresses" were never refused) and got
a ``Secure`` session cookie by saying ``X-Forwarded-Proto: https``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from spacetable.server.http.login_limits import FAILURES
from spacetable.server.store.accounts import SESSION_COOKIE
from tests._server import ProcessServer, server_process

PASSWORD = "correct horse"


def send(
    server: ProcessServer, path: str, body: Any, headers: dict[str, str]
) -> tuple[int, str, Any]:
    """``POST path`` with ``body`` and ``headers``: the status, the session cookie set
    (its whole ``Set-Cookie`` line, ``""`` if none) and the JSON answer."""
    request = urllib.request.Request(
        server.http + path,
        json.dumps(body).encode(),
        {"content-type": "application/json", **headers},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, got, text = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as refused:
        with refused:
            status, got, text = refused.code, refused.headers, refused.read()
    session = [c for c in got.get_all("set-cookie") or [] if c.startswith(SESSION_COOKIE + "=")]
    return status, session[0] if session else "", json.loads(text) if text else {}


def wrong_logins_from_rotating_addresses(server: ProcessServer) -> list[int]:
    """The statuses of one more than :data:`FAILURES` wrong logins, each for another name
    and each saying it comes from another address."""
    return [
        send(
            server,
            "/api/session",
            {"name": f"someone{n}", "password": "wrong guess"},
            {"x-forwarded-for": f"198.51.100.{n + 1}"},
        )[0]
        for n in range(FAILURES + 1)
    ]


def secure(cookie: str) -> bool:
    """Whether a ``Set-Cookie`` line marks its cookie ``Secure``."""
    return "secure" in [part.strip().lower() for part in cookie.split(";")]


def test_with_no_trusted_proxy_the_forwarded_headers_change_nothing(tmp_path: Path) -> None:
    with server_process(tmp_path / "matches.db", "--trusted-proxy", "none") as server:
        # Counted as this machine's address, whatever the header says: the 11th is refused.
        statuses = wrong_logins_from_rotating_addresses(server)
        assert statuses == [401] * FAILURES + [429]
        status, cookie, _ = send(
            server,
            "/api/accounts",
            {"name": "Alice", "password": PASSWORD},
            {"x-forwarded-proto": "https"},
        )
        assert status == 201 and cookie
        assert not secure(cookie)  # plain HTTP, whatever the header says
        room = send(server, "/api/rooms", {"seats": 2}, {"x-forwarded-proto": "https"})[2]
        assert room["url"].startswith("http://")


def test_behind_a_trusted_proxy_the_forwarded_headers_still_count(tmp_path: Path) -> None:
    with server_process(tmp_path / "matches.db", "--trusted-proxy", "127.0.0.1") as server:
        # Each from the address the proxy names: no address reaches its limit.
        assert wrong_logins_from_rotating_addresses(server) == [401] * (FAILURES + 1)
        status, cookie, _ = send(
            server,
            "/api/accounts",
            {"name": "Alice", "password": PASSWORD},
            {"x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.99"},
        )
        assert status == 201 and secure(cookie)  # the proxy says the browser used HTTPS
        login = {"name": "Alice", "password": PASSWORD}
        status, cookie, _ = send(server, "/api/session", login, {})
        assert status == 200 and cookie and not secure(cookie)  # the proxy says nothing
        room = send(server, "/api/rooms", {"seats": 2}, {"x-forwarded-proto": "https"})[2]
        assert room["url"].startswith("https://")  # the link the browser is given
