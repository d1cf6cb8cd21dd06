"""SVG card faces for laser ships and asteroids (pure: functions return SVG text), and the
colours and beams that the table pictures (:mod:`spacetable.render.svg`) draw with them.

Lengths are millimetres; a face is drawn centred on its card, its front edge up.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from spacetable.i18n import ENGLISH, Translator
from spacetable.lasers.geometry import heading
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.render._drawing import (
    Point,
    add_circle,
    add_element,
    add_line,
    add_rect,
    add_text,
    colour_of,
    fmt_num,
    pen_attrs,
    svg_root,
)
from spacetable.render.ship_art import ship_art

__all__ = ["asteroid_face", "beam", "card_svg", "ship_face"]

STOCK, ART = "#f2efe6", "#0f1730"
SHIELD, HEALTH, ROCK = "#5fe1ff", "#e11d2a", "#b08d57"
#: Most health drawn as dots (printed cards have up to 6): more is one dot and its number,
#: so the drawing stays the same size whatever a definition says.
MAX_HEALTH_DOTS = 8
KIND_COLOUR = {"ion": "#39a7ff", "penetrating": "#ff8c1a"}
# The outline of an asteroid: radii (fraction of the base radius) at 16 even angles.
ROCK_RADII = (1.0, 0.86, 0.95, 1.08, 0.9, 0.97, 1.1, 0.84, 0.98, 1.05, 0.88, 1.0, 1.12, 0.9)


def _strokes(power: int, kind: str) -> list[tuple[str, float, float]]:
    """(colour, width mm, opacity) of the strokes that draw a beam, outermost first."""
    if kind in KIND_COLOUR:
        core = {1: 0.8, 2: 1.4, 3: 2.2}.get(power, 1.4)
        return [(KIND_COLOUR[kind], core * 2.4, 0.35), (KIND_COLOUR[kind], core, 1.0)]
    if power <= 1:  # thin white with a purple aura
        return [("#b48cff", 2.4, 0.55), ("#ffffff", 0.7, 1.0)]
    if power == 2:  # medium red
        return [("#ff6b6b", 2.8, 0.3), ("#e3142b", 1.5, 1.0)]
    return [("#22c55e", 3.6, 1.0), ("#ffffff", 1.1, 1.0)]  # thick green with a white core


def beam(parent: ET.Element, a: Point, b: Point, power: int, kind: str, **attrs: str) -> ET.Element:
    """A laser beam from ``a`` to ``b`` (SVG coordinates) styled by power and kind."""
    g = add_element(parent, "g", **attrs)
    for colour, width, opacity in _strokes(power, kind):
        extra = {"stroke_opacity": fmt_num(opacity)} if opacity < 1.0 else {}
        add_line(g, a, b, colour, width, **extra)
    return g


# --- card faces --------------------------------------------------------------------------


def _blank(size: tuple[float, float], border: str, art: str) -> tuple[ET.Element, float]:
    """A card outline centred on the origin: ``border`` stock around ``art``; and its scale."""
    w, h = size
    s = min(w / 63.0, h / 88.0)
    g = ET.Element("g", {"class": "face"})
    add_rect(g, -w / 2, -h / 2, w, h, border, rx=3 * s, **pen_attrs("#222222", 0.3))
    b = 2.6 * s
    add_rect(g, b - w / 2, b - h / 2, w - 2 * b, h - 2 * b, art, rx=1.5 * s)
    return g, s


def ship_face(
    ship: ShipDef, colour: str | None, size: tuple[float, float], tr: Translator = ENGLISH
) -> ET.Element:
    """A ship's face centred on the origin, SVG axes (local point ``(x, y)`` at ``(x, -y)``)."""
    ship = ship.scaled(size)
    hw, hl = size[0] / 2, size[1] / 2
    g, s = _blank(size, colour_of(colour, STOCK), ART)
    b = 2.6 * s
    fill = colour_of(colour, "#aab4c8")
    art = add_element(g, "g", cls="art", transform=f"scale({fmt_num(s, 4)})", data_ship=ship.key)
    for part in ship_art(ship):
        paint = fill if part["fill"] == "team" else part["fill"]
        extra = {"opacity": part["opacity"]} if "opacity" in part else {}
        add_element(
            art, "path", d=part["d"], fill=paint, stroke="#e8ecf5", stroke_width=0.35, **extra
        )
    for sh in ship.shields:
        lo, hi = sh.start, max(sh.end, sh.start + 0.8)
        x, y, bw, bh = {
            "front": (lo, -hl, hi - lo, b),
            "back": (lo, hl - b, hi - lo, b),
            "left": (-hw, -hi, b, hi - lo),
            "right": (hw - b, -hi, b, hi - lo),
        }[sh.edge]
        add_rect(g, x, y, bw, bh, SHIELD, cls=f"shield edge-{sh.edge}", **pen_attrs("#0b6e8a", 0.3))
    for index, lz in enumerate(ship.lasers):
        dx, dy = heading(lz.angle_deg)
        end = (lz.at[0], -lz.at[1])
        start = (end[0] - dx * 10 * s, end[1] + dy * 10 * s)
        cls = f"laser-stub power-{lz.power} kind-{lz.kind}"
        beam(g, start, end, lz.power, lz.kind, cls=cls, data_laser=str(index))
    speeds = "/".join(str(v) for v in ship.speeds)
    bw = max(9.0, 4.4 * len(speeds) + 3.5) * s
    x, y = 1.2 * s - hw, 1.2 * s - hl
    add_rect(g, x, y, bw, 9.5 * s, "#ffffff", rx=2 * s, **pen_attrs("#222222", 0.4))
    bold = {"font_weight": "bold"}
    add_text(g, x + bw / 2, y + 7.4 * s, speeds, 7.5 * s, cls="speed", data_speeds=speeds, **bold)
    dots = ship.health if ship.health <= MAX_HEALTH_DOTS else 1
    for i in range(dots):
        cy = (6.5 + i * 5.2) * s - hl
        add_circle(
            g, hw - 6 * s, cy, 2 * s, HEALTH, cls="health-dot", **pen_attrs("#ffffff", 0.4 * s)
        )
    if dots < ship.health:
        health = str(ship.health)
        add_text(
            g, hw - 6 * s, 15 * s - hl, health, 4 * s, fill="#ffffff", cls="health-count", **bold
        )
    # the name as large as the card's width allows (long names shrink), to be read on a table
    font = min(9 * s, (size[0] - 8 * s) / (0.64 * max(len(ship.name), 1)))
    white = {"fill": "#ffffff", "stroke": ART, "stroke_width": fmt_num(0.8 * s), **bold}
    add_text(g, 0, 33 * s, ship.name, font, cls="name", paint_order="stroke", **white)
    if ship.role != "warship":
        add_text(g, 0, 38.3 * s, ship.role.upper(), 3.6 * s, fill="#9fb3d9", cls="role")
    x, y, gold = hw - 4.5 * s, hl - 4.5 * s, "#ffe08a"
    if ship.credits or ship.vp != ship.health:
        vp = tr.gettext("{n} VP", n=ship.vp)
        add_text(g, -x, y, vp, 4 * s, fill=gold, cls="vp", text_anchor="start")
    if ship.credits:
        credits = tr.gettext("{n} cr", n=ship.credits)
        add_text(g, x, y, credits, 4 * s, fill=gold, cls="credits", text_anchor="end")
    return g


def asteroid_face(
    size: tuple[float, float], rocks: int, start: int | None, tr: Translator = ENGLISH
) -> ET.Element:
    """An asteroid card centred on the origin with its rock count (``start``: before the
    battle, shown when it differs)."""
    g, s = _blank(size, STOCK, "#1a1d28")
    base, n, hl = 0.36 * size[0], len(ROCK_RADII), size[1] / 2
    pts = []
    for i, r in enumerate(ROCK_RADII):
        dx, dy = heading(360.0 * i / n)
        pts.append(f"{fmt_num(dx * r * base)},{fmt_num(dy * r * base * 1.15)}")
    add_element(g, "polygon", points=" ".join(pts), fill="#7d7468", **pen_attrs("#b9ad9c", 0.8 * s))
    for cx, cy, r in ((-8, 10, 3.5), (9, -12, 2.6), (7, 14, 2.0)):
        add_circle(g, cx * s, cy * s, r * s, "#5f574d")
    white = {"fill": "#ffffff", "font_weight": "bold"}
    add_text(g, 0, 3.5 * s, str(rocks), 12 * s, cls="rock-count", data_rocks=str(rocks), **white)
    add_text(g, 0, 9.5 * s, tr.gettext("rocks"), 4 * s, fill="#f0e6d6")
    add_text(g, 0, hl - 5 * s, tr.gettext("ASTEROID"), 4.5 * s, fill="#d8d2c6", font_weight="bold")
    if start is not None and start != rocks:
        add_text(g, 0, 8 * s - hl, tr.gettext("had {n}", n=start), 4 * s, fill="#d8d2c6")
    return g


def card_svg(
    ship: ShipDef,
    colour: str | None = None,
    size: tuple[float, float] = CARD_SIZE_MM,
    *,
    tr: Translator = ENGLISH,
) -> str:
    """One card face as a standalone SVG of ``size`` mm.

    Speed(s) top left (``2/6`` for a ship that fires twice), health as red dots down the
    top right (past :data:`MAX_HEALTH_DOTS`, one dot and the number), each laser as a beam
    from inside the card out to its ``at`` point on the edge (styled by power; ion blue,
    penetrating orange), shields as bars on the covered part of their edge, the name, VP
    and credits when the card has them, ``colour`` (a team name or any CSS colour) as the
    border; its words (VP, credits) in ``tr``'s language.
    """
    root = svg_root(*size)
    move = f"translate({fmt_num(size[0] / 2)} {fmt_num(size[1] / 2)})"
    add_element(root, "g", cls="card ship", data_ship=ship.key, transform=move).append(
        ship_face(ship, colour, size, tr)
    )
    return ET.tostring(root, encoding="unicode") + "\n"


# --- tables ------------------------------------------------------------------------------
