"""An over-the-board tournament table settled from a photo of its printed cards
(``http/tournament_photo.py``, issue 71 items 4 and 6), in the test's process: the photo
read by the referee's workers, the battle resolved, the result reported with the photo and
the battle until the other player accepts it (no code asked); a photo of another game, an
image that is none, a photo from someone not at the table, the reporter accepting his own
report: refused, naming the problem, nothing stored."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests import _photo_shots as shots
from tests.server.http._client import login, serving


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with serving(tmp_path_factory.mktemp("photo-tables") / "tournaments.db") as running:
        yield running


def show(client: TestClient, tid: str) -> dict[str, Any]:
    got = client.get(f"/api/tournaments/{tid}")
    assert got.status_code == 200, got.text
    return dict(got.json())


def board_round(client: TestClient, prefix: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A Light Speed tournament over the board, two seats a table, of three players, round
    1 paired: its id, the round's table and each one's headers by name (the director's
    too)."""
    director = login(client, f"{prefix} Director")
    body = {"name": "Photo night", "game": "lightspeed", "seats": 2, "rounds": 2}
    made = client.post("/api/tournaments", json=body | {"venue": "board"}, headers=director)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    heads = {n: login(client, n) for n in (f"{prefix} Ann", f"{prefix} Bob", f"{prefix} Cid")}
    for who in heads.values():
        assert client.post(f"/api/tournaments/{tid}/join", headers=who).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    table = next(p for p in show(client, tid)["pairings"] if not p["bye"])
    return tid, table, heads | {f"{prefix} Director": director}


@functools.cache
def photo(seed: int) -> bytes:
    """The photo of ``seed`` (tests/_photo_shots.py), rendered once."""
    return shots.photo_bytes(seed)


def upload(client: TestClient, url: str, photo: bytes, who: dict[str, str]) -> Any:
    return client.post(f"{url}/photo", content=photo, headers=who | {"content-type": "image/png"})


def test_a_photo_reports_the_tables_battle_and_the_other_player_accepts_it(
    client: TestClient,
) -> None:
    tid, table, heads = board_round(client, "P")
    first, second = table["seats"]
    url = f"/api/tournaments/{tid}/tables/1/{table['table']}"
    # The photo of a Light Speed table of red and blue: red (the first seat) wins 4-1.
    sent = upload(client, url, photo(shots.TWO_FLEETS_SEED), heads[first])
    assert sent.status_code == 200, sent.text
    answer = sent.json()
    assert answer["result"] == "1-0" and answer["places"] == [1, 2]
    assert answer["by"] == first and answer["close_calls"] == 0
    shown = next(p for p in show(client, tid)["pairings"] if p["table"] == table["table"])
    assert shown["result"] is None  # until the other player accepts it
    report = shown["report"]
    assert (report["by"], report["result"]) == (first, "1-0")
    assert (report["photo"], report["battle"]) == (answer["photo"], answer["battle"])
    kept = client.get(answer["photo"])
    assert kept.status_code == 200 and kept.headers["content-type"] == "image/jpeg"
    assert kept.content[:2] == b"\xff\xd8"
    battle = client.get(answer["battle"])
    assert battle.status_code == 200 and battle.headers["content-type"].startswith("image/svg")
    assert "<svg" in battle.text
    # The director's list of codes carries the report, not the photo's copy.
    codes = client.get(f"/api/tournaments/{tid}/codes", headers=heads["P Director"])
    listed = next(t for t in codes.json()["tables"] if t["table"] == table["table"])
    assert listed["report"]["by"] == first and "photo" not in listed["report"]
    # The reporter cannot accept his own report.
    own = client.post(f"{url}/confirm", json={}, headers=heads[first])
    assert own.status_code == 403 and "another player" in own.json()["detail"]
    # The other player accepts it with no code: the result stands, round 2 is paired.
    accepted = client.post(f"{url}/confirm", json={}, headers=heads[second])
    assert accepted.status_code == 204, accepted.text
    after = show(client, tid)
    done = next(p for p in after["pairings"] if p["round"] == 1 and p["table"] == table["table"])
    assert (done["result"], done["source"]) == ("1-0", "reported")
    assert done["report"]["photo"] == answer["photo"]  # the photo stays with the record
    assert after["round"] == 2
    round_one = {
        line["name"]: next(part["points"] for part in line["parts"] if part["round"] == 1)
        for line in after["players"]
        if line["name"] in (first, second)
    }
    assert round_one == {first: 1, second: 0}
    # A photo of a table with its result: refused.
    again = upload(client, url, photo(shots.TWO_FLEETS_SEED), heads[second])
    assert again.status_code == 409 and "result already" in again.json()["detail"]


def test_a_photo_of_another_game_or_no_photo_or_not_at_the_table_is_refused(
    client: TestClient,
) -> None:
    tid, table, heads = board_round(client, "R")
    player = heads[table["seats"][0]]
    outsider = heads[next(n for n in ("R Ann", "R Bob", "R Cid") if n not in table["seats"])]
    url = f"/api/tournaments/{tid}/tables/1/{table['table']}"
    before = show(client, tid)
    # A photo of a Stellar Conflict table, at a Light Speed tournament.
    other_game = upload(client, url, photo(shots.STELLAR_SEED), player)
    assert other_game.status_code == 400, other_game.text
    said = other_game.json()
    assert said["detail"] == (
        "the photo shows a Stellar Conflict table: this tournament plays Light Speed"
    )
    assert said["says"]["message"].startswith("the photo shows a {shown} table")
    # An image that is none.
    junk = upload(client, url, b"these bytes are no image at all", player)
    assert junk.status_code == 400 and "not an image" in junk.json()["error"]
    # A photo of an empty cloth: no table in it.
    empty = upload(client, url, shots.no_markers_bytes(), player)
    assert empty.status_code == 400 and "no card markers" in empty.json()["error"]
    # From a player of the tournament who does not play at this table.
    away = upload(client, url, photo(shots.TWO_FLEETS_SEED), outsider)
    assert away.status_code == 403 and "this table" in away.json()["detail"]
    # From another site's page, with the player's cookie.
    elsewhere = upload(
        client, url, photo(shots.TWO_FLEETS_SEED), player | {"origin": "https://x.example"}
    )
    assert elsewhere.status_code == 403 and "another site" in elsewhere.json()["detail"]
    # No account.
    anonymous = upload(client, url, photo(shots.TWO_FLEETS_SEED), {})
    assert anonymous.status_code == 401
    assert show(client, tid) == before  # nothing stored changed
    nothing = client.get(f"{url}/photo")
    assert nothing.status_code == 404 and "no photo" in nothing.json()["detail"]


def test_a_table_of_three_takes_its_places_from_the_photos_battle(client: TestClient) -> None:
    """Seats take the photo's colours in the printed decks' order (red, then green and
    purple here); the places follow the battle's scores: purple's player won, the two
    others tied (the table's result: each seat's place)."""
    director = login(client, "S Director")
    body = {"name": "Stellar night", "game": "stellar", "seats": 3, "rounds": 1, "venue": "board"}
    made = client.post("/api/tournaments", json=body, headers=director)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    heads = {n: login(client, n) for n in ("S Ann", "S Bob", "S Cid")}
    for who in heads.values():
        assert client.post(f"/api/tournaments/{tid}/join", headers=who).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    table = next(p for p in show(client, tid)["pairings"] if not p["bye"])
    url = f"/api/tournaments/{tid}/tables/1/{table['table']}"
    red, _, purple = table["seats"]  # (green's player sits between them)
    sent = upload(client, url, photo(shots.STELLAR_SEED), heads[red])
    assert sent.status_code == 200, sent.text
    assert sent.json()["places"] == [2, 2, 1]
    assert client.post(f"{url}/confirm", json={}, headers=heads[purple]).status_code == 204
    final = show(client, tid)
    assert final["status"] == "finished"
    assert final["players"][0]["name"] == purple
