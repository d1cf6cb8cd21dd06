"""The Stellar Conflict match state machine: fleets, decks, the countdown or the stop,
cargo and asteroids, what players see.

Ship stats come from the race catalogs, which are still being tuned: tests pick their
ships by what the rules care about (role, credits, lasers) and compute expectations from
the catalog, never from remembered numbers.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest

from spacetable.core.match import IllegalAction, InvalidOptions, MalformedAction
from spacetable.games.stellar import (
    RACES,
    CardDiscarded,
    CardDropped,
    DeploymentBegan,
    DeploymentOver,
    Discard,
    Drop,
    Fleet,
    FleetChosen,
    Phase,
    Place,
    Race,
    StellarAction,
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
from spacetable.lasers.tables import table_from_json

PLAYERS = ("red", "blue", "green", "purple")
#: The rulebook's battle sizes: credits a fleet may cost, and the countdown in seconds.
CREDITS = {"dispute": 10, "conflict": 15, "war": 20}
COUNTDOWN = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}
#: Cubes on each cargo ship by number of players.
CUBES = {2: 8, 3: 5, 4: 4}

# Filler spots along the table's long edges, fronts toward the edge: clear of the centre,
# where the asteroids lie. Seats 0 and 1 use the left half in 3- and 4-player games.
SPOTS_X = (-555.0, -485.0, -415.0, -345.0, -275.0, -205.0, -135.0)
SPOTS_X_RIGHT = tuple(-x for x in SPOTS_X)


# -- helpers ----------------------------------------------------------------------------------


def new_match(players: int = 2, seed: int = 7, **options: Any) -> StellarMatch:
    return StellarMatch(StellarOptions(PLAYERS[:players], **options), seed)


def role_ship(race: str, role: str) -> str:
    """The key of ``race``'s one Cargo or Flag ship."""
    (key,) = [key for key, ship in race_ships(race).items() if ship.role == role]
    return key


def choosable(race: str) -> list[ShipDef]:
    """The ships of ``race`` a player may pick, cheapest first (catalog order on ties)."""
    ships = [s for s in race_ships(race).values() if s.role not in ("cargo", "flag")]
    return sorted(ships, key=lambda s: s.credits)


def cheap_fleet(race: str, count: int = 3) -> tuple[str, ...]:
    """The ``count`` cheapest ships of ``race`` (legal in any battle)."""
    fleet = tuple(s.key for s in choosable(race)[:count])
    assert sum(race_ships(race)[k].credits for k in fleet) <= CREDITS["dispute"]
    return fleet


def exact_fleet(race: str, credits: int) -> tuple[str, ...]:
    """Ships of ``race`` costing exactly ``credits`` together (subset sum)."""
    best: dict[int, tuple[str, ...]] = {0: ()}
    for ship in choosable(race):
        for cost, picks in sorted(best.items(), reverse=True):
            best.setdefault(cost + ship.credits, (*picks, ship.key))
    assert credits in best, f"no {race} fleet costs exactly {credits} credits"
    return best[credits]


def cost(race: str, fleet: tuple[str, ...]) -> int:
    return sum(race_ships(race)[key].credits for key in fleet)


class Script:
    """Plays a match by hand: every seat lines its cards up along its own edge."""

    def __init__(self, match: StellarMatch) -> None:
        self.match = match
        self.t = 0.0
        self.used = dict.fromkeys(match.players, 0)

    def tick(self) -> float:
        self.t += 0.5
        return self.t

    def fleets(self, fleets: dict[str, tuple[str, ...]] | None = None) -> None:
        """Every player chooses his fleet (by default :func:`cheap_fleet`)."""
        for player in self.match.players:
            race = self.match.options.race(player)
            ships = (fleets or {}).get(player, cheap_fleet(race))
            self.match.apply(Fleet(player, ships, self.tick()))

    def spot(self, player: str) -> tuple[float, float, float]:
        """The next filler spot of ``player``'s row."""
        seat = self.match.players.index(player)
        xs = SPOTS_X + SPOTS_X_RIGHT if len(self.match.players) == 2 else SPOTS_X
        xs = xs if seat < 2 else SPOTS_X_RIGHT
        x = xs[self.used[player]]
        self.used[player] += 1
        return (x, -320.0, 180.0) if seat % 2 == 0 else (x, 320.0, 0.0)

    def timer(self) -> None:
        """The countdown runs out: the server sends the timer at the deadline."""
        assert self.match.deadline is not None
        self.t = self.match.deadline
        self.match.apply(TimerExpired(self.t))

    def place(self, player: str) -> str:
        """Place ``player``'s card in hand at his next spot; return its ship key."""
        ship = self.match.hand(player)
        assert ship is not None
        self.match.apply(Place(player, *self.spot(player), self.tick()))
        return ship

    def place_all(self, player: str) -> list[str]:
        """Place ``player``'s cards until he holds none or the deployment stops."""
        order = []
        while self.match.phase == Phase.DEPLOYMENT and self.match.hand(player) is not None:
            order.append(self.place(player))
        return order


def snapshot(match: StellarMatch) -> str:
    """Everything a change would show: every view, the record and the event log."""
    views = [match.view(p) for p in (*match.players, None)]
    return json.dumps([views, match.record(), [e.to_json() for e in match.events]])


def battle_checks(match: StellarMatch) -> None:
    """The match is over and its battle is the one of the cards left on the table."""
    outcome = match.result()
    assert match.phase == Phase.OVER and outcome is not None
    exported = table_from_json(json.loads(json.dumps(match.to_table().to_json())))
    assert exported.resolve().to_json() == outcome.to_json()
    split = [type(e) for e in match.events].index(DeploymentOver)
    assert [e.to_json() for e in match.events[split + 1 :]] == outcome.to_json()["events"]


# -- preparation: fleets ----------------------------------------------------------------------


@pytest.mark.parametrize(("race", "size"), list(itertools.product(RACES, CREDITS)))
def test_a_fleet_over_budget_is_refused_naming_cost_and_credits(race: str, size: str) -> None:
    match = new_match(races=(race, next(r for r in RACES if r != race)), battle_size=size)
    fleet: tuple[str, ...] = ()
    for ship in reversed(choosable(race)):  # the dearest first, until the budget breaks
        fleet = (*fleet, ship.key)
        if cost(race, fleet) > CREDITS[size]:
            break
    before = snapshot(match)
    message = (
        f"^your fleet costs {cost(race, fleet)} credits; a {size.title()} allows {CREDITS[size]}$"
    )
    with pytest.raises(IllegalAction, match=message):
        match.apply(Fleet("red", fleet, 1.0))
    assert snapshot(match) == before and match.needs_action("red")
    # Exactly the budget is fine: "equal to or less than".
    exact = exact_fleet(race, CREDITS[size])
    assert [type(e) for e in match.apply(Fleet("red", exact, 2.0))] == [FleetChosen]
    assert match.fleet("red") == exact and not match.needs_action("red")


@pytest.mark.parametrize(
    ("ships", "words"),
    [
        (("hexai-{0}",), "^the .+ is a Hexai ship: you command the Wiss$"),
        (("wiss-{0}", "wiss-{0}"), "^each card exists once: you picked the .+ 2 times$"),
        (("moth",), "^there is no Stellar Conflict ship 'moth'$"),
        (("wiss-nonsense",), "^there is no Stellar Conflict ship 'wiss-nonsense'$"),
        (("{cargo}",), "^your Cargo ship .+ joins your deck on top by itself: leave it out$"),
        (("{flag}",), "^your Flag ship .+ joins your deck at the bottom by itself: leave it out$"),
    ],
)
def test_ships_that_cannot_join_a_fleet_are_refused(ships: tuple[str, ...], words: str) -> None:
    match = new_match(races=("wiss", "hexai"))
    names = {
        "hexai-{0}": choosable("hexai")[0].key,
        "wiss-{0}": choosable("wiss")[0].key,
        "{cargo}": role_ship("wiss", "cargo"),
        "{flag}": role_ship("wiss", "flag"),
    }
    fleet = tuple(names.get(key, key) for key in ships)
    with pytest.raises(IllegalAction, match=words):
        match.apply(Fleet("red", fleet, 1.0))
    assert match.fleet("red") is None and match.events == []


def test_tetrakori_scouts_cost_no_credits() -> None:
    scouts = tuple(s.key for s in race_ships("tetrakori").values() if s.role == "scout")
    assert scouts, "the Tetrakori fleet has scouts"
    assert all(race_ships("tetrakori")[key].credits == 0 for key in scouts)
    others = [r for r in RACES if r != "tetrakori"]
    assert not any(s.role == "scout" for r in others for s in race_ships(r).values())
    # Every scout rides along with a fleet that already spends the whole budget.
    paid = tuple(k for k in exact_fleet("tetrakori", CREDITS["dispute"]) if k not in scouts)
    fleet = (*scouts, *paid)
    match = new_match(races=("tetrakori", "vak"), battle_size="dispute")
    match.apply(Fleet("red", fleet, 1.0))
    assert match.fleet("red") == fleet
    match.apply(Fleet("blue", (), 2.0))
    assert match.view("red")["players"]["red"]["cards_left"] == len(fleet) + 1  # + the Flag


def test_a_fleet_is_chosen_once_by_a_player_before_deployment() -> None:
    match = new_match()
    with pytest.raises(IllegalAction, match="'white' is not a player"):
        match.apply(Fleet("white", (), 0.5))
    with pytest.raises(IllegalAction, match=r"^choose your fleet first$"):
        match.apply(Place("red", 0, -200, 0, 0.5))
    match.apply(Fleet("red", (), 1.0))
    with pytest.raises(IllegalAction, match=r"^you have already chosen your fleet$"):
        match.apply(Fleet("red", cheap_fleet("wiss"), 1.5))
    with pytest.raises(IllegalAction, match=r"^the deployment has not begun: blue still choosing"):
        match.apply(Place("red", 0, -200, 0, 2.0))
    assert match.needs_action("blue") and not match.needs_action("red")
    match.apply(Fleet("blue", (), 2.0))
    with pytest.raises(IllegalAction, match=r"^the fleets are chosen: the deployment has begun$"):
        match.apply(Fleet("blue", (), 3.0))


# -- the deck ---------------------------------------------------------------------------------


@pytest.mark.parametrize("race", RACES)
def test_the_cargo_ship_comes_first_and_the_flag_ship_last(race: str) -> None:
    fleet = cheap_fleet(race, 4)
    middles = set()
    for seed in range(1, 6):
        match = new_match(seed=seed, races=(race, next(r for r in RACES if r != race)))
        script = Script(match)
        script.fleets({"red": fleet})
        assert match.hand("red") == role_ship(race, "cargo")
        assert match.view("red")["hand"] == role_ship(race, "cargo")
        order = script.place_all("red")
        assert order[0] == role_ship(race, "cargo") and order[-1] == role_ship(race, "flag")
        assert sorted(order[1:-1]) == sorted(fleet)
        middles.add(tuple(order[1:-1]))
    assert len(middles) > 1, "the seed shuffles the chosen ships"


def test_the_asteroid_variant_deals_no_cargo_ship() -> None:
    match = new_match(asteroids=2, races=("vak", "wiss"))
    script = Script(match)
    script.fleets()
    order = script.place_all("red")
    assert role_ship("vak", "cargo") not in order
    assert order[-1] == role_ship("vak", "flag")
    assert sorted(order[:-1]) == sorted(cheap_fleet("vak"))


def test_an_empty_fleet_still_brings_the_cargo_and_flag_ships() -> None:
    match = new_match(races=("hexai", "tetrakori"))
    script = Script(match)
    script.fleets({"red": ()})
    assert script.place_all("red") == [role_ship("hexai", "cargo"), role_ship("hexai", "flag")]


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


# -- options and actions as JSON --------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": ("red",)}, "2 to 4 players"),
        ({"races": ("wiss", "wiss")}, "distinct races"),
        ({"races": ("wiss", "klingon")}, "unknown race 'klingon'"),
        ({"races": ("wiss",)}, "one race per player"),
        ({"battle_size": "skirmish"}, "'battle_size'"),
        ({"deployment": "never"}, "'deployment'"),
        ({"asteroids": 6}, "'asteroids'"),
        ({"asteroids": True}, "'asteroids'"),
        ({"stolen_goods": "yes"}, "'stolen_goods'"),
        ({"table_size_mm": (math.nan, 800.0)}, "'table_size_mm'"),
        ({"table_size_mm": (62.0, 300.0), "asteroids": 0}, "too small for a 63 x 88 mm card"),
        ({"table_size_mm": (300.0, 400.0), "asteroids": 2}, "too small for the asteroids"),
    ],
)
def test_impossible_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOptions, match=words):
        StellarOptions(**options)


def test_a_table_just_big_enough_for_one_card_is_accepted() -> None:
    match = new_match(deployment="stop", table_size_mm=(88.0, 63.0))
    Script(match).fleets({"red": (), "blue": ()})
    assert match.check_placement("red", 0, 0, 90) is None
    assert match.check_placement("red", 0, 0, 0) == (
        f"your {race_ships('wiss')[role_ship('wiss', 'cargo')].name} would lie partly off the table"
    )


def test_options_round_trip_through_json() -> None:
    options = StellarOptions(
        ("a", "b", "c"), ("vak", "hexai", "wiss"), "war", "stop", 3, True, (1000.0, 700.0)
    )
    assert StellarOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    with pytest.raises(InvalidOptions, match="colour"):
        StellarOptions.from_json({"colour": "red"})


@pytest.mark.parametrize(
    "action",
    [
        Fleet("red", ("wiss-a", "wiss-b"), 0.5),
        Fleet("blue", (), 1.0),
        TimerExpired(61.0),
        Place("red", 1.5, -2.0, 33.0, 2.25),
        Drop("blue", 0.0, 0.0, -90.0, 62.0),
        Discard("green", 63.5),
        Timeout(68.0),
    ],
)
def test_actions_round_trip_through_json(action: StellarAction) -> None:
    text = json.dumps(action.to_json())
    assert StellarMatch.action_from_json(json.loads(text)) == action


def test_fleet_json_format() -> None:
    assert Fleet("red", ["wiss-a"], 1).to_json() == {  # type: ignore[arg-type]
        "type": "fleet",
        "player": "red",
        "ships": ["wiss-a"],
        "t": 1,
    }
    assert TimerExpired(60.0).to_json() == {"type": "timer-expired", "t": 60.0}
    with pytest.raises(MalformedAction, match="'ships' must be a list of strings"):
        StellarMatch.action_from_json({"type": "fleet", "player": "red", "ships": [1], "t": 0})
