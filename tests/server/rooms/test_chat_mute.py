"""A mute in the chat sticks to the person (issue 36): every chat message names its
``speaker`` (the page's tab, which the socket names as it connects, ``?tab=``), and the
page mutes that (``web/js/shell/chat.js``, ``speakerOf``). So a muted spectator whose
page reconnects, and a muted player who leaves his seat and sits down again under another
name, are still muted; someone else in the muted player's old seat is not. Through real
websockets on a server in this process."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests._server import Client, Server, running_server

ANN_TAB, BOB_TAB, EVE_TAB, ZOE_TAB = "tab-ann", "tab-bob", "tab-eve", "tab-zoe"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "matches.db") as running:
        yield running


def _connected(server: Server, room: str, tab: str) -> Client:
    """A page's socket: it names its tab as it connects, and is a spectator at first."""
    client = Client(server, room, query=f"tab={tab}")
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")
    return client


def _sits(client: Client, name: str, tab: str) -> None:
    client.send(type="join", name=name, tab=tab)
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")


def _heard(reader: Client, text: str) -> dict[str, Any]:
    """The chat message ``text`` as ``reader`` receives it."""
    return reader.wait(lambda m: m["type"] == "chat" and m["text"] == text)


def speaker_of(message: dict[str, Any]) -> str:
    """Whom a page's mute silences: ``speakerOf`` of web/js/shell/chat.js, word for word."""
    if message.get("speaker"):
        return f"speaker:{message['speaker']}"
    seat = message.get("seat")
    return f"name:{message['name']}" if seat is None else f"seat:{seat}"


class Reader:
    """A page reading the chat with the mute of web/js/shell/chat.js."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.muted: set[str] = set()

    def mute(self, message: dict[str, Any]) -> None:
        self.muted.add(speaker_of(message))

    def shows(self, text: str) -> bool:
        return speaker_of(_heard(self.client, text)) not in self.muted


def test_a_muted_spectator_who_reconnects_is_still_muted(server: Server) -> None:
    room = server.create_room(ruleset="ftl")
    ann = _connected(server, room, ANN_TAB)
    _sits(ann, "Ann", ANN_TAB)
    ann.send(type="open_chat", open=True)  # Ann reads the spectators' chat
    ann.wait_type("chat_history")
    reader = Reader(ann)
    eve = _connected(server, room, EVE_TAB)
    eve.send(type="chat", text="boo")
    first = _heard(ann, "boo")
    assert first["name"] == "spectator 1"
    reader.mute(first)
    eve.close()  # her page's connection drops; it reconnects, as the page does
    eve = _connected(server, room, EVE_TAB)
    eve.send(type="chat", text="boo again")
    again = _heard(ann, "boo again")
    assert speaker_of(again) in reader.muted
    assert again["name"] == "spectator 1"  # not a new spectator: the same person
    # Another spectator is heard.
    zoe = _connected(server, room, ZOE_TAB)
    zoe.send(type="chat", text="hello")
    assert reader.shows("hello")
    for client in (ann, eve, zoe):
        client.close()


def test_a_muted_player_who_sits_again_is_still_muted(server: Server) -> None:
    room = server.create_room(ruleset="ftl", seats=3)
    ann = _connected(server, room, ANN_TAB)
    _sits(ann, "Ann", ANN_TAB)
    reader = Reader(ann)
    bob = _connected(server, room, BOB_TAB)
    _sits(bob, "Bob", BOB_TAB)
    bob.send(type="chat", text="spam")
    reader.mute(_heard(ann, "spam"))
    bob.send(type="leave")  # as the page's "Leave my seat and watch" does
    bob.send(type="watch")
    bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")
    # Zoe takes the seat Bob left (the first free one): she is heard.
    zoe = _connected(server, room, ZOE_TAB)
    zoe.send(type="join", name="Zoe", tab=ZOE_TAB)
    assert zoe.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["seat"] == 1
    zoe.send(type="chat", text="hi Ann")
    assert reader.shows("hi Ann")
    # Bob sits again, in another seat, under another name: still muted.
    bob.send(type="join", name="Robert", tab=BOB_TAB)
    assert bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["seat"] == 2
    bob.send(type="chat", text="more spam")
    assert not reader.shows("more spam")
    for client in (ann, bob, zoe):
        client.close()


def test_a_muted_player_who_reopens_the_link_in_a_new_tab_is_still_muted(server: Server) -> None:
    """Issue 36 item 5, found again by the second newcomer run: Bob closed his tab and
    opened the room's link again (a new tab: another tab id, the same seat token); the page
    took his seat back and Ann heard him again."""
    room = server.create_room(ruleset="ftl")
    ann = _connected(server, room, ANN_TAB)
    _sits(ann, "Ann", ANN_TAB)
    reader = Reader(ann)
    bob = _connected(server, room, BOB_TAB)
    bob.send(type="join", name="Bob", tab=BOB_TAB)
    token = bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["token"]
    bob.send(type="chat", text="spam")
    reader.mute(_heard(ann, "spam"))
    bob.close()  # the tab closed; the link opened again in a new one, with the stored token
    bob = _connected(server, room, "tab-bob-again")
    bob.send(type="rejoin", token=token, tab="tab-bob-again")
    assert bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["seat"] == 1
    bob.send(type="chat", text="spam from a new tab")
    assert not reader.shows("spam from a new tab")
    # The new tab is Bob wherever he goes: he leaves his seat and watches, still muted.
    bob.send(type="leave")
    bob.send(type="watch")
    bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")
    ann.send(type="open_chat", open=True)
    ann.wait_type("chat_history")
    bob.send(type="chat", text="spam from the gallery")
    assert not reader.shows("spam from the gallery")
    for client in (ann, bob):
        client.close()


def test_a_welcome_names_the_speaker_of_ones_own_messages(server: Server) -> None:
    """The page offers no Mute on one's own lines (found by the second newcomer run of issue
    36: a spectator was offered to mute himself): each ``welcome`` names the ``speaker``
    its socket's messages will carry, a spectator's before he ever spoke, and a player's who
    took his seat back from a new tab; another's is another."""
    room = server.create_room(ruleset="ftl")
    ann = _connected(server, room, ANN_TAB)
    _sits(ann, "Ann", ANN_TAB)
    ann.send(type="open_chat", open=True)
    ann.wait_type("chat_history")
    eve = Client(server, room, query=f"tab={EVE_TAB}")
    eve_is = eve.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")["speaker"]
    eve.send(type="chat", text="hi from the gallery")
    assert _heard(eve, "hi from the gallery")["speaker"] == eve_is
    bob = _connected(server, room, BOB_TAB)
    bob.send(type="join", name="Bob", tab=BOB_TAB)
    token = bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["token"]
    bob.send(type="chat", text="hi")
    bob_was = _heard(ann, "hi")["speaker"]
    assert bob_was != eve_is
    bob.close()
    bob = Client(server, room, query="tab=tab-bob-again")  # the link opened in a new tab
    bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")
    bob.send(type="rejoin", token=token, tab="tab-bob-again")
    welcome = bob.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    assert welcome["speaker"] == bob_was
    for client in (ann, bob, eve):
        client.close()
