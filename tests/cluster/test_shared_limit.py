"""Rooms per client counted in Redis (``server/http/shared_limit.py``, issue 36 item 6),
against a real ``redis-server``, without a cluster: two limiters on one Redis are two
processes; the count is shared, the test clock's shift moves it, the wait is a single
process's, and with Redis away each falls back to its own count."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from spacetable.server.http.guards import CreationLimit
from spacetable.server.http.shared_limit import SharedCreationLimit
from tests._server import free_port
from tests.cluster._cluster import MISSING, RedisServer

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


def test_two_processes_share_one_count_and_the_test_clock_moves_it(redis_url: str) -> None:
    moved = [0.0]

    async def takes() -> tuple[list[float], list[float], list[float], float]:
        async with aioredis.from_url(redis_url) as one, aioredis.from_url(redis_url) as two:
            first = SharedCreationLimit(one, 4, lambda: moved[0])
            second = SharedCreationLimit(two, 4, lambda: moved[0])
            both = [first, second]
            burst = [await both[n % 2].take("192.0.2.1", 0.0) for n in range(5)]
            other = await second.take("192.0.2.2", 0.0)  # another address
            moved[0] = 60.0  # a minute on the test clock: the bucket is full again
            again = [await both[n % 2].take("192.0.2.1", 0.0) for n in range(5)]
            moved[0] = 75.0  # 15 s later: one more room
            after = [await both[n % 2].take("192.0.2.1", 0.0) for n in range(2)]
            return burst, again, after, other

    burst, again, after, other = asyncio.run(takes())
    assert burst[:4] == [0.0] * 4 and again[:4] == [0.0] * 4 and other == 0.0
    # The wait a single process gives: the time to the next token, 15 s at 4 a minute
    # (less the real time the calls took).
    local = CreationLimit(4)
    assert [local.wait("192.0.2.1", 0.0) for _ in range(5)] == [0, 0, 0, 0, 15.0]
    assert 14.0 < burst[4] <= 15.0 and 14.0 < again[4] <= 15.0, (burst, again)
    assert after[0] == 0.0 and after[1] > 14.0, after


def test_this_machine_and_no_limit_are_not_counted(redis_url: str) -> None:
    async def takes() -> list[float]:
        async with aioredis.from_url(redis_url) as client:
            limited = SharedCreationLimit(client, 1)
            unlimited = SharedCreationLimit(client, 0)
            local = [await limited.take("127.0.0.1", 0.0) for _ in range(3)]
            return local + [await unlimited.take("192.0.2.3", 0.0) for _ in range(3)]

    assert asyncio.run(takes()) == [0.0] * 6


def test_with_redis_away_each_process_counts_alone() -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there

    async def takes() -> list[float]:
        async with aioredis.from_url(closed, socket_connect_timeout=1.0) as client:
            limit = SharedCreationLimit(client, 2)
            return [await limit.take("192.0.2.4", 100.0) for _ in range(3)]

    # Open, but not unlimited: this process's own bucket (2 at once, then one in 30 s).
    assert asyncio.run(takes()) == [0.0, 0.0, 30.0]
