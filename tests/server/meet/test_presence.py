"""Who is online, merged from every process's share (``server/meet/presence.py``, issue 69
item 1): what the accounts in a process's rooms do (seated in a match not over: playing;
a spectator's socket: watching), and the list every process shows: a player listed once,
with the best status any process saw, sorted by name whatever its case; guests counted
once across processes, never named."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from spacetable.server.meet.hub import Presence
from spacetable.server.meet.presence import MAX_LISTED, Share, merge, room_statuses
from spacetable.server.rooms.room import Room


@dataclass(eq=False)
class FakeConnection:
    account: str | None = None


@dataclass
class FakeSeat:
    account: str | None = None
    connections: set[Any] = field(default_factory=set)


def room(room_id: str, game: str, phase: str, seats: list[FakeSeat], watchers: list[Any]) -> Room:
    connections = set(watchers) | {c for seat in seats for c in seat.connections}
    options = SimpleNamespace(entry=SimpleNamespace(rules=SimpleNamespace(key=game)))
    fake = SimpleNamespace(
        id=room_id, options=options, phase=phase, seats=seats, connections=connections
    )
    return cast(Room, fake)


def test_a_seat_held_in_a_match_not_over_is_playing_a_spectator_watching() -> None:
    ann = FakeConnection("Ann")
    rooms = [
        # Ann plays r1 (seated, connected); Bob holds a seat there while away: playing too.
        room("r1", "lightspeed", "playing", [FakeSeat("ann", {ann}), FakeSeat("bob")], []),
        # Ann also watches r2 (playing beats watching); Cleo watches it; a guest too.
        room("r2", "ftl", "lobby", [FakeSeat()], [FakeConnection("Ann"), FakeConnection("Cleo")]),
        # Dan's match is over: he is no longer playing it.
        room("r3", "hexfleet", "over", [FakeSeat("dan", {FakeConnection("Dan")})], []),
        room("r4", "stellar", "lobby", [], [FakeConnection(None)]),
    ]
    assert room_statuses(rooms) == {
        "ann": ("playing", "lightspeed", "r1"),
        "bob": ("playing", "lightspeed", "r1"),
        "cleo": ("watching", "ftl", "r2"),
    }


def test_the_list_merges_every_process_s_share_each_player_once_with_his_best_status() -> None:
    one = Share(
        {"ann": "Ann", "zed": "zed"}, {"guest:1", "guest:2"}, {"zed": ("watching", "ftl", "r9")}
    )
    # Ann has a page on the other process too; her room is there.
    two = Share({"ann": "Ann", "bea": "Bea"}, {"guest:2"}, {"ann": ("playing", "stellar", "r5")})
    # A process where Carl sits but has no page open: not online.
    three = Share({}, set(), {"carl": ("playing", "lightspeed", "r7")})
    players, guests = merge([one, two, three])
    assert players == [
        Presence("Ann", "ann", "playing", "stellar", "r5"),
        Presence("Bea", "bea", "lobby"),
        Presence("zed", "zed", "watching", "ftl", "r9"),
    ]
    assert guests == 2  # guest:2's two pages are one guest


def test_a_share_reads_back_as_written_and_the_list_is_bounded() -> None:
    share = Share({"ann": "Ann"}, {"guest:1"}, {"ann": ("playing", "lightspeed", "r1")})
    assert Share.from_json(share.to_json()) == share
    crowd = Share({f"p{n:04d}": f"P{n:04d}" for n in range(MAX_LISTED + 20)})
    players, _ = merge([crowd])
    assert len(players) == MAX_LISTED and players[0].name == "P0000"
