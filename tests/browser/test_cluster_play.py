"""Two browsers play Light Speed through HAProxy in front of two server processes sharing
Redis (docs/scaling.md), in a room whose sockets the balancer sends to the process that
does not hold it: every message is relayed to the room's own process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser._play import (
    hand_ship,
    hold_at,
    place,
    shown_scores,
    skip_battle,
    take_seat,
)
from tests.browser.conftest import OpenPage, Server, Shot
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--room-seed", "1", "--stop-seconds", "15") as running:
        yield running


@pytest.fixture(name="server")
def through_the_balancer(cluster: Cluster) -> Server:
    """The pages open the site through HAProxy."""
    return Server(cluster.balancer.server.http)


def test_two_browsers_through_the_balancer_play_a_relayed_match(
    cluster: Cluster, server: Server, open_page: OpenPage, shot: Shot
) -> None:
    owner = cluster.workers[0]
    for seed in range(40):  # a room whose sockets land on the other process
        room = owner.server.post("/api/rooms", {"seats": 2, "seed": 50 + seed})["id"]
        if cluster.worker(cluster.balancer.serving(f"/ws/rooms/{room}")) is not owner:
            break
    else:
        pytest.fail("every room id drawn hashed to its own process")
    alice = open_page(f"/rooms/{room}")
    take_seat(alice, "alice", 0)
    bob = open_page(alice.input_value("#share-link"))
    assert bob.url.startswith(cluster.balancer.server.http)
    take_seat(bob, "bob", 1)
    alice.click("button#ready")
    bob.click("button#ready")
    for page in (alice, bob):
        page.wait_for_selector("body[data-phase=fast]")
    shot(bob, "relayed-fast-round")

    # They take turns; Alice's tenth card calls stop, and Bob drops his last one.
    for i in range(10):
        x = -520 + 115 * i
        if i == 9:
            hold_at(bob, 0, 150)  # Bob holds his last card here when the stop comes
        ship = hand_ship(alice)
        assert place(alice, x, -280), alice.inner_text("#refused")
        bob.wait_for_selector(f'.table-card[data-card="alice-{ship}"]')
        if i < 9:
            ship = hand_ship(bob)
            assert place(bob, x, 280), bob.inner_text("#refused")
            alice.wait_for_selector(f'.table-card[data-card="bob-{ship}"]')
    bob.wait_for_selector("body[data-phase=stop]")
    bob.click("#drop-here")
    for page in (alice, bob):
        skip_battle(page)
        assert page.locator(".table-card.ship").count() == 20
    shot(alice, "relayed-scores")

    href = bob.get_attribute("#replay-link", "href")
    assert href is not None
    stored = owner.server.stored_match(href.rsplit("/", 1)[-1])
    assert [seat["player"] for seat in stored["seats"]] == ["alice", "bob"]
    assert shown_scores(alice) == shown_scores(bob) == stored["result"]["scores"]
    assert alice.get_attribute("#winner", "data-winner") == bob.get_attribute(
        "#winner", "data-winner"
    )
