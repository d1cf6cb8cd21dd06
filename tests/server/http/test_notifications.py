"""The notification list over HTTP (``http/notifications.py``, ``meet/notices.py``, issue 70
item 1), in the test's process: a challenge received, declined with its reason and
accepted becomes each player's notification, sent at once on his lobby socket and listed
newest first in the reader's language; marked read one by one or all at once, never
another account's; paged; a correspondence turn tells the player waited on; the refusals
name the problem; the push routes refuse an endpoint the server must not call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import PushSettings
from tests.server.durable._restart import db
from tests.server.http._client import login, serving, until

__all__ = ["db"]


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with serving(db, push=PushSettings("mailto:ops@example.org", ("push.test",))) as running:
        yield running


def listed(client: TestClient, who: dict[str, str], query: str = "") -> dict[str, Any]:
    answer = client.get("/api/notifications" + query, headers=who)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_challenge_declined_then_accepted_is_told_and_listed(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_page,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_page,
    ):
        body = {"to": "Bob", "game": "lightspeed", "rated": False}
        first = client.post("/api/challenges", json=body, headers=ann).json()["id"]
        told = until(bob_page, "notification")
        assert told["kind"] == "challenge"
        assert told["text"] == "Ann challenges you to a game of Light Speed."
        assert told["says"]["message"] == "{name} challenges you to a game of {game}."
        client.post(f"/api/challenges/{first}/decline", json={"reason": "later"}, headers=bob)
        declined = until(ann_page, "notification")
        assert declined["kind"] == "challenge_declined"
        assert declined["text"] == (
            "Bob declined your challenge to a game of Light Speed: "
            "“This is not the right time for me: ask me again later.”"
        )
        second = client.post("/api/challenges", json=body, headers=ann).json()["id"]
        until(bob_page, "notification")
        room = client.post(f"/api/challenges/{second}/accept", headers=bob).json()["room"]
        accepted = until(ann_page, "notification")
        assert (accepted["kind"], accepted["url"]) == ("challenge_accepted", f"/rooms/{room}")

    mine = listed(client, ann)
    assert mine["unread"] == 2
    assert [(i["kind"], i["read"]) for i in mine["items"]] == [
        ("challenge_accepted", False),
        ("challenge_declined", False),
    ]
    assert mine["items"][0]["text"] == "Bob accepted your challenge to a game of Light Speed."
    french = listed(client, ann, "?lang=fr")["items"][1]["text"]
    assert french.startswith("Bob a décliné votre défi") and "plus tard" in french, french
    assert [i["kind"] for i in listed(client, bob)["items"]] == ["challenge", "challenge"]

    # Bob marks Ann's notification read: nothing of hers changes; then his own, then all.
    theirs = mine["items"][0]["id"]
    assert client.post("/api/notifications/read", json={"ids": [theirs]}, headers=bob).json() == {
        "unread": 2
    }
    assert listed(client, ann)["unread"] == 2
    one = client.post("/api/notifications/read", json={"ids": [theirs]}, headers=ann)
    assert one.json() == {"unread": 1}
    assert [i["read"] for i in listed(client, ann)["items"]] == [True, False]
    assert client.post("/api/notifications/read", json={"all": True}, headers=ann).json() == {
        "unread": 0
    }


def test_the_list_is_paged_newest_first(client: TestClient) -> None:
    ann = login(client, "Ann")
    store = client.app.state.notices.store  # type: ignore[attr-defined]
    for hours in range(1, 6):
        store.add("ann", "your_move", {"room": "r", "ruleset": "ftl", "hours": hours}, "/", "t")
    first = listed(client, ann, "?limit=2")
    assert [i["text"] for i in first["items"]] == [
        "Faster Than Light: your move, 5 hours left.",
        "Faster Than Light: your move, 4 hours left.",
    ]
    older = listed(client, ann, f"?limit=2&before={first['items'][-1]['id']}")
    assert [i["text"][-13:] for i in older["items"]] == ["3 hours left.", "2 hours left."]
    assert listed(client, ann, "?lang=fr&limit=1")["items"][0]["text"] == (
        "Faster Than Light\u00a0: à vous de jouer, 5 heures restantes."
    )


def test_the_refusals_name_the_problem(client: TestClient) -> None:
    ann = login(client, "Ann")
    assert client.get("/api/notifications").status_code == 401
    bad = client.post("/api/notifications/read", json={"ids": ["x"]}, headers=ann)
    assert bad.status_code == 400 and '"all": true' in bad.json()["detail"]
    assert client.get("/api/notifications?limit=500", headers=ann).status_code == 400
    other_site = {**ann, "origin": "https://evil.example"}
    refused = client.post("/api/notifications/read", json={"all": True}, headers=other_site)
    assert refused.status_code == 403


#: Endpoints the server must not call, and what the refusal says.
REFUSED = [
    ("http://push.example.org/x", "must be an https URL"),
    ("https://127.0.0.1/x", "private, loopback or link-local"),
    ("https://10.1.2.3/x", "private, loopback or link-local"),
    ("https://169.254.169.254/latest", "private, loopback or link-local"),
    ("https://[::1]/x", "private, loopback or link-local"),
    ("https://user:pw@push.example.org/x", "user name or password"),
]


def test_a_subscription_to_an_endpoint_the_server_must_not_call_is_refused(
    client: TestClient,
) -> None:
    ann = login(client, "Ann")
    store = client.app.state.notices.store  # type: ignore[attr-defined]
    for endpoint, said in REFUSED:
        body = {"endpoint": endpoint, "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}
        answer = client.post("/api/push/subscriptions", json=body, headers=ann)
        assert answer.status_code == 400 and said in answer.json()["detail"], answer.text
        assert not store.is_subscribed(endpoint)


def test_the_key_is_made_once_and_a_guest_cannot_subscribe(client: TestClient) -> None:
    key = client.get("/api/push/key").json()["public_key"]
    assert len(key) == 87  # an uncompressed P-256 point, base64url
    body = {
        "endpoint": "https://push.example.org/x",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    assert client.post("/api/push/subscriptions", json=body).status_code == 401
    worker = client.get("/sw.js")
    assert worker.headers["service-worker-allowed"] == "/"
    assert "notificationclick" in worker.text


def test_logging_out_removes_the_session_s_subscriptions(client: TestClient) -> None:
    ann = login(client, "Ann")
    store = client.app.state.notices.store  # type: ignore[attr-defined]
    body = {
        "endpoint": "http://push.test/ann-phone",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    answer = client.post("/api/push/subscriptions", json=body, headers=ann)
    assert answer.status_code == 201, answer.text
    assert store.is_subscribed("http://push.test/ann-phone")
    assert client.delete("/api/session", headers=ann).status_code in (200, 204)
    assert not store.is_subscribed("http://push.test/ann-phone")


def test_each_kind_reads_in_english_and_french(client: TestClient) -> None:
    ann = login(client, "Ann")
    store = client.app.state.notices.store  # type: ignore[attr-defined]
    room = {"room": "r1", "ruleset": "hexfleet"}
    added = [
        ("your_move", room | {"hours": 1}),
        ("ran_out", room | {"turn": 2, "left": 1}),
        ("ran_out", room | {"turn": 3, "left": 0}),
        ("match_over", room | {"outcome": "won"}),
        ("match_over", room | {"outcome": "draw"}),
        ("challenge_declined", {"name": "Bob", "ruleset": "ftl", "reason": "too_fast"}),
    ]
    for kind, params in added:
        store.add("ann", kind, params, "/rooms/r1", "room-r1")
    english = [i["text"] for i in reversed(listed(client, ann)["items"])]
    assert english == [
        "Hex fleet: your move, 1 hour left.",
        "Hex fleet: your turn 2 ran out: 1 more in a row loses the match.",
        "Hex fleet: your turn ran out: the match is lost.",
        "Hex fleet: the match is over: you won.",
        "Hex fleet: the match is over: a draw.",
        "Bob declined your challenge to a game of Faster Than Light: "
        "“This is too fast for me: challenge me to a slower game.”",
    ]
    french = [i["text"] for i in reversed(listed(client, ann, "?lang=fr")["items"])]
    assert french[0] == "Flotte hex\u00a0: à vous de jouer, 1 heure restante."
    assert french[1].startswith("Flotte hex\u00a0: votre tour 2 a expiré"), french[1]
    assert all(text and "Hex fleet" not in text for text in french), french


def test_the_web_app_manifest_speaks_the_reader_s_language(client: TestClient) -> None:
    english = client.get("/manifest.webmanifest")
    assert english.headers["content-type"].startswith("application/manifest+json")
    made = english.json()
    assert (made["start_url"], made["display"]) == ("/", "standalone")
    assert {icon["sizes"] for icon in made["icons"]} >= {"192x192", "512x512"}
    for icon in made["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon
    french = client.get("/manifest.webmanifest?lang=fr").json()
    assert french["lang"] == "fr" and french["description"].startswith("Le combat spatial")
