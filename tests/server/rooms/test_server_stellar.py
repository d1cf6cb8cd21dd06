"""Stellar Conflict over the websocket protocol, against a real ``spacetable serve`` process
(docs/protocol.md): room options, secret fleets, the countdown and its freeze, the stop
rule, bots, and stored matches that replay exactly."""

from __future__ import annotations

import json
import random
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest

from spacetable.games.stellar import CREDITS, StellarMatch, fleet_cost, race_ships
from tests._laser_play import free_spot
from tests._server import Client, Server, running_server, seated

COUNTDOWN_S = 4.0
STOP_S = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(
        db,
        "--countdown-seconds",
        str(COUNTDOWN_S),
        "--stop-seconds",
        str(STOP_S),
        "--bot-pace",
        "0.1",
    ) as running:
        yield running


def stellar_room(server: Server, **options: Any) -> str:
    return server.create_room(ruleset="stellar", **options)


def choosable(race: str) -> list[str]:
    """The race's ships a player may pick, cheapest first (catalog order among equals)."""
    ships = [s for s in race_ships(race).values() if s.role not in ("cargo", "flag")]
    return [s.key for s in sorted(ships, key=lambda s: s.credits)]


def within(race: str, credits: int) -> list[str]:
    """The cheapest ships of ``race`` that fit in ``credits``."""
    fleet: list[str] = []
    for key in choosable(race):
        if fleet_cost([*fleet, key]) <= credits:
            fleet.append(key)
    return fleet


def over_budget(race: str, credits: int) -> list[str]:
    """Ships of ``race`` that cost more than ``credits`` together."""
    fleet: list[str] = []
    for key in reversed(choosable(race)):
        fleet.append(key)
        if fleet_cost(fleet) > credits:
            return fleet
    raise AssertionError(f"the whole {race} fleet fits in {credits} credits")


def state_where(client: Client, test: Any, timeout: float = 20.0) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and test(m), timeout)


def replays_exactly(match: dict[str, Any]) -> StellarMatch:
    """Replay a stored match through the engine; its event log must be the stored one."""
    replayed = StellarMatch.from_record(match)
    outcome = replayed.result()
    assert outcome is not None
    assert outcome.to_json()["events"] == match["events"]
    assert outcome.scores == match["result"]["scores"]
    return replayed


def test_fleets_stay_secret_and_the_countdown_freezes_the_cards(server: Server) -> None:
    room = stellar_room(server, battle_size="dispute", races=["vak", "wiss"])
    ann = seated(server, room, "Ann")
    bob = seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    first = state_where(ann, lambda m: True)
    assert first["ruleset"] == "stellar" and first["phase"] == "preparation"
    assert first["credits"] == CREDITS["dispute"] and first["countdown"] is None
    assert first["players"]["Ann"]["race"] == "vak" and first["players"]["Bob"]["race"] == "wiss"
    assert first["hand"] is None and first["fleet"] is None

    # Refused fleets say why and change nothing.
    ann.send(type="place", x=0, y=-250, rotation=0)
    assert "fleet" in ann.wait_type("refused")["reason"]
    ann.send(type="fleet", ships=over_budget("vak", 10))
    refused = ann.wait_type("refused")
    assert refused["action"] == "fleet" and "credits" in refused["reason"]
    ann.send(type="fleet", ships=[choosable("wiss")[0]])
    assert "Wiss ship" in ann.wait_type("refused")["reason"]
    ann.send(type="fleet", ships="vak-grub")
    assert "ships" in ann.wait_type("error")["message"]
    ann.send(type="ping")
    ann.wait_type("pong")
    states = [m for m in ann.received if m["type"] == "state"]
    assert not any(m["players"]["Ann"]["fleet_chosen"] for m in states)

    # Ann's fleet is in: Bob sees that she has chosen, never what.
    ann_fleet = within("vak", 10)
    ann.send(type="fleet", ships=ann_fleet)
    chosen = state_where(ann, lambda m: m["players"]["Ann"]["fleet_chosen"])
    assert chosen["fleet"] == ann_fleet and chosen["phase"] == "preparation"
    seen = state_where(bob, lambda m: m["players"]["Ann"]["fleet_chosen"])
    assert seen["fleet"] is None and not seen["players"]["Bob"]["fleet_chosen"]
    bob_fleet = within("wiss", 10)[:3]
    bob.send(type="fleet", ships=bob_fleet)

    # Every fleet is in: the deployment and its countdown begin.
    deploying = state_where(bob, lambda m: m["phase"] == "deployment")
    for key in ann_fleet:
        assert key not in json.dumps(bob.received[:-1])  # nothing before told Bob Ann's ships
    countdown = deploying["countdown"]
    assert countdown["seconds"] == COUNTDOWN_S
    assert 0 < countdown["seconds_left"] <= COUNTDOWN_S
    assert countdown["deadline"] == pytest.approx(
        deploying["t"] + countdown["seconds_left"], abs=0.01
    )
    assert deploying["hand"] == next(k for k, s in race_ships("wiss").items() if s.role == "cargo")
    assert deploying["players"]["Bob"]["cards_left"] == len(bob_fleet) + 1  # + the Flag ship
    bob.send(type="fleet", ships=bob_fleet)
    assert "deployment has begun" in bob.wait_type("refused")["reason"]

    # Ann places her cargo ship and then a second card; Bob places nothing.
    rng = random.Random(4)
    state = state_where(ann, lambda m: m["phase"] == "deployment")
    for _ in range(2):
        ann.send(type="place", **free_spot(state, rng))
        placed = ann.wait_type("placed")
        assert placed["player"] == "Ann"
        state = state_where(ann, lambda m, card=placed["card"]: card in m["table"])
    cargo = state["table"][0]
    assert race_ships("vak")[cargo["ship"]].role == "cargo" and cargo["rocks"] == 8

    # The countdown runs out: every card in hand freezes.
    stop = ann.wait_type("stop", timeout=COUNTDOWN_S + 5)
    assert stop == {"type": "stop", "by": None, "timer": True, "seconds": STOP_S}
    frozen = state_where(ann, lambda m: m["phase"] == "stop")
    assert frozen["t"] >= countdown["deadline"] and frozen["timer_expired"]
    assert frozen["countdown"] is None and frozen["stop"]["timer"]
    assert frozen["hand"] is not None and frozen["players"]["Bob"]["holding"] is not None
    ann.send(type="place", **free_spot(frozen, rng))
    assert "time is up" in ann.wait_type("refused")["reason"]
    dropped = free_spot(frozen, rng)
    ann.send(type="drop", **dropped)

    # Bob never decides: the stop countdown discards his card, and the battle follows.
    battle = bob.wait_type("battle", timeout=STOP_S + 10)
    assert battle["ruleset"] == "stellar"
    cards = battle["table"]["cards"]
    assert len([c for c in cards if c.get("owner") == "Ann"]) == 3
    assert not any(c.get("owner") == "Bob" for c in cards)
    assert set(battle["result"]["scores"]) == {"Ann", "Bob"}

    match = server.stored_match(battle["match_id"])
    assert match["ruleset"] == "stellar"
    assert match["options"]["races"] == ["vak", "wiss"]
    assert match["options"]["countdown"] == COUNTDOWN_S
    kinds = [a["type"] for a in match["actions"]]
    assert kinds.count("fleet") == 2 and kinds[-3:] == ["timer-expired", "drop", "timeout"]
    assert match["events"] == battle["result"]["events"]
    replayed = replays_exactly(match)
    assert replayed.deadline == countdown["deadline"]
    listed = next(m for m in server.get("/api/matches") if m["id"] == match["id"])
    assert listed["ruleset"] == "stellar"
    ann.close()
    bob.close()


def test_the_stop_rule_ends_the_deployment_as_in_light_speed(server: Server) -> None:
    room = stellar_room(server, deployment="stop", battle_size="dispute", races=["hexai", "vak"])
    ann = seated(server, room, "Ann")
    bob = seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    state_where(ann, lambda m: m["phase"] == "preparation")
    ann.send(type="fleet", ships=within("hexai", 10)[:2])
    bob.send(type="fleet", ships=within("vak", 10))
    state = state_where(ann, lambda m: m["phase"] == "deployment")
    assert state["countdown"] is None and state["deadline"] is None
    rng = random.Random(9)
    # Ann's deck is short (cargo, two ships, flag): she places it all and calls stop.
    while state["phase"] == "deployment" and state["hand"] is not None:
        ann.send(type="place", **free_spot(state, rng))
        placed = ann.wait_type("placed")
        state = state_where(ann, lambda m, card=placed["card"]: card in m["table"])
    stop = bob.wait_type("stop")
    assert stop["by"] == "Ann" and not stop["timer"]
    frozen = state_where(bob, lambda m: m["phase"] == "stop")
    assert frozen["stop"]["by"] == "Ann" and frozen["hand"] is not None
    bob.send(type="discard")
    battle = bob.wait_type("battle")
    assert len([c for c in battle["table"]["cards"] if c.get("owner") == "Ann"]) == 4
    assert not any(c.get("owner") == "Bob" for c in battle["table"]["cards"])
    replays_exactly(server.stored_match(battle["match_id"]))
    ann.close()
    bob.close()


def test_a_bot_builds_its_fleet_and_deploys_before_the_countdown(server: Server) -> None:
    room = stellar_room(server, battle_size="war", races=["tetrakori", "hexai"], asteroids=2)
    ann = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="medium")
    ann.send(type="ready")
    first = state_where(ann, lambda m: True)
    assert [c["id"] for c in first["table"]] == ["asteroid-1", "asteroid-2"]
    assert all(c["rocks"] == 8 for c in first["table"])  # 2 cargo loads of 8 shared by two
    bot = "medium bot"
    state_where(ann, lambda m: m["players"][bot]["fleet_chosen"])
    ann.send(type="fleet", ships=[])  # only the Flag ship: no cargo ship with asteroids
    state = state_where(ann, lambda m: m["phase"] == "deployment")
    assert race_ships("tetrakori")[state["hand"]].role == "flag"
    rng = random.Random(2)
    while state["hand"] is not None and state["phase"] == "deployment":
        ann.send(type="place", **free_spot(state, rng))  # refused if the bot got there first
        state = state_where(ann, lambda m: True)
    battle = ann.wait_type("battle", timeout=COUNTDOWN_S + STOP_S + 15)
    bot_cards = [c for c in battle["table"]["cards"] if c.get("owner") == bot]
    assert bot_cards and all(race_ships("hexai").get(c["ship"]) for c in bot_cards)
    match = server.stored_match(battle["match_id"])
    fleets = [a for a in match["actions"] if a["type"] == "fleet"]
    assert fleet_cost(next(a["ships"] for a in fleets if a["player"] == bot)) <= CREDITS["war"]
    replays_exactly(match)
    ann.close()


def test_room_options_are_checked_when_the_room_is_created(server: Server) -> None:
    def refusal(**options: Any) -> str:
        try:
            server.post("/api/rooms", {"ruleset": "stellar", **options})
        except urllib.error.HTTPError as exc:
            assert exc.code == 422
            detail: str = json.load(exc)["detail"]
            return detail
        raise AssertionError(f"accepted {options}")

    assert "distinct races" in refusal(races=["wiss", "wiss"])
    assert "one race per player" in refusal(seats=3, races=["wiss", "vak"])
    assert "races.1" in refusal(races=["wiss", "klingon"])
    assert "asteroids" in refusal(asteroids=6)
    assert "battle_size" in refusal(battle_size="skirmish")
    assert "deployment" in refusal(deployment="whenever")
    assert "piracy" in refusal(piracy=True)  # a Light Speed option
    assert "ruleset" in refusal(ruleset="chess")
    room = server.post(
        "/api/rooms", {"ruleset": "stellar", "seats": 3, "races": ["hexai", "wiss", "vak"]}
    )
    listed = next(r for r in server.get("/api/rooms") if r["id"] == room["id"])
    assert listed["options"] == {
        "ruleset": "stellar",
        "seats": 3,
        "races": ["hexai", "wiss", "vak"],
        "battle_size": "conflict",
        "deployment": "timer",
        "asteroids": 0,
        "stolen_goods": False,
    }


def test_a_light_speed_room_has_no_fleets(server: Server) -> None:
    room = server.create_room()
    ann = seated(server, room, "Ann")
    bob = seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    state = state_where(ann, lambda m: True)
    ann.send(type="fleet", ships=["vak-grub"])
    assert "Light Speed has no fleet" in ann.wait_type("refused")["reason"]
    ann.send(type="ping")
    ann.wait_type("pong")
    last = [m for m in ann.received if m["type"] == "state"][-1]
    assert last["players"]["Ann"] == state["players"]["Ann"] and last["hand"] == state["hand"]
    ann.close()
    bob.close()
