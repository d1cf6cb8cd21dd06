"""What storing an action before it is acknowledged costs (docs/scaling.md):
``uv run python -m tests.server.durable.bench [WRITES]``.

Writes ``WRITES`` (500) actions of one room, one transaction each, from an event loop
through the live store's group commit as a room does (``rooms/journal.py``: ``live.store(...)``),
on SQLite (a file in a temporary folder) and on PostgreSQL (a schema of its own in the
database ``SPACETABLE_TEST_POSTGRES_URL`` names, skipped without it), side by side in one
run; prints p50 and p99 per accepted action, with the load average of the machine; then
the processor time of a group commit's transaction of ten rooms' writes (each its row and
an action), per room write (``LiveStore.write_many``, which the group commit calls); then
what one player's My games costs to read (``LiveStore.correspondence``) with 2,000
real-time and 500 correspondence rooms stored, each with a match's worth of JSON.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spacetable.server.store.group_commit import Write
from spacetable.server.store.live_store import LiveRoom, LiveStore, StoredAction
from spacetable.server.store.storage import Storage
from tests._postgres import POSTGRES, postgres_schema

WRITES = 500


def _room(room_id: str = "BeNch001") -> LiveRoom:
    return LiveRoom(
        id=room_id,
        ruleset="lightspeed",
        seats_count=2,
        game={},
        seed=1,
        phase="playing",
        seats=[{"kind": "human", "name": "Ann", "token_digest": "ab"}, {"kind": "empty"}],
        match_number=1,
        match={"id": "m1", "seed": 1, "players": ["Ann", "Bob"], "started_at": 1.0},
        created=1.0,
    )


async def _timed(live: LiveStore, writes: int) -> list[float]:
    await live.store(_room(), "BeNch001", [])
    spent = []
    for seq in range(writes):
        action = StoredAction(1, seq, seq * 0.5, {"type": "place", "x": 10.0, "y": 20.0})
        start = time.perf_counter()
        await live.store(None, "BeNch001", [action])
        spent.append((time.perf_counter() - start) * 1000)
    return spent


def _group_cpu(live: LiveStore, groups: int, rooms: int = 10) -> float:
    """Microseconds of processor time per room write, in groups of ``rooms``."""
    ids = [f"GrOup{n:03d}" for n in range(rooms)]
    live.write_many([(_room(i), i, [], []) for i in ids])
    start = time.process_time()
    for seq in range(groups):
        action = {"type": "place", "x": 10.0, "y": 20.0, "rotation": 90.0}
        live.write_many([(_room(i), i, [StoredAction(1, seq, seq * 0.5, action)], []) for i in ids])
    return (time.process_time() - start) * 1e6 / (groups * rooms)


def _my_games_cpu(live: LiveStore, reads: int = 20) -> float:
    """Milliseconds of processor time for one player's My games read, among 2,500 rooms."""
    match = {"id": "m1", "seed": 1, "players": ["Ann", "Bob"], "notes": "x" * 2000}
    rooms: list[Write] = []
    for n in range(2500):
        game = {"turn_hours": 24} if n >= 2000 else {}  # the last 500 by correspondence
        seats = [
            {"kind": "human", "name": f"A{n}", "account": f"a{n % 500}"},
            {"kind": "human", "name": f"B{n}", "account": f"b{n % 500}"},
        ]
        room = LiveRoom(f"MyGames{n:04d}", "ftl", 2, game, 1, "playing", seats, 1, match=match)
        rooms.append((room, room.id, [], []))
    for first in range(0, len(rooms), 250):
        live.write_many(rooms[first : first + 250])
    start = time.process_time()
    for _ in range(reads):
        assert len(live.correspondence("a7")) == 1
    return (time.process_time() - start) * 1000 / reads


@contextmanager
def _databases() -> Iterator[list[tuple[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        found = [("SQLite", f"sqlite:///{Path(folder) / 'bench.db'}")]
        if POSTGRES:
            with postgres_schema() as url:
                yield [*found, ("PostgreSQL", url)]
        else:
            yield found


def main() -> None:
    writes = int(sys.argv[1]) if len(sys.argv) > 1 else WRITES
    with _databases() as databases:
        for name, url in databases:
            storage = Storage(url)
            try:
                spent = sorted(asyncio.run(_timed(LiveStore(storage), writes)))
                grouped = _group_cpu(LiveStore(storage), writes // 5)
                mine = _my_games_cpu(LiveStore(storage))
            finally:
                storage.close()
            p99 = spent[min(len(spent) - 1, int(0.99 * len(spent)))]
            load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
            print(
                f"{name}: {writes} actions, p50 {statistics.median(spent):.2f} ms, "
                f"p99 {p99:.2f} ms (load average {load}); in groups of ten rooms "
                f"{grouped:.0f} us of CPU a room write; a player's My games among 2,500 "
                f"rooms {mine:.2f} ms of CPU"
            )
    if not POSTGRES:
        print("PostgreSQL: skipped (set SPACETABLE_TEST_POSTGRES_URL)")


if __name__ == "__main__":
    main()
