"""Reports and the moderators' routes over HTTP (issue 69 item 5), in process through
Starlette's TestClient: what a player may report and what is refused (guests, unknown names,
reasons, oneself, the hourly limit, even under 30 parallel reports), who may use the
moderators' routes (401, 403), and each action: the queue, a report handled, a ban that
ends the account's sessions and refuses its logins, a mute, their lifting, a room closed,
and the audit log that keeps each with who and when."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.moderation import REPORTS_PER_HOUR, ModerationStore
from spacetable.server.store.storage import Storage
from tests.server.http._client import ORIGIN, app_on, stored

PASSWORD = "correct horse"


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    yield from stored(tmp_path / "moderation.db")


@pytest.fixture
def app(storage: Storage) -> object:
    return app_on(storage)


def player(app: object, name: str) -> TestClient:
    """A client signed up (and logged in) as ``name``."""
    client = TestClient(app, base_url=ORIGIN)  # type: ignore[arg-type]
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def moderator(app: object, storage: Storage, name: str = "Mira") -> TestClient:
    """A client logged in as ``name``, made a moderator as ``spacetable admin grant`` does."""
    client = player(app, name)
    account = AccountStore(storage).find(name)
    assert account is not None
    assert ModerationStore(storage).grant(account)
    return client


def test_a_player_reports_another_and_the_moderator_reads_it_newest_first(
    app: object, storage: Storage
) -> None:
    ann = player(app, "Ann")
    player(app, "Bob")
    mod = moderator(app, storage)
    first = ann.post("/api/reports", json={"name": "bob", "reason": "spam"})
    assert first.status_code == 201, first.text
    second = ann.post(
        "/api/reports",
        json={"name": "Bob", "reason": "abuse", "room": "abcd1234", "text": "  you are bad  "},
    )
    assert second.status_code == 201
    queue = mod.get("/api/admin/reports").json()["reports"]
    assert [r["id"] for r in queue] == [second.json()["id"], first.json()["id"]]
    newest = queue[0]
    assert newest | {"at": 0} == {
        "id": second.json()["id"],
        "name": "Bob",
        "reporter": "Ann",
        "reason": "abuse",
        "room": "abcd1234",
        "text": "you are bad",
        "status": "open",
        "at": 0,
        "muted": False,
        "banned": False,
    }
    # Handled: it leaves the open queue for the handled one, and the log says who did it.
    assert mod.post(f"/api/admin/reports/{first.json()['id']}/handled", json={}).status_code == 204
    assert [r["id"] for r in mod.get("/api/admin/reports").json()["reports"]] == [
        second.json()["id"]
    ]
    handled = mod.get("/api/admin/reports", params={"status": "handled"}).json()["reports"]
    assert [r["id"] for r in handled] == [first.json()["id"]]
    assert mod.post(f"/api/admin/reports/{first.json()['id']}/handled", json={}).status_code == 404
    log = mod.get("/api/admin/audit").json()["audit"]
    assert (log[0]["actor"], log[0]["action"], log[0]["target"]) == ("Mira", "handled", "Bob")


def test_a_report_names_what_is_wrong_with_it(app: object) -> None:
    ann = player(app, "Ann")
    player(app, "Bob")
    guest = TestClient(app, base_url=ORIGIN)  # type: ignore[arg-type]
    refused = guest.post("/api/reports", json={"name": "Bob", "reason": "spam"})
    assert refused.status_code == 401
    unknown = ann.post("/api/reports", json={"name": "Nobody", "reason": "spam"})
    assert unknown.status_code == 404 and "Nobody" in unknown.json()["detail"]
    reason = ann.post("/api/reports", json={"name": "Bob", "reason": "rude"})
    assert reason.status_code == 400
    assert "abuse, cheating, spam, name, other" in reason.json()["detail"]
    myself = ann.post("/api/reports", json={"name": "ann", "reason": "spam"})
    assert myself.status_code == 400 and "yourself" in myself.json()["detail"]
    long = ann.post("/api/reports", json={"name": "Bob", "reason": "other", "text": "x" * 501})
    assert long.status_code == 400 and "500" in long.json()["detail"]
    not_json = ann.post("/api/reports", content=b"name=Bob", headers={"content-type": "text/plain"})
    assert not_json.status_code == 415
    foreign = ann.post(
        "/api/reports",
        json={"name": "Bob", "reason": "spam"},
        headers={"origin": "https://evil.example"},
    )
    assert foreign.status_code == 403


def test_thirty_parallel_reports_file_five_and_the_next_hour_more(
    app: object, storage: Storage
) -> None:
    ann = player(app, "Ann")
    player(app, "Bob")

    def send(_: int) -> int:
        return ann.post("/api/reports", json={"name": "Bob", "reason": "spam"}).status_code

    with ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(send, range(30)))
    assert answers.count(201) == REPORTS_PER_HOUR
    assert answers.count(429) == 30 - REPORTS_PER_HOUR
    mod = moderator(app, storage)
    assert len(mod.get("/api/admin/reports").json()["reports"]) == REPORTS_PER_HOUR
    # An hour on the server's clock: the reporter may report again.
    assert ann.post("/api/test/clock", json={"advance": 3601}).status_code == 200
    assert send(0) == 201


def test_only_a_moderator_uses_the_moderators_routes(app: object, storage: Storage) -> None:
    guest = TestClient(app, base_url=ORIGIN)  # type: ignore[arg-type]
    bob = player(app, "Bob")
    routes = [
        ("get", "/api/admin/reports"),
        ("get", "/api/admin/audit"),
        ("get", "/api/admin/sanctions"),
        ("post", "/api/admin/ban"),
        ("post", "/api/admin/mute"),
        ("post", "/api/admin/unban"),
        ("post", "/api/admin/unmute"),
        ("post", "/api/admin/reports/1/handled"),
        ("post", "/api/admin/rooms/abcd/close"),
    ]
    for method, path in routes:
        body = {"json": {"name": "Bob", "reason": "x"}} if method == "post" else {}
        assert getattr(guest, method)(path, **body).status_code == 401, path
        assert getattr(bob, method)(path, **body).status_code == 403, path
    # Granted, Bob may; revoked, he may no more.
    account = AccountStore(storage).find("Bob")
    assert account is not None
    ModerationStore(storage).grant(account)
    assert bob.get("/api/admin/reports").status_code == 200
    ModerationStore(storage).revoke(account)
    assert bob.get("/api/admin/reports").status_code == 403


def test_a_ban_ends_the_sessions_refuses_the_login_and_is_logged(
    app: object, storage: Storage
) -> None:
    bob = player(app, "Bob")
    mod = moderator(app, storage)
    assert bob.get("/api/session").status_code == 200
    missing = mod.post("/api/admin/ban", json={"name": "Bob"})
    assert missing.status_code == 400 and "reason" in missing.json()["detail"]
    hours = mod.post("/api/admin/ban", json={"name": "Bob", "reason": "abuse", "hours": -1})
    assert hours.status_code == 400 and "hours" in hours.json()["detail"]
    assert mod.post("/api/admin/ban", json={"name": "Nobody", "reason": "x"}).status_code == 404
    himself = mod.post("/api/admin/ban", json={"name": "mira", "reason": "oops"})
    assert himself.status_code == 400 and "yourself" in himself.json()["detail"]
    banned = mod.post("/api/admin/ban", json={"name": "bob", "reason": "insults in chat"})
    assert banned.status_code == 204
    # His session is gone; logging in again is refused, saying why.
    assert bob.get("/api/session").status_code == 401
    login = bob.post("/api/session", json={"name": "Bob", "password": PASSWORD})
    assert login.status_code == 403
    assert "banned" in login.json()["detail"]
    assert login.json()["says"]["message"].startswith("This account is banned")
    # The moderator sees the ban in force and in the audit log, with who and why.
    sanctions = mod.get("/api/admin/sanctions").json()["sanctions"]
    assert [(s["name"], s["kind"], s["until"]) for s in sanctions] == [("Bob", "ban", None)]
    entry = mod.get("/api/admin/audit").json()["audit"][0]
    assert {k: entry[k] for k in ("actor", "action", "target", "reason")} == {
        "actor": "Mira",
        "action": "ban",
        "target": "Bob",
        "reason": "insults in chat",
    }
    # Unbanned, he logs in again.
    assert mod.post("/api/admin/unban", json={"name": "Bob", "reason": "appeal"}).status_code == 204
    assert mod.post("/api/admin/unban", json={"name": "Bob", "reason": "again"}).status_code == 404
    assert bob.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 200
    assert [e["action"] for e in mod.get("/api/admin/audit").json()["audit"][:2]] == [
        "unban",
        "ban",
    ]


def test_a_ban_for_hours_ends_by_itself(app: object, storage: Storage) -> None:
    bob = player(app, "Bob")
    mod = moderator(app, storage)
    ban = {"name": "Bob", "reason": "cool down", "hours": 2}
    assert mod.post("/api/admin/ban", json=ban).status_code == 204
    assert bob.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 403
    assert mod.post("/api/test/clock", json={"advance": 2 * 3600 + 1}).status_code == 200
    assert bob.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 200
    assert mod.get("/api/admin/sanctions").json()["sanctions"] == []


def test_a_mute_is_listed_logged_and_lifted(app: object, storage: Storage) -> None:
    player(app, "Bob")
    mod = moderator(app, storage)
    assert mod.post("/api/admin/mute", json={"name": "Bob", "reason": "spam"}).status_code == 204
    sanctions = mod.get("/api/admin/sanctions").json()["sanctions"]
    assert [(s["name"], s["kind"]) for s in sanctions] == [("Bob", "mute")]
    assert mod.post("/api/admin/unmute", json={"name": "Bob", "reason": "ok"}).status_code == 204
    assert mod.post("/api/admin/unmute", json={"name": "Bob", "reason": "ok"}).status_code == 404
    assert [e["action"] for e in mod.get("/api/admin/audit").json()["audit"][:2]] == [
        "unmute",
        "mute",
    ]


def test_closing_a_room_needs_a_reason_and_a_room_that_exists(
    app: object, storage: Storage
) -> None:
    mod = moderator(app, storage)
    with mod:  # the application's start: rooms live on its loop
        made = mod.post("/api/rooms", json={"seats": 2})
        assert made.status_code == 200, made.text
        room = made.json()["id"]
        assert mod.post(f"/api/admin/rooms/{room}/close", json={}).status_code == 400
        assert mod.post("/api/admin/rooms/zzzz/close", json={"reason": "x"}).status_code == 404
        closed = mod.post(f"/api/admin/rooms/{room}/close", json={"reason": "hate speech"})
        assert closed.status_code == 204
        assert room not in {r["id"] for r in mod.get("/api/rooms").json()}
        entry = mod.get("/api/admin/audit").json()["audit"][0]
        assert (entry["action"], entry["target"], entry["reason"]) == ("close", room, "hate speech")


def test_a_ban_removes_the_accounts_challenges_and_seeks(app: object, storage: Storage) -> None:
    ann = player(app, "Ann")
    bob = player(app, "Bob")
    mod = moderator(app, storage)
    challenge = {"to": "Ann", "game": "lightspeed", "rated": False}
    sent = bob.post("/api/challenges", json=challenge)
    assert sent.status_code == 201, sent.text
    sought = bob.post("/api/seeks", json={"game": "lightspeed", "rated": False})
    assert sought.status_code == 201, sought.text
    assert [c["id"] for c in ann.get("/api/challenges").json()["in"]] == [sent.json()["id"]]
    assert mod.post("/api/admin/ban", json={"name": "Bob", "reason": "abuse"}).status_code == 204
    # Ann no longer has his challenge to answer; his seek is gone (the pool pairs nobody
    # with him): logged in again after an unban, he has nothing open.
    assert ann.get("/api/challenges").json()["in"] == []
    assert mod.post("/api/admin/unban", json={"name": "Bob", "reason": "appeal"}).status_code == 204
    assert bob.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 200
    assert bob.get("/api/challenges").json() == {"in": [], "out": []}
    again = bob.post("/api/seeks", json={"game": "lightspeed", "rated": False})
    assert again.status_code == 201, again.text  # (one open seek per game: the old one went)
