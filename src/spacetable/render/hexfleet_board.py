"""An SVG picture of a hex fleet battle as it stands (pure: :func:`board_svg` returns SVG
text): the board's hexes, each ship on the table on its hex in its side's colour with an
arrow to its facing (a ring when its shields are up, a yellow rim when it is the one
activated), and under the board a row a ship: its side's colour, its name and three bars
for what is left of its shields, weapon systems and propulsion (blue, red and green, as
the combat script's gauges; pale for a ship off the table). No word but the ships' names,
so it reads the same in every language. Elements carry CSS classes and ``data-*``
attributes (``class="ship"``, ``data-ship``, ``data-hex``) so tests can find what a
reader sees. The same input gives the same bytes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from spacetable.games.hexfleet.hexes import DIRECTIONS, Board, Hex
from spacetable.games.hexfleet.ships import Ship
from spacetable.render._drawing import (
    FONT,
    HIT,
    SPACE,
    SVG_NS,
    add_element,
    add_line,
    add_rect,
    add_text,
    fmt_num,
    player_colours,
)

__all__ = ["board_svg"]

#: A hex's corner radius (px), the margin round the board, a ship's row below it.
HEX_R, MARGIN, ROW_H = 14.0, 16.0, 18.0
GRID, LIGHT = "#2a3350", "#e8ebf2"
SYSTEM_COLOURS = ("#2b8fd6", "#d14b3a", "#3f9d4a")
BAR_W = 90.0


def _centre(h: Hex, origin: tuple[float, float]) -> tuple[float, float]:
    x, y = h.centre()
    return origin[0] + HEX_R * x, origin[1] + HEX_R * y


def _corners(cx: float, cy: float, r: float) -> str:
    return " ".join(
        f"{fmt_num(cx + r * math.cos(math.radians(60 * k)))},"
        f"{fmt_num(cy + r * math.sin(math.radians(60 * k)))}"
        for k in range(6)
    )


def board_svg(
    board: Board, ships: Iterable[Ship], players: Sequence[str], *, active: str | None = None
) -> str:
    """Draw ``board`` with ``ships`` (those on the table on their hexes, every one in the
    rows below), each side in its seat's colour among ``players``; ``active`` is the id
    of the activated ship. Returns SVG text (units: CSS px)."""
    ships = list(ships)
    colours = player_colours(players)
    hexes = list(board)
    points = [h.centre() for h in hexes]
    left = min(x for x, _ in points) * HEX_R - HEX_R
    top = min(y for _, y in points) * HEX_R - HEX_R
    origin = (MARGIN - left, MARGIN - top)
    board_w = (max(x for x, _ in points) - min(x for x, _ in points)) * HEX_R + 2 * HEX_R
    board_h = (max(y for _, y in points) - min(y for _, y in points)) * HEX_R + 2 * HEX_R
    width = max(board_w, 2 * BAR_W + 3 * (BAR_W + 8)) + 2 * MARGIN
    height = board_h + 2 * MARGIN + ROW_H * len(ships) + MARGIN
    root = ET.Element("svg", {"xmlns": SVG_NS, "font-family": FONT})
    for key, value in (("width", width), ("height", height)):
        root.set(key, fmt_num(value))
    root.set("viewBox", f"0 0 {fmt_num(width)} {fmt_num(height)}")
    add_rect(root, 0, 0, width, height, SPACE, cls="space")
    grid = add_element(root, "g", cls="board")
    for h in hexes:
        cx, cy = _centre(h, origin)
        add_element(grid, "polygon", points=_corners(cx, cy, HEX_R), fill="none",
                    stroke=GRID, stroke_width=0.8)  # fmt: skip
    layer = add_element(root, "g", cls="ships")
    for ship in ships:
        if ship.at is None or ship.status != "table":
            continue
        cx, cy = _centre(ship.at, origin)
        colour = colours.get(ship.owner, LIGHT)
        g = add_element(layer, "g", cls="ship active" if ship.id == active else "ship",
                        data_ship=ship.id, data_hex=str(ship.at))  # fmt: skip
        rim: dict[str, str | float] = (
            {"stroke": HIT, "stroke_width": 2.5} if ship.id == active else {}
        )
        add_element(g, "polygon", points=_corners(cx, cy, HEX_R * 0.8), fill=colour, **rim)
        if ship.shields_up:
            add_element(g, "circle", cx=cx, cy=cy, r=HEX_R * 0.95, fill="none",
                        stroke="#7fd3ff", stroke_width=1.2, cls="shields")  # fmt: skip
        dx, dy = DIRECTIONS[ship.facing].centre()
        norm = math.hypot(dx, dy)
        tip = (cx + HEX_R * 0.75 * dx / norm, cy + HEX_R * 0.75 * dy / norm)
        add_line(g, (cx, cy), tip, "#ffffff", 2.0, cls="facing")
    rows = add_element(root, "g", cls="ship-rows")
    y = board_h + 2 * MARGIN
    for ship in ships:
        on_table = ship.status == "table"
        row = add_element(rows, "g", cls="ship-row", data_ship=ship.id,
                          opacity=1.0 if on_table else 0.45)  # fmt: skip
        add_rect(row, MARGIN, y + 3, 10, 10, colours.get(ship.owner, LIGHT))
        add_text(row, MARGIN + 16, y + 12, ship.name, 11, fill=LIGHT, text_anchor="start")
        left_of = [
            (ship.shields_left, ship.cls.shields),
            (ship.weapons_left, ship.weapons_total),
            (ship.propulsion_left, ship.cls.propulsion),
        ]
        x = MARGIN + 2 * BAR_W
        for (left_now, whole), colour in zip(left_of, SYSTEM_COLOURS, strict=True):
            add_rect(row, x, y + 5, BAR_W, 6, GRID)
            share = left_now / whole if whole else 0.0
            add_rect(row, x, y + 5, BAR_W * share, 6, colour, cls="system")
            x += BAR_W + 8
        y += ROW_H
    return ET.tostring(root, encoding="unicode")
