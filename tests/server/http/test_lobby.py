"""The lobby socket and who is online over HTTP (``server/http/lobby.py``, issue 69 item
1), in the test's process: ``/ws/lobby`` registers the page's player in the hub, which
``GET /api/online`` and the ``online`` messages list; a message sent to a player reaches
his sockets; a session ended closes them; a page of another site, a broken frame, a flood
and a player's socket too many are refused naming the problem."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from spacetable.server.http.lobby import MAX_PER_PLAYER
from spacetable.server.meet.bus import Bus
from spacetable.server.meet.hub import Player
from spacetable.server.meet.identity import GUEST_COOKIE
from spacetable.server.meet.lobby_sockets import GONE_SECONDS, SESSION_ENDED, LobbyHub, LobbySocket
from spacetable.server.protocol.server_messages import Chat
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.store.accounts import SESSION_COOKIE
from tests._server import wait_until
from tests.server.http._client import login, services, serving, until

GUEST = {"cookie": f"{GUEST_COOKIE}=q7Yk1m2n3b4v5c6x7z8a9s0d"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "lobby.db") as running:  # the hub refreshes (its lifespan)
        yield running


def hub(client: TestClient) -> LobbyHub:
    found = services(client).hub
    assert isinstance(found, LobbyHub)
    return found


def test_an_open_lobby_socket_lists_its_player_by_name_and_counts_guests(
    client: TestClient,
) -> None:
    assert client.get("/api/online").json() == {"players": [], "guests": 0}
    with client.websocket_connect("/ws/lobby", headers=login(client, "Zoe")) as zoe:
        with client.websocket_connect("/ws/lobby", headers=login(client, "adam")):
            with client.websocket_connect("/ws/lobby", headers=GUEST):
                online = client.get("/api/online").json()
                assert online == {
                    "players": [
                        {"name": "adam", "status": "lobby", "game": None, "room": None},
                        {"name": "Zoe", "status": "lobby", "game": None, "room": None},
                    ],
                    "guests": 1,
                }
                # The page that asked hears the same list, then each change.
                zoe.send_text(json.dumps({"type": "watch_online"}))
                assert until(zoe, "online") == {"type": "online", **online}
            until(zoe, "online", lambda m: m["guests"] == 0)
        until(zoe, "online", lambda m: [p["name"] for p in m["players"]] == ["Zoe"])
    assert client.get("/api/online").json() == {"players": [], "guests": 0}


def test_a_message_sent_to_a_player_reaches_every_lobby_socket_of_his_and_no_other(
    client: TestClient,
) -> None:
    ann = login(client, "Ann")
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as one,
        client.websocket_connect("/ws/lobby", headers=ann) as two,
        client.websocket_connect("/ws/lobby", headers=login(client, "Bob")) as bob,
    ):
        key = "ann"
        wait_until(lambda: hub(client).sockets_of(key) == 2, "Ann's two sockets")
        said = Chat(None, None, "x", "x", "players", "hello Ann", None)
        client.portal.call(hub(client).send, key, said)  # type: ignore[union-attr]
        for socket in (one, two):
            assert until(socket, "chat")["text"] == "hello Ann"
        bob.send_text(json.dumps({"type": "ping"}))
        assert bob.receive_json() == {"type": "pong"}  # and nothing for Ann before it


def test_an_ended_session_is_told_to_its_pages_and_their_sockets_closed(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/lobby", headers=login(client, "Ann")) as page:
        wait_until(lambda: hub(client).is_online("ann"), "Ann online")
        client.portal.call(hub(client).end_sessions, "ann", "banned")  # type: ignore[union-attr]
        assert page.receive_json() == {"type": "session_ended", "reason": "banned"}
        with pytest.raises(WebSocketDisconnect) as closed:
            page.receive_json()
        assert closed.value.code == SESSION_ENDED


def test_a_player_is_gone_once_he_has_had_no_lobby_socket_for_a_while_on_the_clock(
    client: TestClient,
) -> None:
    gone: list[str] = []

    async def went(key: str) -> None:
        gone.append(key)

    hub(client).on_gone(went)
    headers = login(client, "Ann")
    with client.websocket_connect("/ws/lobby", headers=headers):
        wait_until(lambda: hub(client).is_online("ann"), "Ann online")
    # A reload: back before the clock says he left.
    with client.websocket_connect("/ws/lobby", headers=headers):
        wait_until(lambda: hub(client).is_online("ann"), "Ann back")
    assert not hub(client).is_online("ann")
    client.portal.call(hub(client).refresh)  # type: ignore[union-attr]
    assert gone == []  # the clock has not moved: he may be on his way to another page
    client.post("/api/test/clock", json={"advance": GONE_SECONDS})
    wait_until(lambda: gone == ["ann"], "Ann gone")


class NoRooms:
    """A room directory with no room (the hub reads the rooms for the players' statuses)."""

    def rooms(self) -> list[Any]:
        return []


def lobby_socket(name: str) -> LobbySocket:
    """A lobby socket of the account ``name`` that takes every frame."""
    return LobbySocket(Player(name.lower(), name, name.lower()), lambda f: True, lambda c, r: None)


def test_a_player_back_while_another_is_told_gone_is_not_gone_and_the_refresh_goes_on() -> None:
    """Ann, Bob and Cy left; as Ann's leaving is told (a listener awaited), Bob comes back.
    The refresh weighs Bob as he is now and goes on to Cy (a full run's presence refresh
    failed here with a KeyError: Bob's leaving, forgotten as he came back, was deleted
    again). The hub is not started: the test runs its one refresh itself."""

    async def scenario() -> list[str]:
        clock = MovableClock()
        hub = LobbyHub(NoRooms(), Bus(), clock)  # type: ignore[arg-type]
        sockets = {name: lobby_socket(name) for name in ("Ann", "Bob", "Cy")}
        gone: list[str] = []

        async def went(key: str) -> None:
            gone.append(key)
            await asyncio.sleep(0)  # (a listener that awaits, as the server's do)
            if key == "ann":
                hub.connect(sockets["Bob"])  # Bob's page opens its socket meanwhile

        hub.on_gone(went)
        for socket in sockets.values():
            hub.connect(socket)
            hub.disconnect(socket)
        clock.advance(GONE_SECONDS)
        await hub.refresh()  # (raised KeyError: 'bob')
        assert hub.is_online("bob")
        return gone

    assert asyncio.run(scenario()) == ["ann", "cy"]


def test_a_page_of_another_site_is_refused_with_403_naming_it(client: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect("/ws/lobby", headers=evil),
    ):
        pass
    assert refused.value.status_code == 403
    assert "https://evil.example" in refused.value.text
    # The server's own pages are welcome (the test client's sockets say "Host: testserver").
    with client.websocket_connect("/ws/lobby", headers={"origin": "http://testserver"}) as page:
        page.send_text(json.dumps({"type": "ping"}))
        assert page.receive_json() == {"type": "pong"}


def test_broken_and_unexpected_frames_are_answered_with_an_error_naming_the_problem(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/lobby", headers=GUEST) as page:
        page.send_text("{not json")
        assert "not valid JSON" in until(page, "error")["message"]
        page.send_text(json.dumps({"type": "warp"}))
        assert "unknown message type" in until(page, "error")["message"]
        page.send_text(json.dumps({"type": "join", "name": "x"}))
        said = until(page, "error")["message"]
        assert "ping, watch_online" in said and "join" in said
        page.send_bytes(b"\x00\x01")
        assert "binary" in until(page, "error")["message"]
        # In French for a French page.
    with client.websocket_connect("/ws/lobby", headers={**GUEST, "accept-language": "fr"}) as fr:
        fr.send_bytes(b"\x00")
        assert "pas en binaire" in until(fr, "error")["message"]


def test_a_flood_of_messages_is_closed_with_1008(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby", headers=GUEST) as page:
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                page.send_text(json.dumps({"type": "ping"}))
            while True:
                page.receive_json()
        assert closed.value.code == 1008


def test_one_player_s_lobby_sockets_are_limited_with_429(client: TestClient) -> None:
    headers = login(client, "Ann")
    sockets = [
        client.websocket_connect("/ws/lobby", headers=headers) for _ in range(MAX_PER_PLAYER)
    ]
    opened = [socket.__enter__() for socket in sockets]
    try:
        wait_until(lambda: hub(client).sockets_of("ann") == MAX_PER_PLAYER, "every socket")
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            client.websocket_connect("/ws/lobby", headers=headers),
        ):
            pass
        assert refused.value.status_code == 429
        assert f"at most {MAX_PER_PLAYER} lobby connections" in refused.value.text
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)
    assert len(opened) == MAX_PER_PLAYER


def test_a_deleted_account_s_open_pages_are_told_their_session_ended(client: TestClient) -> None:
    accounts = services(client).accounts
    session = accounts.open_session(accounts.create("Ann", "12345678"))
    cookie = {"cookie": f"{SESSION_COOKIE}={session}"}
    with client.websocket_connect("/ws/lobby", headers=cookie) as other_tab:
        wait_until(lambda: hub(client).is_online("ann"), "Ann online")
        deleted = client.request(
            "DELETE", "/api/accounts/me", json={"password": "12345678"}, headers=cookie
        )
        assert deleted.status_code == 204, deleted.text
        assert until(other_tab, "session_ended") == {"type": "session_ended", "reason": "deleted"}


def test_logging_out_tells_that_session_s_other_pages_only(client: TestClient) -> None:
    accounts = services(client).accounts
    account = accounts.create("Ann", "12345678")
    here = {"cookie": f"{SESSION_COOKIE}={accounts.open_session(account)}"}
    phone = {"cookie": f"{SESSION_COOKIE}={accounts.open_session(account)}"}
    with (
        client.websocket_connect("/ws/lobby", headers=here) as other_tab,
        client.websocket_connect("/ws/lobby", headers=phone) as on_her_phone,
    ):
        wait_until(lambda: hub(client).sockets_of("ann") == 2, "both of Ann's pages")
        assert client.request("DELETE", "/api/session", headers=here).status_code == 204
        told = until(other_tab, "session_ended")
        assert told == {"type": "session_ended", "reason": "logged_out"}
        with pytest.raises(WebSocketDisconnect):
            other_tab.receive_json()
        # Her phone's session goes on.
        on_her_phone.send_text(json.dumps({"type": "ping"}))
        assert on_her_phone.receive_json() == {"type": "pong"}


def test_thirty_sockets_opened_at_once_by_one_player_never_pass_his_limit(
    client: TestClient,
) -> None:
    headers = login(client, "Ann")
    start = threading.Barrier(30)

    def open_one(_: int) -> Any:
        socket = client.websocket_connect("/ws/lobby", headers=headers)
        start.wait()
        try:
            socket.__enter__()
        except WebSocketDenialResponse as refused:
            assert refused.status_code == 429
            return None
        return socket

    with ThreadPoolExecutor(30) as pool:
        opened = list(pool.map(open_one, range(30)))
    accepted = [socket for socket in opened if socket is not None]
    try:
        assert len(accepted) == MAX_PER_PLAYER
        assert hub(client).sockets_of("ann") == MAX_PER_PLAYER
    finally:
        for socket in accepted:
            socket.__exit__(None, None, None)
