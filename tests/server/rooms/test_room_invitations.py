"""Rematches and the host's seats (issue 19, item 3), on a room whose clock moves by hand:
a rematch asked by one player is shown to the others, who accept or decline (the asker is
told); the first person seated is the host, who alone seats bots and frees a bot's seat
before the match; every refusal says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacetable.server.rooms.room import Room, Timing
from tests._clock import FakeClock, Player
from tests.server.rooms.test_room_clock import play

#: An FTL duel of one turn: both plot nothing and the match is over.
ONE_TURN = {"ruleset": "ftl", "turn_limit": 1}


async def finished_duel(room: Room, clock: FakeClock) -> tuple[Player, Player]:
    """Ann and Bob play a one-turn FTL duel to its end."""
    ann, bob = Player(room), Player(room)
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        player.send(type="join", name=name)
        player.send(type="ready", ready=True)
    await clock.advance(0, room)
    ann.send(type="plot", orders=[])
    bob.send(type="plot", orders=[])
    await clock.advance(0.2, room)
    assert room.phase == "over"
    return ann, bob


def seats(player: Player) -> list[dict[str, Any]]:
    return list(player.last("room")["seats"])


def test_a_rematch_asked_by_one_is_shown_to_the_other_who_accepts(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob = await finished_duel(room, clock)
        first = room.match_id
        bob.send(type="rematch")
        await clock.advance(0.2, room)
        assert [s["rematch"] for s in seats(ann)] == [False, True]
        assert room.phase == "over"
        ann.send(type="rematch")
        await clock.advance(0.2, room)
        assert str(room.phase) == "playing" and room.match_id != first
        # The same seats: Ann first, Bob second, and nobody's ask left over.
        assert [(s["name"], s["rematch"]) for s in seats(ann)] == [
            ("Ann", False),
            ("Bob", False),
        ]
        assert ann.last("state")["players"].keys() == {"Ann", "Bob"}

    play(tmp_path, ONE_TURN, Timing(runup_seconds=0), scenario)


def test_a_declined_rematch_tells_the_asker_and_is_forgotten(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob = await finished_duel(room, clock)
        ann.send(type="decline_rematch")
        await clock.advance(0, room)
        assert ann.last("error")["message"] == "nobody asked for a rematch"
        bob.send(type="rematch")
        await clock.advance(0.2, room)
        ann.send(type="decline_rematch")
        await clock.advance(0.2, room)
        declined = bob.last("rematch_declined")
        assert (declined["by"], declined["asked_by"]) == ("Ann", ["Bob"])
        assert [s["rematch"] for s in seats(bob)] == [False, False]
        # Bob asking again does not start a match: Ann's earlier answer was no.
        bob.send(type="rematch")
        await clock.advance(0.2, room)
        assert room.phase == "over"

    play(tmp_path, ONE_TURN, Timing(runup_seconds=0), scenario)


def test_a_spectator_cannot_decline_a_rematch(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        _, bob = await finished_duel(room, clock)
        eve = Player(room)
        bob.send(type="rematch")
        eve.send(type="decline_rematch")
        await clock.advance(0.2, room)
        assert eve.last("error")["message"] == "only a seated player can decline a rematch"
        assert [s["rematch"] for s in seats(bob)] == [False, True]

    play(tmp_path, ONE_TURN, Timing(runup_seconds=0), scenario)


def test_the_host_frees_a_bot_seat_for_a_friend(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob = Player(room), Player(room)
        ann.send(type="join", name="Ann")
        ann.send(type="bot", seat=1)
        await clock.advance(0.2, room)
        assert [(s["kind"], s["host"]) for s in seats(ann)][:2] == [
            ("human", True),
            ("bot", False),
        ]
        ann.send(type="free_seat", seat=1)
        await clock.advance(0.2, room)
        assert seats(bob)[1]["kind"] == "empty"
        bob.send(type="join", name="Bob", seat=1)
        await clock.advance(0.2, room)
        assert [(s["name"], s["host"]) for s in seats(ann)][:2] == [
            ("Ann", True),
            ("Bob", False),
        ]

    play(tmp_path, {"ruleset": "hexfleet", "seats": 3}, Timing(runup_seconds=0), scenario)


def test_freeing_a_seat_is_refused_with_the_reason(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob, eve = Player(room), Player(room), Player(room)
        ann.send(type="join", name="Ann", seat=0)
        bob.send(type="join", name="Bob", seat=1)
        ann.send(type="bot", seat=2)
        await clock.advance(0.2, room)
        bob.send(type="free_seat", seat=2)
        eve.send(type="free_seat", seat=2)
        ann.send(type="free_seat", seat=1)
        await clock.advance(0.2, room)
        assert bob.last("error")["message"] == "only the room's host can free a seat"
        assert eve.last("error")["message"] == "only the room's host can free a seat"
        assert ann.last("error")["message"] == (
            "seat 1 is not a bot's: only a bot's seat can be freed"
        )
        ann.send(type="free_seat", seat=7)
        await clock.advance(0.2, room)
        assert ann.last("error")["message"] == "there is no seat 7"
        for player in (ann, bob):
            player.send(type="ready", ready=True)
        await clock.advance(0.2, room)
        assert room.phase == "playing"
        ann.send(type="free_seat", seat=2)
        await clock.advance(0.2, room)
        assert ann.last("error")["message"] == "the match has started: seats are freed before it"
        assert seats(eve)[2]["kind"] == "bot"

    play(tmp_path, {"ruleset": "hexfleet", "seats": 3}, Timing(runup_seconds=0), scenario)


def test_the_host_goes_and_the_next_seated_person_is_host(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob = Player(room), Player(room)
        bob.send(type="join", name="Bob", seat=1)
        ann.send(type="join", name="Ann", seat=0)
        await clock.advance(0.2, room)
        assert [s["host"] for s in seats(ann)] == [False, True]  # the first seated
        bob.send(type="leave")
        await clock.advance(0.2, room)
        assert [s["host"] for s in seats(ann)] == [True, False]

    play(tmp_path, {"ruleset": "ftl"}, Timing(runup_seconds=0), scenario)


def test_only_the_host_seats_a_bot(tmp_path: Path) -> None:
    # Ann keeps seat 3 for a friend: Bob, a guest, cannot fill it with a bot; Ann can.
    async def scenario(room: Room, clock: FakeClock, saves: object) -> None:
        ann, bob = Player(room), Player(room)
        ann.send(type="join", name="Ann", seat=0)
        bob.send(type="join", name="Bob", seat=1)
        bob.send(type="bot", seat=2, level="easy")
        await clock.advance(0.2, room)
        assert bob.last("error")["message"] == "only the room's host can seat a bot"
        assert seats(ann)[2]["kind"] == "empty"
        ann.send(type="bot", seat=2, level="easy")
        await clock.advance(0.2, room)
        assert seats(bob)[2]["kind"] == "bot"
        # When the host goes, the next person seated is host, and may seat bots.
        ann.send(type="leave")
        await clock.advance(0.2, room)
        assert seats(bob)[1]["host"]
        bob.send(type="bot", seat=0, level="easy")
        await clock.advance(0.2, room)
        # A bot is named by its level, a second of the level numbered like a person's name.
        assert [(s["kind"], s["name"]) for s in seats(bob)] == [
            ("bot", "easy bot (2)"),
            ("human", "Bob"),
            ("bot", "easy bot"),
        ]

    play(tmp_path, {"ruleset": "hexfleet", "seats": 3}, Timing(runup_seconds=0), scenario)
