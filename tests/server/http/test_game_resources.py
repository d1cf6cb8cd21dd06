"""The games' listing and resources over HTTP (server/http/games.py): built once per
language and served as the same JSON at every request, in the reader's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from spacetable.registry import game, games
from tests.server.http._app import app_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(tmp_path_factory.mktemp("games")) as client:
        yield client


def test_every_resource_is_its_game_s_in_each_language(client: TestClient) -> None:
    for entry in games():
        for name, build in entry.resources:
            path = f"/api/games/{entry.rules.key}/{name}"
            first = client.get(path)
            assert first.status_code == 200, path
            assert first.headers["content-type"] == "application/json"
            assert first.json() == build()  # English: as the game gives it
            assert client.get(path).content == first.content  # kept: the same bytes
            french = client.get(path, headers={"Accept-Language": "fr"})
            assert french.status_code == 200, path
            assert client.get(path).content == first.content  # each language its own


def test_a_resource_s_words_follow_the_reader_s_language(client: TestClient) -> None:
    scenarios = game("hexfleet").resource("scenarios")["scenarios"]
    english = client.get("/api/games/hexfleet/scenarios").json()["scenarios"]
    french = client.get("/api/games/hexfleet/scenarios?lang=fr").json()["scenarios"]
    for key, scenario in scenarios.items():
        assert english[key]["about"] == scenario["about"]
        assert french[key]["about"] != scenario["about"]  # written in French
        assert french[key]["board"] == scenario["board"]  # the rest as it is


def test_the_listing_is_in_the_reader_s_language(client: TestClient) -> None:
    english = client.get("/api/games").json()
    french = client.get("/api/games", headers={"Cookie": "lang=fr"}).json()
    assert (
        [g["key"] for g in english] == [g["key"] for g in french] == [g.rules.key for g in games()]
    )
    assert english != french
    assert client.get("/api/games").json() == english


def test_an_unknown_game_or_resource_is_a_404_that_names_it(client: TestClient) -> None:
    missing = client.get("/api/games/lightspeed/nothing-here")
    assert missing.status_code == 404
    assert "Light Speed has no 'nothing-here'" in missing.json()["detail"]
    unknown = client.get("/api/games/chess/art")
    assert unknown.status_code == 404
    assert "chess" in unknown.json()["detail"]
    assert client.get("/api/games/lightspeed/art").status_code == 200  # nothing kept amiss
