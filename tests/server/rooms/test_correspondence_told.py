"""What a correspondence room tells its players' accounts (``rooms/correspondence.py``'s
``told``, issue 70: the notifications of ``meet/notices.py``): a turn of theirs begins
(not to the player who just moved), a turn of theirs ran out with how many more in a row
lose the match, the match is over and whether each won. In-process rooms on a clock moved
by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacetable.server.rooms.room import Room
from spacetable.server.store.save_queue import SaveQueue
from tests._clock import FakeClock, play_room
from tests.server.rooms.test_correspondence import HOUR, TIMING, seated


def test_ftl_turns_their_timeouts_and_the_end_are_told_to_the_accounts(tmp_path: Path) -> None:
    told: list[tuple[str, str, dict[str, Any]]] = []

    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        room.correspondence.told = lambda account, kind, params: told.append(
            (account, kind, params)
        )
        alice, bob = await seated(room, clock, "alice", "bob")
        base = {"room": room.id, "ruleset": "ftl"}
        assert told == [
            ("alice", "your_move", base | {"hours": 24}),
            ("bob", "your_move", base | {"hours": 24}),
        ]
        told.clear()
        alice.send(type="plot", orders=[])
        await clock.advance(1, room)
        assert told == []  # bob was waited on already
        bob.send(type="plot", orders=[])
        await clock.advance(1, room)
        assert told == [("alice", "your_move", base | {"hours": 24})]  # not bob: he just moved
        told.clear()
        alice.send(type="plot", orders=[])
        await clock.advance(24 * HOUR, room)  # bob lets turn 2 run out
        assert told == [
            ("bob", "ran_out", base | {"turn": 2, "left": 2}),
            ("alice", "your_move", base | {"hours": 24}),
            ("bob", "your_move", base | {"hours": 24}),
        ]
        told.clear()
        alice.send(type="plot", orders=[])
        await clock.advance(24 * HOUR, room)
        alice.send(type="plot", orders=[])
        await clock.advance(24 * HOUR, room)  # bob's third in a row: he loses
        assert [t for t in told if t[1] != "your_move"] == [
            ("bob", "ran_out", base | {"turn": 3, "left": 1}),
            ("bob", "ran_out", base | {"turn": 4, "left": 0}),
            ("alice", "match_over", base | {"outcome": "won"}),
            ("bob", "match_over", base | {"outcome": "lost"}),
        ]

    play_room(tmp_path, {"ruleset": "ftl", "turn_hours": 24}, TIMING, scenario)
