"""The cluster's bus and presence board against a real ``redis-server``
(``server/meet/redis_bus.py``, ``server/meet/presence.py``, issue 69), without server
processes: two buses on one Redis are two processes. What one publishes reaches the
other's subscribers and its own once; with Redis away a publication still reaches its own
process; a process's share of who is online is read by the others and lapses when it
stops being written (a killed process)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis.asyncio as aioredis

from spacetable.server.meet.presence import PresenceBoard, Share
from spacetable.server.meet.redis_bus import RedisBus
from tests._server import free_port
from tests.cluster._cluster import MISSING, RedisServer

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


async def eventually(check: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        await asyncio.sleep(0.02)


def test_a_publication_reaches_every_process_s_subscribers_once(
    redis_server: RedisServer,
) -> None:
    async def run() -> tuple[list[Any], list[Any], list[Any]]:
        url = redis_server.url
        async with aioredis.from_url(url) as one_redis, aioredis.from_url(url) as two_redis:
            one = RedisBus(one_redis, url, "one")
            two = RedisBus(two_redis, url, "two")
            heard_one: list[Any] = []
            heard_two: list[Any] = []
            other: list[Any] = []
            one.subscribe("mute", heard_one.append)

            async def later(payload: Any) -> None:  # a coroutine handler is awaited
                heard_two.append(payload)

            two.subscribe("mute", later)
            two.subscribe("ban", other.append)
            await one.start()
            await two.start()
            try:
                await one.publish("mute", {"account": "ann"})
                assert heard_one == [{"account": "ann"}]  # its own at once
                await eventually(lambda: heard_two, "the other process")
                await two.publish("mute", {"account": "bob"})
                await eventually(lambda: len(heard_one) == 2, "the first process")
            finally:
                await one.close()
                await two.close()
            return heard_one, heard_two, other

    heard_one, heard_two, other = asyncio.run(run())
    assert heard_one == [{"account": "ann"}, {"account": "bob"}]
    assert heard_two == [{"account": "ann"}, {"account": "bob"}]
    assert other == []  # another channel's subscriber heard nothing


def test_with_redis_away_a_publication_still_reaches_its_own_process() -> None:
    async def run() -> list[Any]:
        url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
        async with aioredis.from_url(url, socket_connect_timeout=0.5) as client:
            bus = RedisBus(client, url, "alone")
            heard: list[Any] = []
            bus.subscribe("ban", heard.append)
            await bus.publish("ban", {"account": "ann"})  # logged, not raised
            await bus.close()
            return heard

    assert asyncio.run(run()) == [{"account": "ann"}]


def test_a_process_s_share_of_who_is_online_is_read_by_the_others_until_it_lapses(
    redis_server: RedisServer,
) -> None:
    async def run() -> None:
        url = redis_server.url
        async with aioredis.from_url(url) as one_redis, aioredis.from_url(url) as two_redis:
            one = PresenceBoard(one_redis, "one", ttl_ms=400)
            two = PresenceBoard(two_redis, "two", ttl_ms=400)
            share = Share({"ann": "Ann"}, {"guest:abc"}, {"ann": ("playing", "lightspeed", "r1")})
            await one.publish(share)
            await two.publish(Share())
            (read,) = await two.others()
            assert read == share
            assert read.holds("ann") and read.holds("guest:abc") and not read.holds("bob")
            # The first process stops writing (killed): its share lapses with its key.
            found: list[Share] = [read]

            async def look() -> None:
                found[:] = await two.others()

            deadline = time.monotonic() + 10
            while found:
                assert time.monotonic() < deadline, "the share never lapsed"
                await asyncio.sleep(0.05)
                await look()
            # A process that stops withdraws its share at once.
            await one.publish(share)
            assert await two.others() == [share]
            await one.withdraw()
            assert await two.others() == []

    asyncio.run(run())
