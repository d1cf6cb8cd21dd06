"""A Swiss tournament survives its server's kill -9 (issue 71): over the board, four
players, two rounds. Killed in the middle of round 1 (one table's result reported, not
confirmed; the other unplayed) and again between rounds: each time the next server has
the same standings and pairings, the report waits for its confirmation, and the rounds go
on to the finish. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from spacetable.server.store.storage import Storage
from spacetable.server.store.tournaments import TournamentStore
from tests._accounts import session_cookie
from tests._server import ProcessServer
from tests.server.durable._restart import db, kill, servers, start

__all__ = ["db"]


def call(server: ProcessServer, path: str, cookie: str | None = None, body: Any = None) -> Any:
    """``POST`` ``body`` (``GET`` without one) as the account of ``cookie``: the status
    and the JSON answer (``None``: no body)."""
    headers = {"content-type": "application/json"} | ({"cookie": cookie} if cookie else {})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.http + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def codes(url: str, tid: str) -> dict[tuple[int, int], tuple[tuple[int, ...], str | None]]:
    """Each table's seats and code, as the director's printed pairings have them."""
    storage = Storage(url)
    try:
        return {(t.round, t.table): (t.seats, t.code) for t in TournamentStore(storage).tables(tid)}
    finally:
        storage.close()


def test_a_tournament_survives_kill_9_mid_round_and_between_rounds(db: str) -> None:
    with servers() as started:
        first = start(db)
        started.append(first)
        names = ("Director", "Ann", "Bob", "Cid", "Dan")
        cookie = {n: session_cookie(first.http, n) for n in names}
        body = {"name": "Club night", "game": "ftl", "rounds": 2, "venue": "board"}
        status, made = call(first, "/api/tournaments", cookie["Director"], body)
        assert status == 201, made
        tid = made["id"]
        for n in names[1:]:
            assert call(first, f"/api/tournaments/{tid}/join", cookie[n], {})[0] == 200
        assert call(first, f"/api/tournaments/{tid}/start", cookie["Director"], {})[0] == 200
        tables = codes(db, tid)
        (seats, code), (other_seats, _) = tables[(1, 1)], tables[(1, 2)]
        by_number = dict(enumerate(names[1:], 1))
        reporter, confirmer = (by_number[n] for n in seats)
        url = f"/api/tournaments/{tid}/tables/1/1"
        assert (
            call(first, f"{url}/report", cookie[reporter], {"code": code, "result": "1-0"})[0]
            == 202
        )
        before = call(first, f"/api/tournaments/{tid}")[1]
        kill(first)  # in the middle of round 1

        second = start(db)
        started.append(second)
        assert call(second, f"/api/tournaments/{tid}")[1] == before
        assert call(second, f"{url}/confirm", cookie[confirmer], {"code": code})[0] == 204
        status, _ = call(
            second,
            f"/api/tournaments/{tid}/results",
            cookie["Director"],
            {"round": 1, "table": 2, "result": "1/2-1/2"},
        )
        assert status == 204
        between = call(second, f"/api/tournaments/{tid}")[1]
        assert between["round"] == 2 and between["status"] == "running"
        assert [p["result"] for p in between["pairings"] if p["round"] == 1] == ["1-0", "1/2-1/2"]
        kill(second)  # between rounds (round 2 paired, nothing played)

        third = start(db)
        started.append(third)
        assert call(third, f"/api/tournaments/{tid}")[1] == between
        round_two = [p for p in between["pairings"] if p["round"] == 2]
        assert {frozenset(p["seats"]) for p in round_two}.isdisjoint(
            {frozenset(by_number[n] for n in s) for s in (seats, other_seats)}
        )
        for p in round_two:
            answer = call(
                third,
                f"/api/tournaments/{tid}/results",
                cookie["Director"],
                {"round": 2, "table": p["table"], "result": "0-1"},
            )
            assert answer[0] == 204
        final = call(third, f"/api/tournaments/{tid}")[1]
        assert final["status"] == "finished"
        assert sum(line["score"] for line in final["players"]) == 4.0
