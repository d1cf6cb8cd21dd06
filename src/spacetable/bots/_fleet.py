"""Stellar Conflict fleet building for bots: at random within the budget, or by value.

Both builders see what a player sees in preparation: his race's ships and the credits the
battle allows. The Cargo and Flag ships are never picked (they join every deck anyway).
"""

from __future__ import annotations

import random
from typing import Any

from spacetable.games.stellar import Fleet, race_ships
from spacetable.ships import ShipDef

#: What one point of a laser's power is worth, by kind: an ion hit deals nothing but may
#: delay a ship past the moment it would have fired; a penetrating laser deals 1 whatever
#: the shields.
_KIND_WORTH = {"normal": 1.0, "ion": 0.6, "penetrating": 1.4}
#: Each card in the deck takes deployment time that the Flag ship at the bottom may miss.
_CARD_COST = 0.6


def _choosable(race: str) -> list[ShipDef]:
    """The race's ships a player may pick (neither Cargo nor Flag ship)."""
    return [s for s in race_ships(race).values() if s.role not in ("cargo", "flag")]


def random_fleet(race: str, credits: int, rng: random.Random) -> list[str]:
    """Ships of ``race`` taken in a random order while the credits last."""
    ships = _choosable(race)
    rng.shuffle(ships)
    fleet: list[str] = []
    left = credits
    for ship in ships:
        if ship.credits <= left:
            fleet.append(ship.key)
            left -= ship.credits
    return fleet


def ship_value(ship: ShipDef) -> float:
    """A rough worth of a ship in battle: firepower (earlier initiatives worth more, once
    per initiative) and hull and shields, less the VP it gives away when destroyed."""
    firepower = sum(
        (1 if laser.kind == "penetrating" else laser.power) * _KIND_WORTH[laser.kind]
        for laser in ship.lasers
    )
    timing = sum(1.0 + (10 - speed) / 10 for speed in ship.speeds)
    return firepower * timing + 0.6 * ship.health + 0.4 * len(ship.shields) - 0.3 * ship.vp


def value_fleet(race: str, credits: int, rng: random.Random, noise: float = 0.2) -> list[str]:
    """The fleet of ``race`` with the most :func:`ship_value` (less a little per card)
    within ``credits``; each ship's value is scaled by a random factor within ``noise`` so
    fleets vary from match to match. A 0/1 knapsack over the credits."""
    ships = _choosable(race)
    worth = [(ship_value(s) - _CARD_COST) * rng.uniform(1 - noise, 1 + noise) for s in ships]
    # best[c]: (value, picks) of the best fleet costing at most c credits so far.
    best: list[tuple[float, tuple[int, ...]]] = [(0.0, ())] * (credits + 1)
    for index, ship in enumerate(ships):
        if worth[index] <= 0:
            continue
        for c in range(credits, ship.credits - 1, -1):
            value, picks = best[c - ship.credits]
            if value + worth[index] > best[c][0]:
                best[c] = (value + worth[index], (*picks, index))
    return [ships[i].key for i in best[credits][1]]


def fleet_action(view: dict[str, Any], rng: random.Random, by_value: bool) -> Fleet:
    """The :class:`Fleet` to send in preparation for ``view["player"]``: a
    :func:`value_fleet` or a :func:`random_fleet` of his race within the view's credits."""
    player = view["player"]
    race, credits = view["players"][player]["race"], int(view["credits"])
    build = value_fleet if by_value else random_fleet
    return Fleet(player, tuple(build(race, credits, rng)), 0.0)
