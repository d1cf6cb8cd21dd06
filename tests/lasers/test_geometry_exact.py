"""``geometry.ray_hit`` against the same definition computed in exact rationals.

DESIGN ruling 2: a laser touches a card when it passes within 1e-9 mm of it, measured as a
distance at any angle; a ray running along an edge enters at the corner it reaches first,
and at a corner a shield on either edge blocks. Floating point is where this goes wrong
(issue 8: rays along the edge of a card turned 30 degrees were missed), so the rays here are
built to be degenerate: exactly along an edge, exactly through a corner, and within 1e-12 mm
of either, at arbitrary angles and rotations. Each is decided again with
:class:`fractions.Fraction` from the very same floats (the pose's cosine and sine, the ray's
origin and direction), with the exact distance between the ray and every edge and corner.
Where the exact answer is not within rounding of a threshold, the float answer must be the
same: hit or miss, the edges touched in the same order, the same point and distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction as Q

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from spacetable.lasers.geometry import (
    EDGES,
    EPSILON_MM,
    GRAZE_MM,
    Edge,
    Pose,
    Rect,
    _cos_sin,
    heading,
    ray_hit,
    ray_may_touch,
)

EPS = Q(EPSILON_MM)
GRAZE = Q(GRAZE_MM)
#: How far from a threshold an exact quantity must be (mm) for floats to be held to it:
#: far above the rounding of coordinates up to a metre, far below the 1e-9 mm margin.
SLACK = Q(1, 10**11)
CORNERS = ((1, 1), (-1, 1), (-1, -1), (1, -1))  # front-right, front-left, back-left, back-right
Vec = tuple[Q, Q]


def _dot(a: Vec, b: Vec) -> Q:
    return a[0] * b[0] + a[1] * b[1]


def _cross(a: Vec, b: Vec) -> Q:
    return a[0] * b[1] - a[1] * b[0]


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1])


@dataclass
class Exact:
    """The exact answer, and whether every decision on the way was clear of rounding."""

    hit: bool
    edges: tuple[Edge, ...] = ()
    local: Vec = (Q(0), Q(0))
    t: Q = Q(0)  # along the ray, in units of the (not quite unit) direction
    clear: bool = True
    outside: bool = True  # the ray starts more than EPS from the card, as lasers do
    #: How much rounding is amplified (mm): where a ray almost parallel to an edge meets it
    #: is ill-conditioned, ~1e-13 mm of rounding divided by the sine of its angle.
    cond: Q = Q(0)

    def near(self, value: Q, threshold: Q, cond: Q = Q(0)) -> None:
        """Note a decision ``value <= threshold`` (both in mm) that rounding, amplified by
        ``cond`` or by :attr:`cond`, could flip."""
        if abs(value - threshold) <= SLACK + max(cond, self.cond):
            self.clear = False


def _point_ray_sq(w: Vec, v: Vec) -> Q:
    """Squared distance from the point ``w`` to the ray from the origin along ``v``."""
    if _dot(w, v) <= 0:
        return _dot(w, w)
    return _cross(w, v) ** 2 / _dot(v, v)


def _slab(o: Q, v: Q, half: Q) -> tuple[Q | None, Q | None] | None:
    """Exact slab interval (``None`` bounds are infinite), or ``None`` when empty."""
    if v == 0:
        return (None, None) if -half <= o <= half else None
    t1, t2 = (-half - o) / v, (half - o) / v
    return (t1, t2) if t1 <= t2 else (t2, t1)


def _crossing(o: Vec, v: Vec, hw: Q, hl: Q) -> tuple[Q, bool] | None:
    """Exact ``geometry._crossing``: (t_in, entered through left or right) or ``None``."""
    xs, ys = _slab(o[0], v[0], hw), _slab(o[1], v[1], hl)
    if xs is None or ys is None:
        return None
    lows = [b for b in (xs[0], ys[0]) if b is not None]
    highs = [b for b in (xs[1], ys[1]) if b is not None]
    t_in = max(lows) if lows else Q(-(10**30))
    t_out = min(highs) if highs else Q(10**30)
    if t_in > t_out or t_out < 0:
        return None
    through_x = xs[0] is not None and (ys[0] is None or xs[0] >= ys[0])
    return t_in, through_x


def _segment_ray_sq(a: Vec, b: Vec, o: Vec, v: Vec) -> Q:
    """Squared distance between the segment ``ab`` and the ray from ``o`` along ``v``."""
    d = _sub(b, a)
    # Crossing: the ray's line separates a and b, and the meeting point is ahead.
    denom = _cross(v, d)
    if denom != 0:
        t = _cross(_sub(a, o), d) / denom
        u = _cross(_sub(a, o), v) / denom
        if t >= 0 and 0 <= u <= 1:
            return Q(0)
    best = min(_point_ray_sq(_sub(a, o), v), _point_ray_sq(_sub(b, o), v))
    # The ray's origin to the segment.
    k = _dot(_sub(o, a), d) / _dot(d, d)
    k = min(max(k, Q(0)), Q(1))
    foot = (a[0] + d[0] * k, a[1] + d[1] * k)
    return min(best, _dot(_sub(o, foot), _sub(o, foot)))


def exact_ray_hit(origin: tuple[float, float], direction: tuple[float, float], rect: Rect) -> Exact:
    """``geometry.ray_hit``'s definition, in exact rationals from the same floats."""
    c, s = (Q(x) for x in _cos_sin(rect.pose.rotation_deg))
    dx, dy = Q(origin[0]) - Q(rect.pose.x), Q(origin[1]) - Q(rect.pose.y)
    o = (c * dx + s * dy, -s * dx + c * dy)
    v = (c * Q(direction[0]) + s * Q(direction[1]), -s * Q(direction[0]) + c * Q(direction[1]))
    vv = _dot(v, v)
    hw, hl = Q(rect.width) / 2, Q(rect.length) / 2
    corners = [(sx * hw, sy * hl) for sx, sy in CORNERS]
    out = Exact(hit=False)
    # A laser starts on its own card, which never touches another: more than EPS away.
    nearest = (min(max(o[0], -hw), hw), min(max(o[1], -hl), hl))
    out.outside = _dot(_sub(o, nearest), _sub(o, nearest)) > (EPS + SLACK) ** 2
    # Touching: the ray comes within EPS of one of the four edges.
    sides = [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    gap_sq = min(_segment_ray_sq(a, b, o, v) for a, b in sides)
    out.near(Q(math.sqrt(gap_sq)), EPS)
    if gap_sq > EPS * EPS:
        return out
    out.hit = True
    # Where it first comes within EPS: the entry into the grown card.
    grown = _crossing(o, v, hw + EPS, hl + EPS)
    assert grown is not None
    t0 = max(grown[0], Q(0))
    cond_t0 = _cond(v, grown[1]) if grown[0] > 0 else Q(0)
    reach = t0 + GRAZE
    near_corners = []
    for (sx, sy), corner in zip(CORNERS, corners, strict=True):
        w = _sub(corner, o)
        sq = _point_ray_sq(w, v)
        out.near(Q(math.sqrt(sq)), EPS)
        if sq <= EPS * EPS:
            near_corners.append((max(_dot(w, v) / vv, Q(0)), sx, sy))
    first = min(near_corners, default=None)
    if first is not None:
        out.near(first[0], reach, cond_t0)
    if first is not None and first[0] <= reach:
        out.t, sx, sy = first
        out.local = (sx * hw, sy * hl)
        x_edge: Edge = "right" if sx > 0 else "left"
        y_edge: Edge = "front" if sy > 0 else "back"
        out.near(abs(v[0]) - abs(v[1]), Q(0))  # a diagonal: which edge is first is a tie
        out.edges = (x_edge, y_edge) if abs(v[0]) >= abs(v[1]) else (y_edge, x_edge)
        return out
    inside = _crossing(o, v, hw, hl)
    if inside is not None:
        entry = max(inside[0], Q(0))
        cond_entry = _cond(v, inside[1]) if inside[0] > 0 else Q(0)
        out.near(entry, reach, cond_t0 + cond_entry)
    if inside is not None and max(inside[0], Q(0)) <= reach:
        out.t = max(inside[0], Q(0))
        out.local = (o[0] + v[0] * out.t, o[1] + v[1] * out.t)
        out.cond = cond_entry
        if inside[0] >= 0:
            if inside[1]:
                out.edges = ("left" if v[0] > 0 else "right",)
            else:
                out.edges = ("back" if v[1] > 0 else "front",)
            return out
    else:  # along an edge or grazing it: the card's point nearest to where it first came
        e = (o[0] + v[0] * t0, o[1] + v[1] * t0)
        out.local = (min(max(e[0], -hw), hw), min(max(e[1], -hl), hl))
        out.t = _dot(_sub(out.local, o), v) / vv
        out.cond = cond_t0
    gaps = _gaps(out.local, hw, hl)
    for gap in gaps:
        out.near(gap, EPS)
    out.edges = tuple(e for e, gap in zip(EDGES, gaps, strict=True) if abs(gap) <= EPS)
    if not out.edges:
        out.edges = (min(EDGES, key=lambda e: abs(gaps[EDGES.index(e)])),)
    return out


def _cond(v: Vec, through_x: bool) -> Q:
    """How far rounding (~1e-13 mm) moves where a ray meets a side of a box: divided by the
    sine of the ray's angle to that side, large for a ray almost parallel to it."""
    sine = abs(v[0] if through_x else v[1])
    return Q(1, 10**13) / sine if sine else Q(0)


def _gaps(local: Vec, hw: Q, hl: Q) -> tuple[Q, Q, Q, Q]:
    x, y = local
    return (hl - y, y + hl, x + hw, hw - x)


# --------------------------------------------------------------------------- rays

OFFSETS = (0.0, 1e-12, -1e-12, 3e-13, -4e-10, 4e-10, 3e-9, -3e-9, 1e-6, -1e-6)
rotations = st.one_of(
    st.floats(-360.0, 360.0, allow_nan=False),
    st.integers(-24, 24).map(lambda k: k * 15.0),
    st.sampled_from([30.0, -30.0, 45.0, 60.0, 200.0 / 3, 1e-7, 90.0 + 1e-9]),
)
rects = st.builds(
    lambda x, y, r, size: Rect(Pose(x, y, r), *size),
    st.floats(-600.0, 600.0),
    st.floats(-600.0, 600.0),
    rotations,
    st.one_of(st.just((63.0, 88.0)), st.tuples(st.floats(5.0, 200.0), st.floats(5.0, 200.0))),
)


def _shift(p: tuple[float, float], d: tuple[float, float], k: float) -> tuple[float, float]:
    return (p[0] + d[0] * k, p[1] + d[1] * k)


@st.composite
def along_an_edge(draw: st.DrawFn) -> tuple[tuple[float, float], tuple[float, float], Rect]:
    """A ray parallel to an edge (its direction computed as a battle would: from an angle,
    or from two corners), offset from the edge's line by 0, 1e-12 mm ... 1e-6 mm, starting
    before the edge, on it, or past it."""
    rect = draw(rects)
    hw, hl = rect.half_width, rect.half_length
    i = draw(st.integers(0, 3))
    a, b = CORNERS[i], CORNERS[(i + 1) % 4]
    start = rect.pose.to_world(a[0] * hw, a[1] * hl)
    end = rect.pose.to_world(b[0] * hw, b[1] * hl)
    if draw(st.booleans()):
        start, end = end, start
    if draw(st.booleans()):
        length = math.dist(start, end)
        direction = ((end[0] - start[0]) / length, (end[1] - start[1]) / length)
    else:
        # the card's own heading turned by the quarter turn that points from start to end
        want = (end[0] - start[0], end[1] - start[1])
        direction = max(
            (rect.pose.direction(q) for q in (0.0, 90.0, 180.0, -90.0)),
            key=lambda h: h[0] * want[0] + h[1] * want[1],
        )
    normal = (direction[1], -direction[0])
    back = draw(st.sampled_from([-300.0, -50.0, -1.0, -1e-6, 0.0, 1e-6, 10.0]))
    offset = draw(st.sampled_from(OFFSETS))
    origin = _shift(_shift(start, direction, back), normal, offset)
    event(f"along an edge, offset {offset:g}")
    return origin, direction, rect


@st.composite
def through_a_corner(draw: st.DrawFn) -> tuple[tuple[float, float], tuple[float, float], Rect]:
    """A ray at any angle aimed exactly at a corner, or 1e-12 mm ... 1e-6 mm beside it."""
    rect = draw(rects)
    sx, sy = draw(st.sampled_from(CORNERS))
    corner = rect.pose.to_world(sx * rect.half_width, sy * rect.half_length)
    direction = heading(draw(st.floats(-180.0, 180.0, allow_nan=False)))
    normal = (direction[1], -direction[0])
    distance = draw(st.sampled_from([300.0, 40.0, 1.0, 1e-3]))
    offset = draw(st.sampled_from(OFFSETS))
    origin = _shift(_shift(corner, direction, -distance), normal, offset)
    event(f"through a corner, offset {offset:g}")
    return origin, direction, rect


@st.composite
def into_an_edge(draw: st.DrawFn) -> tuple[tuple[float, float], tuple[float, float], Rect]:
    """A ray at any angle that crosses an edge at 0, 1e-12 ... 1 mm from a corner, or
    anywhere along it."""
    rect = draw(rects)
    hw, hl = rect.half_width, rect.half_length
    edge = draw(st.sampled_from(EDGES))
    half = hw if edge in ("front", "back") else hl
    gap = draw(st.sampled_from([0.0, 1e-12, 5e-10, 2e-9, 1e-6, 1e-3, 1.0]))
    along = draw(st.one_of(st.sampled_from([half - gap, gap - half]), st.floats(-half, half)))
    local = {
        "front": (along, hl),
        "back": (along, -hl),
        "left": (-hw, along),
        "right": (hw, along),
    }[edge]
    point = rect.pose.to_world(*local)
    direction = heading(draw(st.floats(-180.0, 180.0, allow_nan=False)))
    origin = _shift(point, direction, -draw(st.sampled_from([200.0, 30.0, 1e-3])))
    event(f"into an edge, {gap:g} from a corner")
    return origin, direction, rect


def _check(ray: tuple[tuple[float, float], tuple[float, float], Rect]) -> None:
    origin, direction, rect = ray
    exact = exact_ray_hit(origin, direction, rect)
    assume(exact.clear and exact.outside)
    hit = ray_hit(origin, direction, rect)
    event("hit" if exact.hit else "miss")
    assert (hit is not None) == exact.hit, exact
    # The battle skips ray_hit where the cheap test says no: it must never say no to a hit.
    assert ray_may_touch(origin, direction, rect) or not exact.hit
    if hit is None:
        return
    event(f"{len(hit.edges)} edge(s)")
    assert hit.edges == exact.edges, exact
    tol = 1e-6 + float(exact.cond)
    assert abs(hit.local[0] - float(exact.local[0])) <= tol, exact
    assert abs(hit.local[1] - float(exact.local[1])) <= tol, exact
    length = math.sqrt(float(exact.t**2 * (Q(direction[0]) ** 2 + Q(direction[1]) ** 2)))
    assert abs(hit.distance - length) <= tol, exact


@settings(max_examples=500, deadline=None)
@given(along_an_edge())
def test_rays_along_an_edge_agree_with_exact_arithmetic(
    ray: tuple[tuple[float, float], tuple[float, float], Rect],
) -> None:
    _check(ray)


@settings(max_examples=500, deadline=None)
@given(through_a_corner())
def test_rays_through_a_corner_agree_with_exact_arithmetic(
    ray: tuple[tuple[float, float], tuple[float, float], Rect],
) -> None:
    _check(ray)


@settings(max_examples=500, deadline=None)
@given(into_an_edge())
def test_rays_into_an_edge_agree_with_exact_arithmetic(
    ray: tuple[tuple[float, float], tuple[float, float], Rect],
) -> None:
    _check(ray)


def test_a_ray_along_a_turned_edge_touches_both_edges_of_the_corner_it_reaches() -> None:
    """The case that was missed: a card turned 30 degrees, a ray along its right edge."""
    rect = Rect(Pose(12.5, -7.25, 30.0), 63.0, 88.0)
    hits = 0
    for behind in (1.0, 37.0, 100.0, 250.0, 999.0):
        for offset in (0.0, 1e-12, -1e-12, 9e-10, -9e-10):
            back_right = rect.pose.to_world(31.5, -44.0)
            front = rect.pose.direction(0.0)
            normal = (front[1], -front[0])
            origin = _shift(_shift(back_right, front, -behind), normal, offset)
            hit = ray_hit(origin, front, rect)
            assert hit is not None, (behind, offset)
            assert set(hit.edges) == {"back", "right"}
            assert math.dist(hit.point, back_right) < 1e-6
            hits += 1
    assert hits == 25
