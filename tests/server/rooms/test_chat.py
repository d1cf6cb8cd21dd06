"""The room's chat (issue 19) on a clock moved by hand: the players' channel and the
spectators', the length limit, the per-socket limit that says how long to wait, a
spectator's name, and the chat stored with its match at its match time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacetable.server.rooms.chat import CHAT_BURST, CHAT_INTERVAL, CHAT_LIMIT
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.store.save_queue import SaveQueue
from tests._clock import FakeClock, Player, Scenario, play_room

FTL = {"ruleset": "ftl"}


def play(tmp_path: Path, scenario: Scenario, options: dict[str, Any] = FTL) -> None:
    play_room(tmp_path, options, Timing(), scenario)


def seated(room: Room, *names: str, ready: bool = False) -> list[Player]:
    players = []
    for name in names:
        player = Player(room)
        player.send(type="join", name=name)
        if ready:
            player.send(type="ready", ready=True)
        players.append(player)
    return players


def said(player: Player) -> list[tuple[str, str, str | None]]:
    """The chat messages ``player`` received: (name, channel, text or quick id)."""
    return [(m["name"], m["channel"], m["text"] or m["quick"]) for m in player.of_type("chat")]


def errors(player: Player) -> list[str]:
    return [m["message"] for m in player.of_type("error")]


def test_players_and_spectators_each_have_their_channel(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seated(room, "Ann", "Bob")
        eve = Player(room)  # watches
        ann.send(type="chat", text="hello Bob")
        eve.send(type="chat", text="go Ann!")
        await clock.advance(0, room)
        assert said(bob) == [("Ann", "players", "hello Bob")]
        assert said(eve) == [
            ("Ann", "players", "hello Bob"),
            ("spectator 1", "spectators", "go Ann!"),
        ]
        assert said(ann) == [("Ann", "players", "hello Bob")]
        # A spectator cannot write in the players' channel; a player cannot write in the
        # spectators' before opening it.
        eve.send(type="chat", text="psst", channel="players")
        bob.send(type="chat", text="hi all", channel="spectators")
        await clock.advance(0, room)
        assert errors(eve) == ["chat: spectators cannot write in the players' chat"]
        assert errors(bob) == ["chat: open the spectators' chat first"]
        # Bob opens the spectators' chat: he is sent what was said there, and reads it on.
        bob.send(type="open_chat", open=True)
        await clock.advance(0, room)
        history = bob.last("chat_history")
        assert history["open"] is True
        assert [m["text"] for m in history["messages"]] == ["hello Bob", "go Ann!"]
        eve.send(type="chat", quick="gg")
        bob.send(type="chat", text="thanks", channel="spectators")
        await clock.advance(0, room)
        assert said(bob)[-2:] == [
            ("spectator 1", "spectators", "gg"),
            ("Bob", "spectators", "thanks"),
        ]
        assert said(eve)[-1] == ("Bob", "spectators", "thanks")
        assert said(ann)[-1] == ("Ann", "players", "hello Bob")  # Ann did not open it
        # Someone arriving later is shown what he may read.
        late = Player(room)
        await clock.advance(0, room)
        assert len(late.last("chat_history")["messages"]) == 4

    play(tmp_path, scenario)


def test_bad_chat_messages_are_refused_with_the_reason(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        (ann,) = seated(room, "Ann")
        ann.send(type="chat", text="x" * (CHAT_LIMIT + 1))
        ann.send(type="chat", text="   ")
        ann.send(type="chat", quick="lol")
        ann.send(type="chat", text="hi", quick="gg")
        ann.send(type="chat", text="x" * CHAT_LIMIT)
        await clock.advance(0, room)
        assert errors(ann) == [
            f"chat: a message is at most {CHAT_LIMIT} characters (this one has {CHAT_LIMIT + 1})",
            "chat: the message is empty",
            "chat: no quick message 'lol': one of gg, wp, oops, thinking, rematch",
            "chat: give either 'text' or 'quick'",
        ]
        assert said(ann) == [("Ann", "players", "x" * CHAT_LIMIT)]

    play(tmp_path, scenario)


def test_a_chat_flood_is_refused_with_how_long_to_wait(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seated(room, "Ann", "Bob")
        for i in range(20):
            ann.send(type="chat", text=f"spam {i}")
        await clock.advance(0, room)
        burst = int(CHAT_BURST)
        assert [text for _, _, text in said(bob)] == [f"spam {i}" for i in range(burst)]
        # Told once for the whole row, with the wait.
        assert errors(ann) == [f"chat: too many messages, wait {int(CHAT_INTERVAL + 0.5)} s"]
        await clock.advance(CHAT_INTERVAL, room)
        ann.send(type="chat", text="sorry")
        bob.send(type="chat", text="no problem")  # Bob's own allowance is whole
        await clock.advance(0, room)
        assert [text for _, _, text in said(bob)][-2:] == ["sorry", "no problem"]

    play(tmp_path, scenario)


def test_a_spectator_without_a_name_is_named_for_the_chat(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        (ann,) = seated(room, "Ann")
        one, two = Player(room), Player(room)
        two.send(type="chat", text="first")
        one.send(type="chat", text="second")
        two.send(type="chat", text="third")
        await clock.advance(0, room)
        assert [(m["name"], m["seat"]) for m in one.of_type("chat")] == [
            ("spectator 1", None),
            ("spectator 2", None),
            ("spectator 1", None),
        ]
        assert said(ann) == []  # the players did not open the spectators' chat

    play(tmp_path, scenario)


def test_the_chat_of_a_match_is_stored_at_its_match_time(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seated(room, "Ann", "Bob")
        ann.send(type="chat", text="before the start")  # the lobby's: not stored
        ann.send(type="ready", ready=True)
        bob.send(type="ready", ready=True)
        await clock.advance(10, room)
        bob.send(type="chat", text="<script>alert(1)</script>")
        await clock.advance(5, room)
        ann.send(type="chat", quick="oops")
        Player(room).send(type="chat", text="nice")
        await clock.advance(0, room)
        for player in (ann, bob):
            player.send(type="plot", orders=[])  # the one turn resolves: the match is over
        await clock.advance(0, room)
        assert room.phase == "over"
        ann.send(type="chat", text="after the end")  # not stored either
        await clock.advance(0, room)
        saves.close()
        assert room.match_id is not None
        stored = saves.storage.get(room.match_id)
        assert stored is not None
        assert stored.chat == [
            {
                "t": 10.0,
                "seat": 1,
                "name": "Bob",
                "channel": "players",
                "text": "<script>alert(1)</script>",
                "quick": None,
            },
            {
                "t": 15.0,
                "seat": 0,
                "name": "Ann",
                "channel": "players",
                "text": None,
                "quick": "oops",
            },
            {
                "t": 15.0,
                "seat": None,
                "name": "spectator 1",
                "channel": "spectators",
                "text": "nice",
                "quick": None,
            },
        ]

    play(tmp_path, scenario, {"ruleset": "ftl", "turn_limit": 1})
