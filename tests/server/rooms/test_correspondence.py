"""Correspondence play (issue 37 item 4, docs/correspondence.md): a room with
``turn_hours`` between registered players waits that long for each move, on the room's
clock moved by hand; nobody needs to stay connected, no bot stands in, the room does not
close; a timeout passes the turn (FTL: no orders; hex fleet: the activation ends); three
in a row lose (docs/rulings.md C1); a guest is refused a seat. In-process rooms, one of
them stored and rebuilt from its rows as a restarted server would."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from spacetable.server.http.my_games import my_games
from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.rebuild import rebuild_room
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock, Player, play_room
from tests._loops import run_apart
from tests.server.durable._restart import db

__all__ = ["db"]

HOUR = 3600.0
#: Short live clocks: an absence's grace, the abandon timer and the idle close all run out
#: long before a correspondence turn does.
TIMING = Timing(runup_seconds=0.0, abandon_seconds=5.0, grace_seconds=2.0, room_idle_seconds=60.0)


class Member(Player):
    """A socket opened with a session cookie: it sits as its account."""

    def __init__(self, room: Room, account: str | None) -> None:
        self.room = room
        self.received: list[dict[str, Any]] = []
        self.connection = Connection(self._write)
        self.connection.account = account
        room.connect(self.connection)


async def seated(room: Room, clock: FakeClock, *names: str) -> list[Member]:
    """Each account joins and is ready: the match begins."""
    members = []
    for name in names:
        member = Member(room, name)
        member.send(type="join", name=name)
        member.send(type="ready", ready=True)
        members.append(member)
    await clock.advance(0, room)
    assert room.phase == "playing"
    return members


def test_a_guest_is_refused_a_seat_and_no_bot_may_sit(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        guest = Member(room, None)
        guest.send(type="join", name="zed")
        alice = Member(room, "alice")
        alice.send(type="join", name="alice")
        alice.send(type="bot", seat=1)
        await clock.advance(0, room)
        assert "correspondence" in guest.last("error")["message"]
        assert guest.connection.seat is None
        assert "not bots" in alice.last("error")["message"]
        assert [s.kind for s in room.seats] == ["human", "empty"]

    play_room(tmp_path, {"ruleset": "ftl", "turn_hours": 24}, TIMING, scenario)


def test_ftl_timeouts_pass_turns_nobody_connected_no_bot_and_three_lose(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        alice, bob = await seated(room, clock, "alice", "bob")
        await clock.advance(1, room)  # the room message's window closes
        about = alice.last("room")["correspondence"]
        assert about["turn_hours"] == 24 and sorted(about["waiting"]) == ["alice", "bob"]
        assert round(about["deadline"] - clock.wall()) == 24 * HOUR - 1
        alice.send(type="plot", orders=[])
        await clock.advance(23 * HOUR - 1, room)
        assert room.match is not None and room.match.match.turn == 1  # still bob's to plot
        # Both go away for days: no grace, no bot, the room stays open.
        room.disconnect(alice.connection)
        room.disconnect(bob.connection)
        await clock.advance(1 * HOUR + 1, room)
        assert room.match.match.turn == 2  # bob's turn passed: no orders
        assert room.correspondence.missed == {"bob": 1}
        assert [(s.kind, s.stand_in) for s in room.seats] == [("human", False)] * 2
        assert not room.expired
        await clock.advance(24 * HOUR, room)  # neither plots turn 2
        assert room.match.match.turn == 3
        assert room.correspondence.missed == {"alice": 1, "bob": 2}
        # Alice comes back and plays; bob lets his third turn in a row run out: he loses.
        back = Member(room, "alice")
        await clock.advance(0, room)
        assert back.last("welcome")["role"] == "player"
        back.send(type="plot", orders=[])
        await clock.advance(24 * HOUR, room)
        result = back.last("result")["result"]
        assert (result["winner"], result["ending"], result["ending_by"]) == (
            "alice",
            "timeout",
            ["bob"],
        )
        assert room.phase == "over"

    play_room(tmp_path, {"ruleset": "ftl", "turn_hours": 24}, TIMING, scenario)


def test_a_hexfleet_timeout_ends_the_activation(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        await seated(room, clock, "alice", "bob")
        match = room.match
        assert match is not None
        waiting = room.correspondence.waiting
        assert len(waiting) == 1
        late = waiting[0]
        turn = match.match.turn
        actions = len(match.actions)
        await clock.advance(2 * HOUR, room)
        done = [a for a in match.actions[actions:] if a["type"] == "done"]
        assert done and done[0]["player"] == late
        assert room.correspondence.missed.get(late) == 1
        assert room.correspondence.ran_out.get(late) == [turn]  # the turn his activation was in

    play_room(tmp_path, {"ruleset": "hexfleet", "turn_hours": 2}, TIMING, scenario)


def test_a_stored_room_rebuilt_days_later_lives_the_turns_it_missed(db: str) -> None:
    """The deadline is stored as a wall time: a room rebuilt from its rows (a restarted
    server) arms it again, and the turns that ran out meanwhile pass, one by one; the
    "My games" list reads the stored rooms. On SQLite and PostgreSQL."""

    async def run() -> None:
        storage = Storage(db)
        saves, live = SaveQueue(storage), LiveStore(storage)
        clock = FakeClock()
        options = room_options({"ruleset": "ftl", "turn_hours": 24})
        room = Room("corrRoom", options, saves, TIMING, clock=clock, seed=7, live=live)
        try:
            _, bob = await seated(room, clock, "alice", "bob")
            bob.send(type="plot", orders=[])
            await clock.advance(0, room)
            listed = my_games(live, "alice", clock.wall())
            assert [(g["room"], g["waiting_on_you"]) for g in listed] == [("corrRoom", True)]
            assert my_games(live, "bob", clock.wall())[0]["waiting_on_you"] is False
            assert my_games(live, "carol", clock.wall()) == []
        finally:
            await room.close()  # the process dies: nothing of it runs after
        await clock.advance(49 * HOUR)  # two days and an hour with no process
        stored = await asyncio.to_thread(live.load, "corrRoom")
        assert stored is not None
        rebuilt = rebuild_room(stored, saves, TIMING, live, clock=clock)
        try:
            await clock.advance(0, rebuilt)
            match = rebuilt.match
            assert match is not None and match.match.turn == 3
            assert rebuilt.correspondence.missed == {"alice": 2, "bob": 1}
            assert rebuilt.correspondence.deadline is not None
            assert round(rebuilt.correspondence.deadline - clock.wall()) == 23 * HOUR
            assert [s.stand_in for s in rebuilt.seats] == [False, False]
        finally:
            await rebuilt.close()
            saves.close()
            live.close()
            storage.close()

    run_apart(run())


def test_a_correspondence_room_nobody_sat_in_still_closes(tmp_path: Path) -> None:
    """Rooms created by a script and never joined do not hold the room cap for ever."""

    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        await clock.advance(TIMING.unjoined_seconds + 1, room)
        assert room.expired

    play_room(tmp_path, {"ruleset": "hexfleet", "turn_hours": 24}, TIMING, scenario)


def test_the_room_and_my_games_say_which_turns_ran_out_and_how_many_more_lose(db: str) -> None:
    """Issue 67 item 14: a player back after missed turns is told on his own screens: the
    ``room`` message (its ``correspondence``) and his ``GET /api/me/games`` items carry
    which of his turns ran out in a row and how many in a row lose; a move clears them.
    The room is stored and rebuilt in between, as after a restart."""

    async def run() -> None:
        storage = Storage(db)
        saves, live = SaveQueue(storage), LiveStore(storage)
        clock = FakeClock()
        options = room_options({"ruleset": "ftl", "turn_hours": 1})
        room = Room("warnRoom", options, saves, TIMING, clock=clock, seed=7, live=live)
        rebuilt: Room | None = None
        try:
            alice, _bob = await seated(room, clock, "alice", "bob")
            alice.send(type="plot", orders=[])
            await clock.advance(HOUR + 1, room)  # bob's turn 1 runs out
            about = alice.last("room")["correspondence"]
            assert (about["missed"], about["ran_out"], about["lose_at"]) == (
                {"bob": 1},
                {"bob": [1]},
                3,
            )
            assert alice.last("timed_out")["turns"] == {"bob": [1]}
            alice.send(type="plot", orders=[])
            await clock.advance(HOUR, room)  # and his turn 2
            mine = my_games(live, "bob", clock.wall())[0]
            assert (mine["your_missed"], mine["your_ran_out"], mine["lose_at"]) == (2, [1, 2], 3)
            assert my_games(live, "alice", clock.wall())[0]["your_ran_out"] == []
            await room.close()
            stored = await asyncio.to_thread(live.load, "warnRoom")
            assert stored is not None
            rebuilt = rebuild_room(stored, saves, TIMING, live, clock=clock)
            back = Member(rebuilt, "bob")
            await clock.advance(0, rebuilt)
            assert back.last("room")["correspondence"]["ran_out"] == {"bob": [1, 2]}
            back.send(type="plot", orders=[])  # he plays: nothing ran out in a row any more
            await clock.advance(1, rebuilt)  # the room message's window closes
            assert back.last("room")["correspondence"]["ran_out"] == {}
            assert my_games(live, "bob", clock.wall())[0]["your_ran_out"] == []
        finally:
            await (rebuilt or room).close()
            saves.close()
            live.close()
            storage.close()

    run_apart(run())
