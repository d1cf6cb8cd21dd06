"""Shared fixtures, and Hypothesis's profiles: ``ci`` (loaded when the ``CI`` environment
variable is set) derandomizes every property test, so that CI draws the same examples on
every run, and prints the blob that reproduces a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import settings
from playwright.sync_api import Browser, Page, sync_playwright

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

#: The Chromium every browser test drives (Debian's, unless SPACETABLE_CHROMIUM says).
CHROMIUM = Path(os.environ.get("SPACETABLE_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless: one for the whole run, shared by tests/browser and the
    cluster's page (Playwright's sync API allows one running instance per thread)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set SPACETABLE_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()
