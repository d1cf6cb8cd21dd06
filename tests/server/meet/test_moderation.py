"""What a moderator's actions do to a player's open pages (issue 69 item 5;
``server/meet/moderation.py``), on a real server (its HTTP and sockets on a port): a ban
ends his open session at once (his next request is a guest's, his lobby socket hears
``session_ended`` ``banned`` and closes, his room socket still open may not chat) and
refuses his login; a mute refuses his chat
in a room with a sentence saying so, and an unmute lets it through again; a room closed
tells its sockets ``room_closed`` and closes them as a room that is gone (4404)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from spacetable.server.meet.lobby_sockets import SESSION_ENDED
from spacetable.server.meet.moderation import CLOSED_CODE
from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.moderation import ModerationStore
from spacetable.server.store.storage import Storage
from tests._accounts import session_cookie
from tests._server import Client, Server, running_server

PASSWORD = "12345678"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("moderation") / "matches.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[Server]:
    with running_server(db, "--test-clock") as running:
        yield running


def call(server: Server, path: str, body: Any = None, cookie: str = "") -> tuple[int, Any]:
    """``path`` on the server (POSTed with ``body`` when given): status and JSON answer."""
    request = urllib.request.Request(
        server.http + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def moderator(server: Server, db: Path, name: str) -> str:
    """The session cookie of ``name``, made a moderator as ``spacetable admin grant`` does."""
    cookie = session_cookie(server.http, name)
    storage = Storage(str(db))
    try:
        account = AccountStore(storage).find(name)
        assert account is not None
        ModerationStore(storage).grant(account)
    finally:
        storage.close()
    return cookie


def lobby_socket(server: Server, cookie: str) -> ClientConnection:
    return connect(f"{server.ws}/ws/lobby", legacy=True, additional_headers={"Cookie": cookie})


def seated(server: Server, room: str, cookie: str) -> Client:
    """A socket of the account of ``cookie`` sitting in ``room``."""
    client = Client(server, room, headers={"Cookie": cookie})
    client.send(type="join", name="x")
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    return client


def test_a_ban_ends_the_open_session_at_once_and_refuses_the_login(
    server: Server, db: Path
) -> None:
    mira = moderator(server, db, "Mira")
    bob = session_cookie(server.http, "Bob")
    page = lobby_socket(server, bob)
    room = seated(server, server.create_room(seats=2), bob)
    try:
        assert call(server, "/api/session", cookie=bob) == (200, {"name": "Bob"})
        banned = call(server, "/api/admin/ban", {"name": "Bob", "reason": "threats"}, mira)
        assert banned == (204, None)
        # His open page is told at once, and its socket closed.
        assert json.loads(page.recv(timeout=10)) == {"type": "session_ended", "reason": "banned"}
        with pytest.raises(ConnectionClosed) as closed:
            page.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SESSION_ENDED
        # His next request is a guest's; his login is refused, saying why.
        assert call(server, "/api/session", cookie=bob)[0] == 401
        status, answer = call(server, "/api/session", {"name": "Bob", "password": PASSWORD})
        assert status == 403
        assert answer["detail"] == "This account is banned by a moderator: you cannot log in."
        # The room socket he still has open says nothing more.
        room.send(type="chat", text="you will regret this")
        said = room.wait(lambda m: m["type"] in ("error", "chat"))
        assert said["type"] == "error" and "muted your account" in said["message"]
    finally:
        page.close()
        room.close()


def test_a_muted_player_is_told_his_chat_is_refused_until_unmuted(server: Server, db: Path) -> None:
    mira = moderator(server, db, "Mona")
    cid = session_cookie(server.http, "Cid")
    dee = session_cookie(server.http, "Dee")
    room = server.create_room(seats=2)
    speaker, reader = seated(server, room, cid), seated(server, room, dee)
    try:
        assert call(server, "/api/admin/mute", {"name": "Cid", "reason": "spam"}, mira)[0] == 204
        speaker.send(type="chat", text="buy gold now")
        refused = speaker.wait(lambda m: m["type"] in ("error", "chat"))
        assert refused == {
            "type": "error",
            "message": "chat: a moderator muted your account: your messages are not shown",
        }
        assert call(server, "/api/admin/unmute", {"name": "Cid", "reason": "ok"}, mira)[0] == 204
        speaker.send(type="chat", text="sorry")
        heard = reader.wait(lambda m: m["type"] == "chat")
        assert (heard["name"], heard["text"]) == ("Cid", "sorry")
        assert not any(m.get("text") == "buy gold now" for m in reader.received)
    finally:
        speaker.close()
        reader.close()


def test_a_room_closed_by_a_moderator_tells_its_sockets_and_is_gone(
    server: Server, db: Path
) -> None:
    mira = moderator(server, db, "Moss")
    eve = session_cookie(server.http, "Eve")
    room = server.create_room(seats=2)
    player = seated(server, room, eve)
    try:
        closed = call(server, f"/api/admin/rooms/{room}/close", {"reason": "hate speech"}, mira)
        assert closed == (204, None)
        told = player.wait_type("room_closed")
        assert told == {"type": "room_closed", "message": "A moderator closed this room."}
        with pytest.raises(ConnectionClosed) as ended:
            player.socket.recv(timeout=10)
        assert ended.value.rcvd is not None and ended.value.rcvd.code == CLOSED_CODE
        assert room not in {r["id"] for r in server.get("/api/rooms")}
        # Nobody brings it back: a socket to it hears that there is no such room.
        again = Client(server, room)
        assert again.wait_type("error")["message"] == f"no room {room!r}"
        with pytest.raises(ConnectionClosed) as gone:
            again.socket.recv(timeout=10)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 4404
    finally:
        player.close()
