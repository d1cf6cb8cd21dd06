"""The reference client's moves (``examples/bots/random_bot.py``) in the two games the
browser test does not play: two random bots, each over the bot API with its own token,
play a whole hex fleet match and a whole Stellar Conflict match against each other, in the
test's process (Starlette's TestClient, the test clock), each to its stored result."""

from __future__ import annotations

import importlib.util
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
    [("hexfleet", {"scenario": "duel", "turn_limit": 3}), ("stellar", {"battle_size": "dispute"})],
)
def test_two_random_bots_play_a_whole_match(
    client: TestClient, game: str, options: dict[str, Any], tmp_path: Path
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

    listed = client.get("/api/matches").json()  # this test's database: its one match
    matches = listed["matches"] if isinstance(listed, dict) else listed
    assert len(matches) == 1, matches
    stored = client.get(f"/api/matches/{matches[0]['id']}").json()
    match_type = game_for_ruleset(stored["ruleset"]).rules.match
    assert match_type is not None and match_type is game_for_ruleset(game).rules.match
    assert replay_record(stored, match_type).exact
