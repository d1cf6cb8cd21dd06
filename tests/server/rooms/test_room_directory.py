"""The room directory in-process (issue 9, finding 8): rooms nobody uses close and leave
it, a room with someone in it or a match on stays, and the number of open rooms is
bounded. The rooms keep time with a clock the tests move by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacetable.server.rooms.directory import RoomDirectory, RoomsFull
from spacetable.server.rooms.match import match_seed
from spacetable.server.rooms.room import RoomOptions, Timing
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart

IDLE_S = 600.0
UNJOINED_S = 60.0


def directory(
    tmp_path: Path, clock: FakeClock, max_rooms: int = 10, unjoined: float = IDLE_S
) -> RoomDirectory:
    storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
    timing = Timing(room_idle_seconds=IDLE_S, unjoined_seconds=unjoined)
    return RoomDirectory(storage, timing, max_rooms=max_rooms, clock=clock)


def test_a_room_nobody_joins_closes_sooner_than_one_its_players_left(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        rooms = directory(tmp_path, clock, unjoined=UNJOINED_S)
        lonely = rooms.create(RoomOptions())
        visited = rooms.create(RoomOptions())
        viewer = Connection(lambda frame: True)
        visited.connect(viewer)
        await clock.advance(1.0, lonely, visited)
        visited.disconnect(viewer)
        await clock.advance(UNJOINED_S, lonely, visited)
        assert rooms.get(lonely.id) is None and lonely.expired
        assert rooms.get(visited.id) is visited  # left a minute ago: it waits for its idle time
        await clock.advance(IDLE_S, visited)
        assert rooms.get(visited.id) is None
        await rooms.close()

    run_apart(scenario())


def test_idle_rooms_close_and_rooms_in_use_stay(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        rooms = directory(tmp_path, clock)
        unused = rooms.create(RoomOptions())
        watched = rooms.create(RoomOptions())
        sent: list[bytes] = []

        def write(frame: bytes) -> bool:
            sent.append(frame)
            return True

        viewer = Connection(write)
        watched.connect(viewer)
        await clock.advance(IDLE_S - 0.001, unused, watched)
        assert rooms.get(unused.id) is unused
        await clock.advance(0.001, unused, watched)
        assert rooms.get(unused.id) is None and unused.expired
        assert rooms.get(watched.id) is watched and sent  # welcomed, and still open
        watched.disconnect(viewer)
        await clock.advance(IDLE_S, watched)
        assert rooms.get(watched.id) is None
        assert rooms.rooms() == []
        await rooms.close()

    run_apart(scenario())


def test_the_number_of_open_rooms_is_bounded(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        rooms = directory(tmp_path, clock, max_rooms=3)
        opened = [rooms.create(RoomOptions()) for _ in range(3)]
        with pytest.raises(RoomsFull, match="3 open rooms"):
            rooms.create(RoomOptions())
        await clock.advance(IDLE_S, *opened)  # they close unused: room for new ones
        assert rooms.create(RoomOptions()) is not None
        await rooms.close()

    run_apart(scenario())


def test_a_seeded_server_gives_its_rooms_known_seeds_in_creation_order(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
        rooms = RoomDirectory(storage, Timing(), room_seed=40, clock=FakeClock())
        first, second = rooms.create(RoomOptions()), rooms.create(RoomOptions())
        assert (first.seed, second.seed) == (40, 41)
        # The first match plays from the room's seed; each rematch from its own, the same
        # on every run.
        assert match_seed(first.seed, 1) == 40
        rematches = [match_seed(first.seed, n) for n in (2, 3)]
        assert rematches == [match_seed(40, 2), match_seed(40, 3)]
        assert len({40, 41, *rematches}) == 4
        await rooms.close()

    run_apart(scenario())


def test_a_room_created_with_its_seed_plays_from_it_whatever_came_before(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
        rooms = RoomDirectory(storage, Timing(), room_seed=40, clock=FakeClock())
        asked = rooms.create(RoomOptions(), seed=7)
        first = rooms.create(RoomOptions())
        again = rooms.create(RoomOptions(), seed=7)
        second = rooms.create(RoomOptions())
        assert (asked.seed, again.seed) == (7, 7)
        # The rooms created without one keep the order's seeds.
        assert (first.seed, second.seed) == (40, 41)
        await rooms.close()

    run_apart(scenario())


def test_room_ids_are_letters_and_digits(tmp_path: Path) -> None:
    # An id shows in the page's title and the share link: none starts with a dash.
    async def scenario() -> None:
        rooms = directory(tmp_path, FakeClock(), max_rooms=100)
        ids = [rooms.create(RoomOptions()).id for _ in range(100)]
        assert all(len(i) == 8 and i.isascii() and i.isalnum() for i in ids), ids
        assert len(set(ids)) == len(ids)
        await rooms.close()

    run_apart(scenario())
