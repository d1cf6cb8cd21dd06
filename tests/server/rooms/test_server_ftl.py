"""Faster Than Light rooms against a real server: secret simultaneous plots.

A plot never reaches another socket before its turn resolves (players and spectators alike);
everyone sees who has plotted; a plot can be taken back until the last is in; the plot timer
resolves a turn with the plots that are in; bots plot through the registry; a finished duel
is stored and replays exactly from its seed and action log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from spacetable.games.ftl import FtlMatch
from spacetable.server.rooms.plots import playback_seconds
from tests._golden import matches_golden, room_log_path
from tests._server import Client, Server, running_server, seated

#: The seed of the module server's first room, the duel against the hard bot (created
#: first, whatever tests run); the other tests' rooms take the following seeds.
ROOM_SEED = 11


@dataclass(frozen=True)
class Seeded:
    """The server, and the room of the duel against the bot (seed :data:`ROOM_SEED`)."""

    server: Server
    duel: str


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(db, "--bot-pace", "0.05", room_seed=ROOM_SEED) as running:
        yield Seeded(running, ftl_room(running, turn_limit=4))


@pytest.fixture(scope="module")
def server(seeded: Seeded) -> Server:
    return seeded.server


def ftl_room(server: Server, **options: Any) -> str:
    return server.create_room(ruleset="ftl", **options)


def started(server: Server, **options: Any) -> tuple[str, Client, Client]:
    room = ftl_room(server, **options)
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    for client in (ann, bob):
        client.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    return room, ann, bob


def plotted(client: Client, player: str, flag: bool = True) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and m["players"][player]["plotted"] is flag)


def leaked(client: Client, secret: str) -> bool:
    """Whether any message the client received so far holds ``secret``."""
    return any(secret in json.dumps(m) for m in client.received)


def test_the_room_says_how_it_is_paced_and_with_which_options(server: Server) -> None:
    room = ftl_room(server, seats=3, missiles=4, turn_limit=20, plot_timer_s=90)
    watcher = Client(server, room)
    message = watcher.wait_type("room")
    assert message["ruleset"] == "ftl" and message["pacing"] == "plots"
    assert message["options"] == {
        "ruleset": "ftl",
        "seats": 3,
        "table_size_in": [24.0, 24.0],
        "missiles": 4,
        "turn_limit": 20,
        "plot_timer_s": 90.0,
    }
    games = {g["key"]: g for g in server.get("/api/games")}
    assert games["ftl"]["pacing"] == "plots" and "hard" in games["ftl"]["bot_levels"]
    assert games["lightspeed"]["pacing"] == "realtime"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"ruleset": "ftl", "seats": 5}, "seats"),
        ({"ruleset": "ftl", "missiles": -1}, "missiles"),
        ({"ruleset": "ftl", "table_size_in": [48]}, "table_size_in"),
        ({"ruleset": "ftl", "plot_timer_s": 0}, "plot_timer_s"),
        ({"ruleset": "ftl", "asteroids": "single"}, "asteroids"),
        ({"ruleset": "hexes"}, "ruleset"),
        # This server has a room seed, so a room may name its own: a whole one in 31 bits.
        ({"ruleset": "ftl", "seed": -1}, "seed: must be an integer from 0 to 2147483647"),
        ({"ruleset": "ftl", "seed": 2**31}, "seed"),
        ({"ruleset": "ftl", "seed": "5"}, "seed"),
        ({"ruleset": "ftl", "seed": True}, "seed"),
        ({"ruleset": "ftl", "seed": 1.5}, "seed"),
    ],
)
def test_a_room_with_bad_options_is_refused_naming_the_option(
    server: Server, body: dict[str, Any], problem: str
) -> None:
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/rooms", body)
    assert refused.value.code == 422
    assert problem in json.load(refused.value)["detail"]


def test_a_plot_never_reaches_another_socket_before_the_turn_resolves(server: Server) -> None:
    room, ann, bob = started(server)
    spectator = Client(server, room)
    spectator.wait_type("state")
    ann.send(type="plot", orders=["Ann:R+45"])
    own = plotted(ann, "Ann")
    assert own["plot"] == ["Ann:R+45"]
    seen = plotted(bob, "Ann")
    assert seen["plot"] is None and seen["players"]["Ann"]["plotted"] is True
    plotted(spectator, "Ann")
    # Ann changes her mind, takes it back, plots again: still nobody else sees it.
    ann.send(type="plot", orders=["Ann:S3"])
    ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:S3"])
    ann.send(type="unplot")
    plotted(bob, "Ann", False)
    ann.send(type="plot", orders=["Ann:R-90"])
    plotted(bob, "Ann")
    for client in (bob, spectator):
        # The whole order is the secret: a bare "S3" can be part of a random room id.
        assert not leaked(client, "Ann:R+45") and not leaked(client, "Ann:S3")
        assert not leaked(client, "Ann:R-90")
    bob.send(type="plot", orders=["Bob:S2"])
    turn = bob.wait_type("turn")
    spectator.wait_type("turn")
    revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
    assert revealed == {"Ann": ["Ann:R-90"], "Bob": ["Bob:S2"]}
    assert turn["turn"] == 1 and [p["id"] for p in turn["before"]] == ["Ann", "Bob"]
    after = bob.wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    ships = {p["id"]: p for p in after["pieces"]}
    assert ships["Ann"]["heading"] == 90  # counter-clockwise, heading grows
    assert ships["Bob"]["y"] != turn["before"][1]["y"]  # Bob sprinted 2 in
    assert after["plot"] is None and not any(p["plotted"] for p in after["players"].values())


def test_an_illegal_plot_is_refused_naming_the_piece_and_the_order(server: Server) -> None:
    _, ann, bob = started(server)
    ann.send(type="plot", orders=["Ann:S9"])
    refused = ann.wait_type("refused")
    assert refused["action"] == "plot"
    assert "'Ann'" in refused["reason"] and "S9" in refused["reason"]
    ann.send(type="plot", orders=["Bob:S2"])
    assert "Bob's" in ann.wait_type("refused")["reason"]
    ann.send(type="unplot")
    assert "no plot" in ann.wait_type("refused")["reason"]
    ann.send(type="place", x=0, y=0, rotation=0)
    assert "plotting orders" in ann.wait_type("refused")["reason"]
    ann.send(type="plot", orders="Ann:S2")
    assert "orders" in ann.wait_type("error")["message"]
    # Nothing of it reached Bob, and the turn still waits for both plots.
    assert not any(m["type"] in ("turn", "refused") for m in bob.received)


def test_the_plot_timer_resolves_the_turn_with_the_plots_that_are_in(server: Server) -> None:
    _, ann, bob = started(server, plot_timer_s=1.0)
    state = ann.wait_type("state") if ann.state is None else ann.state
    assert state["plot_seconds_left"] is not None and state["plot_seconds_left"] <= 1.0
    ann.send(type="plot", orders=["Ann:S4"])
    turn = bob.wait(lambda m: m["type"] == "turn", timeout=10)
    revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
    assert revealed == {"Ann": ["Ann:S4"], "Bob": []}  # Bob's ship did nothing
    assert not any(e["type"] in ("tape", "rotate") and e["piece"] == "Bob" for e in turn["events"])
    # The next turn has its own timer, and runs out too.
    second = bob.wait(lambda m: m["type"] == "turn" and m["turn"] == 2, timeout=10)
    assert [e["orders"] for e in second["events"] if e["type"] == "plot"] == [[], []]


def test_the_plot_timer_waits_while_the_last_turn_plays_out(server: Server) -> None:
    # Issue 20 item 7: the players watch turn 1 play out before they plot turn 2; the
    # server holds turn 2's timer back by that playback (at normal speed), so the seconds
    # left when they can plot are the timer's.
    _, ann, bob = started(server, plot_timer_s=30, turn_limit=2)
    ann.send(type="plot", orders=["Ann:S8"])
    bob.send(type="plot", orders=["Bob:R+45"])
    turn = ann.wait_type("turn")
    state = ann.wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    playback = playback_seconds(turn["events"])
    assert playback == pytest.approx(1.01 + 8 / 6 + 0.26 + 0.65, abs=0.001)  # turn, tape, jump
    assert 30 < state["plot_seconds_left"] <= 30 + playback
    assert state["plot_deadline"] == pytest.approx(
        state["t"] + state["plot_seconds_left"], abs=0.01
    )


def test_at_the_plot_timer_a_draft_is_plotted_and_replays(server: Server) -> None:
    # Issue 20 item 7: a player who wrote orders but did not press Submit is not left
    # with "no orders" when the timer runs out: the draft he sent last is his plot.
    _, ann, bob = started(server, plot_timer_s=1.5, turn_limit=1)
    ann.send(type="draft", orders=["Ann:S2"])
    ann.send(type="draft", orders=["Ann:R+30"])  # he changes his mind: the last counts
    ann.send(type="draft", orders=["Ann:R+10"])  # not an order: refused, the last stays
    refused = ann.wait_type("refused")
    assert refused["action"] == "draft" and "'R+10'" in refused["reason"]
    ann.send(type="draft", orders=["Bob:S2"])  # not his piece
    assert "Bob" in ann.wait_type("refused")["reason"]
    turn = bob.wait(lambda m: m["type"] == "turn", timeout=10)
    revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
    assert revealed == {"Ann": ["Ann:R+30"], "Bob": []}
    assert not any("R+30" in json.dumps(m) for m in bob.received[: bob.received.index(turn)])
    result = ann.wait_type("result")
    stored = server.stored_match(result["match_id"])
    plots = [a for a in stored["actions"] if a["type"] == "plot"]
    assert [(a["player"], a["orders"]) for a in plots] == [("Ann", ["Ann:R+30"])]
    assert FtlMatch.from_record(stored).pieces["Ann"].heading == -30  # R+30: clockwise


def test_a_duel_against_a_bot_is_stored_and_replays_exactly(seeded: Seeded) -> None:
    server, room = seeded.server, seeded.duel
    ann = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="nonsense")
    assert "choose one of" in ann.wait_type("error")["message"]
    ann.send(type="bot", seat=1, level="hard")
    ann.send(type="ready")
    turns = []
    while True:
        message = ann.wait(lambda m: m["type"] in ("state", "result"), timeout=30)
        if message["type"] == "result":
            break
        if message["phase"] == "plot" and not message["players"]["Ann"]["plotted"]:
            ann.send(type="plot", orders=["Ann:R+15"] if message["turn"] % 2 else ["Ann:S1.5"])
            turns.append(message["turn"])
    result = message["result"]
    assert result["reason"] in ("turn-limit", "last-ship", "no-ships")
    stored = server.stored_match(message["match_id"])
    assert stored["ruleset"] == "ftl" and stored["result"]["turns"] == result["turns"]
    assert [p["id"] for p in stored["result"]["start"]] == ["Ann", "hard bot"]
    turn_marks = [e["turn"] for e in stored["events"] if e["type"] == "turn"]
    assert turn_marks == list(range(1, result["turns"] + 1))
    replayed = FtlMatch.from_record(stored)
    final = replayed.result()
    assert final is not None and final.to_json() == {
        k: v for k, v in result.items() if k != "ending_by"
    }
    assert [p.to_json() for p in replayed.pieces.values()] == stored_final(ann)
    # The seeded duel is the same on every run: every turn's plots and events, the result.
    assert stored["seed"] == ROOM_SEED
    played = {
        "seed": stored["seed"],
        "options": stored["options"],
        "actions": [{k: v for k, v in a.items() if k != "t"} for a in stored["actions"]],
        "events": stored["events"],
        "result": result,
    }
    assert matches_golden(room_log_path("ftl", ROOM_SEED), played)


def stored_final(client: Client) -> list[dict[str, Any]]:
    """The pieces of the last state the client received."""
    assert client.state is not None
    pieces: list[dict[str, Any]] = client.state["pieces"]
    return pieces
