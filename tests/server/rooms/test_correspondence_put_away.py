"""An idle correspondence room waits in storage, not in memory (days a turn): once nobody
has been connected for the rooms' idle time, it is put away (closed in this process, its
stored rows kept), and it comes back as it was when a player opens it or when its turn
runs out (``rooms/deadlines.py``). In-process, on a clock moved by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path

from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.deadlines import DeadlineSweeper
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.server.rooms.test_correspondence import HOUR, TIMING, Member, seated

FTL_BY_POST = {"ruleset": "ftl", "turn_hours": 24}


def directory(tmp_path: Path, clock: FakeClock, puts_away: bool) -> RoomDirectory:
    storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
    rooms = RoomDirectory(storage, TIMING, clock=clock)
    rooms.puts_away = puts_away
    return rooms


def test_an_idle_correspondence_room_is_put_away_and_comes_back_as_it_was(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        rooms = directory(tmp_path, clock, puts_away=True)
        sweeper = DeadlineSweeper(rooms.live, rooms.get_or_rebuild, rooms.get, clock)  # type: ignore[arg-type]
        room = rooms.create(room_options(FTL_BY_POST))
        alice, bob = await seated(room, clock, "alice", "bob")
        alice.send(type="plot", orders=[])
        alice.send(type="chat", text="your move", channel="players")
        await clock.advance(1, room)
        room.disconnect(alice.connection)
        room.disconnect(bob.connection)
        await clock.advance(TIMING.room_idle_seconds - 2, room)
        assert rooms.get(room.id) is room  # not yet
        await clock.advance(3, room)
        assert room.expired and rooms.get(room.id) is None  # put away
        assert rooms.live is not None
        assert await asyncio.to_thread(rooms.live.load, room.id) is not None  # its rows stay

        # Bob opens it hours later: the same match, his turn to plot, the chat kept.
        await clock.advance(5 * HOUR)
        back = await rooms.get_or_rebuild(room.id)
        assert back is not None and back is not room
        bob = Member(back, "bob")
        await clock.advance(0, back)
        assert bob.last("welcome")["role"] == "player"
        assert back.correspondence.waiting == ["bob"]
        assert [m["text"] for m in bob.last("chat_history")["messages"]] == ["your move"]
        # He goes without plotting; put away again, his day runs out in storage: the
        # deadline sweep opens the room and the turn passes.
        back.disconnect(bob.connection)
        await clock.advance(TIMING.room_idle_seconds + 1, back)
        assert back.expired and rooms.get(room.id) is None
        sweeper.start()
        await clock.advance(19 * HOUR)
        await sweeper.drained()
        again = rooms.get(room.id)
        assert again is not None and again is not back
        await clock.advance(0, again)  # the deadline it was rebuilt with runs out
        assert again.match is not None
        assert again.match.match.turn == 2
        assert again.correspondence.missed == {"bob": 1}
        await sweeper.close()
        await rooms.close()

    run_apart(scenario())


def test_without_a_deadline_sweep_an_idle_correspondence_room_stays_open(
    tmp_path: Path,
) -> None:
    """Put away, a room whose turn ran out would wait for someone to open it: only a
    server that sweeps the deadlines puts rooms away."""

    async def scenario() -> None:
        clock = FakeClock()
        rooms = directory(tmp_path, clock, puts_away=False)
        room = rooms.create(room_options(FTL_BY_POST))
        for member in await seated(room, clock, "alice", "bob"):
            room.disconnect(member.connection)
        await clock.advance(10 * TIMING.room_idle_seconds, room)
        assert rooms.get(room.id) is room and not room.expired
        await rooms.close()

    run_apart(scenario())
