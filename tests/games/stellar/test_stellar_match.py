"""The Stellar Conflict match state machine once the fleets are in: the countdown or the
stop, cargo and asteroids, what players see (fleets, decks and options:
test_stellar_setup.py).

Ship stats come from the race catalogs, which are still being tuned: tests pick their
ships by what the rules care about (role, credits, lasers) and compute expectations from
the catalog, never from remembered numbers.
"""

from __future__ import annotations

import itertools
import json

import pytest

from spacetable.core.match import IllegalAction
from spacetable.games.stellar import (
    RACES,
    CardDiscarded,
    CardDropped,
    DeploymentBegan,
    DeploymentOver,
    Discard,
    Drop,
    Fleet,
    Phase,
    Place,
    Race,
    StellarMatch,
    StellarOptions,
    StopCalled,
    Timeout,
    TimerExpired,
    TimerRang,
    race_ships,
)
from spacetable.lasers.events import GoodsTransferred, RocksTaken, RocksVaporized
from spacetable.lasers.geometry import rects_touch
from spacetable.lasers.ships import ShipDef
from tests.games.stellar._match import (
    COUNTDOWN,
    CREDITS,
    CUBES,
    SPOTS_X,
    Script,
    battle_checks,
    cheap_fleet,
    choosable,
    new_match,
    role_ship,
    snapshot,
)

# -- the countdown ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(CREDITS))
def test_the_countdown_starts_when_the_last_fleet_is_in(size: str) -> None:
    match = new_match(battle_size=size)
    match.apply(Fleet("red", (), 1.0))
    assert match.deadline is None and match.view("red")["deadline"] is None
    events = match.apply(Fleet("blue", (), 4.5))
    deadline = 4.5 + COUNTDOWN[size]
    assert events[-1] == DeploymentBegan(deadline, 4.5)
    assert match.deadline == deadline and match.view(None)["deadline"] == deadline
    assert match.view(None)["countdown_seconds"] == COUNTDOWN[size]
    early = deadline - 0.01
    name = race_ships("wiss")[role_ship("wiss", "cargo")].name
    with pytest.raises(
        IllegalAction, match=f"^there is no discarding during deployment: place your {name}$"
    ):
        match.apply(Discard("red", 5.0))
    with pytest.raises(IllegalAction, match=f"^the countdown is still running: place your {name}$"):
        match.apply(Drop("red", 0, -200, 0, 5.0))
    with pytest.raises(IllegalAction, match=f"^the countdown runs until t={deadline:g} s$"):
        match.apply(TimerExpired(early))
    with pytest.raises(IllegalAction, match=f"^the countdown ran out at .*: your {name} froze$"):
        match.apply(Place("red", 0, -200, 0, deadline))
    match.apply(Place("red", 0, -200, 0, early))  # a moment before is still in time
    assert match.apply(TimerExpired(deadline)) == [TimerRang(deadline)]
    assert match.phase == Phase.STOP and match.view("blue")["timer_expired"]
    with pytest.raises(IllegalAction, match=r"^the countdown has already run out$"):
        match.apply(TimerExpired(deadline + 1))


def test_at_the_deadline_the_cards_in_hand_freeze_and_the_decks_are_out() -> None:
    match = new_match(3, races=("wiss", "vak", "hexai"))
    script = Script(match)
    script.fleets()
    placed = [script.place("red"), script.place("red"), script.place("blue")]
    script.timer()
    holding = {p: match.hand(p) for p in match.players}
    assert all(holding.values()) and all(match.needs_action(p) for p in match.players)
    blue = race_ships("vak")[holding["blue"] or ""].name
    with pytest.raises(IllegalAction, match=f"^time is up: drop your {blue} or discard it$"):
        match.apply(Place("blue", 0, 200, 0, script.tick()))
    # The frozen card lies on red's first card: refused, blue may choose again.
    before = snapshot(match)
    with pytest.raises(IllegalAction, match=f"^your {blue} would overlap red's "):
        match.apply(Drop("blue", SPOTS_X[0], -320.0, 90.0, script.tick()))
    assert snapshot(match) == before
    assert [type(e) for e in match.apply(Drop("blue", 0, 200, 0, script.tick()))] == [CardDropped]
    assert match.view("red")["players"]["blue"]["decided"] and not match.needs_action("blue")
    with pytest.raises(IllegalAction, match=r"^you have already dropped your last card$"):
        match.apply(Discard("blue", script.tick()))
    match.apply(Discard("red", script.tick()))
    events = match.apply(Timeout(script.tick()))
    assert events[0] == CardDiscarded("green", holding["green"] or "", True, script.t)
    assert isinstance(events[1], DeploymentOver)
    battle_checks(match)
    on_table = [c["ship"] for c in match.table_cards()]
    assert on_table == [*placed, holding["blue"]]
    # Every other ship of the three decks stayed in the box, unnamed in any event.
    text = json.dumps([e.to_json() for e in match.events])
    for player in match.players:
        race = match.options.race(player)
        deck = {*cheap_fleet(race), role_ship(race, "cargo"), role_ship(race, "flag")}
        for ship in deck - set(on_table) - {holding[player]}:
            assert f"{player}-{ship}" not in text and f'"{ship}"' not in text


def test_a_player_who_placed_everything_waits_for_the_timer() -> None:
    match = new_match(races=("wiss", "hexai"))
    script = Script(match)
    script.fleets({"red": ()})
    script.place_all("red")
    assert match.phase == Phase.DEPLOYMENT and match.hand("red") is None
    assert not match.needs_action("red") and match.needs_action("blue")
    for action in (Discard("red", script.tick()), Place("red", 0, -200, 0, script.tick())):
        with pytest.raises(IllegalAction, match=r"^you have played all your cards$"):
            match.apply(action)
    script.place("blue")
    assert match.deadline is not None
    match.apply(TimerExpired(match.deadline))
    assert match.view("blue")["players"]["red"]["decided"]
    match.apply(Drop("blue", 0, 200, 0, match.deadline))
    battle_checks(match)


def test_when_every_card_is_down_before_the_deadline_the_battle_begins() -> None:
    match = new_match(races=("vak", "tetrakori"))
    script = Script(match)
    script.fleets()
    script.place_all("red")
    script.place_all("blue")
    assert not any(isinstance(e, TimerRang) for e in match.events)
    battle_checks(match)
    assert match.deadline is not None and script.t < match.deadline
    with pytest.raises(IllegalAction, match=r"^the match is over$"):
        match.apply(TimerExpired(match.deadline))


# -- the stop rule ----------------------------------------------------------------------------


def test_under_the_stop_rule_whoever_places_his_last_card_calls_stop() -> None:
    match = new_match(3, deployment="stop", races=("hexai", "wiss", "vak"))
    script = Script(match)
    script.fleets({"green": ()})
    events = [e for e in match.events if isinstance(e, DeploymentBegan)]
    assert events == [DeploymentBegan(None, script.t)] and match.view(None)["deadline"] is None
    with pytest.raises(IllegalAction, match=r"^this match has no countdown"):
        match.apply(TimerExpired(COUNTDOWN["conflict"] + 1))
    script.place("red")
    script.place("blue")
    with pytest.raises(IllegalAction, match=r"^nobody has called stop yet$"):
        match.apply(Timeout(script.tick()))
    script.place_all("green")
    assert match.events[-1] == StopCalled("green", script.t)
    assert match.phase == Phase.STOP and match.stopped_by == "green"
    assert match.view("red")["stopped_by"] == "green"
    red = race_ships("hexai")[match.hand("red") or ""].name
    with pytest.raises(IllegalAction, match=f"^green called stop: drop your {red} or discard it$"):
        match.apply(Place("red", 0, 200, 0, script.tick()))
    with pytest.raises(IllegalAction, match=r"^you have played all your cards$"):
        match.apply(Place("green", 0, 200, 0, script.tick()))
    match.apply(Drop("red", 0, 200, 0, script.tick()))
    match.apply(Discard("blue", script.tick()))
    battle_checks(match)


# -- cargo and asteroids ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cargo_ships_land_with_their_cubes(players: int) -> None:
    match = new_match(players, races=RACES[:players])
    script = Script(match)
    script.fleets()
    script.place("red")  # the Cargo ship, placed in time
    warship = script.place("red")
    assert match.deadline is not None
    match.apply(TimerExpired(match.deadline))
    for index, player in enumerate(match.players[1:]):  # frozen Cargo ships, dropped
        match.apply(Drop(player, -100.0 + 80 * index, 0, 0, match.deadline))
    cards = {c["ship"]: c for c in match.table_cards()}
    cargo = {role_ship(match.options.race(p), "cargo") for p in match.players}
    assert set(cards) == cargo | {warship}
    for ship, card in cards.items():
        assert card["rocks"] == (CUBES[players] if ship in cargo else 0)


@pytest.mark.parametrize(("asteroids", "players"), [(1, 2), (2, 3), (3, 4), (4, 2), (5, 3)])
def test_the_asteroid_variant_lays_out_the_cubes_on_asteroids(asteroids: int, players: int) -> None:
    match = new_match(players, asteroids=asteroids)
    cards = match.table_cards()
    assert all(card["type"] == "asteroid" for card in cards) and len(cards) == asteroids
    ids = ["asteroid"] if asteroids == 1 else [f"asteroid-{i + 1}" for i in range(asteroids)]
    assert [card["id"] for card in cards] == ids
    cubes = {card["rocks"] for card in cards}
    (each,) = cubes
    # The cubes the cargo ships would have carried, shared equally.
    assert players * CUBES[players] - asteroids < each * asteroids <= players * CUBES[players]
    table = match.to_table()
    for one, two in itertools.combinations(table.cards, 2):
        assert not rects_touch(one.rect, two.rect)
    script = Script(match)
    script.fleets()
    name = race_ships(match.options.race("red"))[match.hand("red") or ""].name
    first = "the asteroid" if asteroids == 1 else "asteroid 1"
    pose = table.cards[0].pose
    assert match.check_placement("red", pose.x, pose.y, 30) == f"your {name} would overlap {first}"


def heist_ships() -> tuple[tuple[Race, Race], ShipDef, ShipDef]:
    """Two races and their ships for :func:`heist`: a thief that only fires straight
    ahead (no ion) and has no shield on its left edge, and a killer of the other race
    that fires straight ahead (no ion), after the thief's last initiative, for at least
    the thief's hull."""
    for red, blue in itertools.permutations(RACES, 2):
        for thief, killer in itertools.product(choosable(red), choosable(blue)):
            ahead = [lz for s in (thief, killer) for lz in s.lasers]
            if not thief.lasers or not killer.lasers:
                continue
            if any(lz.angle_deg != 0 or lz.kind == "ion" for lz in ahead):
                continue
            damage = sum(1 if lz.kind == "penetrating" else lz.power for lz in killer.lasers)
            if (
                killer.speeds[0] > max(thief.speeds)
                and damage >= thief.health
                and not any(sh.edge == "left" for sh in thief.shields)
            ):
                return (red, blue), thief, killer
    raise AssertionError("no two ships for the stolen-goods heist")


def heist(stolen_goods: bool) -> StellarMatch:
    """Red's thief mines the lone asteroid; later blue's killer, alone, destroys it from
    its left. Both Flag ships stay in hand and time out."""
    races, thief, killer = heist_ships()
    options = StellarOptions(("red", "blue"), races, "war", asteroids=1, stolen_goods=stolen_goods)
    match = StellarMatch(options, seed=1)
    match.apply(Fleet("red", (thief.key,), 0.0))
    match.apply(Fleet("blue", (killer.key,), 0.0))
    match.apply(Place("red", 0, -200, 0, 1.0))  # fires up at the asteroid
    match.apply(Place("blue", -200, -200, -90, 2.0))  # fires right, into red's left side
    assert match.deadline is not None
    match.apply(TimerExpired(match.deadline))
    match.apply(Timeout(match.deadline + 5))
    return match


@pytest.mark.parametrize("stolen_goods", [True, False])
def test_the_stolen_goods_option_reaches_the_battle(stolen_goods: bool) -> None:
    match = heist(stolen_goods)
    battle_checks(match)
    outcome = match.result()
    assert outcome is not None
    _, thief, killer = heist_ships()
    red, blue = f"red-{thief.key}", f"blue-{killer.key}"
    mined = sum(e.count for e in outcome.events if isinstance(e, RocksTaken) and e.ship == red)
    assert mined > 0 and not outcome.ships[red].alive
    assert match.to_table().variant == {"stolen_goods": stolen_goods}
    if stolen_goods:
        assert GoodsTransferred(red, blue, mined) in outcome.events
        assert outcome.ships[blue].rocks == mined
    else:
        assert RocksVaporized(red, mined, "destroyed") in outcome.events
        assert outcome.ships[blue].rocks == 0
    assert outcome.scores["blue"] == thief.vp + (mined if stolen_goods else 0)


# -- what players see -------------------------------------------------------------------------


def test_fleets_stay_secret_and_spectators_see_none() -> None:
    match = new_match(races=("wiss", "vak"))
    fleet = cheap_fleet("wiss", 4)
    match.apply(Fleet("red", fleet, 1.0))
    assert match.view("red")["fleet"] == list(fleet)
    assert match.view("blue")["fleet"] is None and match.view(None)["fleet"] is None
    assert match.view("blue")["players"]["red"]["fleet_chosen"]
    assert match.events[-1].to_json() == {"type": "fleet-chosen", "player": "red", "t": 1.0}
    match.apply(Fleet("blue", (), 2.0))
    for viewer in ("blue", None):
        text = json.dumps(match.view(viewer)) + json.dumps([e.to_json() for e in match.events])
        assert not [key for key in fleet if key in text]
    assert match.view(None)["hand"] is None
    with pytest.raises(ValueError, match="not a player"):
        match.view("white")


def test_views_never_show_the_order_of_a_deck() -> None:
    fleet = cheap_fleet("hexai", 5)
    orders: dict[tuple[str, ...], int] = {}
    for seed in range(1, 10):
        script = Script(new_match(seed=seed, races=("hexai", "wiss")))
        script.fleets({"red": fleet})
        orders.setdefault(tuple(script.place_all("red")), seed)
    assert len(orders) > 1
    one, two = list(orders.values())[:2]
    views = []
    for seed in (one, two):
        match = new_match(seed=seed, races=("hexai", "wiss"))
        Script(match).fleets({"red": fleet})
        views.append([match.view(p) for p in ("red", "blue", None)])
    assert views[0] == views[1]
