"""Ship art: a silhouette per ship, drawn from its printed facts (pure).

Every ship card gets its own picture: the shape family comes from its race (the four Stellar
Conflict races each have their own look; Light Speed ships are human-built), its size from
its role and health (fighters are small, capital ships fill the card, cargo ships carry
containers, flagships are the largest), and the details (wing sweep, engines, fins) vary
with the ship's key, so two ships of a race never look alike.

The art is a list of SVG paths in the local frame of a 63 x 88 mm card centred on the
origin, in SVG axes (+y down, the card's front up). Each path has a ``fill``: a colour, or
``"team"`` for the owner's colour. The same list draws the faces in :mod:`.svg` and, served
as the games' ``art`` resource (:func:`lightspeed_art`, :func:`stellar_art`), the browser's
cards (``web/js/cards.js``), so both show the same ships.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog

__all__ = ["RACE_STYLES", "art_json", "lightspeed_art", "race_of_key", "ship_art", "stellar_art"]

Point = tuple[float, float]
#: One path of the art: ``{"d": path data, "fill": colour or "team"}`` (and an optional
#: ``"opacity"``).
Part = dict[str, str]

TEAM = "team"
_DARK = "#0b1226"
_METAL = "#c9d3e6"
_GLASS = "#cfe8ff"
_GLOW = "#ffb347"
_CARGO = "#f5b82e"
#: The races with their own shape family; any other ship is drawn as Light Speed's.
RACE_STYLES = ("wiss", "vak", "hexai", "tetrakori")


def race_of_key(key: str) -> str | None:
    """The Stellar Conflict race a ship key belongs to (``"wiss-glint"`` is Wiss), or None."""
    prefix = key.split("-", 1)[0]
    return prefix if prefix in RACE_STYLES and "-" in key else None


class _Pen:
    """Collects paths, in card millimetres with +y toward the front (flipped on output)."""

    def __init__(self) -> None:
        self.parts: list[Part] = []

    def add(self, d: str, fill: str, opacity: float | None = None) -> None:
        part = {"d": d, "fill": fill}
        if opacity is not None:
            part["opacity"] = _num(opacity)
        self.parts.append(part)

    def poly(self, points: Sequence[Point], fill: str, opacity: float | None = None) -> None:
        """A closed polygon."""
        self.add(_poly(points), fill, opacity)

    def mirrored(self, points: Sequence[Point], fill: str, opacity: float | None = None) -> None:
        """A polygon on the right (x > 0) and its mirror image on the left."""
        self.poly(points, fill, opacity)
        self.poly([(-x, y) for x, y in points], fill, opacity)

    def symmetric(self, right: Sequence[Point], fill: str) -> None:
        """One polygon from its right half (nose to tail), closed through its mirror."""
        left = [(-x, y) for x, y in reversed(right) if abs(x) > 1e-9]
        self.poly([*right, *left], fill)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str) -> None:
        """An axis-aligned ellipse centred at (cx, cy)."""
        top, bottom = _pt((cx, cy + ry)), _pt((cx, cy - ry))
        arc = f"A{_num(rx)},{_num(ry)} 0 1,1"
        self.add(f"M{top} {arc} {bottom} {arc} {top}Z", fill)

    def hexagon(self, cx: float, cy: float, r: float, fill: str) -> None:
        """A regular hexagon with flat top and bottom."""
        self.poly([(cx + r * math.cos(a), cy + r * math.sin(a)) for a in _HEX_ANGLES], fill)

    def curve(self, points: Sequence[Point], fill: str) -> None:
        """A closed shape through ``points`` with quadratic curves between their midpoints."""
        n = len(points)
        mids = [_mid(points[i], points[(i + 1) % n]) for i in range(n)]
        d = [f"M{_pt(mids[-1])}"]
        for i in range(n):
            d.append(f"Q{_pt(points[i])} {_pt(mids[i])}")
        self.add(" ".join(d) + "Z", fill)


_HEX_ANGLES = tuple(math.radians(60 * k) for k in range(6))


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pt(p: Point) -> str:
    return f"{_num(p[0])},{_num(-p[1])}"


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _poly(points: Sequence[Point]) -> str:
    return "M" + " L".join(_pt(p) for p in points) + "Z"


class _Dice:
    """Deterministic variety from a ship's key: the same key always draws the same ship."""

    def __init__(self, key: str) -> None:
        self.bytes = hashlib.sha256(key.encode()).digest()
        self.i = 0

    def unit(self) -> float:
        """A number in [0, 1)."""
        value = self.bytes[self.i % len(self.bytes)] / 256
        self.i += 1
        return value

    def between(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * self.unit()

    def pick(self, n: int) -> int:
        return int(self.unit() * n)


def _size_of(ship: ShipDef) -> float:
    """How much of the card the ship fills: 0.78 for a 1-health fighter, more as it grows."""
    if ship.role == "flag":
        return 1.08
    if ship.role == "cargo":
        return 1.0
    return {1: 0.78, 2: 0.88, 3: 0.98}.get(ship.health, 1.08)


def ship_art(ship: ShipDef) -> list[Part]:
    """The art of ``ship``: SVG paths for a 63 x 88 mm card, centred, front up."""
    pen = _Pen()
    dice = _Dice(ship.key)
    size = _size_of(ship)
    race = race_of_key(ship.key)
    draw = _RACE_DRAWERS.get(race or "", _human)
    draw(pen, ship, dice, size)
    return pen.parts


def _engines(pen: _Pen, xs: Sequence[float], y: float, r: float) -> None:
    for x in xs:
        pen.ellipse(x, y, r, r * 0.7, _GLOW)


def _human(pen: _Pen, ship: ShipDef, dice: _Dice, k: float) -> None:
    """Light Speed: human craft, swept metal wings round a long fuselage."""
    if ship.role == "cargo":
        _freighter(pen, dice, k, boxes=True)
        return
    nose = 24 * k
    tail = -17 * k
    width = dice.between(13, 18) * k
    sweep = dice.between(4, 14) * k
    wing_y = dice.between(-4, 4) * k
    # wings, then the body over them
    pen.mirrored(
        [
            (3 * k, wing_y + 8 * k),
            (width, wing_y - sweep),
            (width, wing_y - sweep - 5 * k),
            (3 * k, wing_y - 6 * k),
        ],
        TEAM,
    )
    if ship.health >= 3:  # nacelles on the wing tips of the heavier ships
        pen.mirrored(
            [
                (width - 2 * k, wing_y - sweep + 10 * k),
                (width + 2 * k, wing_y - sweep + 8 * k),
                (width + 2 * k, wing_y - sweep - 9 * k),
                (width - 2 * k, wing_y - sweep - 9 * k),
            ],
            _METAL,
        )
    body = 4.5 * k if ship.health <= 2 else 6 * k
    pen.symmetric(
        [(0, nose), (body * 0.7, nose - 10 * k), (body, 0), (body, tail), (0, tail)], TEAM
    )
    pen.symmetric(
        [(0, nose - 2 * k), (body * 0.4, nose - 10 * k), (body * 0.5, -2 * k), (0, -4 * k)], _DARK
    )
    if dice.unit() < 0.5:  # a tail fin pair
        pen.mirrored([(body, tail + 6 * k), (body + 6 * k, tail - 2 * k), (body, tail)], _METAL)
    pen.ellipse(0, nose - 11 * k, 2 * k, 4 * k, _GLASS)
    count = 1 if ship.health <= 1 else 2 if ship.health <= 3 else 3
    xs = (
        [0.0]
        if count == 1
        else [-body * 0.5, body * 0.5]
        if count == 2
        else [-body * 0.6, 0, body * 0.6]
    )
    _engines(pen, xs, tail - 1 * k, 1.8 * k)


def _freighter(pen: _Pen, dice: _Dice, k: float, *, boxes: bool) -> None:
    """A cargo ship: a cab in front, a spine of cargo containers, engines behind."""
    pen.symmetric([(0, 24 * k), (6 * k, 20 * k), (7 * k, 12 * k), (0, 12 * k)], TEAM)
    pen.ellipse(0, 19 * k, 2.2 * k, 2.5 * k, _GLASS)
    pen.poly([(-2 * k, 12 * k), (2 * k, 12 * k), (2 * k, -17 * k), (-2 * k, -17 * k)], _METAL)
    rows = 3 + dice.pick(2)
    for row in range(rows):
        y = 10 * k - row * (26 * k / rows)
        h = 26 * k / rows - 1.5 * k
        for side in (-1, 1):
            x0 = side * 2.5 * k
            x1 = side * 14 * k
            if boxes:
                pen.poly([(x0, y), (x1, y), (x1, y - h), (x0, y - h)], _CARGO)
            else:
                pen.hexagon((x0 + x1) / 2, y - h / 2, h / 1.8, _CARGO)
    pen.poly([(-9 * k, -17 * k), (9 * k, -17 * k), (7 * k, -21 * k), (-7 * k, -21 * k)], TEAM)
    _engines(pen, [-4 * k, 4 * k], -21 * k, 2 * k)


def _wiss(pen: _Pen, ship: ShipDef, dice: _Dice, k: float) -> None:
    """Wiss: light and curved, a needle prow and crescent sail-wings."""
    if ship.role == "cargo":
        pen.curve(
            [
                (0, 24 * k),
                (12 * k, 8 * k),
                (12 * k, -14 * k),
                (0, -20 * k),
                (-12 * k, -14 * k),
                (-12 * k, 8 * k),
            ],
            TEAM,
        )
        for i in range(3):
            pen.ellipse(0, (8 - i * 9) * k, 6 * k, 3.2 * k, _CARGO)
        return
    span = dice.between(15, 21) * k
    reach = dice.between(6, 16) * k
    # crescent sails: a curve out to the tip and back along the body
    for side in (-1, 1):
        pen.curve(
            [
                (side * 2 * k, 10 * k),
                (side * span, reach),
                (side * span * 1.05, reach - 10 * k),
                (side * span * 0.6, -10 * k),
                (side * 2 * k, -6 * k),
            ],
            TEAM,
        )
    pen.curve(
        [
            (0, 26 * k),
            (3 * k, 6 * k),
            (3.5 * k, -16 * k),
            (0, -19 * k),
            (-3.5 * k, -16 * k),
            (-3 * k, 6 * k),
        ],
        _METAL,
    )
    pen.ellipse(0, 4 * k, 1.8 * k, 5 * k, _GLASS)
    if ship.health >= 3 or ship.role == "flag":  # a second, smaller pair of sails
        for side in (-1, 1):
            pen.curve(
                [
                    (side * 2 * k, -8 * k),
                    (side * span * 0.7, -14 * k),
                    (side * span * 0.5, -20 * k),
                    (side * 2 * k, -16 * k),
                ],
                TEAM,
            )
    if ship.role == "flag":
        pen.curve([(0, 20 * k), (6 * k, 12 * k), (0, 2 * k), (-6 * k, 12 * k)], _GLASS)
    _engines(pen, [0.0], -19 * k, 1.6 * k)


def _vak(pen: _Pen, ship: ShipDef, dice: _Dice, k: float) -> None:
    """Vak: heavy and angular, a wide armoured wedge with plates and a ram."""
    if ship.role == "cargo":
        _freighter(pen, dice, k, boxes=True)
        pen.poly([(-8 * k, 24 * k), (8 * k, 24 * k), (10 * k, 18 * k), (-10 * k, 18 * k)], _DARK)
        return
    w = dice.between(14, 19) * k
    front = dice.between(10, 18) * k
    pen.symmetric(
        [
            (0, 24 * k),
            (6 * k, 22 * k),
            (w, front - 10 * k),
            (w, -12 * k),
            (w * 0.6, -18 * k),
            (0, -18 * k),
        ],
        TEAM,
    )
    plates = 2 + (ship.health >= 3) + (ship.role == "flag")
    for i in range(plates):
        y = front - 14 * k - i * 7 * k
        pen.mirrored(
            [(3 * k, y), (w - 2 * k, y - 2 * k), (w - 2 * k, y - 5 * k), (3 * k, y - 4 * k)], _DARK
        )
    pen.poly(
        [(-2 * k, 26 * k), (2 * k, 26 * k), (4 * k, 18 * k), (-4 * k, 18 * k)], _METAL
    )  # the ram
    pen.poly([(-3 * k, 14 * k), (3 * k, 14 * k), (3 * k, 9 * k), (-3 * k, 9 * k)], _GLASS)
    if dice.unit() < 0.6 or ship.health >= 3:  # side guns
        pen.mirrored([(w, 4 * k), (w + 3 * k, 4 * k), (w + 3 * k, -6 * k), (w, -6 * k)], _METAL)
    count = 2 if ship.health <= 2 else 3
    xs = [-w * 0.4, w * 0.4] if count == 2 else [-w * 0.5, 0, w * 0.5]
    for x in xs:
        pen.poly(
            [
                (x - 2 * k, -18 * k),
                (x + 2 * k, -18 * k),
                (x + 2 * k, -21 * k),
                (x - 2 * k, -21 * k),
            ],
            _GLOW,
        )


def _hexai(pen: _Pen, ship: ShipDef, dice: _Dice, k: float) -> None:
    """Hexai: a cluster of hexagonal cells, growing cell by cell with the ship."""
    if ship.role == "cargo":
        _freighter(pen, dice, k, boxes=False)
        return
    # in cell radii first: a column of cells, then shoulders, then outer cells; small ships
    # pick where their second cell goes
    dx, dy = 1.5, math.sqrt(3)
    second = [(0, dy), (dx, dy / 2), (0, -dy)][dice.pick(3)]
    unit: list[Point] = [(0, 0), second]
    if ship.health >= 2 or ship.role == "flag":
        unit += [p for p in [(0, dy), (dx, dy / 2), (-dx, dy / 2), (0, -dy)] if p != second]
    if ship.health >= 3 or ship.role == "flag":
        extra = [(dx, -dy / 2), (-dx, -dy / 2), (2 * dx, 0), (-2 * dx, 0)]
        unit += extra if dice.unit() < 0.5 else [*extra[:2], (0, 2 * dy)]
    if ship.health >= 4 or ship.role == "flag":
        unit += [(2 * dx, dy), (-2 * dx, dy), (0, -2 * dy)]
    # then in mm: as large as the ship's size says, but always inside the art area
    tall = max(y for _, y in unit) - min(y for _, y in unit) + dy + 1.5
    wide = 2 * max(abs(x) for x, _ in unit) + 3
    r = min(dice.between(5.6, 6.6) * k, 44 / tall, 48 / wide)
    cells = [(x * r, y * r) for x, y in unit]
    ys = [y for _, y in cells]
    offset = -(max(ys) + min(ys)) / 2
    for x, y in cells:
        pen.hexagon(x, y + offset, r * 0.94, TEAM)
    for x, y in cells:
        pen.hexagon(x, y + offset, r * dice.between(0.35, 0.55), _DARK)
    core = cells[dice.pick(len(cells))]
    pen.hexagon(core[0], core[1] + offset, r * 0.4, _GLASS)
    top = max(ys) + offset
    spike = dice.between(0.3, 0.9) * r
    pen.poly([(0, top + r + spike), (r * 0.6, top + r * 0.5), (-r * 0.6, top + r * 0.5)], _METAL)
    # side prongs on the widest cells, as many as the ship has lasers
    widest = max(abs(x) for x, _ in cells)
    for x, y in cells[: len(ship.lasers) + 1]:
        if x and abs(x) == widest:
            side = 1 if x > 0 else -1
            y0 = y + offset
            pen.poly(
                [
                    (x + side * r * 0.8, y0 + r * 0.4),
                    (x + side * (r + spike), y0),
                    (x + side * r * 0.8, y0 - r * 0.4),
                ],
                _METAL,
            )


def _tetrakori(pen: _Pen, ship: ShipDef, dice: _Dice, k: float) -> None:
    """Tetrakori: insects of the void, a segmented body with mandibles and legs."""
    if ship.role == "cargo":
        pen.ellipse(0, 8 * k, 8 * k, 7 * k, TEAM)
        pen.ellipse(0, -8 * k, 12 * k, 11 * k, TEAM)
        for i in range(3):
            pen.ellipse(0, (-3 - i * 5) * k, 8 * k, 1.8 * k, _CARGO)
        pen.ellipse(0, 8 * k, 4 * k, 3 * k, _GLASS)
        return
    legs = 2 + (ship.health >= 3) + (dice.unit() < 0.3)
    spread = dice.between(13, 20) * k
    rake = dice.between(-4, 7) * k  # legs reaching forward, or swept back
    for i in range(legs):
        y = 6 * k - i * (16 * k / legs)
        leg = [
            (4 * k, y + 1.5 * k),
            (spread, y + rake),
            (spread + 1.5 * k, y + rake - 2 * k),
            (4 * k, y - 1.5 * k),
        ]
        pen.mirrored(leg, _METAL)
    head = 5 * k
    pen.ellipse(0, 14 * k, head, head * 1.1, TEAM)  # head
    pen.ellipse(0, 2 * k, 6.5 * k, 7 * k, TEAM)  # thorax
    pen.ellipse(0, -11 * k, dice.between(5, 10) * k, dice.between(6, 10) * k, TEAM)  # abdomen
    for i in range(2 + (ship.health >= 3)):
        pen.ellipse(0, (-8 - i * 4) * k, 5 * k, 0.9 * k, _DARK)
    curl = dice.between(3, 8) * k  # mandibles: claws that curl inward
    pen.mirrored(
        [
            (2 * k, 17 * k),
            (7 * k, 22 * k),
            (4 * k, 24 * k + curl * 0.3),
            (1 * k, 21 * k + curl * 0.2),
            (4 * k, 21 * k),
        ],
        _METAL,
    )
    pen.ellipse(-2 * k, 15 * k, 1.3 * k, 1.6 * k, _GLASS)
    pen.ellipse(2 * k, 15 * k, 1.3 * k, 1.6 * k, _GLASS)
    if ship.role == "flag":  # a crest
        pen.mirrored([(2 * k, 10 * k), (10 * k, 14 * k), (3 * k, 6 * k)], _GLOW)


_RACE_DRAWERS: dict[str, Callable[[_Pen, ShipDef, _Dice, float], None]] = {
    "wiss": _wiss,
    "vak": _vak,
    "hexai": _hexai,
    "tetrakori": _tetrakori,
}


def art_json(ships: dict[str, ShipDef]) -> dict[str, list[Part]]:
    """The art of every ship in ``ships``, keyed like it."""
    return {key: ship_art(ship) for key, ship in ships.items()}


def lightspeed_art() -> dict[str, list[Part]]:
    """Light Speed's ship art by ship key (the ``art`` resource of ``games/lightspeed``)."""
    return art_json(catalog("lightspeed"))


def stellar_art() -> dict[str, list[Part]]:
    """Stellar Conflict's ship art by ship key (the ``art`` resource of ``games/stellar``)."""
    return art_json(catalog("stellar"))
