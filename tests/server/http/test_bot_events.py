"""A bot's event stream (``GET /api/stream/event``: ``http/bot_events.py``,
``meet/bot_events.py``, issue 72 item 3), in the test's process through Starlette's
TestClient (which hands a streamed body over as it comes) on the test clock: on connecting
the stream replays the challenges open to the bot and its rooms not over; a challenge, its
withdrawal and an accepted one's room arrive as lines; an empty line every 7 s of the
server's clock; a second stream of the token ends the first; a match over says
``gameFinish``; a revoked token's stream ends; a token without the scope is refused; a
server that stops ends its streams (a real server)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.meet.bot_events import KEEPALIVE_SECONDS
from tests._accounts import session_cookie
from tests._server import running_server
from tests.server.http._client import ORIGIN, bearer, login, services, serving
from tests.server.http._stream_lines import checked


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "events.db") as running:
        yield running


def challenge(client: TestClient, by: dict[str, str], to: str) -> str:
    sent = client.post(
        "/api/challenges", json={"to": to, "game": "lightspeed", "rated": False}, headers=by
    )
    assert sent.status_code == 201, sent.text
    made: str = sent.json()["id"]
    return made


def read(lines: Iterator[str]) -> dict[str, Any] | None:
    """The stream's next line, decoded (``None``: the empty keep-alive line)."""
    text = next(lines)
    return checked(json.loads(text), "event_stream") if text.strip() else None


def test_the_stream_replays_then_tells_challenges_games_and_keeps_alive(client: TestClient) -> None:
    ann, bob = login(client, "Robo", origin=ORIGIN), login(client, "Bob", origin=ORIGIN)
    bot = bearer(client, ann, "bot:play", "challenge:write")
    assert client.post("/api/bot/account/upgrade", headers=bot).status_code == 200
    waiting = challenge(client, bob, "Robo")  # before the stream: replayed
    with client.stream("GET", "/api/stream/event", headers=bot) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        lines = answer.iter_lines()
        first = read(lines)
        assert first is not None and first["type"] == "challenge"
        assert first["challenge"]["id"] == waiting and first["challenge"]["from"] == "Bob"
        withdrawn = challenge(client, bob, "Robo")
        live = read(lines)
        assert live is not None and live["type"] == "challenge"
        assert live["challenge"]["id"] == withdrawn and live["challenge"]["to"] == "Robo"
        assert client.delete(f"/api/challenges/{withdrawn}", headers=bob).status_code == 204
        assert read(lines) == {
            "type": "challengeCanceled",
            "challenge": {"id": withdrawn, "status": "cancelled"},
        }
        accepted = client.post(f"/api/challenges/{waiting}/accept", headers=bot)
        room = accepted.json()["room"]
        assert read(lines) == {"type": "gameStart", "room": room, "game": "lightspeed"}
        served = services(client)
        seated = served.directory.get(room)
        assert seated is not None  # the bot's seat says BOT, the person's not
        assert [(s.name, s.to_json()["bot_account"]) for s in seated.seats] == [
            ("Bob", False),
            ("Robo", True),
        ]
        # A second stream of the token: the first ends; the room is replayed to it.
        with client.stream("GET", "/api/stream/event", headers=bot) as again:
            assert list(lines) == []  # the first stream ended
            more = again.iter_lines()
            assert read(more) == {"type": "gameStart", "room": room, "game": "lightspeed"}
            # Its match played and over (begun and resigned by hand, on the server's loop).
            assert client.portal is not None

            def play_and_resign() -> None:
                seated.start()
                seated.end("resigned", ["Bob"])

            client.portal.call(play_and_resign)
            assert read(more) == {"type": "gameFinish", "room": room, "game": "lightspeed"}
            moved = client.post("/api/test/clock", json={"advance": KEEPALIVE_SECONDS})
            assert moved.status_code == 200
            assert read(more) is None  # the keep-alive
            # The token revoked: its stream ends at once (no keep-alive line comes first).
            for made in client.get("/api/tokens", headers=ann).json():
                assert client.delete(f"/api/tokens/{made['id']}", headers=ann).status_code == 204
            client.post("/api/test/clock", json={"advance": KEEPALIVE_SECONDS})
            assert list(more) == []


def test_a_token_without_the_scope_or_no_token_reads_no_stream(client: TestClient) -> None:
    ann = login(client, "Ann", origin=ORIGIN)
    writer = bearer(client, ann, "challenge:write")
    refused = client.get("/api/stream/event", headers=writer)
    assert refused.status_code == 403 and "bot:play or challenge:read" in refused.json()["detail"]
    assert client.get("/api/stream/event", headers=ann).status_code == 401


def test_a_server_that_stops_ends_its_bots_streams_first(tmp_path: Path) -> None:
    """A stream is long-lived: told to stop, the server ends it (a clean end of its body,
    which a bot takes as "reconnect") instead of waiting for it and cutting it off."""
    with running_server(tmp_path / "stop.db") as server:
        cookie = session_cookie(server.http, "Robo")
        body = json.dumps({"description": "bot", "scopes": ["bot:play"]}).encode()
        made = urllib.request.Request(
            server.http + "/api/tokens",
            data=body,
            headers={"content-type": "application/json", "cookie": cookie},
        )
        with urllib.request.urlopen(made, timeout=10) as answer:
            bearer = {"authorization": f"Bearer {json.load(answer)['token']}"}
        opened = urllib.request.Request(server.http + "/api/stream/event", headers=bearer)
        events = urllib.request.urlopen(opened, timeout=30)
    with events:
        assert events.read() == b""  # ended, not cut (IncompleteRead)
