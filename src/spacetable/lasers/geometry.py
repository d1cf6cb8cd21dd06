"""Pure 2-D geometry for card games on a flat table.

Lengths are in millimetres, angles in degrees, counter-clockwise positive. A card's local
frame has its origin at the card centre, +y toward the card's front and +x toward its right
edge (DESIGN section 2). Nothing here does I/O or keeps state.

The scalar functions are the reference; the fast battle kernel (``spacetable._fast``)
repeats the same arithmetic in the same order so both agree bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Edge = Literal["front", "back", "left", "right"]
EDGES: tuple[Edge, ...] = ("front", "back", "left", "right")

#: Distances below this (mm) count as contact: a laser grazing a corner hits it, two cards
#: whose edges are closer than this touch.
EPSILON_MM = 1e-9
#: A laser that comes within EPSILON_MM of a card and runs on that close for longer than
#: this (mm) before it crosses an edge or reaches a corner is running along the edge: it
#: touches where it first came that close (see :func:`ray_hit`).
GRAZE_MM = 1e-6


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a card lies: centre ``(x, y)`` in mm and ``rotation_deg`` counter-clockwise."""

    x: float
    y: float
    rotation_deg: float = 0.0

    def to_world(self, local_x: float, local_y: float) -> tuple[float, float]:
        """Map a point from the card's local frame to table coordinates."""
        c, s = _cos_sin(self.rotation_deg)
        return (self.x + c * local_x - s * local_y, self.y + s * local_x + c * local_y)

    def to_local(self, world_x: float, world_y: float) -> tuple[float, float]:
        """Map a table point into the card's local frame."""
        c, s = _cos_sin(self.rotation_deg)
        dx, dy = world_x - self.x, world_y - self.y
        return (c * dx + s * dy, -s * dx + c * dy)

    def direction(self, local_angle_deg: float) -> tuple[float, float]:
        """Unit vector on the table for a direction given relative to the card's front."""
        return heading(self.rotation_deg + local_angle_deg)


def _cos_sin(angle_deg: float) -> tuple[float, float]:
    """Cosine and sine of an angle in degrees, exact at multiples of 90 degrees."""
    quarter = angle_deg / 90.0
    if quarter == int(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(quarter) % 4]
    rad = math.radians(angle_deg)
    return (math.cos(rad), math.sin(rad))


def heading(angle_deg: float) -> tuple[float, float]:
    """Unit vector on the table for a card-relative angle, where 0 degrees is +y (a card's
    front at rotation 0) and 90 degrees is -x (out to the left)."""
    c, s = _cos_sin(angle_deg)
    return (-s, c)


@dataclass(frozen=True, slots=True)
class Rect:
    """An oriented rectangle: a card of ``width`` x ``length`` mm lying at ``pose``."""

    pose: Pose
    width: float
    length: float

    @property
    def half_width(self) -> float:
        """Half the card's width (local x extent)."""
        return self.width / 2.0

    @property
    def half_length(self) -> float:
        """Half the card's length (local y extent)."""
        return self.length / 2.0

    @property
    def reach(self) -> float:
        """How far the corners lie from the centre (the circumscribed circle's radius)."""
        return card_reach(self.width, self.length)

    def corners(self) -> tuple[tuple[float, float], ...]:
        """The four corners on the table, counter-clockwise from front-right."""
        hw, hl = self.half_width, self.half_length
        return tuple(
            self.pose.to_world(lx, ly) for lx, ly in ((hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl))
        )


@dataclass(frozen=True, slots=True)
class RayHit:
    """Where a ray first touches a rectangle.

    ``distance`` is along the ray (mm), ``point`` the table point, ``edges`` the card edge(s)
    it enters through (two at a corner) and ``local`` the point in the card's frame.
    """

    distance: float
    point: tuple[float, float]
    edges: tuple[Edge, ...]
    local: tuple[float, float]


def ray_hit(
    origin: tuple[float, float], direction: tuple[float, float], rect: Rect
) -> RayHit | None:
    """First contact of a ray with the closed rectangle, or ``None`` if it misses.

    ``direction`` must be a unit vector. Ruling 2 of DESIGN section 4: the ray touches the
    card if it passes within ``EPSILON_MM`` of it, measured as a distance at any angle. Say
    it first comes that close at distance ``t0`` along it. It touches:

    - at a corner, if it passes within ``EPSILON_MM`` of one by ``t0 + GRAZE_MM`` (the first
      such corner): the point lies on both of the corner's edges. So a ray running along an
      edge enters at the corner it reaches first, and one aimed at a corner touches it;
    - else where it crosses into the card, through one edge, if it does by ``t0 +
      GRAZE_MM`` (any ray that meets the edge at more than a thousandth of a radian);
    - else, running along an edge (or only grazing it), at the card's point nearest to
      where it first comes within ``EPSILON_MM``.

    ``distance`` is that point's distance along the ray; a ray that starts inside or on the
    card hits at distance 0.
    """
    c, s = _cos_sin(rect.pose.rotation_deg)
    dx, dy = origin[0] - rect.pose.x, origin[1] - rect.pose.y
    ox, oy = c * dx + s * dy, -s * dx + c * dy
    vx, vy = c * direction[0] + s * direction[1], -s * direction[0] + c * direction[1]
    hw, hl = rect.half_width, rect.half_length
    grown = _crossing(ox, oy, vx, vy, hw + EPSILON_MM, hl + EPSILON_MM)
    if grown is None:
        return None
    t0 = max(grown[0], 0.0)
    ex, ey = ox + vx * t0, oy + vy * t0
    px, py = min(max(ex, -hw), hw), min(max(ey, -hl), hl)
    if px != ex and py != ey and not _passes(px - ox, py - oy, vx, vy):
        return None  # through a corner of the grown card, but not near the card's corner
    reach = t0 + GRAZE_MM  # a corner or a crossing this soon is where it touches
    corner = _first_corner(ox, oy, vx, vy, hw, hl)
    inside = _crossing(ox, oy, vx, vy, hw, hl) if corner is None or corner[0] > reach else None
    edges: tuple[Edge, ...]
    if corner is not None and corner[0] <= reach:
        distance, sx, sy = corner
        lx, ly = sx * hw, sy * hl
        x_edge: Edge = "right" if sx > 0 else "left"
        y_edge: Edge = "front" if sy > 0 else "back"
        # First the edge it meets more head-on (left or right on a diagonal).
        edges = (x_edge, y_edge) if abs(vx) >= abs(vy) else (y_edge, x_edge)
    elif inside is not None and max(inside[0], 0.0) <= reach:
        distance = max(inside[0], 0.0)
        lx, ly = ox + vx * distance, oy + vy * distance
        if inside[0] >= 0.0 and inside[2]:
            edges = ("left" if vx > 0 else "right",)
        elif inside[0] >= 0.0:
            edges = ("back" if vy > 0 else "front",)
        else:  # it starts inside the card
            edges = _edges_at(lx, ly, hw, hl)
    else:  # along an edge, or only grazing it
        lx, ly = px, py
        distance = max((lx - ox) * vx + (ly - oy) * vy, 0.0)
        edges = _edges_at(lx, ly, hw, hl)
    edges = edges or (_nearest_edge(lx, ly, hw, hl),)
    point = (origin[0] + direction[0] * distance, origin[1] + direction[1] * distance)
    return RayHit(distance, point, edges, (lx, ly))


def ray_may_touch(origin: tuple[float, float], direction: tuple[float, float], rect: Rect) -> bool:
    """A cheap, conservative first test for :func:`ray_hit`: ``False`` when the ray cannot
    come near the card's circumscribed circle (it points away, or its line passes wide).
    The circle's radius has a margin far above rounding and ``EPSILON_MM``."""
    reach = rect.reach + 1e-6
    ex, ey = rect.pose.x - origin[0], rect.pose.y - origin[1]
    return ex * direction[0] + ey * direction[1] >= -reach and (
        abs(ex * direction[1] - ey * direction[0]) <= reach
    )


def _crossing(
    ox: float, oy: float, vx: float, vy: float, hw: float, hl: float
) -> tuple[float, float, bool] | None:
    """Where the ray from local ``(ox, oy)`` along ``(vx, vy)`` is inside the closed
    ``[-hw, hw] x [-hl, hl]``: ``(t_in, t_out, entered_through_x)`` with ``t_out >= 0``,
    or ``None``. ``entered_through_x``: the left or right side bounds ``t_in`` (on ties).
    Each axis is a slab (:func:`_slab`)."""
    x = _slab(ox, vx, hw)
    if x is None:
        return None
    y = _slab(oy, vy, hl)
    if y is None:
        return None
    t_in = max(x[0], y[0])
    t_out = min(x[1], y[1])
    if t_in > t_out or t_out < 0.0:
        return None
    return t_in, t_out, x[0] >= y[0]


def _slab(o: float, v: float, half: float) -> tuple[float, float] | None:
    """The parameters ``t`` where ``-half <= o + v t <= half`` on one axis, low to high
    (all of them when ``v`` is 0 and ``o`` lies within), or ``None``: never."""
    if v == 0.0:
        return (-math.inf, math.inf) if -half <= o <= half else None
    t0, t1 = (-half - o) / v, (half - o) / v
    return (t0, t1) if t0 <= t1 else (t1, t0)


def _passes(wx: float, wy: float, vx: float, vy: float) -> bool:
    """Whether a ray from the origin along unit ``(vx, vy)`` passes within ``EPSILON_MM``
    of the point ``(wx, wy)``."""
    if wx * vx + wy * vy < 0.0:  # behind: the ray's origin is its nearest point
        return wx * wx + wy * wy <= EPSILON_MM * EPSILON_MM
    return abs(wx * vy - wy * vx) <= EPSILON_MM


def _first_corner(
    ox: float, oy: float, vx: float, vy: float, hw: float, hl: float
) -> tuple[float, float, float] | None:
    """The first corner the ray passes within ``EPSILON_MM`` of: ``(distance along the ray,
    sign of its x, sign of its y)``, or ``None``."""
    best: tuple[float, float, float] | None = None
    for sx, sy in ((1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)):
        wx, wy = sx * hw - ox, sy * hl - oy
        if abs(wx * vy - wy * vx) > EPSILON_MM:
            continue  # the ray's line passes farther from this corner (most rays, most corners)
        along = max(wx * vx + wy * vy, 0.0)
        if (best is None or along < best[0]) and _passes(wx, wy, vx, vy):
            best = (along, sx, sy)
    return best


def _edges_at(lx: float, ly: float, hw: float, hl: float) -> tuple[Edge, ...]:
    """The edges a local point lies on, within ``EPSILON_MM``, in :data:`EDGES` order."""
    gaps = (hl - ly, ly + hl, lx + hw, hw - lx)
    return tuple(edge for edge, gap in zip(EDGES, gaps, strict=True) if abs(gap) <= EPSILON_MM)


def _nearest_edge(lx: float, ly: float, hw: float, hl: float) -> Edge:
    gaps: dict[Edge, float] = {
        "front": hl - ly,
        "back": ly + hl,
        "left": lx + hw,
        "right": hw - lx,
    }
    return min(EDGES, key=lambda e: abs(gaps[e]))


def edge_coordinate(edge: Edge, local: tuple[float, float]) -> float:
    """The coordinate along an edge that shield intervals use: local x on the front and back
    edges, local y on the left and right edges."""
    return local[0] if edge in ("front", "back") else local[1]


def on_edge(local: tuple[float, float], width: float, length: float, tol: float = 1e-6) -> bool:
    """Whether a local point lies on the boundary of a ``width`` x ``length`` card."""
    x, y = local
    hw, hl = width / 2.0, length / 2.0
    inside = abs(x) <= hw + tol and abs(y) <= hl + tol
    return inside and (abs(abs(x) - hw) <= tol or abs(abs(y) - hl) <= tol)


def card_reach(width: float, length: float) -> float:
    """How far the corners of a ``width`` x ``length`` card lie from its centre."""
    return math.hypot(width / 2.0, length / 2.0)


def beyond_reach(a: Pose, a_reach: float, b: Pose, b_reach: float) -> bool:
    """Whether two cards centred at ``a`` and ``b``, whose corners lie ``a_reach`` and
    ``b_reach`` from their centres (:attr:`Rect.reach`), lie too far apart to touch: their
    circumscribed circles do not meet. A caller with many cards asks it before building
    their rectangles."""
    dx, dy = a.x - b.x, a.y - b.y
    return dx * dx + dy * dy > (a_reach + b_reach + EPSILON_MM) ** 2


def rects_touch(a: Rect, b: Rect) -> bool:
    """Whether two cards touch or overlap (closed rectangles share at least one point).

    Separating-axis test: the cards are apart only if, on one of the four edge normals, their
    shadows are separated by more than ``EPSILON_MM``.
    """
    # Most pairs on a table end here, without the corners.
    if beyond_reach(a.pose, a.reach, b.pose, b.reach):
        return False
    ca, cb = a.corners(), b.corners()
    for rect in (a, b):
        c, s = _cos_sin(rect.pose.rotation_deg)
        for ax, ay in ((c, s), (-s, c)):
            pa = [ax * x + ay * y for x, y in ca]
            pb = [ax * x + ay * y for x, y in cb]
            if min(pb) - max(pa) > EPSILON_MM or min(pa) - max(pb) > EPSILON_MM:
                return False
    return True


def rect_inside(rect: Rect, width: float, height: float) -> bool:
    """Whether a card lies wholly on a ``width`` x ``height`` table centred on the origin."""
    half_w, half_h = width / 2.0 + EPSILON_MM, height / 2.0 + EPSILON_MM
    return all(abs(x) <= half_w and abs(y) <= half_h for x, y in rect.corners())
