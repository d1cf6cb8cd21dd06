"""Stellar Conflict: Light Speed's successor, with four races, credits, a timed deployment,
cargo ships, ion and penetrating lasers, ships that fire twice, and variants.

- :mod:`~spacetable.games.stellar.fleets`: the races, their ships, battle sizes, credits
  and the check of a chosen fleet.
- :mod:`~spacetable.games.stellar.options`: how a match is set up.
- :mod:`~spacetable.games.stellar.actions`: the secret fleet and the countdown's end.
- :mod:`~spacetable.games.stellar.events`: the match's own events.
- :mod:`~spacetable.games.stellar.match`: the match state machine (:class:`StellarMatch`),
  on the laser games' base (:mod:`spacetable.games._laser_match`).
- The battle, table files and the battle told in words are the laser games' own:
  :mod:`spacetable.lasers`.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.rules import GameRules
from spacetable.games._deployment import (
    CardDiscarded,
    CardDropped,
    CardPlaced,
    Discard,
    Drop,
    Place,
    StopCalled,
    Timeout,
)
from spacetable.games._laser_match import Phase
from spacetable.games._laser_match import catalog_json as ships_json
from spacetable.games.stellar.actions import ACTION_TYPES, Fleet, StellarAction, TimerExpired
from spacetable.games.stellar.events import DeploymentBegan, DeploymentOver, FleetChosen, TimerRang
from spacetable.games.stellar.fleets import (
    BATTLE_SIZES,
    CREDITS,
    RACES,
    BattleSize,
    Race,
    check_fleet,
    fleet_cost,
    race_of,
    race_ships,
    stellar_ships,
)
from spacetable.games.stellar.match import StellarMatch
from spacetable.games.stellar.options import (
    ASTEROID_RING_MM,
    COUNTDOWN_SECONDS,
    DEPLOYMENT_RULES,
    MAX_ASTEROIDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULESET,
    DeploymentRule,
    StellarOptions,
)
from spacetable.lasers.tables import TABLE_REFEREE

__all__ = [
    "ACTION_TYPES",
    "ASTEROID_RING_MM",
    "BATTLE_SIZES",
    "COUNTDOWN_SECONDS",
    "CREDITS",
    "DEPLOYMENT_RULES",
    "MAX_ASTEROIDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RACES",
    "RULES",
    "RULESET",
    "BattleSize",
    "CardDiscarded",
    "CardDropped",
    "CardPlaced",
    "DeploymentBegan",
    "DeploymentOver",
    "DeploymentRule",
    "Discard",
    "Drop",
    "Fleet",
    "FleetChosen",
    "Phase",
    "Place",
    "Race",
    "StellarAction",
    "StellarMatch",
    "StellarOptions",
    "StellarRoom",
    "StopCalled",
    "Timeout",
    "TimerExpired",
    "TimerRang",
    "catalog_json",
    "check_fleet",
    "fleet_cost",
    "race_of",
    "race_ships",
    "races_json",
    "stellar_ships",
]


class StellarRoom(BaseModel):
    """A Stellar Conflict room's options (``POST /api/rooms``): ``races`` names one
    distinct race per seat (null: Wiss, Vak, Hexai, Tetrakori in seat order); ``asteroids``
    0 plays with cargo ships, 1 to 5 with that many asteroids instead."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["stellar"]
    seats: int = Field(2, ge=MIN_PLAYERS, le=MAX_PLAYERS, title="Players")
    races: list[Race] | None = Field(None, title="Race of each seat")
    battle_size: BattleSize = Field(
        "conflict",
        title="Battle",
        json_schema_extra={
            "value_titles": {
                size: f"{size.title()}: {CREDITS[size]} credits, {COUNTDOWN_SECONDS[size]:.0f} s"
                for size in BATTLE_SIZES
            }
        },
    )
    deployment: DeploymentRule = Field(
        "timer",
        title="Deployment",
        json_schema_extra={
            "value_titles": {"timer": "countdown", "stop": "Light Speed's stop rule"}
        },
    )
    asteroids: int = Field(
        0,
        ge=0,
        le=MAX_ASTEROIDS,
        title="Asteroids instead of cargo ships",
        json_schema_extra={
            "value_titles": {
                "0": "none: cargo ships",
                "1": "1 asteroid",
                **{str(n): f"{n} asteroids" for n in range(2, MAX_ASTEROIDS + 1)},
            }
        },
    )
    stolen_goods: bool = Field(
        False, title="Stolen goods (a destroyed thief's cubes go to the ship that finished it)"
    )


def catalog_json() -> dict[str, Any]:
    """Every race's ship definitions as JSON (DESIGN section 2), keyed by ship."""
    return ships_json(RULESET)


def races_json() -> dict[str, Any]:
    """The races: ``{"wiss": {"name": "Wiss", "ships": [keys in catalog order]}, ...}``."""
    return {race: {"name": race.title(), "ships": list(race_ships(race))} for race in RACES}


#: Stellar Conflict's rules (wired to its bots and drawings in
#: :mod:`spacetable.registry.stellar`).
RULES = GameRules(
    "stellar",
    "Stellar Conflict",
    (RULESET,),
    TABLE_REFEREE,
    match=StellarMatch,
    room_options=StellarRoom,
    pacing="realtime",
    countdown_option="countdown",
)
