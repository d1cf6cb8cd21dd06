"""The smallest tables that show the rules bugs found by differential testing against an
independent resolver (issue 8), each resolved by the reference and the compiled path.

1. Stolen Goods: a carrier damaged in its killing step by two ships, one of which dies in
   that step, lost its cubes to the survivor; ruling 11 vaporizes them.
2. A ray running along an edge of a card turned to an angle that is not a multiple of 90
   degrees was missed, or entered mid-edge; ruling 2 makes it touch, at the nearest corner.
3. Light Speed piracy vaporized rocks stolen from one's own ship with the ``cargo`` role
   (the role means nothing under Light Speed, ruling 9), and a penetrating laser stole its
   power instead of the 1 damage it dealt (ruling 8).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from spacetable.lasers.battle import Card, Outcome, Resolver, Rules, resolve
from spacetable.lasers.events import GoodsTransferred, LaserFired, RocksTaken, RocksVaporized
from spacetable.lasers.fast import resolve_fast
from spacetable.lasers.geometry import Pose, rects_touch
from spacetable.lasers.ships import Laser, Shield
from tests._build import card, forward, rules, ship

RESOLVERS = pytest.mark.parametrize("resolver", [resolve, resolve_fast], ids=["ref", "fast"])


def _both(cards: Sequence[Card], battle_rules: Rules) -> Outcome:
    """The reference outcome, after checking that the compiled path gives the same one."""
    for a in cards:
        assert not any(rects_touch(a.rect, b.rect) for b in cards if b.id != a.id), a.id
    outcome = resolve(cards, battle_rules)
    assert json.dumps(resolve_fast(cards, battle_rules).to_json()) == json.dumps(outcome.to_json())
    return outcome


# --------------------------------------------------------------- 1. Stolen Goods (ruling 11)

CARRIER = ship("carrier", speed=9, health=2)
GUN = ship("gun", speed=1, health=1, lasers=(forward(1),))
LEFT_GUN = ship("leftgun", speed=1, health=1, lasers=(forward(1, x=20.0),))
RIGHT_GUN = ship("rightgun", speed=1, health=1, lasers=(forward(1, x=-20.0),))


def _carrier_table(second_shooter: bool, first_dies: bool) -> list[Card]:
    """Blue's carrier (3 stolen cubes, health 2) ahead of red's guns at speed 1: ``a`` hits
    it from the left, ``b`` (if there) from the right; blue's ``c`` may kill ``a`` in the
    same step."""
    cards = [card("carrier", "blue", CARRIER, 0, 200, rocks=3)]
    strong = ship("stronggun", speed=1, health=1, lasers=(forward(2, x=20.0),))
    cards.append(card("a", "red", LEFT_GUN if second_shooter else strong, -40, 0))
    if second_shooter:
        cards.append(card("b", "red", RIGHT_GUN, 40, 0))
    if first_dies:
        cards.append(card("c", "blue", GUN, -40, -200))
    return cards


@RESOLVERS
def test_two_shooters_one_dying_in_the_killing_step_vaporize_the_cubes(
    resolver: Resolver,
) -> None:
    outcome = resolver(
        _carrier_table(second_shooter=True, first_dies=True),
        rules("red", "blue", ruleset="stellar", stolen_goods=True),
    )
    assert not outcome.ships["carrier"].alive
    assert not outcome.ships["a"].alive
    assert outcome.ships["b"].alive
    assert outcome.ships["b"].rocks == 0
    assert RocksVaporized("carrier", 3, "destroyed") in outcome.events
    assert not any(isinstance(e, GoodsTransferred) for e in outcome.events)


@RESOLVERS
def test_the_one_shooter_dying_in_the_killing_step_takes_the_cubes_with_it(
    resolver: Resolver,
) -> None:
    outcome = resolver(
        _carrier_table(second_shooter=False, first_dies=True),
        rules("red", "blue", ruleset="stellar", stolen_goods=True),
    )
    assert not outcome.ships["carrier"].alive
    assert not outcome.ships["a"].alive
    assert RocksVaporized("carrier", 3, "destroyed") in outcome.events


@RESOLVERS
def test_the_one_surviving_shooter_takes_the_cubes(resolver: Resolver) -> None:
    outcome = resolver(
        _carrier_table(second_shooter=False, first_dies=False),
        rules("red", "blue", ruleset="stellar", stolen_goods=True),
    )
    assert GoodsTransferred("carrier", "a", 3) in outcome.events
    assert outcome.ships["a"].rocks == 3


def test_stolen_goods_regression_agrees_on_both_paths() -> None:
    _both(
        _carrier_table(second_shooter=True, first_dies=True),
        rules("red", "blue", ruleset="stellar", stolen_goods=True),
    )


# ------------------------------------------------------ 2. rays along a turned edge (ruling 2)

#: The target's back edge is shielded near its right corner only.
TARGET = ship("target", speed=9, health=3, shields=(Shield("back", 20.0, 31.5),))


#: Where a gun turned by some quarter turns from the target fires along the target's front
#: direction: the laser's point on its edge and its angle (0 = out of the front edge).
MUZZLES: dict[float, tuple[tuple[float, float], float]] = {
    0.0: ((0.0, 44.0), 0.0),
    90.0: ((31.5, 0.0), -90.0),
    -90.0: ((-31.5, 0.0), 90.0),
    180.0: ((0.0, -44.0), 180.0),
}


def _along_the_edge(rotation: float, behind: float, turn: float = 180.0) -> list[Card]:
    """Red's gun, turned ``turn`` degrees from blue's target, fires along the target's right
    edge from ``behind`` mm behind its back edge: the laser reaches the back-right corner.
    (A gun turned 180 degrees firing backward is what the old slab test missed most.)"""
    target = Card("target", Pose(10.0, 20.0, rotation), TARGET, "blue")
    muzzle = target.pose.to_world(31.5, -44.0 - behind)  # on the right edge's line
    at, angle = MUZZLES[turn]
    offset = Pose(0.0, 0.0, rotation + turn).to_world(*at)
    gun_pose = Pose(muzzle[0] - offset[0], muzzle[1] - offset[1], rotation + turn)
    gun = Card("gun", gun_pose, ship("gun", lasers=(Laser(at, angle, 1),)), "red")
    return [target, gun]


@pytest.mark.parametrize("turn", sorted(MUZZLES))
@pytest.mark.parametrize("rotation", [30.0, -67.5, 123.0, 10.0, 45.0, 200.0 / 3])
@pytest.mark.parametrize("behind", [37.0, 100.0, 250.0])
def test_a_laser_along_a_turned_edge_enters_at_the_corner(
    rotation: float, behind: float, turn: float
) -> None:
    outcome = _both(_along_the_edge(rotation, behind, turn), rules("red", "blue"))
    (shot,) = [e for e in outcome.events if isinstance(e, LaserFired)]
    assert shot.target == "target"
    # At the corner, the back edge's shield covers it (a shield on either edge blocks).
    assert shot.result == "blocked"
    corner = Pose(10.0, 20.0, rotation).to_world(31.5, -44.0)
    assert shot.end is not None
    assert abs(shot.end[0] - corner[0]) < 1e-6 and abs(shot.end[1] - corner[1]) < 1e-6


def test_without_the_corner_shield_the_laser_along_the_edge_damages() -> None:
    cards = _along_the_edge(30.0, 100.0)
    cards[0] = Card("target", cards[0].pose, ship("target", speed=9, health=3), "blue")
    outcome = _both(cards, rules("red", "blue"))
    assert outcome.ships["target"].damage == {"red": 1}


# ---------------------------------------------------- 3. piracy under Light Speed (rulings 8, 9)

HOLD = ship("hold", speed=9, health=5, role="cargo")


@RESOLVERS
def test_piracy_keeps_rocks_stolen_from_your_own_ship_with_a_cargo_role(
    resolver: Resolver,
) -> None:
    cards = [card("hold", "red", HOLD, 0, 200, rocks=4), card("gun", "red", GUN, 0, 0)]
    outcome = resolver(cards, rules("red", "blue", piracy=True))
    assert RocksTaken("hold", "gun", 1) in outcome.events
    assert not any(isinstance(e, RocksVaporized) for e in outcome.events)
    assert outcome.ships["gun"].rocks == 1
    assert outcome.ships["hold"].rocks == 3


@RESOLVERS
def test_a_penetrating_pirate_steals_the_one_damage_it_deals(resolver: Resolver) -> None:
    lance = ship("lance", speed=1, health=1, lasers=(Laser((0.0, 44.0), 0.0, 3, "penetrating"),))
    cards = [card("hold", "blue", HOLD, 0, 200, rocks=4), card("lance", "red", lance, 0, 0)]
    outcome = resolver(cards, rules("red", "blue", piracy=True))
    assert outcome.ships["hold"].damage == {"red": 1}
    assert RocksTaken("hold", "lance", 1) in outcome.events
    assert outcome.ships["lance"].rocks == 1
    assert outcome.ships["hold"].rocks == 3


def test_piracy_regressions_agree_on_both_paths() -> None:
    lance = ship("lance", speed=1, health=1, lasers=(Laser((0.0, 44.0), 0.0, 3, "penetrating"),))
    for shooter, target_owner in ((GUN, "red"), (lance, "blue")):
        cards = [card("hold", target_owner, HOLD, 0, 200, rocks=4), card("s", "red", shooter, 0, 0)]
        _both(cards, rules("red", "blue", piracy=True))


# ------------------------------------- also settled by the contract: the engine already agrees


@RESOLVERS
def test_speed_zero_fires_first(resolver: Resolver) -> None:
    quick = ship("quick", speed=0, health=1, lasers=(forward(1),))
    slow = ship("slow", speed=1, health=1, lasers=(Laser((0.0, -44.0), 180.0, 1),))
    cards = [card("quick", "red", quick, 0, 0), card("slow", "blue", slow, 0, 200)]
    outcome = resolver(cards, rules("red", "blue"))
    assert outcome.ships["quick"].alive and not outcome.ships["slow"].alive
    steps = [e.speed for e in outcome.events if isinstance(e, LaserFired)]
    assert steps == [0]


@RESOLVERS
def test_a_card_of_another_size_scales_its_definition(resolver: Resolver) -> None:
    """On 126 x 176 mm cards, a laser designed at x = 20 leaves the front edge at x = 40, and
    a shield designed over x 0..31.5 of the back edge covers 0..63, so it blocks there."""
    gun = ship("gun", speed=1, health=1, lasers=(forward(1, x=20.0),))
    big = ship("big", speed=9, health=2, shields=(Shield("back", 0.0, 31.5),))
    cards = [
        Card("gun", Pose(0.0, 0.0, 0.0), gun, "red", size=(126.0, 176.0)),
        Card("big", Pose(0.0, 300.0, 0.0), big, "blue", size=(126.0, 176.0)),
    ]
    outcome = resolver(cards, rules("red", "blue"))
    (shot,) = [e for e in outcome.events if isinstance(e, LaserFired)]
    assert shot.origin == (40.0, 88.0)
    assert shot.target == "big" and shot.edge == "back"
    assert shot.result == "blocked"
