"""The pictures of the in-app rules page (pure: each figure is SVG text).

Every figure is drawn by the project's own renderers from a small example written here:
card faces (:func:`spacetable.render.svg.card_svg`), a Light Speed table before and after
its battle (:func:`spacetable.render.svg.table_svg`), and a Faster Than Light turn before
and after its orders (:func:`spacetable.render.ftl_svg.turn_svg`). The examples are ours,
not the rulebooks'. :func:`figure_svg` gives a figure by name; the same name always gives
the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.games.ftl.turnfile import TurnFile, turn_from_json
from spacetable.lasers.tables import Table, catalog, table_from_json
from spacetable.render.ftl_svg import turn_svg
from spacetable.render.svg import card_svg, table_svg

__all__ = ["FIGURES", "FTL_EXAMPLE", "LIGHTSPEED_EXAMPLE", "figure_svg"]

#: A small Light Speed table, in millimetres: Red's Moth (speed 1) mines the asteroid;
#: Red's Sidewinder (speed 2) fires into the front shield of Blue's Intruder and is
#: blocked; the Intruder (speed 4) fires back and destroys it.
LIGHTSPEED_EXAMPLE: dict[str, Any] = {
    "ruleset": "lightspeed",
    "players": ["red", "blue"],
    "cards": [
        {"id": "asteroid", "type": "asteroid", "x": 0, "y": 0, "rotation": 0, "rocks": 6},
        {"id": "red-moth", "owner": "red", "ship": "moth", "x": 0, "y": -150, "rotation": 0},
        {
            "id": "blue-intruder",
            "owner": "blue",
            "ship": "intruder",
            "x": 170,
            "y": -20,
            "rotation": -90,
        },
        {
            "id": "red-sidewinder",
            "owner": "red",
            "ship": "sidewinder",
            "x": 400,
            "y": -20,
            "rotation": 90,
        },
    ],
}

#: A small Faster Than Light turn, in inches: Red's ship sprints 6 in and its tape meets
#: Blue's missile, which turns this turn (so it is in normal space): the missile is spent
#: and Red's ship takes a hit. Blue's ship launches a missile.
FTL_EXAMPLE: dict[str, Any] = {
    "ruleset": "ftl",
    "players": ["red", "blue"],
    "table": {"width": 24, "height": 12},
    "pieces": [
        {"id": "red", "kind": "ship", "owner": "red", "x": -6, "y": -3.5, "heading": 0},
        {
            "id": "blue",
            "kind": "ship",
            "owner": "blue",
            "x": 6,
            "y": 2,
            "heading": 90,
            "missiles": 9,
            "launched": 1,
        },
        {
            "id": "blue-m1",
            "kind": "missile",
            "owner": "blue",
            "x": -6,
            "y": 2.5,
            "heading": 180,
        },
    ],
    "orders": [
        {"piece": "red", "order": "S6"},
        {"piece": "blue-m1", "order": "R-30"},
        {"piece": "blue", "order": "L"},
    ],
}

_FTL_SCALE_PX_PER_IN = 40.0


def _lightspeed_table() -> Table:
    return table_from_json(LIGHTSPEED_EXAMPLE)


def _ftl_turn() -> TurnFile:
    return turn_from_json(FTL_EXAMPLE)


def _lightspeed_before() -> str:
    return table_svg(_lightspeed_table())


def _lightspeed_after() -> str:
    table = _lightspeed_table()
    return table_svg(table, table.resolve())


def _ftl_before() -> str:
    return turn_svg(_ftl_turn(), scale=_FTL_SCALE_PX_PER_IN)


def _ftl_after() -> str:
    turn = _ftl_turn()
    return turn_svg(turn, turn.resolve(), scale=_FTL_SCALE_PX_PER_IN)


def _card(ruleset: str, ship: str, colour: str) -> Callable[[], str]:
    def draw() -> str:
        return card_svg(catalog(ruleset)[ship], colour)

    return draw


#: Every figure of the rules page by name, with what draws it.
FIGURES: dict[str, Callable[[], str]] = {
    "lightspeed-card": _card("lightspeed", "intruder", "red"),
    "lightspeed-card-dreadnought": _card("lightspeed", "dreadnought", "blue"),
    "lightspeed-before": _lightspeed_before,
    "lightspeed-after": _lightspeed_after,
    "stellar-card": _card("stellar", "wiss-skein", "green"),
    "stellar-card-hexai": _card("stellar", "hexai-prism", "purple"),
    "ftl-before": _ftl_before,
    "ftl-after": _ftl_after,
}


def figure_svg(name: str) -> str:
    """The rules page's figure ``name`` as SVG text. Raises ``KeyError`` for a name that
    is not in :data:`FIGURES`."""
    return FIGURES[name]()
