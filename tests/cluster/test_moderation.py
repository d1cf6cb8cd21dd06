"""Mutes and bans hold on every process of a cluster (issue 69 item 5;
``server/meet/moderation.py``): two ``spacetable serve --redis`` processes on one database
and a real Redis. A moderator on process 1 mutes a player whose room process 2 holds: his
chat there is refused, saying why (process 2's copy of the mutes is told through the
bus); the moderator bans him on process 1: his page on process 2 is told at once, his
session is a guest's on process 2 and his login there is refused; the moderator closes
the room process 2 holds, and a socket there is told at once."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.moderation import ModerationStore
from spacetable.server.store.storage import Storage
from tests._accounts import session_cookie
from tests._server import Client, Server
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

MUTED = "chat: a moderator muted your account: your messages are not shown"


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2) as running:
        yield running


def call(server: Server, path: str, body: Any = None, cookie: str = "") -> int:
    """The status of ``path`` on ``server`` (POSTed with ``body`` when given)."""
    request = urllib.request.Request(
        server.http + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_a_mute_and_a_ban_on_one_process_hold_on_the_other(cluster: Cluster) -> None:
    first, second = (worker.server for worker in cluster.workers)
    mira = session_cookie(first.http, "Mira")
    storage = Storage(cluster.workers[0].db)
    try:
        account = AccountStore(storage).find("Mira")
        assert account is not None
        ModerationStore(storage).grant(account)
    finally:
        storage.close()
    bob = session_cookie(second.http, "Bob")
    room = second.create_room(seats=2)
    assert cluster.owner(room).server is second
    speaker = Client(second, room, headers={"Cookie": bob})
    speaker.send(type="join", name="Bob")
    speaker.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    page = connect(f"{second.ws}/ws/lobby", legacy=True, additional_headers={"Cookie": bob})
    try:
        assert call(first, "/api/admin/mute", {"name": "Bob", "reason": "spam"}, mira) == 204
        # Process 2 hears of it through the bus (within moments: polled, each try a chat
        # line, within the chat's burst of 5): his chat there is refused, saying why.
        for attempt in range(5):
            speaker.send(type="chat", text="buy gold")
            said = speaker.wait(lambda m: m["type"] in ("chat", "error"))
            if said == {"type": "error", "message": MUTED}:
                break
            assert said["type"] == "chat", said
            time.sleep(0.2 * (attempt + 1))
        else:
            raise AssertionError("process 2 never refused the muted player's chat")
        # Banned on process 1: his page on process 2 is told at once, his session ends
        # there and his login there is refused.
        assert call(first, "/api/admin/ban", {"name": "Bob", "reason": "spam"}, mira) == 204
        assert json.loads(page.recv(timeout=10)) == {"type": "session_ended", "reason": "banned"}
        assert call(second, "/api/session", cookie=bob) == 401
        login = {"name": "Bob", "password": "12345678"}
        assert call(second, "/api/session", login) == 403
        # A room process 2 holds, closed from process 1: its socket there is told.
        watcher = Client(second, room)
        watcher.wait_type("welcome")
        closing = {"reason": "hate speech"}
        assert call(first, f"/api/admin/rooms/{room}/close", closing, mira) == 204
        told = watcher.wait_type("room_closed")
        assert told["message"] == "A moderator closed this room."
        watcher.close()
    finally:
        speaker.close()
        page.close()
