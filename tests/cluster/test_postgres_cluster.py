"""The deployment docs/scaling.md describes, whole: two processes behind HAProxy sharing
Redis and a PostgreSQL database (a schema of its own in the one
``SPACETABLE_TEST_POSTGRES_URL`` names; skipped without it, ``.ci/run`` sets it). Two
players whose sockets reached different processes play Light Speed; the process that holds
the room is killed with SIGKILL mid-round; they take their seats back through the balancer
and finish, and the match stored in PostgreSQL is what a replay of its actions reaches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests._postgres import postgres_schema
from tests.cluster._cluster import MISSING, Cluster, running_cluster
from tests.cluster.test_failover import (
    back_again,
    finish_lightspeed,
    killed,
    room_on,
    started_lightspeed,
)
from tests.cluster.test_two_processes import welcome

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.timeout(900),
]


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with (
        postgres_schema() as db,
        running_cluster(
            2,
            *("--stop-seconds", "30", "--abandon-seconds", "60", "--room-seed", "1"),
            "--message-rate",
            "0",
            db=db,
        ) as running,
    ):
        yield running


def test_on_postgresql_a_match_across_processes_outlives_the_kill_of_its_process(
    cluster: Cluster,
) -> None:
    owner = cluster.workers[0]
    room = room_on(cluster, owner, relayed=True, seed=41)  # Bob's and Ann's raw sockets
    players = started_lightspeed(cluster, room)
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    killed(cluster, owner, room, players, relayed=True)
    finish_lightspeed(cluster, room, tokens)
    back_again(cluster, owner)
