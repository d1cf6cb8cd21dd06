"""Light Speed and Stellar Conflict card faces for print, with their fiducial markers.

A printed card is the card the browser shows, rearranged around its markers
(:mod:`spacetable.photo.markers` says which, where and how large; this module draws them
exactly there): the team colour's border and the dark panel inside it (its edge is the
card's printed frame line, :data:`~spacetable.photo.markers.FRAME_INSET_MM` in), the speed
at the front left, health dots at the front right, each laser as a beam reaching its
point on the edge (thin white with a violet aura for 1, red for 2, green and white for 3;
ion blue, penetrating orange), shield bars on their edges, the name and what else the
card says near the front, the ship's art (:mod:`spacetable.render.ship_art`) in the
middle, and the two markers with their white quiet zones in the back corners, where no
ship has a laser. Square corners: a card is a rectangle in the rules, and easier to cut.

Positions are mm on the upright card (front edge at the top) from its top-left corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from spacetable.lasers.geometry import heading
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.photo import markers
from spacetable.printing.pdf import SheetWriter, drawing_bounds
from spacetable.render.ship_art import ship_art

__all__ = [
    "WORDS_BOTTOM_MM",
    "CardFace",
    "art_box",
    "beams",
    "draw_asteroid",
    "draw_ship",
    "quiet_zones",
]

_STOCK, _PANEL, _ROCK_PANEL = "#f2efe6", "#0f1730", "#1a1d28"
_SHIELD, _HEALTH, _GOLD = "#5fe1ff", "#e11d2a", "#ffe08a"
_KIND = {"ion": "#39a7ff", "penetrating": "#ff8c1a"}
#: The art's scale on a printed card and the height (mm from the top) of its centre: it
#: keeps clear of the name above it and of the markers' quiet zones below.
_ART_SCALE, _ART_CENTRE = 0.70, 42.5
#: How far a laser's beam reaches into the card from its edge point (mm).
_STUB = 10.0
#: The outline of an asteroid: radii (fraction of the base radius) at even angles.
_ROCK_RADII = (1.0, 0.86, 0.95, 1.08, 0.9, 0.97, 1.1, 0.84, 0.98, 1.05, 0.88, 1.0, 1.12, 0.9)

#: The faces' words, together for a later translation.
TEXT = {"vp": "{n} VP", "credits": "{n} cr", "asteroid": "ASTEROID", "free": "free"}


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a printed card shows besides its ship: the owner's colour (hex) and the
    marker ids in slot order (slot 0 back left, slot 1 back right)."""

    colour: str
    marker_ids: tuple[int, ...]


def _strokes(power: int, kind: str) -> list[tuple[str, float]]:
    """(colour, width mm) of a beam's strokes, outermost first."""
    if kind in _KIND:
        core = {1: 0.8, 2: 1.4}.get(power, 2.2)
        return [("#bfe3ff", core * 2.2), (_KIND[kind], core)]
    if power <= 1:
        return [("#b48cff", 2.2), ("#ffffff", 0.8)]
    if power == 2:
        return [("#ff9a9a", 2.8), ("#e3142b", 1.6)]
    return [("#22c55e", 3.6), ("#ffffff", 1.2)]


def _quiet_zones(ids: tuple[int, ...]) -> list[tuple[float, float, float, float]]:
    """Each marker's white quiet zone ``(x, y, w, h)`` on the card."""
    side, quiet = markers.MARKER_SIDE_MM, markers.QUIET_ZONE_MM
    zones = []
    for slot in range(len(ids)):
        left, top = markers.marker_square_from_top_left(slot, CARD_SIZE_MM)
        zones.append((left - quiet, top - quiet, side + 2 * quiet, side + 2 * quiet))
    return zones


def _frame(
    out: SheetWriter, x: float, y: float, stock: str, panel: str, ids: tuple[int, ...]
) -> None:
    """The card's stock (the border colour), its dark panel, and the markers' white quiet
    zones cut out of the panel (the module's layout: they reach the frame line)."""
    w, h = CARD_SIZE_MM
    inset = markers.FRAME_INSET_MM
    zones = [(x + zx, y + zy, zw, zh) for zx, zy, zw, zh in _quiet_zones(ids)]
    out.rect(x, y, w, h, fill=stock, stroke=None)
    out.panel(x + inset, y + inset, w - 2 * inset, h - 2 * inset, zones, panel)
    for zx, zy, zw, zh in zones:
        out.rect(zx, zy, zw, zh, fill="#ffffff", stroke=None)


def _markers(out: SheetWriter, x: float, y: float, ids: tuple[int, ...]) -> None:
    """The markers' black cells in their slots (over their quiet zones)."""
    cell = markers.MARKER_SIDE_MM / markers.MARKER_CELLS
    for slot, marker_id in enumerate(ids):
        left, top = markers.marker_square_from_top_left(slot, CARD_SIZE_MM)
        mx, my = x + left, y + top
        grid = markers.marker_cells(marker_id)
        out.squares(
            (
                (mx + column * cell, my + row * cell, cell)
                for row, cells in enumerate(grid)
                for column, black in enumerate(cells)
                if black
            ),
            "#000000",
        )


def _art_svg(ship: ShipDef, colour: str) -> str:
    """The ship's art as an SVG of the whole card (63 x 88 mm), scaled and placed."""
    w, h = CARD_SIZE_MM
    dy = _ART_CENTRE - h / 2
    paths = []
    for part in ship_art(ship):
        fill = colour if part["fill"] == "team" else part["fill"]
        opacity = f' opacity="{part["opacity"]}"' if "opacity" in part else ""
        paths.append(
            f'<path d="{part["d"]}" fill="{fill}" stroke="#e8ecf5" stroke-width="0.35"{opacity}/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
        f'viewBox="0 0 {w} {h}"><g transform="translate({w / 2} {h / 2 + dy}) '
        f'scale({_ART_SCALE})">{"".join(paths)}</g></svg>'
    )


def art_box(ship: ShipDef) -> tuple[float, float, float, float]:
    """Where the ship's art lies on the printed card: ``(left, top, right, bottom)`` in
    mm from the card's top-left corner."""
    bounds = drawing_bounds(_art_svg(ship, "#808080"))
    left, low, right, high = bounds
    return left, CARD_SIZE_MM[1] - high, right, CARD_SIZE_MM[1] - low


def quiet_zones() -> list[tuple[float, float, float, float]]:
    """The markers' quiet zones ``(left, top, right, bottom)`` on the printed card."""
    return [(x, y, x + w, y + h) for x, y, w, h in _quiet_zones((0, 1))]


#: How far down the card the words under the name reach (mm from the top).
WORDS_BOTTOM_MM = 22.2


def _lasers_and_shields(out: SheetWriter, x: float, y: float, ship: ShipDef) -> None:
    """Shield bars on their edges, then each laser's beam out to its edge point."""
    w, h = CARD_SIZE_MM
    b = markers.FRAME_INSET_MM
    for sh in ship.shields:
        lo, hi = sh.start, max(sh.end, sh.start + 0.8)
        bx, by, bw, bh = {
            "front": (w / 2 + lo, 0.0, hi - lo, b),
            "back": (w / 2 + lo, h - b, hi - lo, b),
            "left": (0.0, h / 2 - hi, b, hi - lo),
            "right": (w - b, h / 2 - hi, b, hi - lo),
        }[sh.edge]
        out.rect(x + bx, y + by, bw, bh, fill=_SHIELD, stroke="#0b6e8a", width=0.3)
    for (x1, y1), (x2, y2), strokes in beams(ship):
        for colour, width in strokes:
            out.line((x + x1, y + y1), (x + x2, y + y2), width, colour)


Beam = tuple[tuple[float, float], tuple[float, float], list[tuple[str, float]]]


def beams(ship: ShipDef) -> list[Beam]:
    """Each laser's beam on the printed card: from inside the card to its point on the
    edge (mm from the card's top-left corner), and its strokes (colour, width mm),
    outermost first."""
    w, h = CARD_SIZE_MM
    drawn: list[Beam] = []
    for lz in ship.lasers:
        dx, dy = heading(lz.angle_deg)
        end = (w / 2 + lz.at[0], h / 2 - lz.at[1])
        start = (end[0] - dx * _STUB, end[1] + dy * _STUB)
        drawn.append((start, end, _strokes(lz.power, lz.kind)))
    return drawn


def _front_band(out: SheetWriter, x: float, y: float, ship: ShipDef) -> None:
    """Speed at the front left, health dots down the front right, the name and the
    card's other words under them."""
    w, _ = CARD_SIZE_MM
    speeds = "/".join(str(v) for v in ship.speeds)
    bw = max(9.0, 4.4 * len(speeds) + 3.5)
    out.rect(x + 1.2, y + 1.2, bw, 9.5, fill="#ffffff", stroke="#222222", width=0.4, radius=2)
    out.text(x + 1.2 + bw / 2, y + 8.6, speeds, 7.5, anchor="middle", bold=True, colour="#111111")
    dots = ship.health if ship.health <= 6 else 1
    for i in range(dots):
        out.circle(x + w - 6, y + 6.5 + i * 5.2, 2.0, fill=_HEALTH, stroke="#ffffff", width=0.4)
    if dots < ship.health:
        out.text(
            x + w - 6, y + 15, str(ship.health), 4, anchor="middle", bold=True, colour="#ffffff"
        )
    room = w - 2 * 13.0  # between the speed badge and the health dots
    size = 6.0
    while size > 3.5 and out.text_width(ship.name, size, bold=True) > room:
        size -= 0.25
    out.text(x + w / 2, y + 16.5, ship.name, size, anchor="middle", bold=True, colour="#ffffff")
    words = []
    if ship.role != "warship":
        words.append(ship.role.upper())
    if ship.credits or ship.vp != ship.health:
        words.append(TEXT["vp"].format(n=ship.vp))
    if ship.credits or ship.role in ("cargo", "flag", "scout"):
        credits = TEXT["credits"].format(n=ship.credits) if ship.credits else TEXT["free"]
        words.append(credits)
    if words:
        out.text(x + w / 2, y + 21.5, "  \u00b7  ".join(words), 3.0, anchor="middle", colour=_GOLD)


def draw_ship(out: SheetWriter, x: float, y: float, ship: ShipDef, face: CardFace) -> None:
    """A ship card with its top-left corner at ``(x, y)`` on the page (mm)."""
    _frame(out, x, y, face.colour, _PANEL, face.marker_ids)
    out.svg(_art_svg(ship, face.colour), x, y, *CARD_SIZE_MM)
    _lasers_and_shields(out, x, y, ship)
    _front_band(out, x, y, ship)
    _markers(out, x, y, face.marker_ids)


def draw_asteroid(out: SheetWriter, x: float, y: float, marker_ids: tuple[int, ...]) -> None:
    """An asteroid card with its top-left corner at ``(x, y)`` on the page (mm)."""
    w = CARD_SIZE_MM[0]
    _frame(out, x, y, _STOCK, _ROCK_PANEL, marker_ids)
    cx, cy, base = x + w / 2, y + 36.0, 0.3 * w
    n = len(_ROCK_RADII)
    points = []
    for i, r in enumerate(_ROCK_RADII):
        a = math.radians(360.0 * i / n)
        points.append((cx + math.cos(a) * r * base, cy + math.sin(a) * r * base * 1.15))
    out.polygon(points, fill="#7d7468", stroke="#b9ad9c", width=0.8)
    for dx, dy, r in ((-8, -10, 3.5), (9, 12, 2.6), (7, -14, 2.0)):
        out.circle(cx + dx, cy + dy, r, fill="#5f574d", stroke=None)
    out.text(cx, y + 9.5, TEXT["asteroid"], 4.5, anchor="middle", bold=True, colour="#d8d2c6")
    _markers(out, x, y, marker_ids)
