"""Bot accounts over HTTP (``http/bot_accounts.py``, ``store/bots.py``, issue 72 item 2)
and a bot's token on the challenge routes, in the test's process through Starlette's
TestClient: an account that has played no rated match becomes a bot account for good (one
that has is refused, 409); its profile says so; it seeks nothing and the pool skips a seek
it had; the people's leaderboard and the bots' are apart; with ``challenge:write`` a token
sends, accepts and declines challenges (no cookie, no Origin), ``challenge:read`` lists
them, a token without the scope is refused (403). The account's rules on SQLite and on
PostgreSQL, eight upgrades at once included."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.store.accounts import name_key
from spacetable.server.store.meetings import Seek, new_id
from spacetable.server.store.storage import StoredMatch
from tests._postgres import postgres_schema
from tests.server.http._client import ORIGIN, bearer, login, services, serving

#: Another site's Origin: the tokens' headers carry it (a token needs no Origin check).
ELSEWHERE = "https://elsewhere.example"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "bots.db") as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
def either(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The application on SQLite, then on PostgreSQL (skipped without one)."""
    if request.param == "sqlite":
        with serving(tmp_path / "bots.db") as running:
            yield running
        return
    with postgres_schema() as url, serving(url) as running:
        yield running


def rated_match(client: TestClient, match_id: str, winner: str, loser: str) -> None:
    """A rated Light Speed match between two accounts, stored (and rated)."""
    seats = [
        {"kind": "human", "player": n, "name": n, "registered": True, "account": name_key(n)}
        for n in (winner, loser)
    ]
    result = {"scores": {winner: 3, loser: 1}, "winner": winner}
    match = StoredMatch(match_id, "r", "lightspeed", {}, seats, 1, [], [], result, 1.0, 1.0)
    services(client).storage.save(match)


def test_an_account_without_rated_matches_becomes_a_bot_for_good(either: TestClient) -> None:
    client = either
    ann = login(client, "Ann")
    robo = bearer(client, ann, "bot:play", origin=ELSEWHERE)
    assert client.get("/api/bot/account", headers=robo).json()["bot"] is False
    assert client.get("/api/players/Ann").json()["bot"] is False
    made = client.post("/api/bot/account/upgrade", headers=robo)
    assert made.status_code == 200, made.text
    assert made.json() == {"name": "Ann", "bot": True}
    again = client.post("/api/bot/account/upgrade", headers=robo)  # idempotent
    assert again.status_code == 200 and again.json() == {"name": "Ann", "bot": True}
    assert client.get("/api/bot/account", headers=robo).json()["bot"] is True
    assert client.get("/api/players/Ann").json()["bot"] is True

    bob, cyd = login(client, "Bob"), login(client, "Cyd")
    rated_match(client, "m1", "Bob", "Cyd")
    refused = client.post("/api/bot/account/upgrade", headers=bob | {"origin": ORIGIN})
    assert refused.status_code == 409
    assert "has played a rated match" in refused.json()["detail"]
    assert client.get("/api/players/Bob").json()["bot"] is False
    # Another site's page with Cyd's cookie; a token without bot:play; nobody.
    foreign = client.post("/api/bot/account/upgrade", headers=cyd | {"origin": ELSEWHERE})
    assert foreign.status_code == 403
    reader = bearer(client, cyd, "challenge:read", origin=ELSEWHERE)
    lacking = client.post("/api/bot/account/upgrade", headers=reader)
    assert lacking.status_code == 403 and "bot:play" in lacking.json()["detail"]
    assert client.post("/api/bot/account/upgrade").status_code == 401
    assert client.get("/api/players/Cyd").json()["bot"] is False


def test_a_bot_account_seeks_nothing_and_ranks_apart(either: TestClient) -> None:
    client = either
    ann, bob = login(client, "Ann"), login(client, "Bob")
    login(client, "Cyd")
    meetings = services(client).meetings
    assert meetings is not None
    # A seek of Ann's from before she was a bot: the pool never pairs it.
    old = Seek(new_id(), "ann", "Ann", "lightspeed", 2, False, 24.0, 0.0, None, None, 1.0)
    meetings.add_seek(old)
    assert [s.player for s in meetings.waiting()] == ["ann"]
    assert client.post("/api/bot/account/upgrade", headers=ann).status_code == 200
    assert meetings.waiting() == []
    seek = client.post("/api/seeks", json={"game": "lightspeed", "rated": False}, headers=ann)
    assert seek.status_code == 403
    assert "never in the quick pairing" in seek.json()["detail"]
    rated_match(client, "m1", "Ann", "Bob")  # a bot against a person
    rated_match(client, "m2", "Cyd", "Bob")
    people = client.get("/api/leaderboard/lightspeed").json()
    assert people["bots"] is False
    assert [p["name"] for p in people["players"]] == ["Cyd", "Bob"]
    bots = client.get("/api/leaderboard/lightspeed", params={"bots": 1}).json()
    assert bots["bots"] is True
    assert [p["name"] for p in bots["players"]] == ["Ann"]
    assert (
        client.post(
            "/api/seeks", json={"game": "lightspeed", "rated": False}, headers=bob
        ).status_code
        == 201
    )


def challenge(client: TestClient, by: dict[str, str], to: str) -> Any:
    return client.post(
        "/api/challenges", json={"to": to, "game": "lightspeed", "rated": True}, headers=by
    )


def test_a_bot_s_token_sends_lists_accepts_and_declines_challenges(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    reader = bearer(client, ann, "challenge:read", origin=ELSEWHERE)
    writer = bearer(client, ann, "challenge:write", origin=ELSEWHERE)
    lacking = challenge(client, reader, "Bob")
    assert lacking.status_code == 403 and "challenge:write" in lacking.json()["detail"]
    sent = challenge(client, writer, "Bob")
    assert sent.status_code == 201, sent.text
    first = challenge(client, bob | {"origin": ORIGIN}, "Ann").json()["id"]
    second = challenge(client, bob | {"origin": ORIGIN}, "Ann").json()["id"]
    listed = client.get("/api/challenges", headers=reader)
    assert listed.status_code == 200, listed.text
    assert {c["id"] for c in listed.json()["in"]} == {first, second}
    assert [c["id"] for c in listed.json()["out"]] == [sent.json()["id"]]
    assert client.post(f"/api/challenges/{first}/accept", headers=reader).status_code == 403
    accepted = client.post(f"/api/challenges/{first}/accept", headers=writer)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["room"] in services(client).directory._rooms
    declined = client.post(
        f"/api/challenges/{second}/decline", json={"reason": "later"}, headers=writer
    )
    assert declined.status_code == 204, declined.text
    assert client.get("/api/challenges", headers=reader).json()["in"] == []
    bad = {"authorization": "Bearer spt_nothing", "origin": ELSEWHERE}
    assert client.get("/api/challenges", headers=bad).status_code == 401
    # A cookie from another site's page is still refused.
    assert challenge(client, bob | {"origin": ELSEWHERE}, "Ann").status_code == 403


def test_parallel_upgrades_of_one_account_all_answer_it_is_a_bot(either: TestClient) -> None:
    client = either
    robo = bearer(client, login(client, "Ann"), "bot:play", origin=ELSEWHERE)

    def upgrade(_: int) -> tuple[int, Any]:
        answer = client.post("/api/bot/account/upgrade", headers=robo)
        return answer.status_code, answer.json()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(upgrade, range(8)))
    assert answers == [(200, {"name": "Ann", "bot": True})] * 8
    book = services(client).ratings.bots
    assert book.bots_among(["ann", "bob"]) == {"ann"}
