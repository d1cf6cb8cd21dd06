"""The /matches page a page at a time (issue 9, finding 8): "Older" and "Newer" walk every
stored match once, newest first, on a wide screen and on a phone."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers.arena import play_match
from spacetable.lasers.battle import Outcome
from spacetable.server.store.storage import Storage, StoredMatch
from tests._server import running_server
from tests.browser.conftest import OpenPage, Server, Shot

STORED = 55  # more than the page's 50


@pytest.fixture(scope="module")
def stored_ids(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A database with STORED finished matches; their ids, newest first."""
    db = tmp_path_factory.mktemp("matches") / "matches.db"
    storage = Storage(f"sqlite:///{db}")
    played = play_match([make_bot("random"), make_bot("random")], seed=3)
    outcome = played.result()
    assert isinstance(outcome, Outcome)
    result = outcome.to_json()
    events = result.pop("events")
    ids = []
    for i in range(STORED):
        record = StoredMatch(
            id=uuid.uuid4().hex,
            room="room",
            ruleset="lightspeed",
            options=played.options.to_json(),
            seats=[{"seat": k, "player": p, "kind": "bot"} for k, p in enumerate(played.players)],
            seed=played.seed,
            actions=[a.to_json() for a in played.actions],
            events=events,
            result=result,
            finished_at=1_700_000_000.0 + 60 * i,
        )
        storage.save(record)
        ids.append(record.id)
    storage.close()
    return db, ids[::-1]


@pytest.fixture(scope="module")
def server(stored_ids: tuple[Path, list[str]], compiled_kernels: None) -> Iterator[Server]:
    with running_server(stored_ids[0]) as running:
        yield Server(running.http)


def shown(page: Page) -> list[str]:
    page.wait_for_selector("#matches tbody tr")
    return [row.get_attribute("data-match") or "" for row in page.query_selector_all("tr.match")]


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_older_and_newer_walk_every_match_once(
    stored_ids: tuple[Path, list[str]],
    open_page: OpenPage,
    shot: Shot,
    viewport: tuple[int, int],
) -> None:
    width, height = viewport
    page = open_page("/matches", viewport={"width": width, "height": height})
    first = shown(page)
    assert first == stored_ids[1][:50]
    assert page.is_visible("#older") and not page.is_visible("#newer")
    replay = page.locator("tr.match a.replay").first.bounding_box()
    assert replay is not None and replay["x"] + replay["width"] <= width  # on screen
    page.click("#older")
    page.wait_for_url("**/matches?before=*")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 5")
    assert shown(page) == stored_ids[1][50:]
    assert page.is_visible("#newer") and not page.is_visible("#older")
    page.locator(".pager").scroll_into_view_if_needed()
    shot(page, f"older-{width}")
    page.click("#newer")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 50")
    assert shown(page) == first
    assert not page.is_visible("#newer")
