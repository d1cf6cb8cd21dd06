"""Who a request comes from, behind the shipped HAProxy (issue 21, item 6): HAProxy adds
its own ``X-Forwarded-For`` line after whatever the client sent, so a client that forges
one, a new address on each request, is still counted as himself: his fourth room socket
and his third room a minute are refused. The client reaches HAProxy on this machine's
network address (not loopback: this machine's own clients are never limited).

And :func:`client_address` itself: the last address not a trusted proxy's, the proxies
``--trusted-proxy`` names (a relaying process of a cluster among them), none with
``none``."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from spacetable.server.http.guards import TrustedProxies, client_address
from tests._server import Server, running_server
from tests.cluster._cluster import MISSING, Balancer
from tests.server.hostile.test_sockets import raw_socket


def network_address() -> str | None:
    """This machine's address on its network (not loopback), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: the route picks the address
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


ADDRESS = network_address()


@pytest.fixture(scope="module")
def front(
    tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
) -> Iterator[tuple[Server, Server]]:
    """One ``spacetable serve`` behind HAProxy listening on this machine's network address:
    the server as reached there (its ``Host`` is ``localhost``, a name it answers to), and
    as reached straight on loopback."""
    if MISSING is not None:
        pytest.skip(MISSING)
    if ADDRESS is None:
        pytest.skip("this machine has no network address but loopback")
    folder = tmp_path_factory.mktemp("forwarded")
    options = ("--rooms-per-minute", "2", "--sockets-per-client", "3")
    with running_server(folder / "matches.db", *options) as server:
        balancer = Balancer([server.port], folder, host=ADDRESS)
        try:
            reached = Server(balancer.port)
            reached.http = f"http://{ADDRESS}:{balancer.port}"
            reached.ws = f"ws://{ADDRESS}:{balancer.port}"
            yield reached, server
        finally:
            balancer.stop()


def post_room(front: Server, forged: str) -> int:
    """POST /api/rooms through HAProxy with a forged ``X-Forwarded-For``: the status."""
    request = urllib.request.Request(
        front.http + "/api/rooms",
        data=b'{"seats": 2}',
        headers={
            "content-type": "application/json",
            "Host": "localhost",
            "X-Forwarded-For": forged,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            json.load(response)
            return int(response.status)
    except urllib.error.HTTPError as refused:
        with refused:
            return int(refused.code)


def test_a_forged_forwarded_for_does_not_buy_more_rooms(front: tuple[Server, Server]) -> None:
    statuses = [post_room(front[0], f"203.0.113.{n}") for n in (1, 2, 3)]
    assert statuses == [200, 200, 429], statuses


def test_a_forged_forwarded_for_does_not_buy_more_sockets(front: tuple[Server, Server]) -> None:
    reached, straight = front
    path = f"/ws/rooms/{straight.create_room()}"
    held = []
    for n in range(4):
        forged = {"X-Forwarded-For": f"198.51.100.{n}"}
        held.append(raw_socket(reached, path, host_header="localhost", headers=forged))
    try:
        lines = [line for _, line in held]
        assert all(line.startswith("HTTP/1.1 101") for line in lines[:3]), lines
        assert lines[3].startswith("HTTP/1.1 429"), lines
        body = held[3][0].recv(4096).decode()
        assert "at most 3 room connections from one address" in body
    finally:
        for sock, _ in held:
            sock.close()


def test_the_client_is_the_last_address_no_trusted_proxy_added() -> None:
    loopback = TrustedProxies.of()
    # HAProxy on this machine: the client's forged line first, HAProxy's own last.
    assert client_address("127.0.0.1", ["6.6.6.6", "192.0.2.2"], loopback) == "192.0.2.2"
    assert client_address("127.0.0.1", ["6.6.6.6, 192.0.2.2"], loopback) == "192.0.2.2"
    # A peer that is not a proxy: its header is not read at all.
    assert client_address("192.0.2.9", ["6.6.6.6"], loopback) == "192.0.2.9"
    # A cluster on two machines: the other process relays its browser's socket.
    cluster = TrustedProxies.of(["10.0.0.0/24"])
    assert client_address("10.0.0.2", ["192.0.2.2"], cluster) == "192.0.2.2"
    # The balancer, then the relaying process, both trusted: the browser is the client.
    assert client_address("10.0.0.2", ["192.0.2.2", "10.0.0.1"], cluster) == "192.0.2.2"
    assert client_address("127.0.0.1", ["6.6.6.6"], cluster) == "127.0.0.1"  # not named
    # 'none': no proxy believed, not even this machine.
    assert client_address("127.0.0.1", ["6.6.6.6"], TrustedProxies.of(["none"])) == "127.0.0.1"
    with pytest.raises(ValueError, match="'nonsense' is not an IP address"):
        TrustedProxies.of(["nonsense"])


def test_a_proxy_that_names_nobody_is_the_client() -> None:
    assert client_address("127.0.0.1", [], TrustedProxies.of()) == "127.0.0.1"
