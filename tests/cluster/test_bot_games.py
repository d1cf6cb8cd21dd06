"""A bot plays a room another process holds (issue 72 item 4; ``http/bot_relay.py``): Ann
and the bot's account are seated by a challenge the first process opened, and the bot
plays entirely through the second: its game stream (passed on to the owner and streamed
back), a move the room refuses in its words, a plot that resolves the turn Ann's stream
sees, its resignation, and the stream's end. Two ``spacetable serve --redis`` processes on
one database, real Redis."""

from __future__ import annotations

import http.client
import json
import queue
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests._accounts import session_cookie
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2) as running:
        yield running


def _call(base: str, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    """``method path`` on the process at ``base``: (status, JSON answer)."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=20)
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, data, {"content-type": "application/json", **headers})
    answer = connection.getresponse()
    status, text = answer.status, answer.read()
    connection.close()
    return status, json.loads(text) if text else None


class Stream:
    """A game stream read on a thread, through the process at ``base``."""

    def __init__(self, base: str, room: str, token: str) -> None:
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        where = urlsplit(base)
        self.connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=30)
        self.connection.request(
            "GET", f"/api/bot/game/stream/{room}", headers={"authorization": f"Bearer {token}"}
        )
        answer = self.connection.getresponse()
        assert answer.status == 200, answer.read()
        self.reader = threading.Thread(target=self._read, args=(answer,), daemon=True)
        self.reader.start()

    def _read(self, answer: http.client.HTTPResponse) -> None:
        try:
            for line in answer:
                if line.strip():
                    self.lines.put(json.loads(line))
        finally:
            self.lines.put(None)

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            line = self.lines.get(timeout=20)
            assert line is not None, f"the stream ended before a {kind}: {self.seen}"
            self.seen.append(line)
            if line["type"] == kind:
                return line

    def rest(self) -> list[dict[str, Any]]:
        while (line := self.lines.get(timeout=20)) is not None:
            self.seen.append(line)
        self.connection.close()
        return self.seen


def _token(base: str, cookie: str) -> str:
    status, made = _call(
        base,
        "POST",
        "/api/tokens",
        {"description": "bot", "scopes": ["bot:play"]},
        {"cookie": cookie},
    )
    assert status == 201, made
    return str(made["token"])


def test_a_bot_plays_through_a_process_that_does_not_hold_its_room(cluster: Cluster) -> None:
    first, second = (w.server.http for w in cluster.workers)
    ann, robo = session_cookie(first, "Ann"), session_cookie(first, "Robo")
    status, sent = _call(
        first,
        "POST",
        "/api/challenges",
        {"to": "Robo", "game": "ftl", "rated": False},
        {"cookie": ann},
    )
    assert status == 201, sent
    status, accepted = _call(
        first, "POST", f"/api/challenges/{sent['id']}/accept", None, {"cookie": robo}
    )
    assert status == 200, accepted
    room = accepted["room"]
    assert cluster.owner(room).server.http == first
    ann_token, robo_token = _token(first, ann), _token(second, robo)
    robo_auth = {"authorization": f"Bearer {robo_token}"}

    ann_stream = Stream(first, room, ann_token)
    robo_stream = Stream(second, room, robo_token)  # passed on to the first
    full = robo_stream.until("gameFull")
    assert (full["room"], full["game"], full["seat"]) == (room, "ftl", 1)
    assert robo_stream.until("decision")["phase"] == "plot"

    move = f"/api/bot/game/{room}/move"
    status, refused = _call(
        second, "POST", move, {"type": "plot", "orders": ["Nobody:R+30"]}, robo_auth
    )
    assert status == 400 and "Nobody" in refused["error"], refused
    status, done = _call(second, "POST", move, {"type": "plot", "orders": ["Robo:R+15"]}, robo_auth)
    assert (status, done) == (200, {"ok": True, "version": 1})  # the match's first action
    ann_plot = {"type": "plot", "orders": []}
    assert _call(second, "POST", move, ann_plot, {"authorization": f"Bearer {ann_token}"})[0] == 200
    assert ann_stream.until("turn")["turn"] == 1

    status, _ = _call(second, "POST", f"/api/bot/game/{room}/resign", None, robo_auth)
    assert status == 200
    kinds = [line["type"] for line in robo_stream.rest()]
    assert "turn" in kinds and kinds[-1] in ("result", "gameState"), kinds
    assert "result" in kinds
    ann_stream.rest()
