"""The reference client's moves (``examples/bots/random_bot.py``): two random bots, each
over the bot API with its own token, play a whole match of the hex fleet, Stellar
Conflict and Light Speed against each other, in the test's process (Starlette's
TestClient), each to its stored result, and each bot sees the match's end. (Light Speed
between two bots is the fast one: their cards come quicker than a bot that acted on
every ``decision`` in turn could keep up with, and the one before kept placing cards it no
longer held for minutes after the match; its Light Speed stream's end, ``battle``, went
unread.)"""

from __future__ import annotations

import importlib.util
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.core.replays import replay_record
from spacetable.registry import game_for_ruleset
from tests._paths import ROOT
from tests.server.http._client import bearer, login
from tests.server.http.test_bot_games import client

__all__ = ["client"]


def _random_bot() -> ModuleType:
    """``examples/bots/random_bot.py``, imported from its file."""
    path = ROOT / "examples" / "bots" / "random_bot.py"
    spec = importlib.util.spec_from_file_location("random_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Authed:
    """The test client as one bot's: every request carries its token."""

    def __init__(self, client: TestClient, token: dict[str, str]) -> None:
        self.client, self.token = client, token

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.client.get(url, headers=self.token, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.client.post(url, headers=self.token, **kwargs)

    @contextmanager
    def stream(self, method: str, url: str, **kwargs: Any) -> Iterator[Any]:
        with self.client.stream(method, url, headers=self.token, **kwargs) as answer:
            yield answer


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("hexfleet", {"scenario": "duel", "turn_limit": 3}),
        ("stellar", {"battle_size": "dispute"}),
        ("lightspeed", {}),
    ],
)
def test_two_random_bots_play_a_whole_match(
    client: TestClient,
    game: str,
    options: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bots = _random_bot()
    ann, robo = login(client, "Ann"), login(client, "Robo")
    sent = client.post(
        "/api/challenges",
        json={"game": game, "rated": False, "to": "Robo", "options": options},
        headers=ann,
    )
    assert sent.status_code == 201, sent.text
    accepted = client.post(f"/api/challenges/{sent.json()['id']}/accept", headers=robo)
    assert accepted.status_code == 200, accepted.text
    room = accepted.json()["room"]
    players = [
        bots.Game(Authed(client, bearer(client, who)), room, random.Random(seed))
        for seed, who in enumerate((ann, robo))
    ]
    threads = [threading.Thread(target=player.play) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a match did not end"
    said = capsys.readouterr().out
    assert said.count(f"{room}: over, winner ") == 2, said  # each bot saw the end

    listed = client.get("/api/matches").json()  # this test's database: its one match
    matches = listed["matches"] if isinstance(listed, dict) else listed
    assert len(matches) == 1, matches
    stored = client.get(f"/api/matches/{matches[0]['id']}").json()
    match_type = game_for_ruleset(stored["ruleset"]).rules.match
    assert match_type is not None and match_type is game_for_ruleset(game).rules.match
    assert replay_record(stored, match_type).exact


class Backlog:
    """A game's stream whose lines came while the bot was busy: three ``decision`` lines
    in a row, then the match's end. Its reader puts them all in before the bot's first
    decision returns (the decision waits for it), as a slow bot on a fast table finds."""

    status_code = 200

    def __init__(self) -> None:
        self.all_read = threading.Event()

    def raise_for_status(self) -> None:
        return None

    def iter_lines(self) -> Iterator[str]:
        full = {"type": "gameFull", "game": "lightspeed", "seat": 0, "phase": "playing"}
        yield json.dumps(full | {"state": {}})
        for version in range(3):
            yield json.dumps({"type": "decision", "phase": "fast", "version": version})
        yield json.dumps({"type": "battle", "result": {"winner": "Bo"}})
        yield json.dumps({"type": "gameState", "phase": "over", "state": {}})
        self.all_read.set()


def test_the_reference_client_acts_on_the_newest_decision_only() -> None:
    """Decisions that wait in the stream while the bot acts on an earlier one are stale:
    it acts once at most (on the first one it read; the later ones came with the match's
    end), never once for each. (The client before read its stream only between its
    actions, so it acted on each in turn, the last two on a match already over; here its
    first action waits in vain for the stream to be read.)"""
    bots = _random_bot()
    backlog = Backlog()

    class OneStream:
        @contextmanager
        def stream(self, method: str, url: str) -> Iterator[Backlog]:
            yield backlog

    decided: list[str] = []
    game = bots.Game(OneStream(), "room1", random.Random(0))

    def decide(phase: str) -> None:
        decided.append(phase)
        assert backlog.all_read.wait(10), "the stream was not read meanwhile"

    game.decide = decide
    assert game.follow() is True  # it saw the match's end
    assert len(decided) <= 1, decided


def test_the_reference_client_drops_a_decision_that_a_later_state_or_its_own_move_passed() -> None:
    """A ``decision`` is stale once a state of a later version came after it, or when it
    is older than the match the bot's own move left (the room answers a move with its
    version): a Stellar Conflict bot whose fleet was taken went on choosing fleets in the
    3-2-1 (six refusals, "the round starts in 3.0 s") on the decision its opponent's
    fleet had made, told while it chose its own."""
    bots = _random_bot()

    class Answers:
        def post(self, url: str, json: dict[str, Any]) -> Any:
            class Taken:
                status_code = 200

                def json(self) -> dict[str, Any]:
                    return {"ok": True, "version": 2}

            return Taken()

    game = bots.Game(Answers(), "room1", random.Random(0))

    def decision(version: int) -> dict[str, Any]:
        return {"type": "decision", "phase": "preparation", "version": version}

    def state(version: int) -> dict[str, Any]:
        return {"type": "gameState", "phase": "playing", "state": {"version": version}}

    assert game.due(None, decision(1)) == decision(1)
    assert game.due(decision(1), {"type": "chat", "text": "hi"}) == decision(1)
    assert game.due(decision(1), state(1)) == decision(1)  # its own state: still due
    assert game.due(decision(1), state(2)) is None  # the match went on
    assert game.move({"type": "fleet", "ships": ["a"]}) is None  # taken, at version 2
    assert game.due(None, decision(1)) is None  # told before its own move: stale
    assert game.due(None, decision(2)) == decision(2)
