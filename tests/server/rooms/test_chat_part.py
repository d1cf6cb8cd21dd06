"""The chat as a part of a room, alone with a fake room: who reads which channel, what a
match stores of it, and the snapshot a rebuilt room takes back."""

from __future__ import annotations

from typing import Any

from spacetable.server.rooms.chat import HISTORY, Chat
from spacetable.server.sockets import protocol as msg
from tests.server.rooms._fake_room import FakeRoom, people


def chat(text: str, channel: Any = None) -> msg.Chat:
    return msg.Chat(type="chat", text=text, channel=channel)


def test_the_spectators_channel_is_read_by_the_seats_that_open_it() -> None:
    room = FakeRoom(people("Ann", "Bob"))
    stored: list[tuple[int, dict[str, Any]]] = []
    part = Chat(room, lambda seq, entry: stored.append((seq, entry)))
    ann, bob, eve = room.socket(0), room.socket(1), room.socket()
    part.on_chat(eve.connection, chat("go Ann!"))
    assert [m["name"] for m in eve.of_type("chat")] == ["spectator 1"]
    assert ann.of_type("chat") == bob.of_type("chat") == []
    part.on_open_chat(ann.connection, msg.OpenChat(type="open_chat", open=True))
    assert ann.of_type("chat_history")[-1]["messages"][0]["text"] == "go Ann!"
    part.on_chat(eve.connection, chat("again"))
    assert [m["text"] for m in ann.of_type("chat")] == ["again"]
    assert bob.of_type("chat") == []
    assert [seq for seq, _ in stored] == [0, 1]  # the journal heard of each, in order
    assert room.changes == 2  # a spectator named, a seat opened the channel


def test_a_match_stores_what_was_said_during_it_at_its_match_time() -> None:
    room = FakeRoom(people("Ann", "Bob"))
    part = Chat(room, lambda seq, entry: None)
    ann = room.socket(0)
    part.on_chat(ann.connection, chat("before"))
    room.phase, room.match_time = "playing", 12.5
    part.match_begins()
    part.on_chat(ann.connection, chat("during"))
    assert part.of_match() == [
        {
            "t": 12.5,
            "seat": 0,
            "name": "Ann",
            "channel": "players",
            "text": "during",
            "quick": None,
        }
    ]


def test_a_refused_message_says_why_to_its_writer_only() -> None:
    room = FakeRoom(people("Ann", "Bob"))
    part = Chat(room, lambda seq, entry: None)
    ann, bob = room.socket(0), room.socket(1)
    part.on_chat(ann.connection, chat("psst", channel="spectators"))
    assert ann.of_type("error")[-1]["message"] == "chat: open the spectators' chat first"
    assert bob.received == []


def test_a_rebuilt_chat_is_the_chat_that_was_snapshot() -> None:
    room = FakeRoom(people("Ann", "Bob"))
    stored: list[tuple[int, dict[str, Any]]] = []
    part = Chat(room, lambda seq, entry: stored.append((seq, entry)))
    ann, eve = room.socket(0), room.socket()
    part.on_chat(ann.connection, chat("lobby"))
    part.on_open_chat(ann.connection, msg.OpenChat(type="open_chat", open=True))
    room.phase = "playing"
    part.match_begins()
    part.on_chat(eve.connection, chat("match"))
    again = Chat(room, lambda seq, entry: None)
    again.restore(stored, part.snapshot())
    assert again.snapshot() == part.snapshot()
    assert again.of_match() == part.of_match()
    newcomer = room.socket(0)
    again.send_history(newcomer.connection)
    history = newcomer.of_type("chat_history")[-1]
    assert history["open"] and [m["text"] for m in history["messages"]] == ["lobby", "match"]
    assert len(history["messages"]) <= HISTORY
