"""Accounts for tests that play as registered players on a real server (issue 37)."""

from __future__ import annotations

import json
import urllib.request

from spacetable.server.store.accounts import SESSION_COOKIE


def session_cookie(base: str, name: str, password: str = "12345678") -> str:
    """Sign ``name`` up on the server at ``base`` (``http://host:port``) over HTTP; the
    ``Cookie`` value of the session it answers with."""
    request = urllib.request.Request(
        base + "/api/accounts",
        data=json.dumps({"name": name, "password": password}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        cookie: str = response.headers["set-cookie"]
    assert cookie.startswith(SESSION_COOKIE + "=")
    return cookie.split(";", 1)[0]
