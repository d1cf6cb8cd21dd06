"""Stellar Conflict's races and fleet building: the four races and their ship cards
(``data/stellar/<race>.toml``; one card of each ship exists), the battle sizes and the
credits a fleet may cost in each, and the check of a chosen fleet.

Pure facts of the catalogs, with no match state: the options
(:mod:`~spacetable.games.stellar.options`) and the preparation phase
(:mod:`~spacetable.games.stellar.match`) are built on them.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Literal, cast

from spacetable.i18n.phrase import Phrase, Reason, refusal
from spacetable.lasers.ships import ShipDef, builtin_catalog

#: A race's key: its catalog is ``data/stellar/<race>.toml``.
Race = Literal["wiss", "vak", "hexai", "tetrakori"]
#: Every race, in the order seats take them by default.
RACES: tuple[Race, ...] = ("wiss", "vak", "hexai", "tetrakori")

#: How big the battle is: it sets the credits (and the deployment countdown).
BattleSize = Literal["dispute", "conflict", "war"]
BATTLE_SIZES: tuple[BattleSize, ...] = ("dispute", "conflict", "war")
#: Credits a fleet may cost, by battle size.
CREDITS: dict[BattleSize, int] = {"dispute": 10, "conflict": 15, "war": 20}


@functools.cache
def race_ships(race: str) -> dict[str, ShipDef]:
    """Every ship card of ``race``, keyed by ship key, in catalog order. Raises
    ``ValueError`` for an unknown race."""
    if race not in RACES:
        raise ValueError(f"unknown race {race!r} (choose from {', '.join(RACES)})")
    return builtin_catalog(f"stellar/{race}")


@functools.cache
def stellar_ships() -> dict[str, ShipDef]:
    """Every race's ships, keyed by ship key (keys are unique across races)."""
    return {key: ship for race in RACES for key, ship in race_ships(race).items()}


@functools.cache
def _races_by_ship() -> dict[str, Race]:
    return {key: race for race in RACES for key in race_ships(race)}


def race_of(ship_key: str) -> Race | None:
    """The race whose fleet holds ``ship_key``, or ``None``."""
    return _races_by_ship().get(ship_key)


def fleet_cost(ships: tuple[str, ...] | list[str]) -> int:
    """The credits the ships cost together (unknown keys count 0)."""
    catalog = stellar_ships()
    return sum(catalog[key].credits for key in ships if key in catalog)


def check_fleet(race: str, ships: tuple[str, ...] | list[str], battle_size: str) -> Reason | None:
    """Why ``ships`` is no fleet for ``race`` in a battle of ``battle_size``, in a
    player's words; ``None`` if it is one. The Cargo and Flag ships are not chosen: they
    join every fleet by themselves."""
    catalog = race_ships(race)
    for key in ships:
        if not isinstance(key, str):
            return refusal("a fleet is a list of ship keys, got {value}", value=repr(key))
        owner = race_of(key)
        if owner is None:
            return refusal("there is no Stellar Conflict ship '{key}'", key=key)
        name = stellar_ships()[key].name
        if owner != race:
            return refusal("the {ship} is a {race} ship: you command the {yours}",
                           ship=name, race=owner.title(), yours=race.title())  # fmt: skip
        role = catalog[key].role
        if role in ("cargo", "flag"):
            if role == "cargo":
                return refusal("your Cargo ship {ship} joins your deck on top by itself: "
                               "leave it out", ship=name)  # fmt: skip
            return refusal("your Flag ship {ship} joins your deck at the bottom by itself: "
                           "leave it out", ship=name)  # fmt: skip
    for key, count in Counter(ships).items():
        if count > 1:
            return refusal("each card exists once: you picked the {ship} {count} times",
                           ship=catalog[key].name, count=count)  # fmt: skip
    cost, budget = fleet_cost(ships), CREDITS[cast(BattleSize, battle_size)]
    if cost > budget:
        return refusal("your fleet costs {cost} credits; a {size} allows {budget}",
                       cost=cost, size=Phrase(battle_size.title()), budget=budget)  # fmt: skip
    return None
