"""Shared fixtures."""

from __future__ import annotations

import pytest

from spacetable.bots.lasers import warm_up


@pytest.fixture(scope="session")
def compiled_kernels() -> None:
    """Compile (or load from numba's cache) the batch resolver once in this process, so
    that server processes started by tests find it cached instead of compiling it while a
    bot waits."""
    warm_up()
