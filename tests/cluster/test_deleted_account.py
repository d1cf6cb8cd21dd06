"""A deleted account leaves the rooms another process holds (issue 67 item 1; docs/accounts.md
"Deleting your account"): Alice and Bob play two hex fleet matches, one live and one by
correspondence, in rooms the first process holds; Alice deletes her account through the
second. That process reaches each room's owner as its relay does (a socket of its own,
with her session: ``forsake``): both matches end, resigned by her, Bob sees it, and a
stranger who signs up as "alice" finds nothing of hers and cannot sit there. Two
``spacetable serve --redis`` processes on one database, real Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests._accounts import session_cookie
from tests._server import Client, Server
from tests.cluster._cluster import MISSING, Cluster, running_cluster
from tests.server.hostile.test_deleted_account_seats import delete_account, my_games, sit

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2) as running:
        yield running


def _playing(client: Client) -> None:
    client.wait(lambda m: m["type"] == "state" and m["phase"] != "lobby")


def test_a_deletion_on_another_process_resigns_the_rooms_the_first_holds(
    cluster: Cluster,
) -> None:
    first, second = (w.server for w in cluster.workers)
    cookies = {name: session_cookie(first.http, name) for name in ("Alice", "Bob")}
    live = first.create_room(ruleset="hexfleet", scenario="duel")
    by_post = first.create_room(ruleset="hexfleet", scenario="duel", turn_hours=24)
    bobs: dict[str, Client] = {}
    for room in (live, by_post):
        alice = sit(first, room, cookies["Alice"])
        bobs[room] = sit(first, room, cookies["Bob"])
        _playing(bobs[room])
        alice.close()
    assert cluster.owner(live).server is first and cluster.owner(by_post).server is first

    assert delete_account(second, cookies["Alice"]) == 204
    for room, bob in bobs.items():
        result = bob.wait(lambda m: m["type"] == "result")["result"]
        assert (result["ending"], result["ending_by"], result["winner"]) == (
            "resigned",
            ["Alice"],
            "Bob",
        ), room
        seats = bob.wait(lambda m: m["type"] == "room")["seats"]
        assert [s["kind"] for s in seats] == ["empty", "human"], seats
        bob.close()

    stranger = session_cookie(second.http, "alice")
    assert my_games(second, stranger)["games"] == []
    for server, room in ((first, live), (second, by_post)):
        _cannot_sit(server, room, stranger)


def _cannot_sit(server: Server, room: str, cookie: str) -> None:
    client = Client(server, room, headers={"Cookie": cookie})
    assert client.wait(lambda m: m["type"] == "welcome")["role"] == "spectator"
    client.send(type="join", name="alice", seat=0)
    assert client.wait_type("error")
    client.close()
