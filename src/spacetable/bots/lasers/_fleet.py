"""Stellar Conflict fleet building for bots: at random within the budget, or by value.

Both builders see what a player sees in preparation: his race's ships, the credits the
battle allows and the deployment countdown. The Cargo and Flag ships are never picked
(they join every deck anyway). Under the timer the value builder also counts the cards it
can deploy in time: the Cargo ship comes first, and the Flag ship at the bottom of the
deck only reaches the table if the chosen ships leave room for it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from spacetable.games.stellar import Fleet, race_ships
from spacetable.lasers.ships import ShipDef

#: What one point of a laser's power is worth, by kind: an ion hit deals nothing but may
#: delay a ship past the moment it would have fired; a penetrating laser deals 1 whatever
#: the shields.
_KIND_WORTH = {"normal": 1.0, "ion": 0.6, "penetrating": 1.4}
#: Each card in the deck takes deployment time that the Flag ship at the bottom may miss.
_CARD_COST = 0.6
#: Seconds a bot expects to take per card when it counts the cards it can deploy before
#: the countdown runs out (the arena's default pace).
SECONDS_PER_CARD = 6.0


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


def value_fleet(
    race: str,
    credits: int,
    rng: random.Random,
    noise: float = 0.2,
    cards: int | None = None,
) -> list[str]:
    """The fleet of ``race`` with the most :func:`ship_value` (less a little per card)
    within ``credits``; each ship's value is scaled by a random factor within ``noise`` so
    fleets vary from match to match.

    ``cards``: how many cards the player expects to deploy in time (``None``: no limit).
    The chosen ships then number at most ``cards - 1`` (the Cargo ship comes first), and a
    fleet small enough to let the Flag ship down too (``cards - 2`` ships) counts the
    Flag ship's value. A knapsack over the credits and the number of ships.
    """
    ships = _choosable(race)
    worth = [(ship_value(s) - _CARD_COST) * rng.uniform(1 - noise, 1 + noise) for s in ships]
    most = len(ships) if cards is None else max(0, min(len(ships), cards - 1))
    # best[k][c]: (value, picks) of the best k ships costing at most c credits so far.
    Best = tuple[float, tuple[int, ...]]
    empty: Best = (0.0, ())
    none: Best = (-math.inf, ())
    best = [[empty] * (credits + 1)] + [[none] * (credits + 1) for _ in range(most)]
    for index, ship in enumerate(ships):
        if worth[index] <= 0:
            continue
        for k in range(most, 0, -1):
            for c in range(credits, ship.credits - 1, -1):
                value, picks = best[k - 1][c - ship.credits]
                if value + worth[index] > best[k][c][0]:
                    best[k][c] = (value + worth[index], (*picks, index))
    flag = next(s for s in race_ships(race).values() if s.role == "flag")
    flag_worth = ship_value(flag) - _CARD_COST

    def total(k: int) -> float:
        bonus = flag_worth if cards is not None and k + 2 <= cards else 0.0
        return best[k][credits][0] + bonus

    chosen = max(range(most + 1), key=total)
    return [ships[i].key for i in best[chosen][credits][1]]


def fleet_action(view: dict[str, Any], rng: random.Random, by_value: bool) -> Fleet:
    """The :class:`Fleet` to send in preparation for ``view["player"]``: a
    :func:`value_fleet` (under the timer, sized for the cards deployed in the countdown at
    :data:`SECONDS_PER_CARD`) or a :func:`random_fleet` of his race within the view's
    credits."""
    player = view["player"]
    race, credits = view["players"][player]["race"], int(view["credits"])
    if not by_value:
        return Fleet(player, tuple(random_fleet(race, credits, rng)), 0.0)
    cards = None
    if view["deployment"] == "timer":
        # The cards placed before the countdown runs out, and the one frozen in hand.
        cards = int(float(view["countdown_seconds"]) // SECONDS_PER_CARD)
    return Fleet(player, tuple(value_fleet(race, credits, rng, cards=cards)), 0.0)
