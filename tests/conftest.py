"""Shared fixtures, and Hypothesis's profiles: ``ci`` (loaded when the ``CI`` environment
variable is set) derandomizes every property test, so that CI draws the same examples on
every run, and prints the blob that reproduces a failure; ``local`` (otherwise) draws new
ones. Neither gives an example a time limit: how fast a machine is is no test's subject."""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

import pytest
from hypothesis import settings
from playwright.sync_api import Browser, Page, sync_playwright

from spacetable.bots.lasers import warm_up
from tests._chromium import CHROMIUM, LAUNCH_ARGS
from tests._loops import run_apart

T = TypeVar("T")

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
# No example has a time limit outside CI either: Hypothesis's 200 ms deadline failed a
# geometry property beside a busy machine's other work (858 ms, nothing wrong with it).
settings.register_profile("local", deadline=None)

_asyncio_run = asyncio.run


def _run_anywhere(main: Coroutine[Any, Any, T], *, debug: bool | None = None) -> T:
    """``asyncio.run`` for tests, in any worker: once a browser test has run in a worker,
    Playwright's sync API keeps an event loop running in its main thread for the session,
    where ``asyncio.run`` refuses to start; a test's coroutine then runs on a thread of its
    own (tests/_loops.py). Without a running loop it is ``asyncio.run`` itself, so a test
    passes or fails the same whatever ran before it in its worker."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _asyncio_run(main, debug=debug)
    return run_apart(main)


asyncio.run = _run_anywhere
settings.load_profile("ci" if os.environ.get("CI") else "local")


#: Folders of tests that take seconds each (pages, processes, clusters, bot matches, photos,
#: the server's real-time rooms): they run first, in pytest-randomly's order among
#: themselves, so that a run ends on short tests that keep every worker busy to its end
#: instead of one page test alone. (All of server/: its rooms that play with a bot at the
#: bot's pace held the last 20 s of a run with half the machine idle, docs/performance.md.)
FIRST = ("browser/", "cluster/", "server/", "lab/", "bots/", "photo/")
TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (after randomly's shuffle)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow folders' tests first (:data:`FIRST`): a stable sort, after pytest-randomly
    shuffled them (its hook wraps this one), so a seed still gives one order. Under
    pytest-xdist's ``--dist loadgroup`` (``dev.sh``), the tests of a file that share a
    fixture of the module's (a server, a cluster, printed sheets) are one group, run by
    one worker: the fixture starts once, not in each worker that takes one of its tests.
    (xdist hands out the groups first, largest first, then the other tests one by one in
    this order.)"""

    def later(item: pytest.Item) -> bool:
        path = Path(item.path)
        return not (path.is_relative_to(TESTS) and str(path.relative_to(TESTS)).startswith(FIRST))

    items.sort(key=later)
    # Collection happens in the workers, where xdist has set `dist` to "no" and kept
    # whether the run is --dist loadgroup as `loadgroup`.
    if getattr(config.option, "loadgroup", False):
        for item in items:
            if _shares_a_module_fixture(item):
                item.add_marker(pytest.mark.xdist_group(_group(Path(item.path))))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Wait, once the tests are collected, for ``dev.sh``'s compile of the numba kernels
    into their cache: it holds the lock file ``SPACETABLE_KERNELS_LOCK`` names until it is
    done, so that no worker compiles them again (30 CPU-seconds each) while it runs."""
    lock = os.environ.get("SPACETABLE_KERNELS_LOCK")
    if lock:
        with open(lock, "rb") as held:
            fcntl.flock(held, fcntl.LOCK_SH)  # blocks until the compiling process exits


def _group(path: Path) -> str:
    """A file's group, as xdist adds it to its tests' ids: ``browser/test_chat``."""
    within = path.relative_to(TESTS) if path.is_relative_to(TESTS) else path
    return within.with_suffix("").as_posix()


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture set up once for its module (or class)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # not a test function (a doctest, say)
        return False
    return any(
        defs and defs[-1].scope in ("module", "class", "package")
        for defs in info.name2fixturedefs.values()
    )


@pytest.fixture(scope="session")
def compiled_kernels() -> None:
    """Compile (or load from numba's cache) the batch resolver once in this process, so
    that server processes started by tests find it cached instead of compiling it while a
    bot waits."""
    warm_up()


#: How often a page's ``wait_for_function`` asks its question (ms) unless the call says. By
#: default Playwright asks on every animation frame, which keeps the page drawing 60 frames
#: a second for as long as it waits: about 0.08 CPU-seconds a second in Chromium's
#: renderer, GPU and browser processes, for a wait that a tenth of a second never slows.
POLL_MS = 100.0
_wait_for_function = Page.wait_for_function


def _wait_polled(
    page: Page,
    expression: str,
    *,
    arg: Any = None,
    timeout: float | None = None,
    polling: float | Literal["raf"] = POLL_MS,
) -> Any:
    return _wait_for_function(page, expression, arg=arg, timeout=timeout, polling=polling)


setattr(Page, "wait_for_function", _wait_polled)  # noqa: B010  (mypy: no method assignment)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless: one for the whole run, shared by tests/browser and the
    cluster's page (Playwright's sync API allows one running instance per thread), with
    the switches of tests/_chromium.py."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set SPACETABLE_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(LAUNCH_ARGS))
        yield chromium
        chromium.close()
