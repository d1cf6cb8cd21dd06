"""Swiss tournaments over HTTP (``http/tournaments.py``, ``meet/tournaments.py``,
``meet/swiss.py``, issue 71), in the test's process: a 9-player, 4-round FTL Swiss whose
results are recorded by the director's route (the bots' stand-in: each result drawn from
a seeded generator), with a late joiner and a withdrawal; its standings and tie-breaks
equal an independent computation written here; its TRF parses back; the refusals name
the problem and change nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.meet.tournaments import sweep
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.storage import StoredMatch
from tests._server import wait_until
from tests.server.http._client import login, services, serving


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "tournaments.db") as running:
        yield running


def create(client: TestClient, director: dict[str, str], **body: Any) -> str:
    asked = {"name": "Club night", "game": "ftl", "rounds": 4, "venue": "online"} | body
    made = client.post("/api/tournaments", json=asked, headers=director)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def show(client: TestClient, tid: str) -> dict[str, Any]:
    got = client.get(f"/api/tournaments/{tid}")
    assert got.status_code == 200, got.text
    return dict(got.json())


_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def independent(pairings: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """Scores, Buchholz and Sonneborn-Berger from the pairings alone (FIDE's virtual
    opponent for an unplayed round: as many points as the player)."""
    score = dict.fromkeys(names, 0.0)
    games: dict[str, list[tuple[str | None, float]]] = {n: [] for n in names}
    for p in pairings:
        if p["bye"]:
            got = 1.0 if p["source"] == "bye" else 0.5
            score[p["seats"][0]] += got
            games[p["seats"][0]].append((None, got))
            continue
        a, b = p["seats"]
        pa, pb = _POINTS[p["result"]]
        score[a] += pa
        score[b] += pb
        games[a].append((b, pa))
        games[b].append((a, pb))
    out = {}
    for n in names:
        buchholz = sum(score[o] if o else score[n] for o, _ in games[n])
        sb = sum((score[o] if o else score[n]) * got for o, got in games[n])
        out[n] = (score[n], buchholz, sb)
    return out


def test_nine_players_four_rounds_late_joiner_and_withdrawal(client: TestClient) -> None:
    director = login(client, "Director")
    tid = create(client, director)
    names = [f"Pilot{i}" for i in range(1, 10)]
    heads = {n: login(client, n) for n in names}
    for n in names:
        assert client.post(f"/api/tournaments/{tid}/join", headers=heads[n]).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    rng = random.Random(71)
    late, leaver = "Latecomer", "Pilot4"
    for round_ in range(1, 5):
        state = show(client, tid)
        assert state["round"] == round_ and state["status"] == "running"
        if round_ == 1:  # joined after round 1 was paired: a half-point bye for it
            heads[late] = login(client, late)
            joined = client.post(f"/api/tournaments/{tid}/join", headers=heads[late])
            assert joined.json() == {"number": 10, "byes": 1}
        tables = [p for p in state["pairings"] if p["round"] == round_ and not p["bye"]]
        assert all(p["room"] for p in tables)  # each table is a room, seats reserved
        if round_ == 1:
            mine = [p for p in show(client, tid)["pairings"] if late in p["seats"]]
            assert [(p["round"], p["source"]) for p in mine] == [(1, "late")]
        if round_ == 2:  # withdrawn during round 2: its game stands, he is not paired again
            left = client.post(f"/api/tournaments/{tid}/withdraw", headers=heads[leaver])
            assert left.status_code == 204
        for p in tables:
            result = rng.choice(["1-0", "0-1", "1/2-1/2"])
            done = client.post(
                f"/api/tournaments/{tid}/results",
                json={"round": round_, "table": p["table"], "result": result},
                headers=director,
            )
            assert done.status_code == 204, done.text
    final = show(client, tid)
    assert final["status"] == "finished" and final["round"] == 4
    pairings = final["pairings"]
    played = [frozenset(p["seats"]) for p in pairings if not p["bye"]]
    assert len(played) == len(set(played)), "a pair met twice"
    full_byes = [p["seats"][0] for p in pairings if p["source"] == "bye"]
    assert len(full_byes) == len(set(full_byes)) >= 2, full_byes
    assert not [p for p in pairings if p["round"] > 2 and leaver in p["seats"]]
    assert all(
        any(late in p["seats"] for p in pairings if p["round"] == r and not p["bye"])
        for r in (2, 3, 4)
    )
    everyone = [*names, late]
    expected = independent(pairings, everyone)
    lines = {line["name"]: line for line in final["players"]}
    for n in everyone:
        line = lines[n]
        got = (line["score"], line["tiebreaks"]["buchholz"], line["tiebreaks"]["sonneborn_berger"])
        assert got == pytest.approx(expected[n]), n
    assert lines[leaver]["withdrawn"]
    order = sorted(everyone, key=lambda n: (-expected[n][0], -expected[n][1], -expected[n][2]))
    assert [line["name"] for line in final["players"]][:3] == order[:3]
    # The TRF export parses back: one 001 line per player, his points at columns 81-84.
    trf = client.get(f"/api/tournaments/{tid}/trf").text.splitlines()
    assert trf[0] == "012 Club night" and "XXR 4" in trf
    points = {line[14:47].strip(): float(line[80:84]) for line in trf if line.startswith("001")}
    assert points == {n: expected[n][0] for n in everyone}


def test_refusals_name_the_problem_and_change_nothing(client: TestClient) -> None:
    director, ann, bob, cid, dan, eve = (
        login(client, n) for n in ("Director", "Ann", "Bob", "Cid", "Dan", "Eve")
    )
    bad = client.post(
        "/api/tournaments", json={"name": "x", "game": "ftl", "rounds": 0}, headers=director
    )
    assert bad.status_code == 400 and "rounds" in bad.json()["detail"]
    tid = create(client, director, rounds=2, venue="board")
    assert client.post(f"/api/tournaments/{tid}/join").status_code == 401
    for who in (ann, bob, dan, eve):
        client.post(f"/api/tournaments/{tid}/join", headers=who)
    assert client.post(f"/api/tournaments/{tid}/join", headers=ann).status_code == 409
    not_director = client.post(f"/api/tournaments/{tid}/start", headers=ann)
    assert not_director.status_code == 403 and "director" in not_director.json()["detail"]
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    before = show(client, tid)
    late = client.post(f"/api/tournaments/{tid}/join", headers=cid)
    assert late.status_code == 409 and "half the rounds" in late.json()["detail"]
    early = client.post(f"/api/tournaments/{tid}/pair", headers=director)
    assert early.status_code == 409 and "unfinished" in early.json()["detail"]
    nowhere = client.post(
        f"/api/tournaments/{tid}/results",
        json={"round": 1, "table": 5, "result": "1-0"},
        headers=director,
    )
    assert nowhere.status_code == 404 and "no table 5" in nowhere.json()["detail"]
    assert client.get("/api/tournaments/nope").status_code == 404
    assert show(client, tid) == before
    # Over the board: one player reports with the table's code, the other confirms.
    served = services(client)
    assert served.tournaments is not None
    printed = client.get(f"/api/tournaments/{tid}/codes", headers=director).json()["tables"]
    assert client.get(f"/api/tournaments/{tid}/codes", headers=ann).status_code == 403
    table = next(t for t in served.tournaments.tables(tid) if 1 in t.seats)  # Ann's
    assert {"round": 1, "table": table.table, "code": table.code, "report": None} in printed
    other = {2: bob, 3: dan, 4: eve}[next(n for n in table.seats if n != 1)]
    url = f"/api/tournaments/{tid}/tables/1/{table.table}"
    wrong = client.post(f"{url}/report", json={"code": "x", "result": "1-0"}, headers=ann)
    assert wrong.status_code == 403 and "code" in wrong.json()["detail"]
    odd = {"code": table.code, "result": "0-1", "photo_match": ["x"]}
    assert client.post(f"{url}/report", json=odd, headers=ann).status_code == 400
    body = {"code": table.code, "result": "0-1", "photo_match": "m1"}
    assert client.post(f"{url}/report", json=body, headers=ann).status_code == 202
    own = client.post(f"{url}/confirm", json={"code": table.code}, headers=ann)
    assert own.status_code == 403
    disputed = client.post(f"{url}/dispute", json={"code": table.code}, headers=other)
    assert disputed.status_code == 204
    shown = next(p for p in show(client, tid)["pairings"] if p["table"] == table.table)
    assert shown["report"]["result"] == "0-1" and shown["report"]["disputed_by"]
    assert shown["report"]["photo_match"] == "m1" and shown["result"] is None
    confirmed = client.post(f"{url}/confirm", json={"code": table.code}, headers=other)
    assert confirmed.status_code == 204, confirmed.text
    after = show(client, tid)
    assert [p["result"] for p in after["pairings"] if p["table"] == table.table] == ["0-1"]
    assert after["round"] == 1  # the other table is unplayed yet
    rest = next(t for t in served.tournaments.tables(tid) if 1 not in t.seats)
    done = client.post(
        f"/api/tournaments/{tid}/results",
        json={"round": 1, "table": rest.table, "result": "1/2-1/2"},
        headers=director,
    )
    assert done.status_code == 204
    assert show(client, tid)["round"] == 2  # the round's last result paired the next


def test_an_online_rounds_match_results_are_recorded_and_the_next_round_paired(
    client: TestClient,
) -> None:
    """Each table is a room whose seats wait for its players; when the rooms' matches
    are stored (on whichever process, before or after a restart) the sweep of the pairing
    pool's rounds records them (a claimed absence as a forfeit) and pairs round 2."""
    served = services(client)
    assert served.tournaments is not None
    director = login(client, "Director")
    tid = create(client, director, rounds=2)
    for n in ("Ann", "Bob", "Cid", "Dan"):
        client.post(f"/api/tournaments/{tid}/join", headers=login(client, n))
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    state = show(client, tid)
    tables = [p for p in state["pairings"] if p["round"] == 1]
    for p in tables:
        room = served.directory.get(p["room"])
        assert room is not None
        assert [(s.name, s.account) for s in room.seats] == [(n, n.lower()) for n in p["seats"]]
    first, second = tables
    for p, result in (
        (
            first,
            {"winner": first["seats"][1], "ending": "claimed", "ending_by": [first["seats"][0]]},
        ),
        (second, {"winner": None, "reason": "the players agreed a draw", "ending": "agreed_draw"}),
    ):
        served.storage.save(
            StoredMatch(
                f"m-{p['room']}",
                p["room"],
                "ftl",
                {},
                [{"player": name} for name in p["seats"]],
                1,
                [],
                [],
                result,
            )
        )
    client.portal.call(sweep, served.tournaments, served, served.hub)  # type: ignore[union-attr]
    after = show(client, tid)
    done = {p["table"]: (p["result"], p["source"]) for p in after["pairings"] if p["round"] == 1}
    assert done == {first["table"]: ("0-1", "forfeit"), second["table"]: ("1/2-1/2", "played")}
    assert after["round"] == 2 and all(p["room"] for p in after["pairings"] if p["round"] == 2)


def test_each_paired_player_is_told_his_table_or_his_bye(client: TestClient) -> None:
    """A round paired: a ``tournament_round`` notification for each of its players, his
    table's page (over the board) or the tournament's (a bye), in his language."""
    director = login(client, "Director")
    tid = create(client, director, name="Friday Swiss", venue="board", rounds=2)
    heads = {n: login(client, n) for n in ("Ann", "Bob", "Cyd")}
    for head in heads.values():
        assert client.post(f"/api/tournaments/{tid}/join", headers=head).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200

    def told(name: str, lang: str = "") -> list[dict[str, Any]]:
        got = client.get(f"/api/notifications{lang}", headers=heads[name]).json()["items"]
        return [i for i in got if i["kind"] == "tournament_round"]

    wait_until(lambda: all(told(n) for n in heads), "the players told of round 1")
    pairings = show(client, tid)["pairings"]
    for p in pairings:
        for name in p["seats"]:
            (item,) = told(name)
            if p["bye"]:
                assert item["url"] == f"/tournaments/{tid}"
                assert item["text"] == "Friday Swiss: round 1 is paired: you have a bye."
            else:
                assert item["url"] == f"/tournaments/{tid}/tables/1/{p['table']}"
                assert item["text"] == (
                    f"Friday Swiss: round 1 is paired: you play at table {p['table']}."
                )
                (french,) = told(name, "?lang=fr")
                assert french["text"] == (
                    f"Friday Swiss\u00a0: la ronde 1 est appariée\u00a0: "
                    f"vous jouez à la table {p['table']}."
                )
    assert not [
        i for i in client.get("/api/notifications", headers=director).json()["items"]
    ]  # the director does not play


def test_a_paired_player_who_does_not_come_loses_by_forfeit(client: TestClient) -> None:
    """Online, the seats of a table's room wait for its players as long as the room's
    absence rules say (a seat's abandon timer, on the server's clock): one who never
    comes loses by forfeit, the one who came wins; at a table nobody came to, both lose
    (0-0, no points); then the next round is paired."""
    served = services(client)
    assert served.tournaments is not None
    director = login(client, "Director")
    tid = create(client, director, rounds=2)
    for n in ("Ann", "Bob", "Cid", "Dan"):
        client.post(f"/api/tournaments/{tid}/join", headers=login(client, n))
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    first, second = [p for p in show(client, tid)["pairings"] if p["round"] == 1]
    here = first["seats"][1]  # the second seat's player comes to table 1; nobody to table 2
    room = served.directory.get(first["room"])
    assert room is not None
    page = Connection(lambda frame: True)
    page.account = here.lower()
    client.portal.call(room.connect, page)  # type: ignore[union-attr]
    wait_until(lambda: bool(room.seats[1].connections), "his page took his seat")

    def swept() -> dict[int, tuple[str | None, str]]:
        client.portal.call(sweep, served.tournaments, served, served.hub)  # type: ignore[union-attr]
        got = show(client, tid)["pairings"]
        return {p["table"]: (p["result"], p["source"]) for p in got if p["round"] == 1}

    # Before the absence rules run out nothing is recorded, however often the sweep runs.
    assert swept() == {1: (None, "played"), 2: (None, "played")}
    seconds = room.timing.abandon_seconds
    assert client.post("/api/test/clock", json={"advance": seconds + 1}).status_code == 200
    wait_until(lambda: room.seats[0].kind == "empty", "the absent seat given up")
    assert swept() == {1: ("0-1", "forfeit"), 2: ("0-0", "absent")}
    after = show(client, tid)
    standings = {p["name"]: p["score"] for p in after["players"]}
    assert standings[here] == 1 and standings[first["seats"][0]] == 0
    assert [standings[name] for name in second["seats"]] == [0, 0]
    assert after["round"] == 2  # every table of round 1 has its result
    # The TRF marks the forfeits (+ won, - lost): the pairing program sees them unplayed.
    lines = client.get(f"/api/tournaments/{tid}/trf").text.splitlines()
    round_one = {line[14:47].strip(): line[91:99] for line in lines if line.startswith("001")}
    tokens = {name: round_one[name][-1] for name in first["seats"] + second["seats"]}
    assert tokens == {first["seats"][0]: "-", here: "+"} | dict.fromkeys(second["seats"], "-")
