"""Challenges over HTTP (``http/challenges.py``, ``meet/challenges.py``, issue 69 item 3),
in the test's process on the test clock: the challenged player hears of it at once on his
lobby socket; declined with a reason, the challenger hears the reason; accepted, both are
seated in one room; a real-time challenge runs out after 2 minutes of the server's clock;
30 parallel challenges of one account file exactly 20; the refusals name the problem."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.meet.identity import GUEST_COOKIE
from spacetable.server.store.meetings import CHALLENGES_AN_HOUR, REALTIME_CHALLENGE_SECONDS
from tests.server.durable._restart import db
from tests.server.http._client import login, services, serving, until

__all__ = ["db"]

GUEST = {"cookie": f"{GUEST_COOKIE}=guest-cookie-0001-abcdefghijkl"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "challenges.db") as running:
        yield running


def challenge(client: TestClient, by: dict[str, str], **body: Any) -> Any:
    return client.post(
        "/api/challenges", json={"game": "lightspeed", "rated": True} | body, headers=by
    )


def test_declined_with_a_reason_then_accepted_both_are_seated(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_page,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_page,
    ):
        sent = challenge(client, ann, to="bob", options={"asteroids": "large"})
        assert sent.status_code == 201, sent.text
        first = sent.json()["id"]
        heard = until(bob_page, "challenge")["challenge"]
        assert (heard["id"], heard["from"], heard["to"], heard["rated"]) == (
            first,
            "Ann",
            "Bob",
            True,
        )
        assert heard["options"] == {"asteroids": "large"}
        listed = client.get("/api/challenges", headers=bob).json()
        assert [c["id"] for c in listed["in"]] == [first] and listed["out"] == []
        assert [c["id"] for c in client.get("/api/challenges", headers=ann).json()["out"]] == [
            first
        ]

        declined = client.post(
            f"/api/challenges/{first}/decline", json={"reason": "later"}, headers=bob
        )
        assert declined.status_code == 204
        closed = until(ann_page, "challenge_closed")
        assert closed == {
            "type": "challenge_closed",
            "id": first,
            "status": "declined",
            "reason": "later",
        }
        assert until(bob_page, "challenge_closed")["id"] == first
        again = client.post(f"/api/challenges/{first}/accept", headers=bob)
        assert again.status_code == 404  # answered already

        second = challenge(client, ann, to="Bob").json()["id"]
        until(bob_page, "challenge")
        accepted = client.post(f"/api/challenges/{second}/accept", headers=bob)
        assert accepted.status_code == 200, accepted.text
        room_id = accepted.json()["room"]
        for page in (ann_page, bob_page):
            assert until(page, "challenge_closed") == {
                "type": "challenge_closed",
                "id": second,
                "status": "accepted",
                "room": room_id,
            }
            assert until(page, "paired") == {
                "type": "paired",
                "room": room_id,
                "game": "lightspeed",
            }
    room = services(client).directory.get(room_id)
    assert room is not None
    assert [(s.kind, s.account) for s in room.seats] == [("human", "ann"), ("human", "bob")]
    assert client.get("/api/challenges", headers=bob).json() == {"in": [], "out": []}


def test_a_real_time_challenge_expires_after_two_minutes_of_the_server_s_clock(
    client: TestClient,
) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with client.websocket_connect("/ws/lobby", headers=ann) as ann_page:
        sent = challenge(client, ann, to="Bob", rated=False).json()["id"]
        client.post("/api/test/clock", json={"advance": REALTIME_CHALLENGE_SECONDS - 2})
        pool = client.app.state.pool  # type: ignore[attr-defined]
        client.portal.call(pool.round)  # type: ignore[union-attr]
        assert [c["id"] for c in client.get("/api/challenges", headers=bob).json()["in"]] == [sent]
        client.post("/api/test/clock", json={"advance": 4})  # the pool's round sweeps it
        assert until(ann_page, "challenge_closed") == {
            "type": "challenge_closed",
            "id": sent,
            "status": "expired",
        }
    assert client.get("/api/challenges", headers=bob).json() == {"in": [], "out": []}
    assert client.post(f"/api/challenges/{sent}/accept", headers=bob).status_code == 404


def test_the_challenger_withdraws_and_both_hear_it(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with client.websocket_connect("/ws/lobby", headers=bob) as bob_page:
        sent = challenge(client, ann, to="Bob").json()["id"]
        assert client.delete(f"/api/challenges/{sent}", headers=bob).status_code == 404  # not his
        assert client.delete(f"/api/challenges/{sent}", headers=ann).status_code == 204
        assert until(bob_page, "challenge_closed")["status"] == "cancelled"


def test_thirty_parallel_challenges_file_exactly_twenty(db: str) -> None:
    with serving(db) as client:
        ann = login(client, "Ann")
        login(client, "Bob")

        def send(_: int, client: TestClient = client, ann: dict[str, str] = ann) -> int:
            return int(challenge(client, ann, to="Bob").status_code)

        with concurrent.futures.ThreadPoolExecutor(30) as pool:
            answers = list(pool.map(send, range(30)))
        assert sorted(answers) == [201] * CHALLENGES_AN_HOUR + [429] * (30 - CHALLENGES_AN_HOUR)
        assert len(client.get("/api/challenges", headers=ann).json()["out"]) == CHALLENGES_AN_HOUR
        # An hour later (the server's clock), the next may go.
        client.post("/api/test/clock", json={"advance": 3601})
        assert challenge(client, ann, to="Bob").status_code == 201


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"to": "Ann"}, 400, "You cannot challenge yourself"),
        ({"to": "nobody"}, 404, "No player is called “nobody”"),
        ({"to": "Bob", "game": "chess"}, 422, "game: must be one of"),
        ({"to": "Bob", "options": {"rocks": "many"}}, 422, "rocks"),
        ({"to": "Bob", "turn_hours": 24}, 422, "turn_hours"),
        ({"to": "Bob", "rated": "yes"}, 400, "rated: true"),
        ({"to": ""}, 400, "to: the name"),
    ],
)
def test_a_bad_challenge_is_refused_naming_the_problem(
    client: TestClient, body: dict[str, Any], status: int, said: str
) -> None:
    ann = login(client, "Ann")
    login(client, "Bob")
    answer = challenge(client, ann, **body)
    assert answer.status_code == status, answer.text
    assert said in answer.json()["detail"]


def test_a_guest_cannot_challenge_and_a_bad_reason_is_refused(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    assert challenge(client, GUEST, to="Bob").status_code == 401
    assert client.get("/api/challenges", headers=GUEST).status_code == 401
    sent = challenge(client, ann, to="Bob").json()["id"]
    bad = client.post(f"/api/challenges/{sent}/decline", json={"reason": "ugly"}, headers=bob)
    assert bad.status_code == 400 and "reason: one of generic, later" in bad.json()["detail"]
    assert client.post(f"/api/challenges/{sent}/accept", headers=ann).status_code == 404


def test_a_player_either_of_the_two_blocks_cannot_be_challenged(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    relations = services(client).relations
    assert relations is not None
    relations.block("bob", "Ann")
    refused = challenge(client, ann, to="Bob")
    assert refused.status_code == 403 and "one of you blocks the other" in refused.json()["detail"]
    assert challenge(client, bob, to="Ann").status_code == 403  # the blocker neither
    relations.unblock("bob", "Ann")
    assert challenge(client, ann, to="Bob").status_code == 201


def test_a_deleted_account_s_challenges_close_and_the_other_hears_it(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with client.websocket_connect("/ws/lobby", headers=bob) as bob_page:
        sent = challenge(client, ann, to="Bob").json()["id"]
        gone = client.request(
            "DELETE", "/api/accounts/me", json={"password": "12345678"}, headers=ann
        )
        assert gone.status_code in (200, 204), gone.text
        assert until(bob_page, "challenge_closed") == {
            "type": "challenge_closed",
            "id": sent,
            "status": "cancelled",
        }
    assert client.get("/api/challenges", headers=bob).json()["in"] == []


def test_a_ban_removes_the_account_s_seeks_and_challenges_and_tells_the_others(
    client: TestClient,
) -> None:
    ann, bob, mod = login(client, "Ann"), login(client, "Bob"), login(client, "Mod")
    served = services(client)
    assert served.moderation is not None
    account = served.accounts.find("Mod")
    assert account is not None
    served.moderation.store.grant(account)
    with client.websocket_connect("/ws/lobby", headers=bob) as bob_page:
        sent = challenge(client, ann, to="Bob").json()["id"]
        seek = {"game": "lightspeed", "rated": False}
        assert client.post("/api/seeks", json=seek, headers=ann).status_code == 201
        banned = client.post("/api/admin/ban", json={"name": "Ann", "reason": "abuse"}, headers=mod)
        assert banned.status_code == 204, banned.text
        assert until(bob_page, "challenge_closed") == {
            "type": "challenge_closed",
            "id": sent,
            "status": "cancelled",
        }
    assert client.get("/api/challenges", headers=bob).json()["in"] == []
    assert client.get("/api/seeks", headers=bob).json()["waiting"] == []
