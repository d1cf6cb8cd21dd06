"""The hex grid: axial coordinates, the six facings, distance, lines, arcs and the board.

Hexes are flat-topped and addressed by axial coordinates ``(q, r)`` (columns ``q``; ``r``
runs down-right with them), the scheme of Red Blob Games' hex grid guide. The six facings
are the six hex sides, numbered clockwise from straight up: 0 north, 1 north-east,
2 south-east, 3 south, 4 south-west, 5 north-west. In the plane a hex of corner radius 1
has its centre at ``x = 1.5 q``, ``y = sqrt(3) (r + q / 2)`` with y growing down the screen.

The board is a rectangle of ``width`` columns by ``height`` rows in "odd-q" offset layout
(odd columns sit half a hex lower), stored as the axial hexes it holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    """One hex, in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (``q + r + s == 0``)."""
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def neighbour(self, facing: int) -> Hex:
        """The hex across side ``facing`` (0..5)."""
        return self + DIRECTIONS[facing % 6]

    def centre(self) -> tuple[float, float]:
        """The hex's centre in the plane (corner radius 1, y down)."""
        return (1.5 * self.q, SQRT3 * (self.r + self.q / 2))

    def to_json(self) -> list[int]:
        """``[q, r]``."""
        return [self.q, self.r]

    def __str__(self) -> str:
        return f"{self.q},{self.r}"


#: The neighbour of ``Hex(0, 0)`` across each side, by facing (clockwise from north).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
#: The facings in words, for logs and messages.
FACING_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def distance(a: Hex, b: Hex) -> int:
    """The number of hex steps from ``a`` to ``b``."""
    dq, dr = a.q - b.q, a.r - b.r  # and ds = -dq - dr
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from ``a``'s centre to ``b``'s crosses, both ends included
    (``distance(a, b) + 1`` hexes, each a neighbour of the one before). A line along a
    seam between two hexes takes the same side all the way (a tiny nudge decides)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + eps
    bq, br = b.q + eps, b.r + eps
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def turn_steps(facing: int, to: int) -> int:
    """Side-by-side turns from ``facing`` to ``to`` the short way (0..3)."""
    d = (to - facing) % 6
    return min(d, 6 - d)


def in_forward_arc(at: Hex, facing: int, target: Hex) -> bool:
    """Whether ``target`` lies in the forward 180 degrees of a ship at ``at`` facing
    ``facing``: its centre is not behind the line through ``at``'s centre square to the
    facing. Hexes exactly on that line count as in the arc (docs/rulings.md, H5)."""
    ax, ay = at.centre()
    tx, ty = target.centre()
    fx, fy = DIRECTIONS[facing % 6].centre()
    return (tx - ax) * fx + (ty - ay) * fy >= -1e-9


@dataclass(frozen=True, slots=True)
class Board:
    """A rectangle of ``width`` columns by ``height`` rows of hexes (odd-q offset)."""

    width: int
    height: int

    @staticmethod
    def hex_at(col: int, row: int) -> Hex:
        """The axial hex of offset column ``col``, row ``row``."""
        return Hex(col, row - (col - (col & 1)) // 2)

    @staticmethod
    def offset(h: Hex) -> tuple[int, int]:
        """The offset ``(column, row)`` of ``h``."""
        return (h.q, h.r + (h.q - (h.q & 1)) // 2)

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, Hex):
            return False
        col, row = self.offset(h)
        return 0 <= col < self.width and 0 <= row < self.height

    def __iter__(self) -> Iterator[Hex]:
        for col in range(self.width):
            for row in range(self.height):
                yield self.hex_at(col, row)

    def to_json(self) -> dict[str, int]:
        """``{"width": w, "height": h}``."""
        return {"width": self.width, "height": self.height}


def hex_label(h: Hex) -> str:
    """The hex's name on the map, as printed hex maps number them: its column then its row,
    two digits each from 01 (``"0704"``: column 7, row 4; offset layout)."""
    col, row = Board.offset(h)
    return f"{col + 1:02d}{row + 1:02d}"


def parse_hex(text: str) -> Hex:
    """``"q,r"`` as a hex. Raises ``ValueError`` naming the text."""
    q, comma, r = text.partition(",")
    try:
        if not comma:
            raise ValueError
        return Hex(int(q), int(r))
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a hex 'q,r'") from None
