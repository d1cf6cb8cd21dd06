"""A relayed socket counts once (issue 21, item 6): a room's socket that reached a process
which relays it to the room's owner is one socket of the room at the owner, as a socket
straight to the owner is; the per-room cap (here 3) holds two relayed and one straight,
refuses a fourth, and lets one in again when a relayed one closes. A player seated over a
relayed socket is one player, connected, seen from a socket straight to the owner."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests._server import Client, wait_until
from tests.cluster._cluster import MISSING, Cluster, running_cluster
from tests.server.hostile.test_sockets import raw_socket

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--sockets-per-room", "3") as running:
        yield running


def test_relayed_sockets_count_once_in_the_room_and_its_presence(cluster: Cluster) -> None:
    owner, other = (worker.server for worker in cluster.workers)
    room = owner.create_room()
    straight = Client(owner, room)
    straight.wait_type("room")
    ann = Client(other, room)  # relayed to the owner
    ann.send(type="join", name="Ann")
    ann.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    watcher = Client(other, room)  # relayed too
    watcher.wait_type("room")
    seats = straight.wait(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "human")[
        "seats"
    ]
    assert [(s["name"], s["connected"]) for s in seats if s["kind"] == "human"] == [("Ann", True)]
    # Three sockets at the owner: a fourth is refused there, straight or relayed.
    extra, line = raw_socket(owner, f"/ws/rooms/{room}")
    body = extra.recv(4096).decode()
    extra.close()
    assert line.startswith("HTTP/1.1 429") and "at most 3 connections to one room" in body
    watcher.close()

    def one_more_opens() -> bool:
        again, line = raw_socket(owner, f"/ws/rooms/{room}")
        again.close()
        return line.startswith("HTTP/1.1 101")

    # The owner hears of the relayed socket's close on its own time: polled.
    wait_until(one_more_opens, "a room socket to open once a relayed one closed")
    ann.close()
    straight.close()
