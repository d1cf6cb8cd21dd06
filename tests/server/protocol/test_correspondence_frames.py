"""The frames of a correspondence match (turns that time out, an account that forsakes the
room) and of a three-seat match where one resigns are ones the protocol's schema accepts,
both ways (in process, on a room whose clock the test moves: tests/_clock.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from spacetable.server.protocol.schema import protocol_schema
from spacetable.server.rooms.room import Room
from spacetable.server.store.save_queue import SaveQueue
from tests._clock import FakeClock, play_room
from tests.server.rooms.test_correspondence import HOUR, TIMING, Member, seated


class Recording(Member):
    """A member whose sent messages are kept too."""

    def __init__(self, room: Room, account: str | None, sent: list[dict[str, Any]]) -> None:
        super().__init__(room, account)
        self.sent = sent

    def send(self, **message: Any) -> None:
        self.sent.append(message)
        super().send(**message)


def valid(direction: str, messages: list[dict[str, Any]]) -> None:
    schema = protocol_schema()
    check = Draft202012Validator({**schema, "$ref": f"#/$defs/{direction}"})
    for message in messages:
        assert check.is_valid(message), (message, [e.message for e in check.iter_errors(message)])


@pytest.mark.parametrize("seats", [2, 3])
def test_timeouts_a_resignation_and_a_forsaken_room_are_declared_frames(
    tmp_path: Path, seats: int
) -> None:
    sent: list[dict[str, Any]] = []
    names = ["alice", "bob", "carol"][:seats]
    received: list[dict[str, Any]] = []

    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        members = await seated(room, clock, *names)
        recording = [Recording(room, name, sent) for name in names]  # a second tab each
        await clock.advance(1, room)
        recording[0].send(type="plot", orders=[])
        recording[0].send(type="chat", text="your move")
        await clock.advance(24 * HOUR + 1, room)  # the others' turn runs out
        assert any(m["type"] == "timed_out" for m in recording[0].received)
        if seats == 3:
            recording[2].send(type="resign")
            await clock.advance(1, room)
            assert any(m["type"] == "resigned" for m in recording[0].received)
        recording[1].send(type="forsake")
        for _ in range(20):
            await clock.advance(1, room)
            if any(m["type"] == "forsaken" for m in recording[1].received):
                break
        assert any(m["type"] == "forsaken" for m in recording[1].received)
        for member in (*members, *recording):
            received.extend(member.received)

    play_room(tmp_path, {"ruleset": "ftl", "turn_hours": 24, "seats": seats}, TIMING, scenario)
    valid("server", received)
    valid("client", sent)
    assert {"timed_out", "forsaken", "room", "welcome", "chat"} <= {m["type"] for m in received}
