"""Who a request is (``server/meet/identity.py``, issue 69): a browser gets a guest cookie
with its first page, keeps one key across its requests, and only a digest of the cookie
ever stands for it; a logged-in player is his account."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from spacetable.server.app import create_app
from spacetable.server.meet.identity import GUEST_COOKIE, guest_key, player_of
from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore, password_hasher
from spacetable.server.store.storage import Storage

ORIGIN = "http://127.0.0.1"


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    stored = Storage(f"sqlite:///{tmp_path / 'meet.db'}")
    yield stored
    stored.close()


@pytest.fixture
def client(storage: Storage) -> TestClient:
    app = create_app(storage, test_clock=True, password_hasher=password_hasher(cheap=True))
    return TestClient(app, base_url=ORIGIN)


def request_with(cookies: dict[str, str]) -> Request:
    header = "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()
    return Request({"type": "http", "headers": [(b"cookie", header)] if cookies else []})


def test_a_page_gives_a_browser_without_one_an_http_only_lax_guest_cookie_once(
    client: TestClient,
) -> None:
    page = client.get("/", headers={"accept": "text/html"})
    cookie = page.headers["set-cookie"]
    assert cookie.startswith(GUEST_COOKIE + "=")
    attributes = {part.strip().lower() for part in cookie.split(";")}
    assert {"httponly", "samesite=lax", "path=/"} <= attributes
    value = page.cookies[GUEST_COOKIE]
    assert len(value) >= 16
    # The browser has it now: the next page, and any other page, leave it as it is.
    again = client.get("/matches", headers={"accept": "text/html"})
    assert GUEST_COOKIE not in again.headers.get("set-cookie", "")
    assert client.cookies[GUEST_COOKIE] == value
    # Data is not a page: a script's request for JSON gets no cookie.
    fresh = TestClient(client.app, base_url=ORIGIN)
    assert "set-cookie" not in fresh.get("/api/rooms").headers


def test_over_https_the_guest_cookie_is_secure(client: TestClient) -> None:
    secure = TestClient(client.app, base_url="https://127.0.0.1")
    cookie = secure.get("/", headers={"accept": "text/html"}).headers["set-cookie"]
    assert "secure" in {part.strip().lower() for part in cookie.split(";")}


def test_a_guest_is_keyed_by_a_digest_of_his_cookie_never_by_the_cookie(
    storage: Storage,
) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    value = "q7Yk1m2n3b4v5c6x7z8a9s0d"
    player = asyncio.run(player_of(request_with({GUEST_COOKIE: value}), accounts))
    assert player.guest and player.account is None
    assert player.key == guest_key(value) and player.key.startswith("guest:")
    assert value not in player.key and value not in player.name
    # The same cookie is the same guest; another is another.
    assert asyncio.run(player_of(request_with({GUEST_COOKIE: value}), accounts)) == player
    other = asyncio.run(player_of(request_with({GUEST_COOKIE: value + "x"}), accounts))
    assert other.key != player.key


def test_a_session_cookie_makes_the_player_his_account_whatever_his_guest_cookie(
    storage: Storage,
) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    account = accounts.create("Ann Bell", "12345678")
    session = accounts.open_session(account)
    cookies = {SESSION_COOKIE: session, GUEST_COOKIE: "q7Yk1m2n3b4v5c6x7z8a9s0d"}
    player = asyncio.run(player_of(request_with(cookies), accounts))
    assert (player.key, player.name, player.account) == (account.key, "Ann Bell", account.key)
    # A session logged out is a guest again (his guest cookie's).
    accounts.revoke(session)
    assert asyncio.run(player_of(request_with(cookies), accounts)).guest


def test_a_client_with_no_cookie_is_a_guest_nobody_else_is(storage: Storage) -> None:
    accounts = AccountStore(storage, password_hasher(cheap=True))
    one = asyncio.run(player_of(request_with({}), accounts))
    two = asyncio.run(player_of(request_with({}), accounts))
    assert one.guest and two.guest and one.key != two.key
    # A cookie too short to be one the server made is not taken either.
    short = asyncio.run(player_of(request_with({GUEST_COOKIE: "abc"}), accounts))
    assert short.key != guest_key("abc")
