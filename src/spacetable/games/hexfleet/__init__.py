"""Hex fleet: the fast-play hex rules — fleets on a hex grid, ships activated by chits
drawn from a cup, combat and damage decided by a deck of playing cards (DESIGN section 6).

- :mod:`~spacetable.games.hexfleet.hexes`: the grid (axial hexes, facings, lines, arcs).
- :mod:`~spacetable.games.hexfleet.cards`: the 52-card deck.
- :mod:`~spacetable.games.hexfleet.ships`: the classes, a ship's systems and the charts.
- :mod:`~spacetable.games.hexfleet.combat`: shields, hails and salvos by the cards.
- :mod:`~spacetable.games.hexfleet.movement`: steps and turns on the grid.
- :mod:`~spacetable.games.hexfleet.fleets`: scenarios, custom fleets and deployment.
- :mod:`~spacetable.games.hexfleet.match`: the battle state machine (:class:`HexMatch`).
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.rules import GameRules, Referee, turn_hours_option
from spacetable.games.hexfleet.fleets import MAX_NAME, MAX_SHIPS_PER_SIDE, SCENARIOS
from spacetable.games.hexfleet.match import HexMatch, HexOptions, HexResult
from spacetable.games.hexfleet.options import (
    DEFAULT_TURN_LIMIT,
    MAX_BOARD,
    MAX_TURN_LIMIT,
    MIN_BOARD,
)
from spacetable.games.hexfleet.script import CombatScript, ScriptError, read
from spacetable.games.hexfleet.script_account import account, account_in, result_with_log
from spacetable.games.hexfleet.ships import CLASSES

__all__ = ["RULES", "HexMatch", "HexOptions", "HexResult"]


class HexShip(BaseModel):
    """One ship of a custom fleet: class, weapons (medium ships: light or heavy) and name."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    cls: Literal["light", "medium", "heavy"] = Field(alias="class")
    weapons: Literal["light", "heavy"] | None = None
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)] | None = None


class HexRoom(BaseModel):
    """A hex fleet room's options (``POST /api/rooms``): 2 to 4 sides, a ready scenario or
    ``custom`` fleets (one list of ships per side), the board in hexes (columns, rows;
    ``None``: the scenario's) and the turn limit."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["hexfleet"]
    seats: int = Field(2, ge=2, le=4, title="Sides")
    scenario: Literal["duel", "skirmish", "fleet", "custom"] = Field(
        "duel",
        title="Scenario",
        json_schema_extra={
            "value_titles": {
                **{key: s.title for key, s in SCENARIOS.items()},
                "custom": "Custom fleets",
            }
        },
    )
    fleets: (
        Annotated[
            list[Annotated[list[HexShip], Field(min_length=1, max_length=MAX_SHIPS_PER_SIDE)]],
            Field(min_length=2, max_length=4),
        ]
        | None
    ) = None
    board: (
        tuple[
            Annotated[int, Field(ge=MIN_BOARD, le=MAX_BOARD)],
            Annotated[int, Field(ge=MIN_BOARD, le=MAX_BOARD)],
        ]
        | None
    ) = None
    turn_limit: int = Field(
        DEFAULT_TURN_LIMIT,
        ge=1,
        le=MAX_TURN_LIMIT,
        title="Turn limit (then the strongest side wins)",
    )
    #: Correspondence play: hours each turn waits (docs/correspondence.md).
    turn_hours: int | None = turn_hours_option()


def scenarios() -> dict[str, Any]:
    """The ready scenarios and the classes, for the lobby (resource ``scenarios``)."""
    return {
        "scenarios": {
            key: {
                "title": s.title,
                "about": s.about,
                "board": s.board.to_json(),
                "sides": [[spec.to_json() for spec in side] for side in s.sides],
            }
            for key, s in SCENARIOS.items()
        },
        "classes": {
            name: {
                "shields": c.shields,
                "propulsion": c.propulsion,
                "weapons": [w.value for w in c.weapon_choices],
                "all_round": c.all_round,
            }
            for name, c in CLASSES.items()
        },
        "max_ships": MAX_SHIPS_PER_SIDE,
    }


#: Hex fleet's rules (wired to its bots, drawings and odds in
#: :mod:`spacetable.registry.hexfleet`): rooms play it one action at a time, as the chit
#: cup activates the ships.
RULES = GameRules(
    "hexfleet",
    "Hex fleet",
    ("hexfleet",),
    Referee(
        read=read,
        resolve=CombatScript.resolve,
        account=account,
        account_in=account_in,
        result_json=result_with_log,
        error=ScriptError,
        kind="combat script",
        draws_resolution=True,
        to_json=CombatScript.to_json,
    ),
    match=HexMatch,
    room_options=HexRoom,
    pacing="turns",
)
