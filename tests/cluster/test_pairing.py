"""Quick pairing across a cluster (issue 69 item 2; ``meet/pool.py``): two ``spacetable
serve --redis`` processes on one database, each running the pairing pool, their clocks
moved by the test (``--test-clock``). Two players whose seeks and lobby sockets are on
different processes are paired once, into one room where both are seated, whichever
process's pool takes them; four Stellar Conflict players seeking a four-seat game, two on
each process, sit in one room of four."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from spacetable.server.meet.pool import TICK_SECONDS
from tests._accounts import session_cookie
from tests._server import Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--test-clock", "--stop-seconds", "1.5") as running:
        yield running


def lobby_socket(server: Server, cookie: str) -> ClientConnection:
    return connect(f"{server.ws}/ws/lobby", legacy=True, additional_headers={"Cookie": cookie})


def request(server: Server, method: str, path: str, cookie: str, body: Any = None) -> Any:
    sent = urllib.request.Request(
        server.http + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
        method=method,
    )
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return json.load(answer) if answer.status != 204 else None


def paired(page: ClientConnection) -> dict[str, Any]:
    """The page's next ``paired`` message (the ``online`` ones before it skipped)."""
    while True:
        message: dict[str, Any] = json.loads(page.recv(timeout=20))
        if message["type"] == "paired":
            return message


def pool_round(cluster: Cluster) -> None:
    """Move both processes' clocks a pool round on: both pools pair at once."""
    for worker in cluster.workers:
        worker.server.post("/api/test/clock", {"advance": TICK_SECONDS})


def seated_accounts(cluster: Cluster, room: str) -> list[str | None]:
    """The names seated in ``room``, as the cluster's lobby list shows it."""
    # (each process reads the others' rooms at most every half second: the listing that
    # answers may be older than the pairing)
    found: list[dict[str, Any]] = []

    def listed() -> bool:
        found[:] = [r for r in cluster.balancer.server.get("/api/rooms") if r["id"] == room]
        return bool(found)

    wait_until(listed, f"room {room} in the lobby's list")
    return sorted(seat["name"] for seat in found[0]["seats"] if seat["kind"] == "human")


def seek_on_each(cluster: Cluster, names: list[str], body: dict[str, Any]) -> list[Any]:
    """Each player opens his lobby socket and seeks on the processes in turn."""
    pages = []
    for n, name in enumerate(names):
        server = cluster.workers[n % 2].server
        cookie = session_cookie(server.http, name)
        pages.append(lobby_socket(server, cookie))
        assert request(server, "POST", "/api/seeks", cookie, body)["id"]
    return pages


def new_rooms(server: Server, before: set[str]) -> list[str]:
    """The rooms ``server``'s lobby lists that are not in ``before``."""
    return [r["id"] for r in server.get("/api/rooms") if r["id"] not in before]


def listed(server: Server, before: set[str], room: str) -> bool:
    """Whether ``server``'s lobby lists ``room`` among its new rooms."""
    return room in new_rooms(server, before)


def test_two_players_on_two_processes_are_paired_once_into_one_room(cluster: Cluster) -> None:
    before = {r["id"] for r in cluster.balancer.server.get("/api/rooms")}  # (other tests')
    pages = seek_on_each(cluster, ["Ann", "Bob"], {"game": "lightspeed", "rated": True})
    try:
        pool_round(cluster)
        heard = [paired(page) for page in pages]
        room = heard[0]["room"]
        assert [m["room"] for m in heard] == [room, room]
        assert seated_accounts(cluster, room) == ["Ann", "Bob"]
        # Paired once: no other room was made for either of them.
        for worker in cluster.workers:
            wait_until(partial(listed, worker.server, before, room), "the room listed")
            assert new_rooms(worker.server, before) == [room]
    finally:
        for page in pages:
            page.close()


def test_four_stellar_conflict_players_sit_in_one_room_of_four(cluster: Cluster) -> None:
    names = ["Cleo", "Dan", "Eve", "Finn"]
    body = {"game": "stellar", "seats": 4, "rated": False}
    pages = seek_on_each(cluster, names, body)
    try:
        pool_round(cluster)
        rooms = {paired(page)["room"] for page in pages}
        assert len(rooms) == 1
        [room] = rooms
        assert seated_accounts(cluster, room) == names
    finally:
        for page in pages:
            page.close()
