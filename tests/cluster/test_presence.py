"""Who is online across a cluster (issue 69 item 1; ``server/meet/``): two ``spacetable
serve --redis`` processes and a real Redis. A player whose lobby socket is on process 1 is
listed by process 2's ``GET /api/online`` (a guest counted), leaves it within seconds once
his socket closes, and what process 2 sends him (his account deleted there) reaches his
socket on process 1 through the bus."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from spacetable.server.meet.identity import GUEST_COOKIE
from spacetable.server.meet.lobby_sockets import SESSION_ENDED
from tests._accounts import session_cookie
from tests._server import Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--stop-seconds", "1.5") as running:
        yield running


def lobby_socket(server: Server, cookie: str) -> ClientConnection:
    return connect(f"{server.ws}/ws/lobby", legacy=True, additional_headers={"Cookie": cookie})


def online(server: Server) -> dict[str, Any]:
    found: dict[str, Any] = server.get("/api/online")
    return found


def names(server: Server) -> list[str]:
    return [player["name"] for player in online(server)["players"]]


def test_a_player_on_one_process_is_seen_from_the_other_and_reached_from_it(
    cluster: Cluster,
) -> None:
    first, second = (worker.server for worker in cluster.workers)
    ann = session_cookie(first.http, "Ann")
    page = lobby_socket(first, ann)
    guest = lobby_socket(first, f"{GUEST_COOKIE}=q7Yk1m2n3b4v5c6x7z8a9s0d")
    try:
        wait_until(lambda: names(second) == ["Ann"], "process 2 to list Ann", 10)
        assert online(second) == {
            "players": [{"name": "Ann", "status": "lobby", "game": None, "room": None}],
            "guests": 1,
        }
        # A page closed: the other process's list loses it within seconds.
        guest.close()
        wait_until(lambda: online(second)["guests"] == 0, "the guest to leave process 2's", 10)
        # Process 2 deletes Ann's account: her page on process 1 is told at once.
        request = urllib.request.Request(
            second.http + "/api/accounts/me",
            data=json.dumps({"password": "12345678"}).encode(),
            headers={"content-type": "application/json", "cookie": ann},
            method="DELETE",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 204
        told = json.loads(page.recv(timeout=10))
        assert told == {"type": "session_ended", "reason": "deleted"}
        with pytest.raises(ConnectionClosed) as closed:
            page.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SESSION_ENDED
        wait_until(lambda: names(second) == [] and names(first) == [], "Ann to leave", 10)
    finally:
        page.close()
        guest.close()
