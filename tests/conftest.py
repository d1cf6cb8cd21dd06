"""Shared fixtures, and Hypothesis's profiles: ``ci`` (loaded when the ``CI`` environment
variable is set) derandomizes every property test, so that CI draws the same examples on
every run, and prints the blob that reproduces a failure."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from spacetable.bots.lasers import warm_up

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def compiled_kernels() -> None:
    """Compile (or load from numba's cache) the batch resolver once in this process, so
    that server processes started by tests find it cached instead of compiling it while a
    bot waits."""
    warm_up()
