"""The limits hold across the cluster.

A relayed socket counts once (issue 21, item 6): a room's socket that reached a process
which relays it to the room's owner is one socket of the room at the owner, as a socket
straight to the owner is; the per-room cap (here 3) holds two relayed and one straight,
refuses a fourth, and lets one in again when a relayed one closes. A player seated over a
relayed socket is one player, connected, seen from a socket straight to the owner.

Rooms per client are counted in Redis for both processes (issue 36, item 6): through the
balancer (round robin), one client's 11th room within the minute is refused by whichever
process it reaches, and the test clock, moved on both, lets it create rooms again. So are
failed logins and sign-ups per address (issue 67, items 3 and 5)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests._server import Client, wait_until
from tests.cluster._cluster import MISSING, Cluster, Worker, move_clocks, running_cluster
from tests.server.hostile.test_sockets import raw_socket

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    options = ("--sockets-per-room", "3", "--rooms-per-minute", "10", "--test-clock")
    with running_cluster(2, *options) as running:
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


def create_through_balancer(cluster: Cluster, client: str) -> tuple[int, str, dict[str, str]]:
    """``POST /api/rooms`` through the balancer on behalf of ``client``: the balancer is
    on loopback, which is a trusted proxy, so the ``X-Forwarded-For`` sent here names the
    client as a proxy in front of it would (tests/cluster/test_forwarded_for.py tests the
    header from an untrusted peer). The status, the process that answered (HAProxy's
    ``X-Served-By``) and the refusal's detail and ``Retry-After``, if refused."""
    request = urllib.request.Request(
        cluster.balancer.server.http + "/api/rooms",
        data=b'{"seats": 2}',
        headers={"content-type": "application/json", "X-Forwarded-For": client},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            json.load(answer)
            return int(answer.status), str(answer.headers["X-Served-By"]), {}
    except urllib.error.HTTPError as refused:
        with refused:
            detail = json.load(refused)["detail"]
            said = {"detail": detail, "retry": str(refused.headers["Retry-After"])}
            return int(refused.code), str(refused.headers["X-Served-By"]), said


def test_rooms_per_client_are_counted_for_the_whole_cluster(cluster: Cluster) -> None:
    client = "203.0.113.36"
    created = [create_through_balancer(cluster, client) for _ in range(10)]
    assert [status for status, _, _ in created] == [200] * 10, created
    assert {node for _, node, _ in created} == {"s1", "s2"}  # round robin: both created
    # The 11th is refused wherever it lands: ask until both processes have refused one
    # (a refusal takes nothing from the count).
    refusals: dict[str, dict[str, str]] = {}
    for _ in range(6):
        status, node, said = create_through_balancer(cluster, client)
        assert status == 429, (status, node)
        refusals[node] = said
        if len(refusals) == 2:
            break
    assert set(refusals) == {"s1", "s2"}
    for said in refusals.values():  # the refusal as a single process says it
        found = re.fullmatch(
            r"too many rooms created from your address \(at most 10 a minute\): "
            r"try again in (\d+) s",
            said["detail"],
        )
        assert found is not None, said
        assert 0 <= int(found[1]) <= 6 and 1 <= int(said["retry"]) <= 6, said
    # Another client is not counted with this one.
    assert create_through_balancer(cluster, "203.0.113.37")[0] == 200
    # A minute later on the test clock (both processes'), the bucket is full again.
    move_clocks(cluster.workers, 60)
    again = [create_through_balancer(cluster, client)[0] for _ in range(11)]
    assert again == [200] * 10 + [429], again
    # And one room every 6 s after that.
    move_clocks(cluster.workers, 6)
    assert [create_through_balancer(cluster, client)[0] for _ in range(2)] == [200, 429]


def test_a_relayed_socket_with_a_session_cookie_sits_as_its_account(cluster: Cluster) -> None:
    """Issue 37 item 2 across processes: the relaying process passes the session cookie
    on, and the room's owner seats the account (both read the accounts in one database)."""
    owner, other = (worker.server for worker in cluster.workers)
    signup = urllib.request.Request(
        other.http + "/api/accounts",
        data=json.dumps({"name": "Relayed Rhea", "password": "12345678"}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(signup, timeout=10) as answer:
        cookie = str(answer.headers["set-cookie"]).split(";", 1)[0]
    room = owner.create_room()
    rhea = Client(other, room, headers={"Cookie": cookie})  # relayed to the owner
    rhea.send(type="join", name="someone else")
    welcome = rhea.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    assert welcome["player"] == "Relayed Rhea"
    straight = Client(owner, room)
    seats = straight.wait(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "human")
    assert (seats["seats"][0]["name"], seats["seats"][0]["registered"]) == ("Relayed Rhea", True)
    rhea.close()
    straight.close()


def _account_request(
    worker: Worker, path: str, body: dict[str, str], address: str
) -> tuple[int, dict[str, str]]:
    """``POST`` ``body`` to ``worker`` on behalf of ``address`` (the worker trusts this
    machine's ``X-Forwarded-For``); the status and ``Retry-After`` (empty if none)."""
    request = urllib.request.Request(
        worker.server.http + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status), {}
    except urllib.error.HTTPError as refused:
        with refused:
            return int(refused.code), {"retry": str(refused.headers["Retry-After"] or "")}


def test_failed_logins_and_sign_ups_are_counted_for_the_whole_cluster(cluster: Cluster) -> None:
    """Issue 67 items 3 and 5: two processes on one database, each asked in turn, refuse
    the 11th wrong login for a name from one address (each counted ten before), and the
    6th account from one address within the hour."""
    workers = cluster.workers
    here = _account_request(
        workers[0], "/api/accounts", {"name": "Guarded Gus", "password": "12345678"}, "127.0.0.1"
    )
    assert here[0] == 201
    wrong = {"name": "Guarded Gus", "password": "guessing"}
    answers = [
        _account_request(workers[n % 2], "/api/session", wrong, "198.51.100.30") for n in range(20)
    ]
    assert [status for status, _ in answers] == [401] * 10 + [429] * 10, answers
    assert all(int(said["retry"]) >= 1 for _, said in answers[10:])
    made = [
        _account_request(
            workers[n % 2],
            "/api/accounts",
            {"name": f"Made {n}", "password": "12345678"},
            "198.51.100.31",
        )[0]
        for n in range(6)
    ]
    assert made == [201] * 5 + [429], made
