"""A hex fleet match stored before its log was phrases (23 November 2026: its log lines
English sentences only), and one stored with no frames at all, replayed in French: the
server plays them again from their seeds and actions, so the replay is French from its
first line to its last (and its cards show as French cards print them)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable.bots.hexfleet import make_bot
from spacetable.games.hexfleet.match import HexMatch, HexOptions
from spacetable.games.hexfleet.replayed import frames_to_show, rebuilt_frames
from spacetable.server.store.storage import Storage, StoredMatch
from tests import _server
from tests._paths import ROOT
from tests.browser._pages import PagePool
from tests.browser.conftest import save_screenshot
from tests.i18n._french import assert_french, french_page

SEED = 5
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
SCREENSHOTS_DIR = ROOT / "artifacts" / "screenshots"


def _easy_duel() -> dict[str, Any]:
    """The record of a three-turn duel of two easy bots, played in process."""
    match = HexMatch(HexOptions(players=("red", "blue"), scenario="duel", turn_limit=3), SEED)
    bot, rng = make_bot("easy"), random.Random(SEED)
    while not match.is_over:
        player = next(p for p in match.players if match.needs_action(p))
        match.apply(bot.choose(match.view(player), rng))
    return {**match.record(), "result": match.result().to_json()}  # type: ignore[union-attr]


def _english_only(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames as a room stored them before 23 November: each log line its text only."""
    return [
        {**frame, "log": [{k: v for k, v in line.items() if k != "says"} for line in frame["log"]]}
        for frame in frames
    ]


def _store(db: Path, record: dict[str, Any], events: list[dict[str, Any]]) -> str:
    storage = Storage(f"sqlite:///{db}")
    match_id = uuid.uuid4().hex
    seats = [{"seat": k, "player": p, "kind": "bot"} for k, p in enumerate(("red", "blue"))]
    storage.save(
        StoredMatch(id=match_id, room="room", ruleset="hexfleet", options=record["options"],
                    seats=seats, seed=record["seed"], actions=record["actions"],
                    events=events, result=record["result"], finished_at=1_763_800_000.0)
    )  # fmt: skip
    storage.close()
    return match_id


@pytest.fixture(scope="module")
def old_matches(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[_server.Server, str, str]]:
    """A server whose database holds the duel stored the old way, and stored with no
    frames: the server and the two ids."""
    record = _easy_duel()
    frames = rebuilt_frames(record)
    db = tmp_path_factory.mktemp("old-hex") / "matches.db"
    old = _store(db, record, _english_only(frames))
    bare = _store(db, record, [])
    with _server.running_server(db) as running:
        yield running, old, bare


def test_the_frames_rebuilt_are_the_stored_ones_with_their_phrases() -> None:
    record = _easy_duel()
    frames = rebuilt_frames(record)
    assert len(frames) == len(record["actions"]) + 1
    assert frames_to_show({**record, "events": frames}) is None  # whole: kept as stored
    assert frames_to_show({**record, "events": _english_only(frames)}) == frames
    assert frames_to_show({**record, "events": []}) == frames
    broken = {**record, "events": [], "seed": "x"}
    assert frames_to_show(broken) is None


@pytest.mark.parametrize("which", ["english-only", "no-frames"])
def test_an_old_hex_match_replays_in_french(
    page_pool: PagePool, old_matches: tuple[_server.Server, str, str], which: str
) -> None:
    server, old, bare = old_matches
    with french_page(page_pool, server.http, DESKTOP) as (page, errors):
        page.goto(f"/replay/{old if which == 'english-only' else bare}")
        page.wait_for_selector(".hx-logs .hx-line")
        page.click("[data-step='last']")  # the whole battle in words
        page.wait_for_function("document.querySelectorAll('.hx-logs .hx-line').length > 5")
        lines = page.locator(".hx-logs .hx-line").all_inner_texts()
        assert len(lines) > 5, lines
        assert any("boucliers" in line or "tour" in line.lower() for line in lines), lines
        assert_french(page)
        save_screenshot(page, str(SCREENSHOTS_DIR / f"french-hexfleet-old-replay-{which}.png"))
        assert not errors, errors
