"""The pictures of the in-app rules page (pure: each figure is SVG text).

Every figure is drawn by the project's own renderers from a small example written here:
card faces (:func:`spacetable.render.svg.card_svg`), a Light Speed table before and after
its battle (:func:`spacetable.render.svg.table_svg`), a Faster Than Light turn before
and after its orders (:func:`spacetable.render.ftl_svg.turn_svg`), and a hex fleet combat
script settled card by card (:func:`spacetable.render.hexfleet_svg.script_svg`), with two
small hex grids drawn here (a light ship's forward arc; a move and its cost). The examples
are ours, not the rulebooks'. :func:`figure_svg` gives a figure by name in a reader's
language (the words a figure holds are catalog messages, and the example's players are
named in that language: "red" is "rouge" in French); the same name and language always
give the same bytes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from spacetable.games.ftl.turnfile import TurnFile, turn_from_json
from spacetable.games.hexfleet.hexes import Board, Hex, in_forward_arc
from spacetable.games.hexfleet.movement import walk
from spacetable.games.hexfleet.script import read as read_script
from spacetable.i18n import ENGLISH, N_, Translator
from spacetable.lasers.tables import Table, catalog, table_from_json
from spacetable.render._drawing import FONT, SPACE, SVG_NS
from spacetable.render.cards import card_svg
from spacetable.render.ftl_svg import turn_svg
from spacetable.render.hexfleet_svg import script_svg
from spacetable.render.svg import table_svg

__all__ = ["FIGURES", "FTL_EXAMPLE", "HEXFLEET_EXAMPLE", "LIGHTSPEED_EXAMPLE", "figure_svg"]

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
    "table": {"width": 16, "height": 10},
    "pieces": [
        {"id": "red", "kind": "ship", "owner": "red", "x": -0.5, "y": -3.5, "heading": 0},
        {
            "id": "blue",
            "kind": "ship",
            "owner": "blue",
            "x": 5,
            "y": 2,
            "heading": 90,
            "missiles": 9,
            "launched": 1,
        },
        {
            "id": "blue-m1",
            "kind": "missile",
            "owner": "blue",
            "x": -0.5,
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

#: A small hex fleet combat: Red's medium Lance (heavy weapons) raises its shields with a
#: pair, then fires at Blue's heavy Bastion, whose shields are up at 12 of 16 (hearts and
#: spades get through): 4 hits, a club drawn again; the Bastion, one weapon system down,
#: fires back with 6 cards, and only spades get through the Lance's full shields.
HEXFLEET_EXAMPLE: dict[str, Any] = {
    "ruleset": "hexfleet",
    "ships": {
        "lance": {"class": "medium", "weapons": "heavy", "owner": "red", "name": "Lance"},
        "bastion": {
            "class": "heavy",
            "owner": "blue",
            "name": "Bastion",
            "shields_lost": 4,
            "shields_up": True,
        },
    },
    "steps": [
        {"raise_shields": "lance"},
        {"fire": "lance", "at": "bastion"},
        {"fire": "bastion", "at": "lance"},
    ],
    "cards": [
        "7H",
        "7C",
        "KS",
        "3H",
        "9D",
        "2C",
        "QH",
        "5S",
        "8D",
        "4C",
        "JC",
        "6D",
        "AH",
        "10S",
        "9H",
        "2S",
        "6H",
        "JD",
        "3C",
        "10C",
        "KH",
        "5D",
    ],
}

_FTL_SCALE_PX_PER_IN = 30.0
#: The FTL figures' labels (px): big enough to read on a phone, where the figure is shrunk
#: to about two thirds of its width.
_FTL_TEXT_PX = 20.0
#: The part of the FTL example's table drawn (left, bottom, right, top, inches): all of it,
#: and room for the labels of the pieces near its edges.
_FTL_VIEW = (-9.0, -5.5, 9.0, 5.5)
#: The examples' players' names (and the asteroid's), in the reader's language.
_NAMES = {"red": N_("red"), "blue": N_("blue"), "asteroid": N_("asteroid")}
#: The keys of an example's JSON whose values are names or ids made of them.
_NAMED = frozenset({"players", "owner", "id", "piece"})
_HEX_PX = 26.0  # a grid hex's corner radius in the hex figures
_HEX_BOARD = Board(9, 7)
_HEX_SHIP = Board.hex_at(4, 3)


def _lightspeed_table(tr: Translator = ENGLISH) -> Table:
    return table_from_json(_renamed(LIGHTSPEED_EXAMPLE, tr))


def _renamed(value: Any, tr: Translator, named: bool = False) -> Any:
    """``value`` (an example's JSON) with every player's name and every id made of one
    (``blue-m1``) in ``tr``'s language."""
    if isinstance(value, dict):
        return {key: _renamed(item, tr, key in _NAMED) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, tr, named) for item in value]
    if named and isinstance(value, str):
        head, dash, tail = value.partition("-")
        if head in _NAMES:
            return tr.gettext(_NAMES[head]) + dash + tail
    return value


def _ftl_turn(tr: Translator = ENGLISH) -> TurnFile:
    return turn_from_json(_renamed(FTL_EXAMPLE, tr))


#: The notes' letters under the Light Speed figure's cards (mm).
_LS_NOTE_MM = 12.0


def _lightspeed_before(tr: Translator) -> str:
    return table_svg(_lightspeed_table(tr), tr=tr, panel=False)


def _lightspeed_after(tr: Translator) -> str:
    table = _lightspeed_table(tr)
    # Shown about 510 px wide (340 on a phone) for 555 mm: notes of 5 mm would be 3-5 px.
    return table_svg(table, table.resolve(), tr=tr, panel=False, note_mm=_LS_NOTE_MM)


def _ftl_before(tr: Translator) -> str:
    return turn_svg(_ftl_turn(tr), scale=_FTL_SCALE_PX_PER_IN, tr=tr, panel=False,
                    text_px=_FTL_TEXT_PX, view=_FTL_VIEW)  # fmt: skip


def _ftl_after(tr: Translator) -> str:
    turn = _ftl_turn(tr)
    return turn_svg(turn, turn.resolve(), scale=_FTL_SCALE_PX_PER_IN, tr=tr, panel=False,
                    text_px=_FTL_TEXT_PX, view=_FTL_VIEW)  # fmt: skip


def _hexfleet_combat(tr: Translator) -> str:
    script = read_script(_renamed(HEXFLEET_EXAMPLE, tr))
    return script_svg(script, script.resolve(), tr=tr)


def _hex_point(h: Hex) -> tuple[float, float]:
    x, y = h.centre()
    return (x + 1.2) * _HEX_PX, (y + 1.2) * _HEX_PX


def _hex_grid(title: str, shade: Callable[[Hex], str]) -> tuple[ET.Element, ET.Element]:
    """A board's hexes, each filled as ``shade`` says, under a title; (svg, top layer)."""
    corners = [(math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)]
    xs, ys = zip(*(_hex_point(h) for h in _HEX_BOARD), strict=True)
    width, height = max(xs) + 1.2 * _HEX_PX, max(ys) + 1.2 * _HEX_PX + 24
    root = ET.Element(
        "svg",
        xmlns=SVG_NS,
        width=f"{width:.0f}",
        height=f"{height:.0f}",
        viewBox=f"0 0 {width:.0f} {height:.0f}",
        attrib={"font-family": FONT},
    )
    ET.SubElement(root, "rect", x="0", y="0", width=f"{width:.0f}", height=f"{height:.0f}",
                  fill=SPACE)  # fmt: skip
    for h in _HEX_BOARD:
        cx, cy = _hex_point(h)
        points = " ".join(f"{cx + _HEX_PX * a:.1f},{cy + _HEX_PX * b:.1f}" for a, b in corners)
        ET.SubElement(root, "polygon", points=points, fill=shade(h), stroke="#2a3558")
    caption = ET.SubElement(
        root, "text", x=f"{width / 2:.0f}", y=f"{height - 8:.0f}", fill="#e8ecf5",
        attrib={"font-size": "13", "text-anchor": "middle"},
    )  # fmt: skip
    caption.text = title
    return root, ET.SubElement(root, "g")


def _hex_ship(layer: ET.Element, h: Hex, facing: int, colour: str) -> None:
    """A ship's marker: a wedge pointing to its facing (0 north, clockwise)."""
    cx, cy = _hex_point(h)
    angle = math.radians(-90 + 60 * facing)
    tip = (cx + 0.7 * _HEX_PX * math.cos(angle), cy + 0.7 * _HEX_PX * math.sin(angle))
    back = [
        (cx + 0.55 * _HEX_PX * math.cos(angle + a), cy + 0.55 * _HEX_PX * math.sin(angle + a))
        for a in (math.radians(140), math.radians(-140))
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, back[0], back[1]))
    ET.SubElement(layer, "polygon", points=points, fill=colour, stroke="#fff",
                  attrib={"stroke-width": "1.5"})  # fmt: skip


def _hex_label(layer: ET.Element, h: Hex, text: str, colour: str = "#e8ecf5") -> None:
    cx, cy = _hex_point(h)
    label = ET.SubElement(layer, "text", x=f"{cx:.1f}", y=f"{cy - 0.45 * _HEX_PX:.1f}", fill=colour,
                          attrib={"font-size": "14", "text-anchor": "middle",
                                  "font-weight": "bold"})  # fmt: skip
    label.text = text


def _hexfleet_arc(tr: Translator) -> str:
    """A light ship facing north: the hexes of its forward arc, and a ship behind it."""
    behind = Board.hex_at(3, 5)
    ahead = Board.hex_at(6, 1)

    def shade(h: Hex) -> str:
        return "#3a3414" if in_forward_arc(_HEX_SHIP, 0, h) else "#141b31"

    root, top = _hex_grid(tr.gettext("A light ship fires only into the shaded half ahead of it"),
                          shade)  # fmt: skip
    _hex_ship(top, _HEX_SHIP, 0, "#e8671c")
    _hex_ship(top, ahead, 3, "#2a8fd8")
    _hex_ship(top, behind, 1, "#2a8fd8")
    _hex_label(top, ahead, "✓", "#3ddc84")
    _hex_label(top, behind, "✗", "#ff4d5e")
    return ET.tostring(root, encoding="unicode")


def _hexfleet_move(tr: Translator) -> str:
    """A ship's move F F R F from the centre facing north: each letter costs one hex."""
    steps = "FFRF"
    path = walk(_HEX_SHIP, 0, steps, _HEX_BOARD, (), len(steps))
    visited = {_HEX_SHIP, *path.path}
    root, top = _hex_grid(
        tr.gettext("F F R F: 4 hexes of movement (a turn costs one)"),
        lambda h: "#1d3357" if h in visited else "#141b31",
    )
    _hex_ship(top, _HEX_SHIP, 0, "#7a3a18")
    at, facing = _HEX_SHIP, 0
    for cost, letter in enumerate(steps, 1):
        if letter == "F":
            at = at.neighbour(facing)
            _hex_label(top, at, str(cost))
        else:
            facing = (facing + 1) % 6
            x, y = _hex_point(at)
            note = ET.SubElement(top, "text", x=f"{x + _HEX_PX * 0.95:.1f}", y=f"{y + 4:.1f}",
                                 fill="#ffd23f", attrib={"font-size": "12"})  # fmt: skip
            note.text = tr.gettext("{n}: turn", n=cost)
    _hex_ship(top, path.at, path.facing, "#e8671c")
    return ET.tostring(root, encoding="unicode")


def _card(ruleset: str, ship: str, colour: str) -> Callable[[Translator], str]:
    def draw(tr: Translator) -> str:
        return card_svg(catalog(ruleset)[ship], colour, tr=tr)

    return draw


#: Every figure of the rules page by name, with what draws it in a reader's language.
FIGURES: dict[str, Callable[[Translator], str]] = {
    "lightspeed-card": _card("lightspeed", "intruder", "red"),
    "lightspeed-card-dreadnought": _card("lightspeed", "dreadnought", "blue"),
    "lightspeed-before": _lightspeed_before,
    "lightspeed-after": _lightspeed_after,
    "stellar-card": _card("stellar", "wiss-skein", "green"),
    "stellar-card-hexai": _card("stellar", "hexai-prism", "purple"),
    "ftl-before": _ftl_before,
    "ftl-after": _ftl_after,
    "hexfleet-combat": _hexfleet_combat,
    "hexfleet-arc": _hexfleet_arc,
    "hexfleet-move": _hexfleet_move,
}


def figure_svg(name: str, tr: Translator = ENGLISH) -> str:
    """The rules page's figure ``name`` as SVG text, its words in ``tr``'s language.
    Raises ``KeyError`` for a name that is not in :data:`FIGURES`."""
    return FIGURES[name](tr)
