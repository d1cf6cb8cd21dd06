"""Notifications and push across a cluster (issue 70 items 1 and 2; ``server/meet/notices.py``,
``server/meet/push.py``): two ``spacetable serve --redis --vapid-subject`` processes, a real
Redis and a real local push service. Bob challenges Ann through process 2 while her page's
lobby socket is on process 1: her page hears the notification at once, both processes list
it, read on one it is read on the other, and her phone (subscribed through process 1) gets
the push, signed with the one VAPID key both processes give."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from tests._accounts import session_cookie
from tests._server import Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, running_cluster
from tests.server.meet._push_service import Browser, PushService, push_service

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None, service: PushService) -> Iterator[Cluster]:
    push = ("--vapid-subject", "mailto:ops@example.org", "--push-allow-host", "127.0.0.1")
    with running_cluster(2, "--stop-seconds", "1.5", *push) as running:
        yield running


def call(server: Server, method: str, path: str, cookie: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        server.http + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Cookie": cookie, "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
    return json.loads(text) if text else None


def test_a_challenge_through_one_process_is_told_listed_and_pushed_from_the_other(
    cluster: Cluster, service: PushService
) -> None:
    first, second = (worker.server for worker in cluster.workers)
    key = first.get("/api/push/key")["public_key"]
    assert second.get("/api/push/key")["public_key"] == key  # one key for every process
    ann, bob = session_cookie(first.http, "Ann"), session_cookie(second.http, "Bob")
    phone = Browser(service.base + "/push/ann-cluster", seed=7)
    call(first, "POST", "/api/push/subscriptions", ann, phone.subscription())
    page = connect(f"{first.ws}/ws/lobby", legacy=True, additional_headers={"Cookie": ann})
    try:
        body = {"to": "Ann", "game": "lightspeed", "rated": False}
        call(second, "POST", "/api/challenges", bob, body)
        while True:
            message = json.loads(page.recv(timeout=10))
            if message["type"] == "notification":
                break
        assert (message["kind"], message["text"]) == (
            "challenge",
            "Bob challenges you to a game of Light Speed.",
        )
    finally:
        page.close()
    for server in (first, second):
        listed = call(server, "GET", "/api/notifications", ann)
        assert listed["unread"] == 1 and listed["items"][0]["id"] == message["id"]
    assert call(second, "POST", "/api/notifications/read", ann, {"all": True}) == {"unread": 0}
    assert call(first, "GET", "/api/notifications", ann)["unread"] == 0
    wait_until(lambda: len(service.to("/push/ann-cluster")) == 1, "Ann's push", 15)
    pushed = service.to("/push/ann-cluster")[0]
    assert pushed.signed_by == key
    assert phone.decrypt(pushed.body)["body"] == "Bob challenges you to a game of Light Speed."


def test_a_bot_s_event_stream_hears_a_challenge_sent_through_the_other_process(
    cluster: Cluster,
) -> None:
    """Issue 72 item 3 (``meet/bot_events.py``): Robo's event stream is on process 1, Cyd
    challenges him through process 2: the stream's next line is the challenge; a second
    stream of the token, on process 2, ends the first."""
    first, second = (worker.server for worker in cluster.workers)
    robo, cyd = session_cookie(first.http, "Robo"), session_cookie(second.http, "Cyd")
    scopes = {"description": "bot", "scopes": ["bot:play", "challenge:read"]}
    token = call(first, "POST", "/api/tokens", robo, scopes)["token"]
    bearer = {"authorization": f"Bearer {token}"}

    def stream(server: Server) -> Any:
        opened = urllib.request.Request(server.http + "/api/stream/event", headers=bearer)
        return urllib.request.urlopen(opened, timeout=10)

    with stream(first) as events:
        body = {"to": "Robo", "game": "lightspeed", "rated": False}
        sent = call(second, "POST", "/api/challenges", cyd, body)["id"]
        line = json.loads(events.readline())
        assert line["type"] == "challenge"
        assert (line["challenge"]["id"], line["challenge"]["from"]) == (sent, "Cyd")
        with stream(second) as again:
            assert events.read() == b""  # the first stream ended (through the bus)
            replayed = json.loads(again.readline())
            assert replayed["challenge"]["id"] == sent


def test_a_token_revoked_through_one_process_stops_at_once_on_the_other(
    cluster: Cluster,
) -> None:
    """Issue 72 ("revoked tokens stop working at once on every process"): Rex's bot reads
    its event stream on process 1; he revokes the token through process 2: the stream ends
    at once (before its first keep-alive line), and process 1 refuses the token."""
    first, second = (worker.server for worker in cluster.workers)
    rex = session_cookie(first.http, "Rex")
    made = call(first, "POST", "/api/tokens", rex, {"description": "bot", "scopes": ["bot:play"]})
    bearer = {"authorization": f"Bearer {made['token']}"}

    def account(server: Server) -> int:
        asked = urllib.request.Request(server.http + "/api/bot/account", headers=bearer)
        try:
            with urllib.request.urlopen(asked, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as refused:
            return int(refused.code)

    assert account(first) == 200
    opened = urllib.request.Request(first.http + "/api/stream/event", headers=bearer)
    with urllib.request.urlopen(opened, timeout=10) as events:
        call(second, "DELETE", f"/api/tokens/{made['id']}", rex)
        assert events.read() == b""  # ended now, not at the keep-alive's check 7 s on
    assert account(first) == 401
