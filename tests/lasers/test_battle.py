"""The laser battle, ruling by ruling (DESIGN section 4), as a referee would check it."""

from __future__ import annotations

from spacetable.lasers.battle import Card, Outcome, distribute, resolve
from spacetable.lasers.events import CardLeft, Destroyed, LaserFired, RocksVaporized, StepBegan
from spacetable.lasers.geometry import Pose
from spacetable.lasers.ships import Laser, Shield
from tests._build import backward, card, forward, rules, ship

MOTH = ship("moth", speed=1, health=1, lasers=(forward(1),))


def lasers(outcome: Outcome) -> list[LaserFired]:
    return [e for e in outcome.events if isinstance(e, LaserFired)]


# Ruling 1: speed steps, simultaneous fire against the table at the start of the step.


def test_steps_run_over_distinct_speeds_lowest_first() -> None:
    fast = ship("fast", speed=3)
    slow = ship("slow", speed=7)
    cards = [
        card("a", "red", slow, 0, 0),
        card("b", "blue", fast, 200, 0),
        card("c", "blue", slow, 400, 0),
    ]
    steps = [e for e in resolve(cards, rules("red", "blue")).events if isinstance(e, StepBegan)]
    assert [(s.speed, s.ships) for s in steps] == [(3, ("b",)), (7, ("a", "c"))]


def test_ships_of_one_speed_kill_each_other() -> None:
    cards = [card("red-moth", "red", MOTH, 0, 0), card("blue-moth", "blue", MOTH, 0, 200, 180)]
    outcome = resolve(cards, rules("red", "blue"))
    assert not outcome.ships["red-moth"].alive
    assert not outcome.ships["blue-moth"].alive
    assert outcome.kill_piles == {"red": ["blue-moth"], "blue": ["red-moth"]}
    assert outcome.scores == {"red": 1, "blue": 1}
    assert outcome.winner is None


def test_a_ship_dying_this_step_still_blocks_lasers() -> None:
    side = ship("side", speed=1, lasers=(forward(1),))
    cards = [
        card("killer", "red", MOTH, 0, 0),
        card("victim", "blue", MOTH, 0, 200, 180),
        card("side", "red", side, 150, 200, 90),  # fires toward -x through the victim
        card("behind", "blue", MOTH, -150, 200, 180),
    ]
    outcome = resolve(cards, rules("red", "blue"))
    assert not outcome.ships["victim"].alive
    assert outcome.ships["behind"].damage == {}
    assert outcome.ships["victim"].damage == {"red": 2}


def test_a_ship_destroyed_earlier_no_longer_blocks() -> None:
    late = ship("late", speed=2, health=2, lasers=(forward(1),))
    target = ship("target", speed=9, health=2)
    cards = [
        card("killer", "red", MOTH, 0, 0),
        card("victim", "blue", MOTH, 0, 200, 180),
        card("late", "red", late, 200, 200, 90),
        card("behind", "blue", target, -200, 200),
    ]
    outcome = resolve(cards, rules("red", "blue"))
    assert outcome.ships["behind"].damage == {"red": 1}


# Ruling 2: the first card touched, any owner; the firer is never hit.


def test_laser_stops_at_first_card_even_a_friend() -> None:
    sturdy = ship("sturdy", speed=5, health=3)
    cards = [
        card("gun", "red", ship("gun", lasers=(forward(2),)), 0, 0),
        card("friend", "red", sturdy, 0, 150),
        card("enemy", "blue", sturdy, 0, 300),
    ]
    outcome = resolve(cards, rules("red", "blue"))
    assert outcome.ships["friend"].damage == {"red": 2}
    assert outcome.ships["enemy"].damage == {}


def test_laser_that_touches_nothing_goes_into_space() -> None:
    cards = [card("gun", "red", MOTH, 0, 0), card("other", "blue", MOTH, 200, 0)]
    (shot,) = [e for e in lasers(resolve(cards, rules("red", "blue"))) if e.ship == "gun"]
    assert shot.result == "space" and shot.target is None and shot.end is None


def test_grazing_a_card_edge_is_a_hit() -> None:
    gun = ship("gun", lasers=(forward(1, x=31.5 - 0.0),))
    target = ship("target", speed=9, health=2)
    # The laser runs along x = 31.5; the target's left edge lies exactly on that line.
    cards = [card("gun", "red", gun, 0, 0), card("t", "blue", target, 63, 200)]
    assert resolve(cards, rules("red", "blue")).ships["t"].damage == {"red": 1}


# Ruling 3: shields.


def _shield_table(laser_x: float, shields: tuple[Shield, ...]) -> Outcome:
    gun = ship("gun", lasers=(forward(1, x=laser_x),))
    target = ship("target", speed=9, health=2, shields=shields)
    # The target faces the gun (rotation 180): its front edge is toward -y, local x = -x.
    return resolve(
        [card("gun", "red", gun, 0, 0), card("t", "blue", target, 0, 200, 180)],
        rules("red", "blue"),
    )


def test_shield_blocks_only_where_it_covers() -> None:
    front = (Shield("front", -10.0, 10.0),)
    assert _shield_table(0.0, front).ships["t"].damage == {}
    assert _shield_table(20.0, front).ships["t"].damage == {"red": 1}
    # The interval is closed: world x = -10 is local x = 10, the shield's end.
    assert _shield_table(-10.0, front).ships["t"].damage == {}
    assert [e.result for e in lasers(_shield_table(0.0, front))] == ["blocked"]


def _corner_shot(shields: tuple[Shield, ...]) -> Outcome:
    # A laser at 45 degrees aimed exactly at the target's back-left corner (-31.5, 156).
    gun = ship("gun", lasers=(Laser((0.0, 44.0), -45.0, 1),))
    target = ship("target", speed=9, health=2, shields=shields)
    cards = [card("gun", "red", gun, -131.5, 12.0), card("t", "blue", target, 0, 200)]
    return resolve(cards, rules("red", "blue"))


def test_corner_hit_is_blocked_by_a_shield_on_either_edge() -> None:
    assert _corner_shot(()).ships["t"].damage == {"red": 1}
    assert _corner_shot((Shield("left", -44.0, 44.0),)).ships["t"].damage == {}
    assert _corner_shot((Shield("back", -31.5, 31.5),)).ships["t"].damage == {}
    assert _corner_shot((Shield("front", -31.5, 31.5),)).ships["t"].damage == {"red": 1}


# Ruling 4: mining pulses.


def test_distribute_pulses_follow_the_rulebook() -> None:
    assert distribute(12, [2, 1]) == ([2, 1], 0)
    assert distribute(5, [3, 1]) == ([3, 1], 0)
    assert distribute(4, [2, 2]) == ([2, 2], 0)
    # Two rocks, three lasers: the first pulse vaporizes both.
    assert distribute(2, [3, 2, 1]) == ([0, 0, 0], 2)
    # Three rocks, lasers 3 and 2 and 1: pulse one gives 1 each, pulse two has no rock left.
    assert distribute(3, [3, 2, 1]) == ([1, 1, 1], 0)
    # Four rocks, lasers 3 and 2 and 1: pulse one gives 1 each, pulse two (2 lasers) finds 1.
    assert distribute(4, [3, 2, 1]) == ([1, 1, 1], 1)
    # Five rocks, lasers 3 and 3: 1+1, 1+1, then one rock for two lasers is vaporized.
    assert distribute(5, [3, 3]) == ([2, 2], 1)
    assert distribute(0, [3]) == ([0], 0)


def _miners(rocks: int, powers: tuple[int, ...]) -> list[Card]:
    out = [Card("rock", Pose(0, 200, 0), None, None, rocks, (240.0, 88.0))]
    for i, power in enumerate(powers):
        gun = ship(f"gun{power}", speed=1, lasers=(forward(power),))
        out.append(card(f"m{i}", "red" if i % 2 == 0 else "blue", gun, -80 + 80 * i, 0))
    return out


def test_simultaneous_miners_with_too_few_rocks() -> None:
    outcome = resolve(_miners(2, (3, 2, 1)), rules("red", "blue"))
    assert outcome.asteroids == {"rock": 0}
    assert [s.rocks for s in outcome.ships.values()] == [0, 0, 0]
    assert RocksVaporized("rock", 2, "pulse") in outcome.events
    assert CardLeft("rock", "depleted") in outcome.events


def test_mining_shares_by_pulses() -> None:
    outcome = resolve(_miners(4, (3, 2, 1)), rules("red", "blue"))
    assert [outcome.ships[f"m{i}"].rocks for i in range(3)] == [1, 1, 1]
    assert outcome.scores == {"red": 2, "blue": 1}


def test_depleted_asteroid_leaves_and_later_lasers_pass() -> None:
    late = ship("late", speed=5, health=2, lasers=(forward(1),))
    target = ship("target", speed=9, health=2)
    cards = [
        Card("rock", Pose(0, 200, 0), None, None, 2, (240.0, 88.0)),
        card("miner", "red", ship("gun", lasers=(forward(3),)), 0, 0),
        card("late", "red", late, 200, 0),
        card("far", "blue", target, 200, 400),
    ]
    # The late ship's laser runs through x = 200, which the asteroid covered.
    outcome = resolve(cards, rules("red", "blue"))
    assert outcome.ships["miner"].rocks == 2
    assert outcome.ships["far"].damage == {"red": 1}


# Ruling 5: damage stays; deaths after the step vaporize rocks gained in it.


def test_damage_accumulates_across_steps() -> None:
    sturdy = ship("sturdy", speed=9, health=3)
    one = ship("one", speed=1, lasers=(forward(1),))
    two = ship("two", speed=2, lasers=(forward(2),))
    cards = [
        card("a", "red", one, 0, 0),
        card("b", "red", two, 200, 200, 90),
        card("t", "blue", sturdy, 0, 200),
    ]
    outcome = resolve(cards, rules("red", "blue"))
    destroyed = [e for e in outcome.events if isinstance(e, Destroyed)]
    assert destroyed == [Destroyed("t", "red")]
    assert outcome.ships["t"].damage == {"red": 3}


def test_rocks_mined_by_a_ship_killed_in_the_same_step_vaporize() -> None:
    cards = [
        Card("rock", Pose(0, 200, 0), None, None, 12, (240.0, 88.0)),
        card("miner", "red", ship("gun", lasers=(forward(2),)), 0, 0),
        card("sniper", "blue", MOTH, 200, 0, 90),  # fires toward -x at the miner
    ]
    outcome = resolve(cards, rules("red", "blue"))
    assert not outcome.ships["miner"].alive
    assert outcome.ships["miner"].rocks == 0
    assert outcome.asteroids == {"rock": 10}
    assert RocksVaporized("miner", 2, "destroyed") in outcome.events
    assert outcome.scores == {"red": 0, "blue": 1}


# Rulings 6 and 7: kill piles and scores.


def test_two_player_own_kill_goes_to_the_opponent() -> None:
    cards = [card("gun", "red", MOTH, 0, 0), card("own", "red", MOTH, 0, 200, 180)]
    outcome = resolve(cards, rules("red", "blue"))
    assert outcome.kill_piles == {"red": [], "blue": ["gun", "own"]}
    assert outcome.scores == {"red": 0, "blue": 2}


def test_rulebook_two_player_scoring_example() -> None:
    # A Moth and a Sidewinder in red's kill pile (3 health) and 5 rocks on red ships: 8.
    moth = ship("moth", speed=1, health=1)
    sidewinder = ship("sidewinder", speed=2, health=2)
    cards = [
        Card("rock", Pose(0, 300, 0), None, None, 12, (240.0, 88.0)),
        card("m3", "red", ship("gun3", speed=3, lasers=(forward(3),)), -60, 0),
        card("m2", "red", ship("gun2", speed=3, lasers=(forward(2),)), 60, 0),
        card("k1", "red", ship("k1", speed=3, lasers=(backward(1),)), -300, 0),
        card("k2", "red", ship("k2", speed=3, lasers=(backward(2),)), 300, 0),
        card("blue-moth", "blue", moth, -300, -200),
        card("blue-sidewinder", "blue", sidewinder, 300, -200),
    ]
    outcome = resolve(cards, rules("red", "blue"))
    assert sorted(outcome.kill_piles["red"]) == ["blue-moth", "blue-sidewinder"]
    assert outcome.ships["m3"].rocks + outcome.ships["m2"].rocks == 5
    assert outcome.scores == {"red": 8, "blue": 0}
    assert outcome.winner == "red"


def _three_way(hits: dict[str, tuple[int, int]], health: int = 3) -> Outcome:
    """A red victim at the centre, hit by each player's gun (power, speed) from a side."""
    victim = ship("victim", speed=9, health=health)
    cards = [card("red-viper", "red", victim, 0, 0)]
    spots = {"blue": (0, -200, 0), "green": (0, 200, 180), "red": (200, 0, 90)}
    for player, (power, speed) in hits.items():
        gun = ship(f"gun-{player}", speed=speed, health=4, lasers=(forward(power),))
        cards.append(card(f"{player}-gun", player, gun, *spots[player]))
    return resolve(cards, rules("red", "blue", "green"))


def test_rulebook_viper_example_three_players() -> None:
    # Blue put 2 damage on a red Viper (3 health); green's Destroyer hits it for 3: green's.
    outcome = _three_way({"blue": (2, 1), "green": (3, 9)})
    assert outcome.ships["red-viper"].damage == {"blue": 2, "green": 3}
    assert outcome.kill_piles == {"red": [], "blue": [], "green": ["red-viper"]}
    assert outcome.scores == {"red": 0, "blue": 0, "green": 3}


def test_owner_wins_a_tie_and_loses_the_points() -> None:
    outcome = _three_way({"blue": (1, 1), "red": (1, 1)}, health=2)
    assert outcome.kill_piles["red"] == ["red-viper"]
    assert outcome.scores["red"] == -2


def test_other_ties_vaporize_the_ship() -> None:
    outcome = _three_way({"blue": (1, 1), "green": (1, 1)}, health=2)
    assert not outcome.ships["red-viper"].alive
    assert Destroyed("red-viper", None) in outcome.events
    assert outcome.kill_piles == {"red": [], "blue": [], "green": []}
    assert outcome.scores == {"red": 0, "blue": 0, "green": 0}


def test_most_damage_takes_the_ship_even_the_owner() -> None:
    outcome = _three_way({"blue": (1, 1), "red": (2, 1)})
    assert outcome.kill_piles["red"] == ["red-viper"]
    assert outcome.scores == {"red": -3, "blue": 0, "green": 0}


# Ruling 8: piracy.


def _pirate_table(piracy: bool, shields: tuple[Shield, ...] = ()) -> Outcome:
    carrier = ship("carrier", speed=9, health=3, shields=shields)
    pirate = ship("pirate", speed=2, lasers=(forward(2),))
    cards = [
        card("carrier", "red", carrier, 0, 200, 0, rocks=3),
        card("pirate", "blue", pirate, 0, 0),
    ]
    return resolve(cards, rules("red", "blue", piracy=piracy))


def test_piracy_steals_with_the_laser_power() -> None:
    outcome = _pirate_table(piracy=True)
    assert outcome.ships["carrier"].rocks == 1
    assert outcome.ships["pirate"].rocks == 2
    assert outcome.scores == {"red": 1, "blue": 2}


def test_without_piracy_damage_steals_nothing() -> None:
    outcome = _pirate_table(piracy=False)
    assert outcome.ships["carrier"].rocks == 3
    assert outcome.scores == {"red": 3, "blue": 0}


def test_piracy_needs_the_laser_to_damage() -> None:
    outcome = _pirate_table(piracy=True, shields=(Shield("back", -31.5, 31.5),))
    assert outcome.ships["carrier"].rocks == 3


def test_a_laser_running_along_a_shielded_edge_into_the_corner_is_blocked() -> None:
    # The gun, turned to fire toward +x, sends its laser along the target's front edge
    # (y = 44): it touches the front-left corner first, where the front shield blocks it.
    target = ship("target", speed=9, health=1, shields=(Shield("front", -31.5, 31.5),))
    cards = [card("gun", "red", MOTH, -200, 44, -90), card("t", "blue", target, 0, 0)]
    outcome = resolve(cards, rules("red", "blue"))
    assert [e.result for e in lasers(outcome)] == ["blocked"]
    assert outcome.ships["t"].alive
