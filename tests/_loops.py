"""Running a coroutine from a test, whatever loop the test's thread already has."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a loop of its own thread and return its result: the browser
    tests' Playwright keeps an event loop running in the main thread for the session, where
    ``asyncio.run`` would refuse to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def apart(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call ``function`` in a thread of its own and return its result: for code that runs
    its own event loop (``asyncio.run``), which Playwright's loop in the main thread would
    refuse (see :func:`run_apart`)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args, **kwargs).result()
