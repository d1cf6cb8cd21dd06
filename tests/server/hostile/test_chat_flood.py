"""A chat flood (issue 19): one socket sends chat messages as fast as it can; the room
lets a few through, tells it to wait (before the socket's own limit does), the server
closes it, and another room's players go on talking and being answered at their usual
pace."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from spacetable.server.rooms.chat import CHAT_BURST, CHAT_INTERVAL
from tests._server import Client, Server, running_server, seated
from tests.server.hostile.test_sockets import (
    GENEROUS,
    bystander,
    message,
    raw_socket,
    read_until,
    read_until_closed,
    round_trip,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(db) as running:
        yield running


def chat_round_trip(client: Client, text: str) -> float:
    """Seconds from a chat message to its echo (the room sends it to its sender too)."""
    start = time.perf_counter()
    client.send(type="chat", text=text)
    client.wait(lambda m: m["type"] == "chat" and m["text"] == text)
    return time.perf_counter() - start


def test_a_chat_flood_is_throttled_and_another_room_keeps_talking(server: Server) -> None:
    other, baseline = bystander(server)
    friend = seated(server, server.create_room(), "Friend")  # a room of his own, talking
    room = server.create_room()
    listener = seated(server, room, "Listener")
    flooder, _ = raw_socket(server, f"/ws/rooms/{room}")
    try:
        flooder.sendall(message(type="join", name="Flood"))
        read_until(flooder, lambda m: m["type"] == "welcome" and m["role"] == "player")
        chats = message(type="chat", text="spam " * 30) * 500
        stopped: list[OSError] = []
        done = threading.Event()

        def flood() -> None:
            deadline = time.monotonic() + 120
            try:
                while time.monotonic() < deadline:
                    flooder.sendall(chats)
            except OSError as exc:  # closed by the server
                stopped.append(exc)
            finally:
                done.set()

        thread = threading.Thread(target=flood, daemon=True)
        thread.start()
        worst, worst_chat, said, last = 0.0, 0.0, 0, 0.0
        while not done.wait(0.25):
            worst = max(worst, round_trip(other))
            if time.monotonic() - last > CHAT_INTERVAL:  # within the chat's own limit
                worst_chat = max(worst_chat, chat_round_trip(friend, f"still here {said}"))
                said, last = said + 1, time.monotonic()
        thread.join()
        assert stopped, "the server let the chat flood run"
        messages, code, reason = read_until_closed(flooder)
        worst = max(worst, round_trip(other))
        # A newcomer's socket has its whole allowance: no waiting for the friend's to refill.
        later = seated(server, server.create_room(), "Later")
        worst_chat = max(worst_chat, chat_round_trip(later, "after the flood"))
        later.close()
        heard = [m for m in listener.received if m["type"] == "chat"]
        listener.send(type="ping")
        listener.wait_type("pong")
        heard += [m for m in listener.received if m["type"] == "chat" and m not in heard]
    finally:
        flooder.close()
        for client in (other, friend, listener):
            client.close()
    assert code == 1008 and reason == "too many messages"
    # The chat's own throttle speaks first ("wait N s", its wait checked exactly on a fake
    # clock in tests/server/rooms/test_chat.py), then the socket's limit, which closes the flooder.
    told = [m["message"] for m in messages if m["type"] == "error"]
    assert told and told[0].startswith("chat: too many messages, wait"), told[:3]
    assert any(t.startswith("too many messages: at most") for t in told[1:]), told[:3]
    # The room let the burst through and a few more as the seconds passed, no flood.
    assert int(CHAT_BURST) <= len(heard) <= int(CHAT_BURST) + 5, len(heard)
    assert worst <= GENEROUS * baseline, (worst, baseline)
    assert worst_chat <= GENEROUS * baseline + 1.0, (worst_chat, baseline)
