"""What crossing processes costs (docs/scaling.md): ``uv run python -m tests.cluster.measure``.

Starts Redis and two processes (``_cluster.py``), opens ``ROOMS`` rooms on each, then
times, from one process: ``GET /api/rooms`` (its rooms merged with the other's from
Redis) against the same on a process alone with as many rooms; and a ``ping`` to a room
and its ``pong`` back, straight to the room's process and relayed by the other one.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests._server import Client, running_server, wait_until
from tests.cluster._cluster import running_cluster

ROOMS = 200
TIMES = 400


def timed(action: Callable[[], object], times: int = TIMES) -> str:
    """p50 and p99 of ``action``, in ms."""
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        action()
        spent.append((time.perf_counter() - start) * 1000)
    spent.sort()
    return f"p50 {statistics.median(spent):.2f} ms, p99 {spent[int(0.99 * len(spent))]:.2f} ms"


def ping(client: Client) -> None:
    client.send(type="ping")
    client.wait_type("pong")


def main() -> None:
    with running_cluster(2, "--message-rate", "0") as cluster:  # pings are not throttled
        first, second = (w.server for w in cluster.workers)
        for server in (first, second):
            for _ in range(ROOMS // 2):
                server.create_room()
        mine = {room["id"] for room in second.get("/api/rooms")}
        wait_until(lambda: bool(mine & {r["id"] for r in first.get("/api/rooms")}), "lobby")
        print(f"lobby, 2 processes ({ROOMS} rooms):", timed(lambda: first.get("/api/rooms")))
        room = first.create_room()
        direct, relayed = Client(first, room), Client(second, room)
        print("ping to a room, straight:", timed(lambda: ping(direct)))
        print("ping to a room, relayed: ", timed(lambda: ping(relayed)))
        direct.close()
        relayed.close()
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "m.db", "--message-rate", "0") as alone,
    ):
        for _ in range(ROOMS):
            alone.create_room()
        print(f"lobby, 1 process ({ROOMS} rooms):  ", timed(lambda: alone.get("/api/rooms")))
        room = alone.create_room()
        client = Client(alone, room)
        print("ping to a room, 1 process:", timed(lambda: ping(client)))
        client.close()


if __name__ == "__main__":
    main()
