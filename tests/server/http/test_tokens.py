"""Personal access tokens over HTTP (``server/http/tokens.py``, issue 72 item 1), in the
test's process through Starlette's TestClient: an account makes a token (shown once,
``spt_``), a program acts as the account with it (``Authorization: Bearer``, no cookie, no
Origin check), revoking it stops it at once; only the token's digest reaches the database
file; each refusal names its problem."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests._postgres import postgres_schema
from tests.server.http._client import login, new_token, services, serving

SCOPES = ["bot:play", "challenge:read"]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "tokens.db"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with serving(database) as running:
        yield running


def make_token(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    """A new token of ``who`` with ``SCOPES``: the route's answer (its ``token`` shown once)."""
    return new_token(client, who, *SCOPES, description="my bot")


def test_a_token_acts_as_its_account_until_revoked(client: TestClient) -> None:
    ann = login(client, "Ann")
    made = make_token(client, ann)
    assert made["token"].startswith("spt_")
    bearer = {"authorization": f"Bearer {made['token']}", "origin": "https://elsewhere.example"}
    me = client.get("/api/bot/account", headers=bearer)
    assert me.status_code == 200, me.text
    assert me.json() == {"name": "Ann", "scopes": SCOPES, "bot": False}
    listed = client.get("/api/tokens", headers=ann).json()
    assert [(t["id"], t["description"], t["scopes"]) for t in listed] == [
        (made["id"], "my bot", SCOPES)
    ]
    assert "token" not in listed[0]
    bob = login(client, "Bob")  # another account cannot revoke Ann's token
    assert client.delete(f"/api/tokens/{made['id']}", headers=bob).status_code == 404
    assert client.delete(f"/api/tokens/{made['id']}", headers=ann).status_code == 204
    gone = client.get("/api/bot/account", headers=bearer)
    assert gone.status_code == 401
    assert "revoked" in gone.json()["detail"]
    assert client.get("/api/tokens", headers=ann).json() == []


def test_only_the_tokens_digest_reaches_the_database(client: TestClient, database: Path) -> None:
    made = make_token(client, login(client, "Ann"))
    written = database.read_bytes() + _wal(database)
    assert made["token"].encode() not in written
    assert made["token"][4:].encode() not in written
    digest = hashlib.sha256(made["token"].encode()).hexdigest()
    assert digest.encode() in written


def test_no_log_line_holds_a_token(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 72: "a token never appears in a log". Every logger at every level, through a
    token's life: made, listed, used, used by a program with the scope it lacks, used
    mistyped, revoked, used once revoked."""
    caplog.set_level(logging.DEBUG)
    ann = login(client, "Ann")
    made = make_token(client, ann)
    token = made["token"]
    bearer = {"authorization": f"Bearer {token}"}
    assert client.get("/api/tokens", headers=ann).status_code == 200
    assert client.get("/api/bot/account", headers=bearer).status_code == 200
    asked = {"to": "Bob", "game": "ftl", "rated": False}
    assert client.post("/api/challenges", json=asked, headers=bearer).status_code == 403
    mistyped = {"authorization": f"Bearer {token[:-1]}x"}
    assert client.get("/api/bot/account", headers=mistyped).status_code == 401
    assert client.delete(f"/api/tokens/{made['id']}", headers=ann).status_code == 204
    assert client.get("/api/bot/account", headers=bearer).status_code == 401
    assert caplog.records, "nothing was logged: the check would say nothing"
    logged = "\n".join(caplog.messages) + caplog.text
    assert token[4:] not in logged and token[4:-1] not in logged


def _wal(database: Path) -> bytes:
    wal = database.with_name(database.name + "-wal")
    return wal.read_bytes() if wal.exists() else b""


def test_refusals_name_their_problem(client: TestClient) -> None:
    ann = login(client, "Ann")
    nobody = client.post("/api/tokens", json={"description": "x", "scopes": SCOPES})
    assert nobody.status_code == 401
    bad = client.post("/api/tokens", json={"description": "x", "scopes": ["root"]}, headers=ann)
    assert bad.status_code == 400
    assert "bot:play" in bad.json()["detail"]
    foreign = ann | {"origin": "https://elsewhere.example"}
    made = client.post("/api/tokens", json={"description": "x", "scopes": SCOPES}, headers=foreign)
    assert made.status_code == 403
    assert client.get("/api/bot/account").status_code == 401
    fake = {"authorization": "Bearer spt_not-a-token"}
    assert client.get("/api/bot/account", headers=fake).status_code == 401


def test_a_deleted_or_banned_accounts_token_stops_at_once(client: TestClient) -> None:
    served = services(client)
    ann = login(client, "Ann")
    bearer = {"authorization": f"Bearer {make_token(client, ann)['token']}"}
    ann_account = served.accounts.find("Ann")
    assert ann_account is not None
    assert served.moderation is not None
    served.moderation.store.sanction(ann_account, "ban", None, "spam", "console")
    assert client.get("/api/bot/account", headers=bearer).status_code == 401
    bob = login(client, "Bob")
    bearer = {"authorization": f"Bearer {make_token(client, bob)['token']}"}
    bob_account = served.accounts.find("Bob")
    assert bob_account is not None
    served.accounts.erase(bob_account)
    login(client, "Cid")  # (SQLite may give Bob's id to the next account)
    assert client.get("/api/bot/account", headers=bearer).status_code == 401


def test_tokens_on_postgresql() -> None:
    with postgres_schema() as url, serving(url) as client:
        ann = login(client, "Ann")
        made = make_token(client, ann)
        bearer = {"authorization": f"Bearer {made['token']}"}
        assert client.get("/api/bot/account", headers=bearer).json()["name"] == "Ann"
        assert client.delete(f"/api/tokens/{made['id']}", headers=ann).status_code == 204
        assert client.get("/api/bot/account", headers=bearer).status_code == 401
