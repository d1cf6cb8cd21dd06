"""Issue 37's "done when" for correspondence play: a correspondence FTL match between two
accounts made over HTTP survives a server restart with nobody connected, resumes when
both open it, and a timeout passes a turn; three days on the server's test clock
(``--test-clock``, moved by ``POST /api/test/clock``: nothing sleeps for them)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests._accounts import session_cookie
from tests._server import Client, Server
from tests.server.durable._restart import database, kill, servers, start

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


def test_a_correspondence_ftl_match_across_three_days_and_a_restart(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as db, servers() as started:
        first = start(db, "--test-clock")
        started.append(first)
        cookies = {name: session_cookie(first.http, name) for name in ("Ann", "Bob")}
        room = first.create_room(ruleset="ftl", turn_hours=24)
        ann, bob = (Client(first, room, headers={"Cookie": cookies[n]}) for n in ("Ann", "Bob"))
        for client in (ann, bob):
            client.send(type="join", name="x")
            client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
            client.send(type="ready")
        plotting(ann, 1)

        # Day 1: Ann plots, Bob lets the day run out: his turn passes with no orders.
        ann.send(type="plot", orders=[])
        ann.wait(
            lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == ["Bob"]
        )
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
