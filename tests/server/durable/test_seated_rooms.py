"""The rooms a deleted account is seated in are found in storage (issue 67 item 1,
``LiveStore.seated_rooms``: ``http/leaving.py`` ends them), correspondence and real time,
a name beyond ASCII too, on SQLite and PostgreSQL; and a room handed the account's
departure resigns for it (stored, the others told) and frees its seat. In-process rooms
on a clock moved by hand."""

from __future__ import annotations

import asyncio

from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.farewell import AccountGone
from spacetable.server.rooms.room import Room
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.server.durable._restart import db
from tests.server.rooms.test_correspondence import TIMING, seated

__all__ = ["db"]


def test_the_rooms_an_account_sits_in_are_found_and_it_resigns_there(db: str) -> None:
    async def run() -> None:
        storage = Storage(db)
        saves, live = SaveQueue(storage), LiveStore(storage)
        clock = FakeClock()
        by_post = room_options({"ruleset": "ftl", "turn_hours": 24})
        live_play = room_options({"ruleset": "ftl"})
        rooms = [
            Room("postOne", by_post, saves, TIMING, clock=clock, seed=1, live=live),
            Room("realTime", live_play, saves, TIMING, clock=clock, seed=3, live=live),
            Room("others", live_play, saves, TIMING, clock=clock, seed=4, live=live),
        ]
        try:
            await seated(rooms[0], clock, "zoé", "bob")
            bob, zoe = await seated(rooms[1], clock, "bob", "zoé")
            await seated(rooms[2], clock, "carol", "zoë")  # not her: another letter
            await clock.advance(1, *rooms)  # every room's row is written
            found = await asyncio.to_thread(live.seated_rooms, "zoé")
            assert sorted(room.id for room in found) == ["postOne", "realTime"]
            assert sorted(room.id for room in live.seated_rooms("bob")) == ["postOne", "realTime"]

            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            rooms[1].submit(None, AccountGone("zoé", done))
            await clock.advance(0, rooms[1])
            assert await done == 1
            result = bob.last("result")["result"]
            assert (result["ending"], result["ending_by"], result["winner"]) == (
                "resigned",
                ["zoé"],
                "bob",
            )
            assert [s.kind for s in rooms[1].seats] == ["human", "empty"]
            assert zoe.last("welcome")["role"] == "spectator"
            assert zoe.connection.account is None
            await clock.advance(1, rooms[1])
            assert [r.id for r in live.seated_rooms("zoé")] == ["postOne"]
        finally:
            for room in rooms:
                await room.close()
            saves.close()
            live.close()
            storage.close()

    run_apart(run())


def test_with_three_players_a_leaving_account_s_seat_is_played_on_by_a_bot(db: str) -> None:
    """Rulings M5 and M2: a match of three goes on, a bot plays the deleted account's seat
    for good, nobody's (no token, no account), and the others are told."""

    async def run() -> None:
        storage = Storage(db)
        saves, live = SaveQueue(storage), LiveStore(storage)
        clock = FakeClock()
        room = Room(
            "three", room_options({"ruleset": "ftl", "seats": 3}), saves, TIMING,
            clock=clock, seed=5, live=live,
        )  # fmt: skip
        try:
            ann, bob, _ = await seated(room, clock, "ann", "bob", "cid")
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            room.submit(None, AccountGone("bob", done))
            await clock.advance(0, room)
            assert await done == 1
            assert room.phase == "playing"
            seat = room.seats[1]
            assert (seat.kind, seat.stand_in, seat.account, seat.token) == (
                "bot", False, None, None
            )  # fmt: skip
            assert ann.last("resigned")["player"] == "bob"
            assert bob.last("welcome")["role"] == "spectator"
            await clock.advance(1, room)
            assert live.seated_rooms("bob") == []
        finally:
            await room.close()
            saves.close()
            live.close()
            storage.close()

    run_apart(run())
