"""A blocked player's chat lines are hidden from the blocker in any room (issue 69 item
4): the room never sends them to the blocker's sockets, neither as they are said nor in
the history a socket is sent; a third reader reads them all. Blocking while in the room
takes effect at once (the history he is sent anew drops the lines already shown), and
unblocking gives them back. Through real websockets on a server in this process, the
accounts and their blocks over HTTP."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests._accounts import session_cookie
from tests._server import Client, Server, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "matches.db") as running:
        yield running


def _blocks(server: Server, cookie: str, name: str, *, block: bool = True) -> None:
    request = urllib.request.Request(
        f"{server.http}/api/blocking/{name}",
        method="PUT" if block else "DELETE",
        headers={"cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 204


def _page(server: Server, room: str, cookie: str) -> Client:
    """A logged-in player's socket in ``room`` (he watches: he sits nowhere yet)."""
    client = Client(server, room, headers={"cookie": cookie})
    client.wait_type("welcome")
    return client


def _said(client: Client) -> list[str]:
    """The chat lines ``client`` has read, as his page shows them: the last history it
    was sent, then what was said since."""
    shown: list[str] = []
    for message in client.received:
        if message["type"] == "chat_history":
            shown = [m["text"] for m in message["messages"]]
        elif message["type"] == "chat":
            shown.append(message["text"])
    return shown


def _heard(client: Client, text: str) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "chat" and m["text"] == text)


def test_the_blockers_sockets_never_get_the_blocked_players_lines(server: Server) -> None:
    ann, bob, cid = (session_cookie(server.http, name) for name in ("Ann", "Bob", "Cid"))
    _blocks(server, ann, "bob")  # before either is in the room
    room = server.create_room(ruleset="ftl")
    ann_page, bob_page, cid_page = (_page(server, room, c) for c in (ann, bob, cid))
    bob_page.send(type="chat", text="hello from Bob")
    _heard(cid_page, "hello from Bob")
    cid_page.send(type="chat", text="hello from Cid")
    _heard(cid_page, "hello from Cid")
    _heard(ann_page, "hello from Cid")  # said after Bob's: Bob's would have come first
    assert _said(ann_page) == ["hello from Cid"]
    assert _said(cid_page) == ["hello from Bob", "hello from Cid"]
    again = _page(server, room, ann)  # another page of Ann's: its history has no Bob
    again.wait_type("chat_history")
    assert _said(again) == ["hello from Cid"]


def test_a_block_while_in_the_room_hides_his_lines_at_once_and_unblocking_shows_them(
    server: Server,
) -> None:
    dan, eve = (session_cookie(server.http, name) for name in ("Dan", "Eve"))
    room = server.create_room(ruleset="ftl")
    dan_page, eve_page = _page(server, room, dan), _page(server, room, eve)
    eve_page.send(type="chat", text="before")
    _heard(dan_page, "before")
    _blocks(server, dan, "Eve")
    dan_page.wait(lambda m: m["type"] == "chat_history" and m["messages"] == [])
    eve_page.send(type="chat", text="after")
    _heard(eve_page, "after")
    dan_page.send(type="chat", text="dan")
    _heard(dan_page, "dan")
    assert _said(dan_page) == ["dan"]
    _blocks(server, dan, "Eve", block=False)
    history = dan_page.wait(lambda m: m["type"] == "chat_history" and len(m["messages"]) == 3)
    assert [m["text"] for m in history["messages"]] == ["before", "after", "dan"]
