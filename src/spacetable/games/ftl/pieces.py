"""Faster Than Light's pieces: ships and missiles on a table measured in inches.

DESIGN section 5 fixes the frame. The table is centred on the origin. A piece stands on its
post ``(x, y)`` with a ``heading`` in degrees: 0 points to +y and angles grow
counter-clockwise, as in the Light Speed frame (so :func:`spacetable.lasers.geometry.heading`
gives its direction). Its footprint is a closed rectangle centred on the post, ``width``
across and ``length`` along the heading; its nose is the middle of its front edge.

Pieces are frozen values: the resolution builds new ones with :meth:`Piece.evolve`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from spacetable.lasers.geometry import Pose, Rect, heading

#: The table unless a file or the options say otherwise: 48 x 48 in (four feet a side).
DEFAULT_TABLE_IN = (48.0, 48.0)
#: A ship's footprint, ``(width, length)`` in inches.
SHIP_SIZE_IN = (0.75, 1.5)
#: A missile's footprint, ``(width, length)`` in inches.
MISSILE_SIZE_IN = (0.25, 0.5)
#: Missiles each ship carries at the start unless told otherwise.
DEFAULT_MISSILES = 10
#: The gap between a launching ship's nose and its new missile's rear edge (in).
LAUNCH_GAP_IN = 0.25
#: A ship is removed once it has this many hits.
HITS_TO_DESTROY = 3


@functools.lru_cache(maxsize=1024)
def unit_heading(heading_deg: float) -> tuple[float, float]:
    """The unit vector along ``heading_deg`` (:func:`spacetable.lasers.geometry.heading`),
    remembered: headings are mostly multiples of 15 degrees, and the resolution and the
    bots' look-ahead ask for them hundreds of thousands of times a match."""
    return heading(heading_deg)


class Kind(StrEnum):
    """What a piece is."""

    SHIP = "ship"
    MISSILE = "missile"


def normal_heading(angle_deg: float) -> float:
    """``angle_deg`` brought into (-180, 180] degrees."""
    angle = math.fmod(angle_deg, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle + 0.0  # no -0.0


def on_table(x: float, y: float, table_in: tuple[float, float]) -> bool:
    """Whether the post ``(x, y)`` lies on the table centred on the origin; its edge counts
    as on it."""
    return abs(x) <= table_in[0] / 2.0 and abs(y) <= table_in[1] / 2.0


@dataclass(frozen=True, slots=True)
class Piece:
    """A ship or a missile as it stands.

    ``hits`` counts missile hits on a ship; ``missiles`` is how many it can still launch and
    ``launched`` how many it has launched (its next missile is ``<id>-m<launched + 1>``).
    ``normal_space`` marks a piece that launched, was launched or rotated this turn: only
    those are hit by tapes. ``on_table`` is false once the piece is removed.
    """

    id: str
    kind: Kind
    owner: str
    x: float
    y: float
    heading: float
    width: float
    length: float
    hits: int = 0
    missiles: int = 0
    launched: int = 0
    normal_space: bool = False
    on_table: bool = True

    @classmethod
    def ship(
        cls,
        id: str,
        owner: str,
        x: float,
        y: float,
        heading_deg: float,
        *,
        missiles: int = DEFAULT_MISSILES,
        size: tuple[float, float] = SHIP_SIZE_IN,
    ) -> Piece:
        """A fresh ship at ``(x, y)`` in, facing ``heading_deg``."""
        return cls(
            id, Kind.SHIP, owner, x, y, normal_heading(heading_deg), size[0], size[1],
            missiles=missiles,
        )  # fmt: skip

    @classmethod
    def missile(
        cls,
        id: str,
        owner: str,
        x: float,
        y: float,
        heading_deg: float,
        *,
        size: tuple[float, float] = MISSILE_SIZE_IN,
    ) -> Piece:
        """A missile at ``(x, y)`` in, facing ``heading_deg``."""
        return cls(id, Kind.MISSILE, owner, x, y, normal_heading(heading_deg), size[0], size[1])

    @property
    def is_ship(self) -> bool:
        """True for a ship, false for a missile."""
        return self.kind == Kind.SHIP

    @property
    def direction(self) -> tuple[float, float]:
        """Unit vector along the heading."""
        return unit_heading(self.heading)

    @property
    def nose(self) -> tuple[float, float]:
        """The middle of the front edge: where a sprint's tape starts."""
        return self.ahead(self.length / 2.0)

    def ahead(self, distance_in: float) -> tuple[float, float]:
        """The point ``distance_in`` inches from the post along the heading."""
        dx, dy = self.direction
        return (self.x + dx * distance_in, self.y + dy * distance_in)

    def footprint(self) -> Rect:
        """The closed rectangle the piece covers."""
        return Rect(Pose(self.x, self.y, self.heading), self.width, self.length)

    def next_missile_id(self) -> str:
        """The id of the missile this ship launches next."""
        return f"{self.id}-m{self.launched + 1}"

    def evolve(self, **changes: Any) -> Piece:
        """A copy with ``changes`` applied (the heading is kept in (-180, 180]). Written
        out rather than ``dataclasses.replace``, which took twice as long: the resolution
        and the bots' look-ahead make hundreds of thousands of pieces a match."""
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        if "heading" in changes:
            values["heading"] = normal_heading(values["heading"])
        return Piece(**values)

    def to_json(self) -> dict[str, Any]:
        """The piece as a turn file writes it (ships with their hits and missiles), plus
        ``on_table``."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "owner": self.owner,
            "x": self.x,
            "y": self.y,
            "heading": self.heading,
            "size": [self.width, self.length],
            "hits": self.hits,
        }
        if self.is_ship:
            out["missiles"] = self.missiles
            out["launched"] = self.launched
        out["on_table"] = self.on_table
        return out


#: The fields :meth:`Piece.evolve` copies, in order.
_FIELDS = tuple(field.name for field in fields(Piece))
