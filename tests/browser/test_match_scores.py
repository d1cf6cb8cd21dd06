"""Each game says its own scores in the match lists (issue 68 item 5: the game's module's
``matchScores``, not the shell): /matches and the lobby's recent matches show a laser
battle's points, a hex fleet battle's strength left and its turns, an FTL duel's turns,
and a dash for a match that ended before any were counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from spacetable.server.store.storage import Storage, StoredMatch
from tests._server import running_server
from tests.browser.conftest import OpenPage, Server, Shot

#: One stored match a game (newest first on the page): its ruleset, players, result, and
#: the scores the lists say of it.
MATCHES: list[tuple[str, tuple[str, str], dict[str, Any], str]] = [
    ("lightspeed", ("ann", "bob"), {"winner": "bob", "scores": {"ann": 9, "bob": 10}},
     "ann 9 · bob 10"),
    ("hexfleet", ("Red", "Blue"),
     {"winner": "Red", "turns": 7, "strength": {"Red": 0.4, "Blue": 0}},
     "Red 40% · Blue 0% left (7 turns)"),
    ("ftl", ("cy", "dan"), {"winner": "cy", "turns": 12}, "12 turns"),
    ("stellar", ("eve", "fay"), {"winner": "eve", "ending": "resigned", "ending_by": ["fay"]},
     ""),
]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """A server of this module's own whose database holds :data:`MATCHES`."""
    db: Path = tmp_path_factory.mktemp("scores") / "matches.db"
    storage = Storage(f"sqlite:///{db}")
    for i, (ruleset, names, result, _) in enumerate(MATCHES):
        storage.save(
            StoredMatch(
                id=f"{ruleset}-match",
                room="room",
                ruleset=ruleset,
                options={},
                seats=[{"seat": k, "player": p, "kind": "human"} for k, p in enumerate(names)],
                seed=1,
                actions=[],
                events=[],
                result=result,
                finished_at=1_700_000_000.0 - 60 * i,
            )
        )
    storage.close()
    with running_server(db) as running:
        yield Server(running.http)


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)])
def test_each_game_says_its_scores_in_the_lists(
    open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = open_page("/matches", viewport={"width": width, "height": height})
    for ruleset, _, _, scores in MATCHES:
        cell = page.locator(f"tr[data-match='{ruleset}-match'] td.scores")
        if scores:
            expect(cell).to_have_text(scores)
        else:  # said in words to a screen reader
            expect(cell).to_have_text("—no scores: the match ended before they were counted")
    shot(page, f"matches-{width}")
    lobby = open_page("/", viewport={"width": width, "height": height})
    for ruleset, _, _, scores in MATCHES:
        item = lobby.locator(f"#recent li[data-match='{ruleset}-match']")
        expect(item).to_contain_text(f" — {scores} — " if scores else "")
