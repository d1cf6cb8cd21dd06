"""The /matches page a page at a time (issue 9, finding 8): "Older" and "Newer" walk every
stored match once, newest first, on a wide screen and on a phone; its filters show one
game's or one player's matches (issue 36 item 18)."""

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
    # Older than those, three Stellar Conflict matches: Ann's and bob's, bob's and cy's, then
    # Ann's and cy's (the filters' test).
    for i, names in enumerate([("Ann", "bob"), ("bob", "cy"), ("Ann", "cy")]):
        record = StoredMatch(
            id=f"stellar-{i}",
            room="room",
            ruleset="stellar",
            options={},
            seats=[{"seat": k, "player": p, "kind": "human"} for k, p in enumerate(names)],
            seed=1,
            actions=[],
            events=[],
            result={"winner": names[0], "ending": "resigned", "ending_by": [names[1]]},
            finished_at=1_600_000_000.0 + 60 * i,
        )
        storage.save(record)
        ids.insert(i, record.id)  # the oldest first, as above
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
    page.wait_for_function(f"document.querySelectorAll('tr.match').length === {STORED + 3 - 50}")
    assert shown(page) == stored_ids[1][50:]
    assert page.is_visible("#newer") and not page.is_visible("#older")
    page.locator(".pager").scroll_into_view_if_needed()
    shot(page, f"older-{width}")
    page.click("#newer")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 50")
    assert shown(page) == first
    assert not page.is_visible("#newer")


#: Each shown control of the filters' form: its box.
FORM = """() => [...document.querySelectorAll('#match-filters > *, .filter-field > *')]
  .filter((e) => e.getClientRects().length)
  .map((e) => {
    const r = e.getBoundingClientRect();
    return [e.id || e.tagName, r.left, r.top, r.right, r.bottom];
  })"""


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_the_filters_show_one_games_or_one_players_matches(
    open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    phone = width < 500
    page = open_page(
        "/matches",
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
    )
    page.wait_for_selector("#filter-game option[value='stellar']", state="attached")
    # The form whole in the window, its controls apart.
    controls = page.evaluate(FORM)
    for i, (what, left, top, right, bottom) in enumerate(controls):
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, controls[i]
        for other in controls[i + 1 :]:
            if "FIELD" in what + other[0] or "SPAN" in what + other[0]:
                continue  # a label's and its control's box: inside it
            apart = right <= other[1] or other[3] <= left or bottom <= other[2] or other[4] <= top
            assert apart, (controls[i], other)
    # Each label on the row of its control (on a phone "Player" ended a row, its box the next).
    for label, control in (("game", "#filter-game"), ("player", "#filter-player")):
        named = page.locator(f"label[for='filter-{label}']").bounding_box()
        field = page.locator(control).bounding_box()
        assert named and field
        assert abs((named["y"] + named["height"] / 2) - (field["y"] + field["height"] / 2)) < 4
    page.select_option("#filter-game", "stellar")
    page.click("#filter-show")
    page.wait_for_url("**/matches?ruleset=stellar")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 3")
    assert shown(page) == ["stellar-2", "stellar-1", "stellar-0"]
    page.fill("#filter-player", " ann ")
    page.click("#filter-show")
    page.wait_for_url("**/matches?ruleset=stellar&player=ann")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 2")
    assert shown(page) == ["stellar-2", "stellar-0"]
    # The form says what is shown, with the way back to every match.
    assert page.input_value("#filter-game") == "stellar"
    assert page.input_value("#filter-player") == "ann"
    assert page.is_visible("#filter-clear")
    shot(page, f"filtered-{width}")
    page.fill("#filter-player", "nobody")
    page.click("#filter-show")
    page.wait_for_selector("#no-matches:not([hidden])")
    assert page.inner_text("#no-matches") == "No finished matches of this game or player."
    page.click("#filter-clear")
    page.wait_for_function("document.querySelectorAll('tr.match').length === 50")
    assert not page.is_visible("#filter-clear")
