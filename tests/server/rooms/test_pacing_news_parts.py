"""The pacing and the news as parts of a room, alone with a fake room: poses coalesced
and never echoed alone, a countdown armed once and stale when the match moved on, the
``room`` message coalesced within its window."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from spacetable.server.rooms.news import ROOM_BROADCAST_INTERVAL, News
from spacetable.server.rooms.pacing import CountdownExpired, Pacing
from spacetable.server.sockets import protocol as msg
from tests._loops import run_apart
from tests.server.rooms._fake_room import FakeTable, people


class PlacingMatch:
    """A match in a placing round, every player with a card in hand, a countdown running."""

    def __init__(self, players: list[str]) -> None:
        self.match = self
        self.players = tuple(players)
        self.placing = True
        self.deadline: float | None = 30.0
        self.started = 1000.0
        self.runup_ends: float | None = None
        self.timer_at: list[float] = []

    def hand(self, player: str) -> str:
        return "moth"

    def before_timer(self, t: float) -> list[Any]:
        return []

    def timer_action(self, t: float) -> Any:
        self.timer_at.append(t)
        return ("timer", t)


@dataclass
class PacedTable(FakeTable):
    applied: list[Any] = field(default_factory=list)
    states: int = 0

    def apply(self, action: Any) -> None:
        self.applied.append(action)

    def broadcast_state(self) -> None:
        self.states += 1


def paced() -> tuple[PacedTable, PlacingMatch, Pacing]:
    room = PacedTable(people("Ann", "Bob"))
    match = PlacingMatch(["Ann", "Bob"])
    room.match, room.phase, room.match_number = cast(Any, match), "playing", 1
    return room, match, Pacing(room, lambda: None)


def pose(x: float) -> msg.Pose:
    return msg.Pose(x=x, y=0.0, rotation=0.0)


def test_poses_within_a_window_leave_together_and_a_lone_pose_is_not_echoed() -> None:
    async def scenario() -> None:
        room, _, pacing = paced()
        ann, bob = room.socket(0), room.socket(1)
        pacing.pose(ann.connection, pose(1.0))
        await room.clock.advance(room.timing.pose_interval)
        assert ann.of_type("poses") == [] and len(bob.of_type("poses")) == 1
        pacing.pose(ann.connection, pose(2.0))
        pacing.pose(bob.connection, pose(3.0))
        await room.clock.advance(room.timing.pose_interval)
        both = ann.of_type("poses")[-1]["poses"]
        assert {p: v["x"] for p, v in both.items()} == {"Ann": 2.0, "Bob": 3.0}

    run_apart(scenario())


def test_hands_that_move_together_leave_as_soon_as_each_posed_again() -> None:
    async def scenario() -> None:
        room, _, pacing = paced()  # the room's pose pulse beats at its pacing's start
        ann, bob = room.socket(0), room.socket(1)
        await room.clock.advance(0.03)
        pacing.pose(ann.connection, pose(1.0))
        pacing.pose(bob.connection, pose(2.0))
        assert bob.of_type("poses") == []  # the first window runs its course
        await room.clock.advance(room.timing.pose_interval)
        first = bob.of_type("poses")
        assert len(first) == 1 and first[0]["next"] == 45  # the next beat: 100 ms from the start

        # Both hands moved in the last message: once both posed again, nothing to wait for.
        await room.clock.advance(0.035)
        pacing.pose(bob.connection, pose(3.0))
        assert len(ann.of_type("poses")) == 1
        pacing.pose(ann.connection, pose(4.0))
        now = ann.of_type("poses")[-1]
        assert {p: v["x"] for p, v in now["poses"].items()} == {"Ann": 4.0, "Bob": 3.0}
        assert now["next"] == 10 and len(ann.of_type("poses")) == 2
        await room.clock.advance(room.timing.pose_interval)  # the window's timer is gone
        assert len(ann.of_type("poses")) == len(bob.of_type("poses")) == 2

        # Bob's hand stops: Ann's pose waits the window once for him, then leaves alone.
        pacing.pose(ann.connection, pose(5.0))
        await room.clock.advance(room.timing.pose_interval / 2)
        assert len(bob.of_type("poses")) == 2
        await room.clock.advance(room.timing.pose_interval / 2)
        assert bob.of_type("poses")[-1]["poses"]["Ann"]["x"] == 5.0

    run_apart(scenario())


def test_a_countdown_is_armed_once_and_its_end_applies_the_timer() -> None:
    async def scenario() -> None:
        room, match, pacing = paced()
        pacing.arm_countdown()
        pacing.arm_countdown()  # the same deadline: not armed twice
        await room.clock.advance(match.started + 30.0 - room.clock.now())
        assert [m for _, m in room.submitted] == [CountdownExpired(1, 30.0)]
        match.deadline = 45.0  # the countdown changed: the marker for 30 s is stale
        pacing.handlers()[CountdownExpired](None, CountdownExpired(1, 30.0))
        assert room.applied == []
        pacing.handlers()[CountdownExpired](None, CountdownExpired(1, 45.0))
        assert room.applied == [("timer", 45.0)]

    run_apart(scenario())


def test_the_room_message_is_coalesced_within_its_window() -> None:
    async def scenario() -> None:
        room = FakeTable(people("Ann", "Bob"))
        news = News(room, "turns")
        ann = room.socket(0)
        news.broadcast_room()
        room.seats[1].ready = True
        news.broadcast_room()
        news.broadcast_room()
        assert len(ann.of_type("room")) == 1
        await room.clock.advance(ROOM_BROADCAST_INTERVAL)
        rooms = ann.of_type("room")
        assert len(rooms) == 2 and rooms[-1]["seats"][1]["ready"]
        news.broadcast_room(at_once=True)
        # Each telling marks the stored row to write again: three, the window's, the last.
        assert len(ann.of_type("room")) == 3 and room.changes == 5

    run_apart(scenario())
