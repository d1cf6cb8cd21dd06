"""What the cluster tests share: a ``redis-server`` of their own for a test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.cluster._cluster import MISSING, RedisServer


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """A ``redis-server`` on a free port for the module's tests, stopped after them."""
    if MISSING is not None:
        pytest.skip(MISSING)
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
