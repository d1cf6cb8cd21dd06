"""``GET /api/matches`` filtered by game and by player (issue 36 item 18), in process: the
query parameters ``ruleset`` and ``player`` keep those matches; without them, or blank, the
list is as it was."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.store.storage import Storage
from tests.server.store.test_storage import _listed


def test_the_api_lists_one_games_or_one_players_matches(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
    for i, (ruleset, names) in enumerate(
        [("ftl", ["ann", "bob"]), ("lightspeed", ["bob", "cy"]), ("hexfleet", ["Ann", "cy"])]
    ):
        storage.save(_listed(f"m{i}", ruleset, names, 1_000.0 + i))
    with TestClient(create_app(storage), base_url="http://127.0.0.1") as client:

        def ids(query: str) -> list[str]:
            answer = client.get(f"/api/matches{query}")
            assert answer.status_code == 200, answer.text
            return [m["id"] for m in answer.json()]

        everything = client.get("/api/matches").json()
        assert [m["id"] for m in everything] == ["m2", "m1", "m0"]
        # The summaries as before: the same fields, the filters add none.
        assert set(everything[0]) >= {"id", "ruleset", "players", "scores", "winner", "ending"}
        assert client.get("/api/matches?ruleset=&player=+").json() == everything
        assert ids("?ruleset=ftl") == ["m0"]
        assert ids("?player=ANN") == ["m2", "m0"]
        assert ids("?player=cy&ruleset=lightspeed") == ["m1"]
        assert ids("?player=ann&limit=1") == ["m2"]
        assert ids("?player=ann&before=m2") == ["m0"]
        assert ids("?ruleset=no-such-game") == []
        assert client.get(f"/api/matches?player={'x' * 65}").status_code == 422
    storage.close()
