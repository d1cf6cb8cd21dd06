"""Failed logins and sign-ups counted in Redis (``server/http/shared_login_limits.py``,
issue 67 items 3, 5 and 6), against a real ``redis-server``, without a cluster: two
limiters on one Redis are two processes; the count is shared, a known browser passes a
name locked for strangers, the test clock's shift moves the window, and with Redis away
each process falls back to its own count."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from spacetable.server.http.login_limits import (
    FAILURE_WINDOW_S,
    FAILURES,
    NAME_FAILURES,
    Attempt,
    Login,
)
from spacetable.server.http.shared_login_limits import SharedLoginLimits, SharedSignUpLimit
from tests._server import free_port
from tests.cluster._cluster import MISSING, RedisServer

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


def test_two_processes_share_the_failures_and_the_test_clock_moves_them(redis_url: str) -> None:
    moved = [0.0]

    async def tries() -> tuple[list[bool], list[bool], bool]:
        async with aioredis.from_url(redis_url) as one, aioredis.from_url(redis_url) as two:
            both = [
                SharedLoginLimits(one, lambda: moved[0]),
                SharedLoginLimits(two, lambda: moved[0]),
            ]
            guess = Login("carol", "192.0.2.10")
            first = [
                isinstance(await both[n % 2].begin(guess, 0.0), Attempt)
                for n in range(FAILURES + 1)
            ]
            waiting = await both[0].begin(guess, 0.0)
            assert isinstance(waiting, float) and 0 < waiting <= FAILURE_WINDOW_S
            moved[0] = FAILURE_WINDOW_S + 1  # the window has passed, on the test clock
            again = [isinstance(await both[n % 2].begin(guess, 0.0), Attempt) for n in range(2)]
            # A check that could not run is given back: it is not counted.
            elsewhere = Login("carol", "192.0.2.11")
            for _ in range(FAILURES):
                attempt = await both[0].begin(elsewhere, 0.0)
                assert isinstance(attempt, Attempt)
                await both[1].release(attempt)
            released = isinstance(await both[1].begin(elsewhere, 0.0), Attempt)
            return first, again, released

    first, again, released = asyncio.run(tries())
    assert first == [True] * FAILURES + [False]
    assert again == [True, True] and released


def test_a_browser_that_logged_in_passes_a_name_locked_for_strangers(redis_url: str) -> None:
    async def tries() -> tuple[list[bool], bool, bool]:
        async with aioredis.from_url(redis_url) as client:
            limits = SharedLoginLimits(client)
            owner = Login("dave", "198.51.100.1", "d" * 32)
            done = await limits.begin(owner, 0.0)
            assert isinstance(done, Attempt)
            await limits.succeeded(done, 0.0)
            strangers = [
                isinstance(await limits.begin(Login("dave", f"203.0.113.{n}"), 0.0), Attempt)
                for n in range(NAME_FAILURES + 1)
            ]
            travelling = Login("dave", "192.0.2.200", "d" * 32)  # his browser, elsewhere
            stranger = Login("dave", "192.0.2.201", "e" * 32)
            return (
                strangers,
                isinstance(await limits.begin(travelling, 0.0), Attempt),
                isinstance(await limits.begin(stranger, 0.0), Attempt),
            )

    strangers, travelling, stranger = asyncio.run(tries())
    assert strangers == [True] * NAME_FAILURES + [False]
    assert travelling and not stranger


def test_sign_ups_are_shared_and_given_back(redis_url: str) -> None:
    async def takes() -> list[float]:
        async with aioredis.from_url(redis_url) as one, aioredis.from_url(redis_url) as two:
            both = [SharedSignUpLimit(one, 2), SharedSignUpLimit(two, 2)]
            taken = [await both[n % 2].take("192.0.2.20", 0.0) for n in range(3)]
            await both[0].give_back("192.0.2.20", 0.0)  # one made no account
            taken.append(await both[1].take("192.0.2.20", 0.0))
            taken.append(await both[1].take("127.0.0.1", 0.0))  # this machine: not limited
            return taken

    taken = asyncio.run(takes())
    assert taken[:2] == [0.0, 0.0] and 1700 < taken[2] <= 1800 and taken[3:] == [0.0, 0.0]


def test_with_redis_away_each_process_counts_alone() -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there

    async def tries() -> list[bool]:
        async with aioredis.from_url(closed, socket_connect_timeout=1.0) as client:
            limits = SharedLoginLimits(client)
            guess = Login("erin", "192.0.2.30")
            return [isinstance(await limits.begin(guess, 100.0), Attempt) for _ in range(11)]

    # Open, but not unlimited: this process's own count.
    assert asyncio.run(tries()) == [True] * FAILURES + [False]
