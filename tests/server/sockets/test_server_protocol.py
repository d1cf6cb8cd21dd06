"""The websocket protocol against a real ``spacetable serve`` process (docs/protocol.md)."""

from __future__ import annotations

import functools
import json
import random
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest

from spacetable.games.lightspeed import LightSpeedMatch
from spacetable.server.http.origins import origin, same_origin
from tests._laser_play import free_spot, play_to_the_battle
from tests._server import Client, Server, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(
        db, "--stop-seconds", "1.5", "--abandon-seconds", "1", "--bot-pace", "0.1"
    ) as running:
        yield running


def seated(server: Server, room: str, name: str) -> tuple[Client, dict[str, Any]]:
    client = Client(server, room)
    client.send(type="join", name=name)
    return client, client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")


def two_ready(server: Server) -> tuple[Client, Client]:
    """Ann and Bob seated in a new 2-seat room, both ready: the match starts."""
    room = server.create_room()
    ann, _ = seated(server, room, "Ann")
    bob, _ = seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    return ann, bob


def play_out(client: Client, rng: random.Random, first: dict[str, Any]) -> dict[str, Any]:
    """Place every card in hand at a random free spot (dropping at stop) until the battle."""
    message = first
    while message["type"] != "battle":
        if message["type"] == "state" and message["hand"] is not None:
            me = message["player"]
            if message["phase"] == "fast":
                client.send(type="pose", **free_spot(message, rng))
                client.send(type="place", **free_spot(message, rng))
            elif message["phase"] == "stop" and not message["players"][me]["decided"]:
                client.send(type="drop", **free_spot(message, rng))
        message = client.wait(lambda m: m["type"] in ("state", "battle"))
    return message


def test_a_full_two_player_match_is_stored_and_replays(server: Server) -> None:
    room = server.create_room()
    ann, welcome_ann = seated(server, room, "Ann")
    bob, welcome_bob = seated(server, room, "Bob")
    assert (welcome_ann["seat"], welcome_bob["seat"]) == (0, 1)
    assert welcome_ann["token"] != welcome_bob["token"]
    ann.send(type="ready")
    bob.send(type="ready")
    first_ann = ann.wait_type("state")
    first_bob = bob.wait_type("state")
    assert first_ann["phase"] == "fast" and first_ann["hand"] is not None
    # Each player plays at his own pace until both see the battle.
    battles = play_to_the_battle({"Ann": ann, "Bob": bob}, {"Ann": first_ann, "Bob": first_bob})
    assert battles["Ann"]["result"] == battles["Bob"]["result"]
    result = battles["Ann"]["result"]
    assert set(result["scores"]) == {"Ann", "Bob"}
    stop = ann.wait_type("room")  # the room is over: phase and match id
    assert stop["phase"] == "over" and stop["match_id"] == battles["Ann"]["match_id"]

    stored = server.stored_match(battles["Ann"]["match_id"])
    assert [seat["player"] for seat in stored["seats"]] == ["Ann", "Bob"]
    assert stored["events"] == result["events"]
    assert stored["result"]["scores"] == result["scores"]
    assert sum(a["type"] == "place" for a in stored["actions"]) >= 10
    times = [a["t"] for a in stored["actions"]]
    assert times == sorted(times)
    replayed = LightSpeedMatch.replay(
        LightSpeedMatch.options_from_json(
            {"players": ["Ann", "Bob"], "asteroids": "single", "rocks": None, "piracy": False}
        ),
        stored["seed"],
        stored["actions"],
    )
    outcome = replayed.result()
    assert outcome is not None
    assert outcome.to_json()["events"] == stored["events"]
    listed = server.get("/api/matches")
    assert any(m["id"] == stored["id"] for m in listed)
    ann.close()
    bob.close()


def test_a_refused_drop_says_why_and_changes_nothing(server: Server) -> None:
    room = server.create_room()
    ann, _ = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="random")
    ann.send(type="ready")
    state = ann.wait_type("state")
    hand = state["hand"]
    ann.send(type="place", x=10.0, y=20.0, rotation=0.0)  # on top of the asteroid
    refused = ann.wait_type("refused")
    assert refused["action"] == "place"
    assert "overlap the asteroid" in refused["reason"]
    ann.send(type="place", x=590.0, y=0.0, rotation=0.0)  # hangs off the table's edge
    assert "off the table" in ann.wait_type("refused")["reason"]
    ann.send(type="ping")
    ann.wait_type("pong")
    later = [m for m in ann.received if m["type"] == "state"]
    assert later[-1]["hand"] == hand
    assert all(c.get("owner") != "Ann" for c in later[-1]["table"])
    ann.close()


def test_the_stop_rule_freezes_the_other_hand_and_times_out(server: Server) -> None:
    ann, bob = two_ready(server)
    rng = random.Random(3)
    state = ann.wait_type("state")
    while state["phase"] == "fast" and state["hand"] is not None:
        ann.send(type="place", **free_spot(state, rng))
        left = state["players"]["Ann"]["cards_left"]
        state = ann.wait(functools.partial(_placed_one, cards_left=left))
    stop = bob.wait_type("stop")
    assert stop["by"] == "Ann" and stop["seconds"] == 1.5
    frozen = bob.wait(lambda m: m["type"] == "state" and m["phase"] == "stop")
    assert frozen["hand"] is not None and not frozen["players"]["Bob"]["decided"]
    bob.send(type="place", **free_spot(frozen, rng))
    assert "stop" in bob.wait_type("refused")["reason"]
    # Bob says nothing more: the countdown discards his card and the battle follows.
    battle = bob.wait_type("battle", timeout=10)
    assert not any(c.get("owner") == "Bob" for c in battle["table"]["cards"])
    assert len([c for c in battle["table"]["cards"] if c.get("owner") == "Ann"]) == 10
    ann.close()
    bob.close()


def _placed_one(message: dict[str, Any], cards_left: int) -> bool:
    return message["type"] == "state" and (
        message["players"]["Ann"]["cards_left"] < cards_left or message["hand"] is None
    )


def test_malformed_and_out_of_turn_messages_get_errors(server: Server) -> None:
    room = server.create_room()
    client = Client(server, room)
    client.wait_type("welcome")
    for raw, expected in [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "fly"}', "unknown message type 'fly'"),
        ('{"type": "place", "x": 1}', "y: Field required"),
        ('{"type": "join", "name": ""}', "name"),
        ('{"type": "place", "x": 1, "y": 2, "rotation": "left"}', "rotation"),
    ]:
        client.send_raw(raw)
        assert expected in client.wait_type("error")["message"]
    client.send(type="place", x=0, y=300, rotation=0)
    assert "seated players" in client.wait_type("error")["message"]
    client.send(type="ready")
    assert "seated" in client.wait_type("error")["message"]
    client.send(type="ping")
    client.wait_type("pong")
    assert server.get("/api/rooms")  # the server is still serving
    client.close()


def test_a_room_cannot_choose_its_seed_on_a_server_without_a_room_seed(server: Server) -> None:
    # Its players would know the deal: only a server started with --room-seed takes one.
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/rooms", {"seats": 2, "seed": 5})
    assert refused.value.code == 422
    detail = json.load(refused.value)["detail"]
    refused.value.close()
    assert detail.startswith("seed: ") and "--room-seed" in detail


def test_reconnecting_with_the_token_takes_back_the_seat(server: Server) -> None:
    room = server.create_room()
    ann, welcome = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="random")
    ann.send(type="ready")
    before = ann.wait_type("state")
    ann.close()
    again = Client(server, room)
    again.send(type="rejoin", token=welcome["token"])
    back = again.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    assert back["seat"] == 0 and back["player"] == "Ann"
    state = again.wait_type("state")
    assert state["player"] == "Ann" and state["hand"] is not None
    assert state["players"]["Ann"]["cards_left"] == before["players"]["Ann"]["cards_left"]
    again.send(type="rejoin", token="not-a-token")
    assert "no longer yours" in again.wait_type("error")["message"]
    again.close()


def test_spectators_see_the_match_but_cannot_play(server: Server) -> None:
    room = server.create_room()
    ann, _ = seated(server, room, "Ann")
    watcher = Client(server, room)
    watcher.send(type="watch")
    assert watcher.wait_type("welcome")["role"] == "spectator"
    ann.send(type="bot", seat=1, level="random")
    ann.send(type="ready")
    state = watcher.wait_type("state")
    assert state["player"] is None and state["hand"] is None
    watcher.send(type="place", x=0, y=300, rotation=0)
    assert "seated players" in watcher.wait_type("error")["message"]
    placed = watcher.wait_type("placed")
    assert placed["player"] == "random bot"
    rng = random.Random(5)
    ann.send(type="pose", **free_spot(state, rng))
    # The bot's hand moves too: a poses message sent before Ann's pose reached the server
    # holds only the bot's; the spectator then sees hers in one of the next.
    poses = watcher.wait(lambda m: m["type"] == "poses" and "Ann" in m["poses"])
    assert set(poses["poses"]) <= {"Ann", "random bot"}
    battle = play_out(ann, rng, ann.wait_type("state"))
    assert watcher.wait_type("battle", timeout=30)["result"] == battle["result"]
    ann.close()
    watcher.close()


def test_a_bot_takes_over_an_abandoned_seat(server: Server) -> None:
    ann, bob = two_ready(server)
    bob.wait_type("state")
    bob.close()  # Bob leaves for good; Ann keeps playing
    taken = ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot", timeout=10)
    assert taken["seats"][1]["name"] == "Bob"
    battle = play_out(ann, random.Random(11), ann.wait_type("state"))
    assert set(battle["result"]["scores"]) == {"Ann", "Bob"}
    ann.close()


def test_poses_are_coalesced_and_never_echoed_alone(server: Server) -> None:
    ann, bob = two_ready(server)
    state = ann.wait(lambda m: m["type"] == "state" and m["hand"] is not None)
    bob.wait(lambda m: m["type"] == "state" and m["hand"] is not None)
    spot = free_spot(state, random.Random(3))
    # Ann's hand moves alone: Bob sees it; Ann is not sent her own pose back. Bob receives
    # the flush before Ann's pong can be queued, so a pose message to Ann would come first.
    ann.send(type="pose", **spot)
    assert bob.wait_type("poses")["poses"]["Ann"]["x"] == spot["x"]
    mark = len(ann.received)
    ann.send(type="ping")
    ann.wait_type("pong")
    assert [m for m in ann.received[mark:] if m["type"] == "poses"] == []
    # Both hands move within one window: one message carries both, to each of them.
    ann.send(type="pose", **spot)
    bob.send(type="pose", **spot)
    for client in (ann, bob):
        both = client.wait(lambda m: m["type"] == "poses" and len(m["poses"]) == 2)
        assert set(both["poses"]) == {"Ann", "Bob"}
    ann.close()
    bob.close()


def test_a_card_down_mid_round_brings_the_statuses_instead_of_a_new_state(
    server: Server,
) -> None:
    room = server.create_room()
    ann, _ = seated(server, room, "Ann")
    bob, _ = seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    state = ann.wait_type("state")
    bob.wait_type("state")
    ann.send(type="place", **free_spot(state, random.Random(5)))
    placed = bob.wait_type("placed")
    assert placed["player"] == "Ann"
    assert placed["players"]["Ann"]["cards_left"] == state["players"]["Ann"]["cards_left"] - 1
    # Bob's picture of the match, kept from the statuses, is what a newcomer is sent whole.
    kept = bob.wait(lambda m: m["type"] == "state")
    assert kept.get("folded") is True
    newcomer = Client(server, room)
    whole = newcomer.wait_type("state")
    for key in ("phase", "players", "table", "stopped_by"):
        assert kept[key] == whole[key], key
    assert kept["hand"] == whole["players"]["Bob"]["holding"] is not None
    ann.send(type="ping")
    ann.wait_type("pong")
    assert not any(
        m["type"] == "state"
        for m in ann.received[ann.received.index(state) + 1 :]
        if not m.get("folded")
    )
    for client in (ann, bob, newcomer):
        client.close()


def test_origins_compare_scheme_host_and_port_as_browsers_send_them() -> None:
    assert origin("HTTPS://Play.Example.org:443/") == "https://play.example.org"
    assert origin("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ("play.example.org", "ftp://x", "https://x/path", "https://x?q", "null"):
        with pytest.raises(ValueError, match=r"origin|address"):
            origin(bad)
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin("https://play.example.org", "play.example.org")  # TLS at a proxy
    assert same_origin("http://localhost", "LOCALHOST:80")
    assert not same_origin("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not same_origin("http://evil.example", "127.0.0.1:8000")
    assert not same_origin("null", "127.0.0.1:8000")
    assert not same_origin("http://127.0.0.1:8000", None)
    assert same_origin("https://play.example.org", "10.0.0.5:8000", {"https://play.example.org"})
