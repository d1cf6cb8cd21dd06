"""Issue 37's "done when" for correspondence play: a correspondence FTL match between two
accounts made over HTTP survives a server restart with nobody connected, resumes when
both open it, and a timeout passes a turn; three days on the server's test clock
(``--test-clock``, moved by ``POST /api/test/clock``: nothing sleeps for them). After a
restart the turns run out with nobody opening the room (``rooms/deadlines.py``), on
SQLite and PostgreSQL."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests._accounts import session_cookie
from tests._server import Client, Server, wait_until
from tests.server.durable._restart import db, kill, servers, start

__all__ = ["db"]

DAY = 86_400


def my_games(server: Server, cookie: str) -> dict[str, Any]:
    request = urllib.request.Request(server.http + "/api/me/games", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=10) as response:
        found: dict[str, Any] = json.load(response)
    return found


def opened(server: Server, room: str, cookie: str) -> Client:
    """A socket opened with the account's cookie: it sits in the account's seat."""
    client = Client(server, room, headers={"Cookie": cookie})
    welcome = client.wait(lambda m: m["type"] == "welcome")
    assert welcome["role"] == "player", welcome
    return client


def day_passes(server: Server) -> None:
    """A day and a minute on the server's test clock (a day at most per move)."""
    server.post("/api/test/clock", {"advance": DAY})
    server.post("/api/test/clock", {"advance": 60})


def plotting(client: Client, turn: int) -> None:
    client.wait(lambda m: m["type"] == "state" and m["phase"] == "plot" and m["turn"] == turn)


def ann_plots_first(server: Server) -> tuple[dict[str, str], str, Client, Client]:
    """Ann and Bob (accounts made over HTTP) sit with their cookies in a new FTL room
    played by correspondence (24 h a turn); the match begins, Ann plots turn 1, and the
    room waits on Bob: their cookies, the room, their sockets."""
    cookies = {name: session_cookie(server.http, name) for name in ("Ann", "Bob")}
    room = server.create_room(ruleset="ftl", turn_hours=24)
    ann, bob = (Client(server, room, headers={"Cookie": cookies[n]}) for n in ("Ann", "Bob"))
    for client in (ann, bob):
        client.send(type="join", name="x")
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        client.send(type="ready")
    plotting(ann, 1)
    ann.send(type="plot", orders=[])
    ann.wait(
        lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == ["Bob"]
    )
    return cookies, room, ann, bob


def test_a_correspondence_ftl_match_across_three_days_and_a_restart(db: str) -> None:
    with servers() as started:
        first = start(db, "--test-clock")
        started.append(first)
        # Day 1: Ann plots, Bob lets the day run out: his turn passes with no orders.
        cookies, room, ann, bob = ann_plots_first(first)
        day_passes(first)
        timed = ann.wait_type("timed_out", timeout=60)
        assert (timed["players"], timed["missed"]) == (["Bob"], {"Bob": 1})
        assert ann.wait_type("turn")["turn"] == 1
        plotting(ann, 2)
        ann.close()
        bob.close()
        # Nobody connected: the server dies.
        kill(first)

        second = start(db, "--test-clock")
        started.append(second)
        # Storage answers for the room before anyone opens it: both are waited on.
        for name in ("Ann", "Bob"):
            listed = my_games(second, cookies[name])
            assert listed["waiting"] == 1
            assert [(g["room"], g["waiting_on_you"]) for g in listed["games"]] == [(room, True)]

        # Day 2: both open it (rebuilt), take their seats back by their accounts and play.
        ann, bob = opened(second, room, cookies["Ann"]), opened(second, room, cookies["Bob"])
        plotting(ann, 2)
        ann.send(type="plot", orders=[])
        bob.send(type="plot", orders=[])
        assert ann.wait_type("turn")["turn"] == 2
        plotting(bob, 3)

        # Day 3: Ann plots, Bob's time runs out again: his count began anew when he played.
        ann.send(type="plot", orders=[])
        ann.wait(
            lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == ["Bob"]
        )
        day_passes(second)
        timed = bob.wait_type("timed_out", timeout=60)
        assert (timed["players"], timed["missed"]) == (["Bob"], {"Bob": 1})
        assert bob.wait_type("turn")["turn"] == 3
        assert not [m for m in bob.received if m["type"] in ("absent", "result")]
        seats = bob.wait(lambda m: m["type"] == "room")["seats"]
        assert [(s["kind"], s["stand_in"], s["registered"]) for s in seats] == [
            ("human", False, True)
        ] * 2
        ann.close()
        bob.close()


def missed(server: Server, cookie: str) -> dict[str, int]:
    """The turns each player of the account's one unfinished match missed in a row."""
    games = my_games(server, cookie)["games"]
    assert len(games) == 1, games
    found: dict[str, int] = games[0]["missed"]
    return found


def test_turns_run_out_after_a_restart_with_nobody_opening_the_room(db: str) -> None:
    """Nobody opens the room after the restart: each day its turn runs out all the same
    (the server's deadline sweep), and at Bob's third timeout in a row he loses (C1): the
    match is stored, rated, and gone from both players' unfinished matches."""
    with servers() as started:
        first = start(db, "--test-clock")
        started.append(first)
        cookies, _, ann, bob = ann_plots_first(first)  # nobody plays after that
        ann.close()
        bob.close()
        kill(first)

        second = start(db, "--test-clock")
        started.append(second)
        assert missed(second, cookies["Ann"]) == {}
        # Day 1 runs out: Bob's turn passes, though nobody opened the room.
        day_passes(second)
        wait_until(lambda: missed(second, cookies["Ann"]) == {"Bob": 1}, "Bob's first timeout")
        listed = my_games(second, cookies["Bob"])["games"][0]
        assert sorted(listed["waiting_on"]) == ["Ann", "Bob"]  # turn 2's plot waits on both
        # Days 2 and 3: neither plots; Bob's third turn in a row runs out, Ann's second.
        day_passes(second)
        wait_until(lambda: missed(second, cookies["Ann"]) == {"Ann": 1, "Bob": 2}, "turn 2")
        day_passes(second)
        wait_until(lambda: my_games(second, cookies["Ann"])["games"] == [], "the match's end")
        assert my_games(second, cookies["Bob"]) == {"name": "Bob", "waiting": 0, "games": []}
        stored = second.get("/api/matches?player=Ann")
        assert [(m["winner"], m["ending"], m["ending_by"]) for m in stored] == [
            ("Ann", "timeout", ["Bob"])
        ]
        profile = second.get("/api/players/Bob")
        assert profile["ratings"]["ftl"]["losses"] == 1
