"""Stellar Conflict's battle rulings 7 and 9-11: cargo, ion and penetrating lasers,
two-initiative ships, Stolen Goods and VP scoring."""

from __future__ import annotations

from spacetable.lasers.battle import Card, Outcome, resolve
from spacetable.lasers.events import CardLeft, Delayed, GoodsTransferred, LaserFired, RocksVaporized
from spacetable.lasers.geometry import Pose
from spacetable.lasers.ships import Shield
from tests._build import card, forward, rules, ship

CARGO = ship("cargo", speed=9, health=3, vp=2, role="cargo")


def _cargo_shot(owner: str, power: int, cubes: int = 8) -> Outcome:
    gun = ship("gun", speed=1, health=2, lasers=(forward(power),))
    cards = [card("cargo", "blue", CARGO, 0, 200, 0, rocks=cubes), card("gun", owner, gun, 0, 0)]
    return resolve(cards, rules("red", "blue", ruleset="stellar"))


def test_stealing_from_an_enemy_cargo_ship_takes_the_damage_dealt() -> None:
    outcome = _cargo_shot("red", 2)
    assert outcome.ships["gun"].rocks == 2
    assert outcome.ships["cargo"].rocks == 6
    assert outcome.ships["cargo"].damage == {"red": 2}
    # Red: 2 stolen cubes; blue: 6 cubes left on its own cargo ship.
    assert outcome.scores == {"red": 2, "blue": 6}


def test_cubes_stolen_from_your_own_cargo_ship_are_vaporized() -> None:
    outcome = _cargo_shot("blue", 2)
    assert outcome.ships["gun"].rocks == 0
    assert outcome.ships["cargo"].rocks == 6
    assert RocksVaporized("cargo", 2, "own-cargo") in outcome.events


def test_an_emptied_cargo_ship_leaves_to_no_kill_pile() -> None:
    outcome = _cargo_shot("red", 2, cubes=1)
    assert outcome.ships["gun"].rocks == 1
    assert not outcome.ships["cargo"].alive
    assert CardLeft("cargo", "emptied") in outcome.events
    assert outcome.kill_piles == {"red": [], "blue": []}
    assert outcome.scores == {"red": 1, "blue": 0}


def test_a_cargo_ship_destroyed_while_emptied_goes_to_the_kill_pile() -> None:
    outcome = _cargo_shot("red", 3, cubes=2)
    assert outcome.kill_piles == {"red": ["cargo"], "blue": []}
    assert outcome.scores == {"red": 2 + 2, "blue": 0}


def _ion_table(ion_speed: int, shields: tuple[Shield, ...] = ()) -> Outcome:
    """Blue's speed-3 ship would kill red's victim; red ion guns may delay it past red's
    speed-4 killer."""
    blue = ship("blue", speed=3, health=1, lasers=(forward(1),), shields=shields)
    ion = ship("ion", speed=ion_speed, health=2, lasers=(forward(1, kind="ion"),))
    killer = ship("killer", speed=4, health=2, lasers=(forward(1),))
    victim = ship("victim", speed=9, health=1)
    cards = [
        card("blue", "blue", blue, 0, 0, 90),  # faces -x
        card("victim", "red", victim, -200, 0),
        card("killer", "red", killer, 0, -200),  # fires +y into blue's left side
        card("ion", "red", ion, 0, 200, 180),  # fires -y into blue's right side
    ]
    return resolve(cards, rules("red", "blue", ruleset="stellar"))


def test_an_ion_hit_delays_a_ship_that_has_not_fired() -> None:
    outcome = _ion_table(ion_speed=1)
    assert Delayed("blue", 1, (5,)) in outcome.events
    assert outcome.ships["blue"].damage == {"red": 1}  # only the killer's laser
    assert not outcome.ships["blue"].alive
    assert outcome.ships["victim"].alive  # blue was destroyed at 4 before firing at 5


def test_without_the_ion_hit_the_ship_fires_on_time() -> None:
    outcome = _ion_table(ion_speed=5)  # the ion gun fires too late
    assert outcome.ships["blue"].delay_tokens == 0
    assert not outcome.ships["victim"].alive


def test_an_ion_hit_on_a_ship_that_already_fired_does_nothing() -> None:
    gun = ship("gun", speed=1, health=2, lasers=(forward(1, kind="ion"),))
    target = ship("target", speed=1, health=2)
    cards = [card("gun", "red", gun, 0, 0), card("t", "blue", target, 0, 200)]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert outcome.ships["t"].delay_tokens == 0
    assert outcome.ships["t"].damage == {}


def test_a_shield_stops_an_ion_hit() -> None:
    outcome = _ion_table(ion_speed=1, shields=(Shield("right", -44.0, 44.0),))
    assert outcome.ships["blue"].delay_tokens == 0
    assert not outcome.ships["victim"].alive


def test_delay_tokens_stack() -> None:
    gun = ship("gun", speed=1, health=2, lasers=(forward(1, kind="ion"), forward(1, x=10)))
    target = ship("target", speed=3, health=5)
    cards = [
        card("gun", "red", gun, 0, 0),
        card("t", "blue", target, 0, 200),
        card("gun2", "red", gun, 0, 400, 180),
    ]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert outcome.ships["t"].delay_tokens == 2
    assert Delayed("t", 2, (7,)) in outcome.events


def test_penetrating_lasers_ignore_shields_and_deal_one() -> None:
    gun = ship("gun", speed=1, health=2, lasers=(forward(3, kind="penetrating"),))
    target = ship("target", speed=9, health=3, shields=(Shield("back", -31.5, 31.5),))
    cards = [card("gun", "red", gun, 0, 0), card("t", "blue", target, 0, 200)]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert outcome.ships["t"].damage == {"red": 1}


def test_ion_and_penetrating_lasers_on_an_asteroid_mine_zero_and_one() -> None:
    ion = ship("ion", speed=1, health=2, lasers=(forward(3, kind="ion"),))
    pen = ship("pen", speed=1, health=2, lasers=(forward(3, kind="penetrating"),))
    cards = [
        Card("rock", Pose(-40, 200, 0), None, None, 5, (200.0, 88.0)),
        card("ion", "red", ion, -80, 0),
        card("pen", "blue", pen, 0, 0),
    ]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert outcome.ships["ion"].rocks == 0
    assert outcome.ships["pen"].rocks == 1
    assert outcome.asteroids == {"rock": 4}


def test_a_two_initiative_ship_fires_at_both() -> None:
    twice = ship("twice", speed=(2, 6), health=2, lasers=(forward(1),))
    target = ship("target", speed=9, health=2)
    cards = [card("twice", "red", twice, 0, 0), card("t", "blue", target, 0, 200)]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert not outcome.ships["t"].alive
    shots = [e.speed for e in outcome.events if isinstance(e, LaserFired) and e.ship == "twice"]
    assert shots == [2, 6]


def _stolen_goods(enabled: bool, killers: int) -> Outcome:
    thief = ship("thief", speed=9, health=1)
    gun = ship("gun", speed=1, health=2, lasers=(forward(1),))
    cards = [card("thief", "red", thief, 0, 200, rocks=3), card("k0", "blue", gun, 0, 0)]
    if killers == 2:
        cards.append(card("k1", "blue", gun, 0, 400, 180))
    return resolve(cards, rules("red", "blue", ruleset="stellar", stolen_goods=enabled))


def test_stolen_goods_go_to_the_single_killer() -> None:
    outcome = _stolen_goods(True, killers=1)
    assert GoodsTransferred("thief", "k0", 3) in outcome.events
    assert outcome.ships["k0"].rocks == 3
    assert outcome.scores == {"red": 0, "blue": 1 + 3}


def test_stolen_goods_vaporize_with_two_killers_or_without_the_variant() -> None:
    assert RocksVaporized("thief", 3, "destroyed") in _stolen_goods(True, killers=2).events
    plain = _stolen_goods(False, killers=1)
    assert plain.ships["k0"].rocks == 0
    assert RocksVaporized("thief", 3, "destroyed") in plain.events


def test_stellar_scores_vp_and_breaks_ties_on_enemy_ships_killed() -> None:
    # Red kills a 2-VP blue ship; blue keeps 2 cubes on its cargo ship: 2 - 2, red has more
    # enemy ships in its kill pile and wins the tie.
    victim = ship("victim", speed=9, health=1, vp=2)
    gun = ship("gun", speed=1, health=2, lasers=(forward(1),))
    cards = [
        card("gun", "red", gun, 0, 0),
        card("victim", "blue", victim, 0, 200),
        card("cargo", "blue", CARGO, 300, 0, rocks=2),
    ]
    outcome = resolve(cards, rules("red", "blue", ruleset="stellar"))
    assert outcome.scores == {"red": 2, "blue": 2}
    assert outcome.winner == "red"
    # Light Speed scoring counts health (1) instead of VP and has no tie-break.
    lightspeed = resolve(cards, rules("red", "blue"))
    assert lightspeed.scores == {"red": 1, "blue": 2}
