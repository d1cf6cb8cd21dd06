"""A correspondence room whose turn ran out while no process held it, in a cluster
(``rooms/deadlines.py``): every process's sweep finds it, and one opens it (the one that
takes its ownership lock in Redis), so its turn passes once. Two processes' directories
and nodes in one test process, on one database and a real Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spacetable.server.cluster.node import ClusterNode
from spacetable.server.rooms.deadlines import DeadlineSweeper
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.cluster._cluster import MISSING, RedisServer
from tests.server.durable.test_deadline_sweep import _played_then_died
from tests.server.rooms.test_correspondence import HOUR, TIMING

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def test_one_process_of_a_cluster_opens_a_room_whose_turn_ran_out(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.db'}"

    async def run() -> None:
        room_id, _ = await _played_then_died(url, {"ruleset": "ftl", "turn_hours": 24})
        processes = []
        clocks = []
        try:
            for port in (1, 2):
                storage = Storage(url)
                clock = FakeClock()
                await clock.advance(25 * HOUR)  # a day and an hour later
                clocks.append(clock)
                directory = RoomDirectory(storage, TIMING, clock=clock)
                node = ClusterNode(
                    redis_server.url, f"127.0.0.1:{port}", directory, directory.get_or_rebuild
                )
                assert directory.live is not None
                sweeper = DeadlineSweeper(directory.live, node.locate, directory.get, clock)
                processes.append((storage, directory, node, sweeper))
            # Both sweep at the same moment: one takes the room's lock and opens it.
            swept = await asyncio.gather(*(p[3].sweep() for p in processes))
            assert sorted(swept) == [[], [room_id]]
            held = [p[1].get(room_id) for p in processes]
            room = next(r for r in held if r is not None)
            assert held.count(None) == 1
            await clocks[held.index(room)].advance(0, room)  # its deadline runs out at once
            assert room.correspondence.missed == {"alice": 1, "bob": 1}  # once, not twice
        finally:
            for storage, directory, node, sweeper in processes:
                await sweeper.close()
                await directory.close()
                await node.close()
                storage.close()

    run_apart(run())
