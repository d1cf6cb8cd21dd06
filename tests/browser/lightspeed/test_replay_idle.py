"""A replay skips the time when nothing happens (issue 20, item 25): a Stellar Conflict
replay used to open on an empty table for the half minute of fleet choice. Here the stored
match's first card lands 30 s in: playing jumps to just before it and says so, while the
slider still holds the whole time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._server import running_server
from tests.browser._play import store_fig1
from tests.browser.conftest import OpenPage, Server, Shot

#: Seconds before the first card of the stored match.
IDLE_START_S = 30.0


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("replay-idle") / "matches.db"
    return db, store_fig1(db, start=IDLE_START_S)


@pytest.fixture(scope="module")
def server(stored: tuple[Path, str], compiled_kernels: None) -> Iterator[Server]:
    with running_server(stored[0]) as running:
        yield Server(running.http)


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_the_replay_skips_the_idle_start(
    open_page: OpenPage, stored: tuple[Path, str], shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    opened = time.monotonic()
    page = open_page(f"/replay/{stored[1]}", viewport={"width": width, "height": height})
    # The first card shows before the idle time could have played out: a replay that
    # played it would need 28 s at the least, however fast the machine (a 10 s wait and
    # a 15 s bound raced page loads on a busy one).
    page.wait_for_selector(".table-card.ship", timeout=60_000)
    assert time.monotonic() - opened < IDLE_START_S - 2
    assert float(page.input_value("#replay-slider")) >= IDLE_START_S - 2
    assert float(page.get_attribute("#replay-slider", "max") or "0") > IDLE_START_S
    note = page.locator("#replay-skipped")
    assert note.is_visible() and "nothing happening skipped" in note.inner_text()
    shot(page, "skipped")
