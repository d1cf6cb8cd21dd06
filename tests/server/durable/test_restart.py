"""A room outlives its process: kill -9 the server mid-match, start another on the same
database, and the players' sockets take their seats back with their tokens and play the
match to its end, whose stored result is what a replay of its actions reaches.

Light Speed in its placing round (cards in hand, cards down), Faster Than Light with one
plot in and still secret, and the hex fleet mid-turn against a bot; each on SQLite and on
PostgreSQL (when ``SPACETABLE_TEST_POSTGRES_URL`` is set).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from spacetable.core.replays import replay_record
from spacetable.games.ftl import FtlMatch
from spacetable.games.hexfleet import HexMatch
from spacetable.games.lightspeed import LightSpeedMatch
from tests._laser_play import free_spot, play_to_the_battle
from tests._server import Client, seated
from tests.server.durable._restart import db, kill, rejoined, servers, start, token_of
from tests.server.rooms.test_server_hexfleet import active_ship, simple_action

#: Each test starts two server processes (the one killed, the one after it): on a busy
#: machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)

__all__ = ["db"]  # the fixture


def _state(client: Client, when: Any = None) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and (when is None or when(m)))


def _place(client: Client, rng: random.Random) -> dict[str, Any]:
    """Place the card in hand; the state after it (the ``placed`` message folded in)."""
    state = client.state
    assert state is not None
    version = state["version"]
    client.send(type="place", **free_spot(state, rng))
    return _state(client, lambda m: m["version"] > version and m["player"] is not None)


def _play_lightspeed(clients: list[Client], rng: random.Random) -> dict[str, Any]:
    """Both players place at random free spots (discarding at stop) until the battle."""
    latest: dict[int, dict[str, Any]] = {}
    for i, client in enumerate(clients):
        assert client.state is not None
        latest[i] = client.state
    battles = play_to_the_battle(dict(enumerate(clients)), latest, seed=rng.randrange(2**31))
    assert battles[0]["result"] == battles[1]["result"]
    return battles[0]


def _replays_exactly(stored: dict[str, Any], match_type: Any) -> None:
    """The stored result is the one a replay of the stored actions from the seed reaches
    (a laser battle's events are stored beside its result: compared with them)."""
    if stored["ruleset"] in ("lightspeed", "stellar"):
        stored = {**stored, "result": {**stored["result"], "events": stored["events"]}}
    replayed = replay_record(stored, match_type)
    assert replayed.exact, (replayed.result, stored["result"])


def test_a_light_speed_round_goes_on_after_a_kill(db: str) -> None:
    rng = random.Random(3)
    with servers() as started:
        first = start(db, room_seed=41)
        started.append(first)
        room = first.create_room()
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        tokens = [token_of(c) for c in (ann, bob)]
        ann.send(type="ready")
        bob.send(type="ready")
        for client in (ann, bob):
            _state(client, lambda m: m["phase"] == "fast")
        for _ in range(2):
            _place(ann, rng)
            _place(bob, rng)
        assert ann.state is not None
        before = (
            ann.state if ann.state["version"] == 4 else _state(ann, lambda m: m["version"] == 4)
        )
        table = before["table"]
        cards = [card for card in table if card.get("owner")]
        assert len(cards) == 4  # and the asteroid
        kill(first)

        second = start(db)
        started.append(second)
        ann, bob = rejoined(second, room, tokens[0]), rejoined(second, room, tokens[1])
        again = _state(ann)
        # The same seat, hand and table: the match replayed to where it stood.
        assert again["player"] == "Ann" and again["phase"] == "fast"
        assert again["version"] == 4 and again["table"] == table
        assert again["hand"] == before["hand"]
        assert again["t"] >= before["t"] - 0.001  # the clock resumes, never runs back
        _state(bob)
        battle = _play_lightspeed([ann, bob], rng)
        stored = second.stored_match(battle["match_id"])
        assert stored["seed"] == 41
        assert [a["x"] for a in stored["actions"][:4]] == [c["x"] for c in cards]
        _replays_exactly(stored, LightSpeedMatch)


def test_an_ftl_turn_mid_plot_goes_on_after_a_kill(db: str) -> None:
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=2, plot_timer_s=120)
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        tokens = [token_of(c) for c in (ann, bob)]
        ann.send(type="ready")
        bob.send(type="ready")
        _state(ann, lambda m: m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:R+45"])
        left = _state(ann, lambda m: m["plot"] == ["Ann:R+45"])["plot_seconds_left"]
        _state(bob, lambda m: m["players"]["Ann"]["plotted"])
        kill(first)

        second = start(db)
        started.append(second)
        ann, bob = rejoined(second, room, tokens[0]), rejoined(second, room, tokens[1])
        mine, theirs = _state(ann), _state(bob)
        # Ann's plot is in, still hers alone; the plot timer resumes with what it had.
        assert mine["plot"] == ["Ann:R+45"] and mine["players"]["Ann"]["plotted"] is True
        assert theirs["plot"] is None and theirs["players"]["Ann"]["plotted"] is True
        assert not any("R+45" in str(m) for m in bob.received)
        assert left - 1 <= theirs["plot_seconds_left"] <= left
        bob.send(type="plot", orders=["Bob:S2"])
        turn = ann.wait_type("turn")
        revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
        assert revealed == {"Ann": ["Ann:R+45"], "Bob": ["Bob:S2"]}
        _state(ann, lambda m: m["turn"] == 2)
        ann.send(type="plot", orders=["Ann:S2"])
        bob.send(type="plot", orders=["Bob:S1"])
        result = ann.wait_type("result")
        stored = second.stored_match(result["match_id"])
        assert len(stored["actions"]) == 4
        _replays_exactly(stored, FtlMatch)


def test_a_hex_battle_mid_turn_goes_on_after_a_kill(db: str) -> None:
    with servers() as started:
        first = start(db, "--bot-pace", "0.05", "--message-rate", "0", room_seed=5)
        started.append(first)
        room = first.create_room(ruleset="hexfleet", scenario="duel", turn_limit=4)
        ann = seated(first, room, "Ann")
        token = token_of(ann)
        ann.send(type="bot", seat=1, level="easy")
        ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
        ann.send(type="ready")
        acted = 0
        state = _state(ann, lambda m: m["phase"] in ("activation", "over"))
        while acted < 2:  # two of Ann's actions stored, mid-battle
            ship = active_ship(state)
            if ship is not None and ship["owner"] == "Ann":
                ann.send(type="act", action=simple_action(state))
                assert ann.wait(lambda m: m["type"] in ("acted", "refused"))["type"] == "acted"
                acted += 1
            state = _state(ann)
        assert state["phase"] != "over"
        version = state["version"]
        kill(first)

        second = start(db, "--bot-pace", "0.05", "--message-rate", "0")
        started.append(second)
        ann = rejoined(second, room, token)
        state = _state(ann)
        assert state["version"] >= version  # the bot may act again as soon as it is back
        while state["phase"] != "over":
            ship = active_ship(state)
            if ship is not None and ship["owner"] == "Ann":
                ann.send(type="act", action=simple_action(state))
            state = _state(ann)
        result = ann.wait_type("result")
        stored = second.stored_match(result["match_id"])
        assert stored["seed"] == 5
        _replays_exactly(stored, HexMatch)
