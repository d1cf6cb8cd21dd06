"""Setting up a Stellar Conflict match: fleets within the credits, the decks they make,
and the options and actions as JSON (the match itself: test_stellar_match.py)."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest

from spacetable.core.match import IllegalAction, InvalidOptions, MalformedAction
from spacetable.games.stellar import (
    RACES,
    Discard,
    Drop,
    Fleet,
    FleetChosen,
    Place,
    StellarAction,
    StellarMatch,
    StellarOptions,
    Timeout,
    TimerExpired,
    race_ships,
)
from tests.games.stellar._match import (
    CREDITS,
    Script,
    cheap_fleet,
    choosable,
    cost,
    exact_fleet,
    new_match,
    role_ship,
    snapshot,
)

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
