"""The compiled path agrees with the reference on near-degenerate random tables.

``test_fast`` compares both resolvers on dense random tables; here every shooter is placed
so that one of its lasers runs exactly along an edge of another card, turned to any angle,
or passes exactly through one of its corners, or within 1e-12 mm of either; shields end
exactly at corners. 2-4 players, both rulesets and their variants (piracy, Stolen Goods),
ion and penetrating lasers and cargo ships, as in ``test_fast``. This is the class of table
where issue 8's geometry bug hid (rays along the edge of a card turned 30 degrees).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from spacetable.lasers.battle import Card, Rules, resolve
from spacetable.lasers.events import LaserFired
from spacetable.lasers.fast import resolve_fast
from spacetable.lasers.geometry import EDGES, Pose, rects_touch
from spacetable.lasers.ships import CARD_SIZE_MM, Shield, ShipDef
from spacetable.lasers.tables import CARGO_CUBES
from tests.lasers.test_fast import PLAYERS, as_text, random_ship
from tests.lasers.test_geometry_exact import exact_ray_hit

HW, HL = CARD_SIZE_MM[0] / 2.0, CARD_SIZE_MM[1] / 2.0
CORNERS = ((HW, HL), (-HW, HL), (-HW, -HL), (HW, -HL))
#: Each edge as (a corner it starts from, the heading along it from there, relative to the
#: card's front): right edge upward, front edge leftward, and so on round the card.
EDGE_RUNS = (((HW, -HL), 0.0), ((HW, HL), 90.0), ((-HW, HL), 180.0), ((-HW, -HL), -90.0))
OFFSETS = (0.0, 0.0, 1e-12, -1e-12, 4e-10, -4e-10)


def _corner_shields(rng: random.Random, ship: ShipDef) -> ShipDef:
    """``ship`` with shields that end exactly at a corner (or none)."""
    shields = []
    for _ in range(rng.choice((0, 1, 1, 2))):
        edge = rng.choice(EDGES)
        half = HW if edge in ("front", "back") else HL
        length = rng.choice((1.0, 10.0, half))
        shields.append(
            rng.choice((Shield(edge, half - length, half), Shield(edge, -half, -half + length)))
        )
    return replace(ship, shields=tuple(shields))


def _aimed(rng: random.Random, shooter: ShipDef, target: Card) -> Pose | None:
    """A pose for ``shooter`` whose first laser runs along one of ``target``'s edges, or
    through one of its corners, give or take 1e-12 mm."""
    if not shooter.lasers:
        return None
    laser = shooter.lasers[0]
    offset = rng.choice(OFFSETS)
    if rng.random() < 0.5:
        corner, along = rng.choice(EDGE_RUNS)
        heading_deg = target.pose.rotation_deg + along
        start = target.pose.to_world(*corner)
    else:
        heading_deg = rng.choice((rng.uniform(-180.0, 180.0), float(rng.randrange(0, 360, 15))))
        start = target.pose.to_world(*rng.choice(CORNERS))
    rotation = heading_deg - laser.angle_deg
    probe = Pose(0.0, 0.0, rotation)
    dx, dy = probe.direction(laser.angle_deg)
    behind = rng.uniform(5.0, 260.0)
    muzzle = (start[0] - dx * behind + dy * offset, start[1] - dy * behind - dx * offset)
    at = probe.to_world(*laser.at)
    return Pose(muzzle[0] - at[0], muzzle[1] - at[1], rotation)


def degenerate_battle(seed: int) -> tuple[list[Card], Rules]:
    """A random table where shooters aim along edges and through corners of other cards."""
    rng = random.Random(seed)
    n_players = rng.choice((2, 3, 4))
    stellar = rng.random() < 0.4
    rules = Rules(
        PLAYERS[:n_players],
        "stellar" if stellar else "lightspeed",
        piracy=not stellar and rng.random() < 0.5,
        stolen_goods=stellar and rng.random() < 0.6,
    )
    defs = [_corner_shields(rng, random_ship(rng, f"ship{i}", stellar)) for i in range(6)]
    cards: list[Card] = []

    def add(card: Card) -> bool:
        if any(rects_touch(card.rect, other.rect) for other in cards):
            return False
        cards.append(card)
        return True

    for index in range(rng.randint(4, 12)):
        ship = rng.choice(defs)
        owner = rng.choice(rules.players)
        if stellar and ship.role == "cargo":
            rocks = CARGO_CUBES[n_players]
        else:
            rocks = rng.choice((0, 0, 2, 5))
        for _ in range(60):
            pose: Pose | None = None
            if cards and rng.random() < 0.8:
                pose = _aimed(rng, ship, rng.choice(cards))
            if pose is None:
                pose = Pose(rng.uniform(-250, 250), rng.uniform(-250, 250), rng.uniform(-180, 180))
            if rng.random() < 0.1:
                rock = Card(f"rock{index}", pose, None, None, rng.choice((1, 3, 12)))
                if add(rock):
                    break
            elif add(Card(f"{owner}-{index}", pose, ship, owner, rocks)):
                break
    return cards, rules


@pytest.mark.parametrize("seed", range(300))
def test_fast_path_agrees_on_degenerate_tables(seed: int) -> None:
    cards, rules = degenerate_battle(seed)
    assert as_text(resolve_fast(cards, rules)) == as_text(resolve(cards, rules))


def test_degenerate_tables_hit_corners_and_run_along_edges() -> None:
    """The tables above are degenerate as meant: many lasers end exactly at a corner of the
    card they touch, and shields there block some of them."""
    results: Counter[str] = Counter()
    corner_hits = 0
    for seed in range(300):
        cards, rules = degenerate_battle(seed)
        by_id = {c.id: c for c in cards}
        for event in resolve(cards, rules).events:
            if not isinstance(event, LaserFired) or event.target is None or event.end is None:
                continue
            results[event.result] += 1
            local = by_id[event.target].pose.to_local(*event.end)
            if any(math.dist(local, corner) < 1e-6 for corner in CORNERS):
                corner_hits += 1
    assert corner_hits >= 150, corner_hits
    assert results["blocked"] >= 30 and results["damage"] >= 100, results


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_first_step_targets_agree_with_exact_arithmetic(seed: int) -> None:
    """Every laser of the first speed step (the whole table still on it) stops at the card
    that exact rationals find first, and touches it on the same edges, wherever the exact
    answer is clear of rounding (see ``test_geometry_exact``)."""
    cards, rules = degenerate_battle(seed)
    by_id = {c.id: c for c in cards}
    events = resolve(cards, rules).events
    first_speed = next(e.speed for e in events if isinstance(e, LaserFired))
    for event in events:
        if not isinstance(event, LaserFired) or event.speed != first_speed:
            continue
        shooter = by_id[event.ship]
        assert shooter.ship is not None
        laser = shooter.lasers()[event.laser]
        origin = shooter.pose.to_world(*laser.at)
        direction = shooter.pose.direction(laser.angle_deg)
        answers = [
            (exact_ray_hit(origin, direction, other.rect), other.id)
            for other in cards
            if other.id != shooter.id
        ]
        if not all(exact.clear for exact, _ in answers):
            continue
        hits = sorted((exact.t, cid, exact.edges) for exact, cid in answers if exact.hit)
        if len(hits) > 1 and hits[1][0] - hits[0][0] < 1e-6:
            continue  # two cards at the same distance: the table order decides
        expected = hits[0] if hits else None
        assert event.target == (expected[1] if expected else None), event
        if expected is not None:
            assert event.edge == expected[2][0], event
