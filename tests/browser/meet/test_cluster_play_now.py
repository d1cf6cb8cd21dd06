"""Play now across a cluster (issue 69 item 2): two server processes sharing Redis behind
HAProxy (docs/scaling.md). Ann's page comes through the balancer, Bob's from the process
her lobby socket is not on: they press Play now for Light Speed on two processes, the
pools pair them through the shared seeks, and both are seated in one room."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from spacetable.server.meet.identity import GUEST_COOKIE, guest_key
from spacetable.server.meet.pool import TICK_SECONDS
from spacetable.server.meet.presence import PREFIX, Share
from tests._server import wait_until
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import play_now, seated_room
from tests.cluster._cluster import MISSING, Cluster, Worker, move_clocks, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

#: The guests' cookies (each browser's own, set by the test to know their keys).
ANN, BOB = "ann-guest-cookie-0123456789abcdef", "bob-guest-cookie-0123456789abcdef"


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--test-clock", "--room-seed", "1") as running:
        yield running


@pytest.fixture(name="server")
def through_the_balancer(cluster: Cluster) -> Server:
    """The pages open the site through HAProxy."""
    return Server(cluster.balancer.server.http)


def lobby_process(cluster: Cluster, cookie: str) -> Worker | None:
    """The process holding a lobby socket of the guest whose cookie is ``cookie``."""
    key = guest_key(cookie)
    with redis.Redis(port=cluster.redis.port, single_connection_client=True) as client:
        for name in client.scan_iter(f"{PREFIX}presence:*"):
            raw = client.get(name)
            if raw is not None and Share.from_json(raw).holds(key):
                node = name.decode().rsplit("|", 1)[-1]
                return cluster.worker(node)
    return None


def test_two_players_on_two_processes_press_play_now_and_sit_together(
    cluster: Cluster, server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann = open_page("/login")
    ann.context.add_cookies([{"name": GUEST_COOKIE, "value": ANN, "url": server.base}])
    ann.goto("/?lang=en")
    wait_until(lambda: lobby_process(cluster, ANN) is not None, "Ann's lobby socket", 10)
    hers = lobby_process(cluster, ANN)
    other = next(worker for worker in cluster.workers if worker is not hers)
    bob = open_page(other.server.http + "/login")
    bob.context.add_cookies([{"name": GUEST_COOKIE, "value": BOB, "url": other.server.http}])
    bob.goto(other.server.http + "/?lang=en")
    wait_until(lambda: lobby_process(cluster, BOB) is other, "Bob's lobby socket", 10)

    play_now(ann, "lightspeed")
    play_now(bob, "lightspeed")
    move_clocks(cluster.workers, TICK_SECONDS)  # each process's pool runs a round
    room = seated_room(ann)
    assert seated_room(bob) == room
    seats = {page.get_attribute(".seat.mine", "data-seat") for page in (ann, bob)}
    assert seats == {"0", "1"}
    shot(bob, "paired-across-processes")
