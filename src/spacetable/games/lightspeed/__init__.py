"""Light Speed: everyone places ship cards at once, at any angle; then the ships fire their
printed lasers by speed (DESIGN sections 2 to 4).

- :mod:`~spacetable.games.lightspeed.match`: setup, the fast round and the match state
  machine (:class:`LightSpeedMatch`), on the laser games' base
  (:mod:`spacetable.games._laser_match`).
- The battle, table files and the battle told in words are the laser games' own:
  :mod:`spacetable.lasers`.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.rules import GameRules, nullable
from spacetable.games._laser_match import catalog_json as ships_json
from spacetable.games.lightspeed.match import (
    ACTION_TYPES,
    ASTEROID_LAYOUTS,
    DEFAULT_ROCKS,
    DEFAULT_TABLE_MM,
    LARGE_ASTEROID_MM,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULESET,
    SMALL_ASTEROID_GAP_MM,
    TWO_SMALL_ROCKS,
    AsteroidLayout,
    CardDiscarded,
    CardDropped,
    CardPlaced,
    Discard,
    Drop,
    FastRoundOver,
    LightSpeedAction,
    LightSpeedMatch,
    LightSpeedOptions,
    Phase,
    Place,
    StopCalled,
    Timeout,
    fleet,
)
from spacetable.lasers.tables import TABLE_REFEREE

__all__ = [
    "ACTION_TYPES",
    "ASTEROID_LAYOUTS",
    "DEFAULT_ROCKS",
    "DEFAULT_TABLE_MM",
    "LARGE_ASTEROID_MM",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES",
    "RULESET",
    "SMALL_ASTEROID_GAP_MM",
    "TWO_SMALL_ROCKS",
    "AsteroidLayout",
    "CardDiscarded",
    "CardDropped",
    "CardPlaced",
    "Discard",
    "Drop",
    "FastRoundOver",
    "LightSpeedAction",
    "LightSpeedMatch",
    "LightSpeedOptions",
    "LightSpeedRoom",
    "Phase",
    "Place",
    "StopCalled",
    "Timeout",
    "catalog_json",
    "fleet",
]


class LightSpeedRoom(BaseModel):
    """A Light Speed room's options (``POST /api/rooms``; ``ruleset`` may be left out)."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["lightspeed"] = "lightspeed"
    seats: int = Field(2, ge=MIN_PLAYERS, le=MAX_PLAYERS, title="Players")
    asteroids: AsteroidLayout = Field(
        "single",
        title="Asteroid",
        json_schema_extra={
            "value_titles": {
                "single": "one asteroid",
                "large": "one large asteroid",
                "two-small": "two small asteroids",
            }
        },
    )
    rocks: int | None = nullable(None, "Rocks per asteroid", "default", ge=1, le=99)
    piracy: bool = Field(False, title="Piracy (steal rocks by shooting ships)")


def catalog_json() -> dict[str, Any]:
    """Light Speed's ship definitions as JSON (DESIGN section 2), keyed by ship."""
    return ships_json(RULESET)


#: Light Speed's rules (wired to its bots and drawings in
#: :mod:`spacetable.registry.lightspeed`).
RULES = GameRules(
    "lightspeed",
    "Light Speed",
    (RULESET,),
    TABLE_REFEREE,
    match=LightSpeedMatch,
    room_options=LightSpeedRoom,
    pacing="realtime",
)
