"""A bot plays over HTTP (``server/http/bot_games.py``, ``rooms/bot_seat.py``, issue 72 item
4), in the test's process through Starlette's TestClient on the test clock: a person
challenges the bot's account, and the bot plays its seat with its token: its stream shows
its own view only (never the other's plot), a move sent twice with one idempotency key
acts once, a refused move answers the room's words (400), a burst of moves or chat
answers 429 with the limit's key and wait (30 moves at once: the burst and no more), and
the bot resigns."""

from __future__ import annotations

import json
import queue
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.http.bot_games import _seats
from spacetable.server.rooms.bot_seat import MOVES_BURST
from spacetable.server.rooms.clock import MovableClock
from tests._accounts import session_cookie
from tests._server import running_server
from tests.server.http._client import bearer, login, services, serving
from tests.server.http._stream_lines import checked


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "bot-games.db") as running:
        yield running


def ftl_room(client: TestClient, ann: dict[str, str], bot: dict[str, str]) -> str:
    """An FTL room of Ann against the bot's account (a challenge the bot accepted)."""
    sent = client.post(
        "/api/challenges", json={"game": "ftl", "rated": False, "to": "Robo"}, headers=ann
    )
    assert sent.status_code == 201, sent.text
    accepted = client.post(f"/api/challenges/{sent.json()['id']}/accept", headers=bot)
    assert accepted.status_code == 200, accepted.text
    room: str = accepted.json()["room"]
    return room


class Stream:
    """A bot's game stream read on a thread, line by line, to its end (the match over)."""

    def __init__(self, client: TestClient, room: str, token: dict[str, str]) -> None:
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.reader = threading.Thread(target=self._read, args=(client, room, token))
        self.reader.start()

    def _read(self, client: TestClient, room: str, token: dict[str, str]) -> None:
        try:
            with client.stream("GET", f"/api/bot/game/stream/{room}", headers=token) as answer:
                assert answer.status_code == 200, answer.read()
                assert answer.headers["content-type"].startswith("application/x-ndjson")
                for line in answer.iter_lines():
                    if line.strip():
                        self.lines.put(json.loads(line))
        finally:
            self.lines.put(None)

    def until(self, kind: str) -> dict[str, Any]:
        """The next line of type ``kind`` (those before it kept in :attr:`seen`)."""
        while True:
            line = self.lines.get(timeout=20)
            assert line is not None, f"the stream ended before a {kind}: {self.seen}"
            self.seen.append(checked(line, "game_stream"))
            if line["type"] == kind:
                return line

    def rest(self) -> list[dict[str, Any]]:
        """Every line, once the stream has ended."""
        self.reader.join(timeout=20)
        while (line := self.lines.get(timeout=1)) is not None:
            self.seen.append(checked(line, "game_stream"))
        return self.seen


def test_a_bot_plays_its_seat_sees_only_its_view_and_resigns(client: TestClient) -> None:
    ann, robo = login(client, "Ann"), login(client, "Robo")
    token, ann_token = bearer(client, robo), bearer(client, ann)
    room = ftl_room(client, ann, robo)
    base = f"/api/bot/game/{room}"
    # Both seats played over HTTP (the room's sockets are not the test client's):
    # opening a stream seats its account, ready (a bot always is): the match begins.
    ann_stream, robo_stream = Stream(client, room, ann_token), Stream(client, room, token)
    try:
        assert ann_stream.until("decision")["phase"] == "plot"
        secret = "Ann:R+30"
        plotted = client.post(
            f"{base}/move", json={"type": "plot", "orders": [secret]}, headers=ann_token
        )
        assert plotted.status_code == 200, plotted.text
        assert plotted.json() == {"ok": True, "version": 1}  # the match's first action
        # A refused move: the room's words, as a page reads them (400).
        bad = client.post(
            f"{base}/move", json={"type": "plot", "orders": ["Nobody:R+30"]}, headers=token
        )
        assert bad.status_code == 400, bad.text
        assert "Nobody" in bad.json()["error"]
        unknown = client.post(f"{base}/move", json={"type": "fly"}, headers=token)
        assert unknown.status_code == 400
        assert "unknown message type" in unknown.json()["error"]

        # One key, two sends: one plot (turn 1 resolves; nothing plotted for turn 2), and
        # the same answer.
        plot = {"type": "plot", "orders": ["Robo:R+15"], "idempotency_key": "turn-1"}
        first = client.post(f"{base}/move", json=plot, headers=token)
        assert first.status_code == 200, first.text
        again = client.post(f"{base}/move", json=plot, headers=token)
        assert (again.status_code, again.json()) == (first.status_code, first.json())
        assert first.json() == {"ok": True, "version": 2}  # turn 1 resolved

        resigned = client.post(f"{base}/resign", headers=token)
        assert resigned.status_code == 200, resigned.text
    finally:
        client.post(f"{base}/resign", headers=ann_token)  # the streams end, whatever failed
    lines, ann_lines = robo_stream.rest(), ann_stream.rest()

    assert secret in json.dumps(ann_lines)  # Ann's own stream shows her plot...
    kinds = [line["type"] for line in lines]
    # Robo was told to decide at each version: the start, Ann's plot and turn 2. A bot
    # whose move was answered with version 2 knows the decisions before it are stale.
    assert [line["version"] for line in lines if line["type"] == "decision"] == [0, 1, 2]
    assert kinds[0] == "gameFull", kinds
    full = lines[0]
    assert (full["room"], full["game"], full["seat"]) == (room, "ftl", 1)
    assert [s["name"] for s in full["seats"]] == ["Ann", "Robo"]
    assert full["state"]["player"] == "Robo"
    # ...the bot's stream never does until the turn resolves (and the plots are revealed).
    assert secret not in json.dumps(lines[: kinds.index("turn")])
    states = [line["state"] for line in lines if line["type"] == "gameState"]
    assert any(state["players"]["Ann"]["plotted"] for state in states)
    assert kinds.count("turn") == 1  # the key's second send did not plot turn 2
    assert states[-1]["turn"] == 2 and states[-1]["plot"] is None
    assert "decision" in kinds
    decision = lines[kinds.index("decision")]
    assert decision["phase"] == "plot"
    assert "result" in kinds  # the match is over: resigned, and the stream ends
    result = lines[kinds.index("result")]["result"]
    assert result["winner"] == "Ann"
    # Opened again once the match is over: its last view, and the stream ends.
    after = Stream(client, room, token).rest()
    assert [line["type"] for line in after][:1] == ["gameFull"]
    assert after[0]["phase"] == "over"


def test_a_burst_of_moves_and_chat_answers_429_with_its_limit(client: TestClient) -> None:
    ann, robo = login(client, "Ann"), login(client, "Robo")
    token = bearer(client, robo)
    room = ftl_room(client, ann, robo)
    base = f"/api/bot/game/{room}"
    answers = [
        client.post(f"{base}/move", json={"type": "unplot"}, headers=token) for _ in range(25)
    ]
    limited = [a for a in answers if a.status_code == 429]
    assert limited, [a.status_code for a in answers]
    body = limited[0].json()
    assert body["ratelimit"]["key"] == "move" and body["ratelimit"]["seconds"] >= 1
    assert body["error"]
    said = [client.post(f"{base}/chat", json={"text": "hi"}, headers=token) for _ in range(8)]
    assert said[0].status_code == 200, said[0].text
    chat_limited = [a for a in said if a.status_code == 429]
    assert chat_limited, [a.status_code for a in said]
    assert chat_limited[0].json()["ratelimit"]["key"] == "chat"

    # A bot that reads no stream leaves the room once the match is over (it would keep
    # the room open for good): its connection is closed, nothing of it kept.
    served = services(client)
    seat = _seats(served)[(room, "robo")]
    ann_stream = Stream(client, room, bearer(client, ann))  # Ann comes: the match begins
    ann_stream.until("decision")
    assert client.post(f"{base}/resign", headers=token).status_code == 200
    assert seat.connection.closed and (room, "robo") not in _seats(served)
    ann_stream.rest()


def test_a_room_without_the_accounts_seat_is_refused(client: TestClient) -> None:
    ann, robo = login(client, "Ann"), login(client, "Robo")
    room = ftl_room(client, ann, robo)
    eve = bearer(client, login(client, "Eve"))
    refused = client.post(f"/api/bot/game/{room}/move", json={"type": "unplot"}, headers=eve)
    assert refused.status_code == 403
    assert "holds no seat" in refused.json()["detail"]
    assert client.get("/api/bot/game/stream/nosuchroom", headers=eve).status_code == 404
    assert client.post(f"/api/bot/game/{room}/resign").status_code == 401


def test_a_server_that_stops_ends_its_game_streams_first(tmp_path: Path) -> None:
    """A game stream is long-lived: told to stop, the server ends it (a clean end of its
    body: the bot opens it again, on the server that comes back) instead of waiting for
    it the whole grace and cutting it off (a real server)."""
    with running_server(tmp_path / "stop.db") as server:
        ann, robo = session_cookie(server.http, "Ann"), session_cookie(server.http, "Robo")

        def post(path: str, body: Any, cookie: str) -> Any:
            request = urllib.request.Request(
                server.http + path,
                data=json.dumps(body).encode(),
                headers={"content-type": "application/json", "cookie": cookie},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.load(answer)

        sent = post("/api/challenges", {"to": "Robo", "game": "ftl", "rated": False}, ann)
        room = post(f"/api/challenges/{sent['id']}/accept", None, robo)["room"]
        made = post("/api/tokens", {"description": "bot", "scopes": ["bot:play"]}, robo)
        opened = urllib.request.Request(
            f"{server.http}/api/bot/game/stream/{room}",
            headers={"authorization": f"Bearer {made['token']}"},
        )
        stream = urllib.request.urlopen(opened, timeout=30)
    with stream:
        assert stream.read() == b""  # ended, not cut (IncompleteRead)


def test_thirty_moves_at_once_take_the_burst_and_no_more(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 moves of one bot sent in parallel: the seat's bucket lets its burst through
    (answered 200 or 400 by the room) and answers every other 429 with the limit, on a
    clock held still (the bucket refills with time: a real one would let a few more by);
    the match is untouched by the refused ones and nothing is stored."""
    ann, robo = login(client, "Ann"), login(client, "Robo")
    token = bearer(client, robo)
    room = ftl_room(client, ann, robo)
    still = time.monotonic()  # the loop's time (asyncio reads time.monotonic)
    monkeypatch.setattr(MovableClock, "now", lambda self: still + self.shift)
    plot = {"type": "plot", "orders": ["Nobody:R+30"]}

    def send(_: int) -> Any:
        return client.post(f"/api/bot/game/{room}/move", json=plot, headers=token)

    with ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(send, range(30)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses.count(429) == 30 - MOVES_BURST, statuses
    assert all(s in (400, 429) for s in statuses), statuses  # no match yet: refused
    limited = next(a for a in answers if a.status_code == 429).json()
    assert limited["ratelimit"]["key"] == "move" and limited["ratelimit"]["seconds"] >= 1
    assert client.get("/api/matches").json() == []
