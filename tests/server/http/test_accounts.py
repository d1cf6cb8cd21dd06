"""Accounts and sessions over HTTP (issue 37 item 1), in process through Starlette's
TestClient: names compared after NFKC and case folding, what is refused and why, the
session cookie's flags, a revoked session refused, the failed-login limit on the
server's test clock, the Origin check, and an account deleted with its matches kept
under an anonymous name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.http.guards import Guards, TrustedProxies
from spacetable.server.store.accounts import SESSION_COOKIE
from spacetable.server.store.storage import Storage, StoredMatch
from tests.server.http._client import ORIGIN, app_on, stored

#: The peer the tests' requests come from: this machine (the default trusted proxy).
PEER = ("127.0.0.1", 50000)


def client_of(storage: Storage, guards: Guards | None = None) -> TestClient:
    """A client of a new application on ``storage`` with a cheap password hash and the
    test clock. Its lifespan is not run (the routes here need none of it: no bots)."""
    return TestClient(app_on(storage, guards=guards), base_url=ORIGIN, client=PEER)


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    yield from stored(tmp_path / "accounts.db")


@pytest.fixture
def client(storage: Storage) -> Iterator[TestClient]:
    yield client_of(storage)


def sign_up(client: TestClient, name: str, password: str = "correct horse") -> str:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    name_shown: str = answer.json()["name"]
    return name_shown


def test_an_account_is_made_logged_in_and_its_name_is_taken_whatever_its_case(
    client: TestClient,
) -> None:
    assert sign_up(client, "Alice") == "Alice"
    assert client.get("/api/session").json() == {"name": "Alice"}
    other = TestClient(client.app, base_url=ORIGIN, client=PEER)
    fullwidth = "\uff21\uff4c\uff49\uff43\uff45"  # the same name after NFKC
    for same in ("alice", "ALICE", fullwidth):
        answer = other.post("/api/accounts", json={"name": same, "password": "another one"})
        assert answer.status_code == 409, same
    assert other.get("/api/session").status_code == 401


@pytest.mark.parametrize(
    ("name", "password", "field"),
    [
        ("al", "long enough", "name"),
        ("a" * 21, "long enough", "name"),
        ("bob!", "long enough", "name"),
        ("bob", "short", "password"),
        ("bob", "x" * 257, "password"),
        (None, "long enough", "name"),
    ],
)
def test_a_bad_name_or_password_is_refused_naming_what_is_wrong(
    client: TestClient, name: object, password: str, field: str
) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 422
    said = answer.json()["detail"]  # a sentence (tests/server/http/test_account_names.py)
    assert field in said.lower() and said[0].isupper() and said.endswith("."), said
    assert "says" in answer.json()  # a phrase the page writes in its reader's language


def test_names_of_letters_digits_spaces_dashes_and_underscores_are_taken(
    client: TestClient,
) -> None:
    assert sign_up(client, "  Zoé_2-b c  ") == "Zoé_2-b c"


def test_the_session_cookie_is_http_only_same_site_lax_and_secure_only_over_https(
    storage: Storage,
) -> None:
    body = {"name": "carol", "password": "12345678"}
    answer = client_of(storage).post("/api/accounts", json=body)
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    # Over HTTPS through the trusted proxy (this machine's): Secure.
    headers = {"x-forwarded-proto": "https"}
    answer = client_of(storage).post("/api/session", json=body, headers=headers)
    assert answer.status_code == 200 and "Secure" in answer.headers["set-cookie"]
    # From a peer that is no trusted proxy, its header is not believed.
    untrusted = client_of(storage, Guards(proxies=TrustedProxies.of(["none"])))
    answer = untrusted.post("/api/session", json=body, headers=headers)
    assert answer.status_code == 200 and "Secure" not in answer.headers["set-cookie"]


def test_a_session_logged_out_is_refused_even_with_its_old_cookie(client: TestClient) -> None:
    sign_up(client, "dave")
    old = client.cookies[SESSION_COOKIE]
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/session").status_code == 401
    # The browser forgot it; someone who kept a copy is refused too: revoked on the server.
    client.cookies.set(SESSION_COOKIE, old)
    assert client.get("/api/session").status_code == 401


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "erin")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "erin", "password": "not hers!"})
    unknown = client.post("/api/session", json={"name": "nobody", "password": "not hers!"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    right = client.post("/api/session", json={"name": "ERIN", "password": "correct horse"})
    assert right.status_code == 200 and right.json() == {"name": "erin"}


def test_the_eleventh_failure_for_a_name_is_refused_until_fifteen_minutes_pass(
    client: TestClient,
) -> None:
    sign_up(client, "frank")
    client.cookies.clear()
    for _ in range(10):
        wrong = client.post("/api/session", json={"name": "frank", "password": "guessing"})
        assert wrong.status_code == 401
    limited = client.post("/api/session", json={"name": "frank", "password": "correct horse"})
    assert limited.status_code == 429
    assert 890 <= int(limited.headers["retry-after"]) <= 900
    client.post("/api/test/clock", json={"advance": 15 * 60 + 1})
    right = client.post("/api/session", json={"name": "frank", "password": "correct horse"})
    assert right.status_code == 200


def test_ten_failures_from_one_address_stop_it_trying_other_names(client: TestClient) -> None:
    for number in range(10):
        wrong = client.post("/api/session", json={"name": f"user{number}", "password": "guess123"})
        assert wrong.status_code == 401
    limited = client.post("/api/session", json={"name": "someone", "password": "guess123"})
    assert limited.status_code == 429 and "retry-after" in limited.headers


def test_a_page_of_another_site_may_not_sign_up_or_log_out(client: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    body = {"name": "grace", "password": "12345678"}
    assert client.post("/api/accounts", json=body, headers=evil).status_code == 403
    assert client.post("/api/accounts", json=body, headers={"origin": ORIGIN}).status_code == 201
    assert client.delete("/api/session", headers=evil).status_code == 403
    assert client.get("/api/session").json() == {"name": "grace"}
    # A form post (not JSON) is refused too: another site's form could send one.
    form = client.post("/api/session", data={"name": "grace", "password": "12345678"})
    assert form.status_code == 415


def test_an_account_deleted_leaves_its_matches_under_an_anonymous_name(
    client: TestClient, storage: Storage
) -> None:
    sign_up(client, "heidi")
    seats = [
        {"seat": 0, "player": "heidi", "name": "heidi", "registered": True, "account": "heidi"},
        {"seat": 1, "kind": "human", "player": "ivan", "name": "ivan", "registered": False},
    ]
    result = {"winner": "heidi", "scores": {"heidi": 3, "ivan": 1}}
    actions = [{"player": "heidi", "t": 1.0}]
    storage.save(StoredMatch("m1", "r1", "lightspeed", {}, seats, 1, actions, [], result))
    refused = client.request("DELETE", "/api/accounts/me", json={"password": "wrong one"})
    assert refused.status_code == 401
    deleted = client.request("DELETE", "/api/accounts/me", json={"password": "correct horse"})
    assert deleted.status_code == 204
    assert client.get("/api/session").status_code == 401
    stored = storage.get("m1")
    assert stored is not None
    assert [s["player"] for s in stored.seats] == ["anonymous", "ivan"]
    assert "account" not in stored.seats[0] and not stored.seats[0]["registered"]
    assert stored.result == {"winner": "anonymous", "scores": {"anonymous": 3, "ivan": 1}}
    assert stored.actions == [{"player": "anonymous", "t": 1.0}]
    # The name is free again.
    assert sign_up(client, "Heidi") == "Heidi"


def test_a_deleted_name_that_is_also_a_game_word_leaves_the_game_words_alone(
    client: TestClient, storage: Storage
) -> None:
    sign_up(client, "fast")
    seats = [
        {"seat": 0, "player": "fast", "name": "fast", "registered": True, "account": "fast"},
        {"seat": 1, "kind": "human", "player": "ivan", "name": "ivan", "registered": False},
    ]
    events = [{"type": "fast", "phase": "fast", "player": "fast", "reason": "fast"}]
    result = {"winner": "fast", "how": "fast"}
    storage.save(StoredMatch("m2", "r2", "lightspeed", {}, seats, 1, [], events, result))
    deleted = client.request("DELETE", "/api/accounts/me", json={"password": "correct horse"})
    assert deleted.status_code == 204
    stored = storage.get("m2")
    assert stored is not None
    assert stored.events == [
        {"type": "fast", "phase": "fast", "player": "anonymous", "reason": "fast"}
    ]
    assert stored.result == {"winner": "anonymous", "how": "fast"}


def test_the_real_hash_is_argon2id_and_no_password_is_in_the_database_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "real.db"
    storage = Storage(f"sqlite:///{path}")
    password = "a very secret passphrase 1729"
    client = TestClient(create_app(storage), base_url=ORIGIN, client=PEER)  # argon2's real cost
    answer = client.post("/api/accounts", json={"name": "judy", "password": password})
    assert answer.status_code == 201
    session_id = client.cookies[SESSION_COOKIE]
    storage.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("real.db"))
    assert b"$argon2id$" in raw
    assert password.encode() not in raw
    assert session_id.encode() not in raw  # only the session's digest is kept
