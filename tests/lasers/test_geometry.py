"""Geometry (DESIGN section 2): poses, headings, card rectangles, overlap and ray casts.

The overlap test and the ray cast are checked against a slow, independent reference built
on shapely, with the rectangle corners computed here from plain trigonometry. Random cases
that land within ~1e-6 mm of the contact boundary (near-touches, grazing rays) are
discarded: there the answer depends on the tolerance, and explicit tests below pin down
the exact cases instead.
"""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from spacetable.lasers.geometry import (
    EDGES,
    Edge,
    Pose,
    Rect,
    edge_coordinate,
    heading,
    on_edge,
    ray_hit,
    rect_inside,
    rects_touch,
)

CARD_W, CARD_L = 63.0, 88.0
HW, HL = CARD_W / 2, CARD_L / 2

#: Random cases closer than this to the contact boundary are discarded (mm).
NEAR = 1e-6
#: How closely the geometry must agree with the reference (mm).
TOL = 1e-6
CORE = settings(max_examples=300)

# --------------------------------------------------------------------------- strategies

coords = st.floats(-150.0, 150.0, allow_nan=False, allow_infinity=False)
sizes = st.floats(1.0, 120.0, allow_nan=False, allow_infinity=False)
angles = st.one_of(
    st.sampled_from([0.0, 90.0, 180.0, 270.0, -90.0, 360.0, 450.0, 45.0, 30.0, -135.0]),
    st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False),
)
poses = st.builds(Pose, coords, coords, angles)
rects = st.builds(Rect, poses, sizes, sizes)


# --------------------------------------------------------------------------- reference


def ref_corners(rect: Rect) -> list[tuple[float, float]]:
    """The rectangle's corners from plain trigonometry (counter-clockwise)."""
    rad = math.radians(rect.pose.rotation_deg)
    c, s = math.cos(rad), math.sin(rad)
    hw, hl = rect.width / 2, rect.length / 2
    return [
        (rect.pose.x + c * lx - s * ly, rect.pose.y + s * lx + c * ly)
        for lx, ly in ((hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl))
    ]


def ref_polygon(rect: Rect) -> Polygon:
    return Polygon(ref_corners(rect))


def edge_contains(rect: Rect, edge: Edge, point: tuple[float, float], tol: float = TOL) -> bool:
    """Whether a table point lies on the given edge of the rectangle."""
    lx, ly = rect.pose.to_local(*point)
    hw, hl = rect.half_width, rect.half_length
    if edge in ("front", "back"):
        along, across, half_along, half_across = lx, ly, hw, hl
        sign = 1.0 if edge == "front" else -1.0
    else:
        along, across, half_along, half_across = ly, lx, hl, hw
        sign = 1.0 if edge == "right" else -1.0
    return abs(across - sign * half_across) <= tol and abs(along) <= half_along + tol


def close(a: tuple[float, float], b: tuple[float, float], tol: float = TOL) -> bool:
    return math.dist(a, b) <= tol


def card(x: float = 0.0, y: float = 0.0, rotation: float = 0.0) -> Rect:
    return Rect(Pose(x, y, rotation), CARD_W, CARD_L)


# --------------------------------------------------------------------------- poses, headings


def test_rotation_zero_front_is_plus_y_and_right_is_plus_x() -> None:
    pose = Pose(10.0, 20.0, 0.0)
    assert pose.to_world(0.0, 1.0) == (10.0, 21.0)
    assert pose.to_world(1.0, 0.0) == (11.0, 20.0)
    assert pose.direction(0.0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("angle", "expected"),
    [
        (0.0, (0.0, 1.0)),  # forward: +y
        (90.0, (-1.0, 0.0)),  # out to the left: -x
        (-90.0, (1.0, 0.0)),  # out to the right: +x
        (180.0, (0.0, -1.0)),  # backward
        (-180.0, (0.0, -1.0)),
        (270.0, (1.0, 0.0)),
        (-270.0, (-1.0, 0.0)),
        (360.0, (0.0, 1.0)),
        (450.0, (-1.0, 0.0)),
        (720.0, (0.0, 1.0)),
    ],
)
def test_heading_conventions_are_exact(angle: float, expected: tuple[float, float]) -> None:
    assert heading(angle) == expected


@given(st.floats(-1e4, 1e4, allow_nan=False))
def test_heading_is_a_unit_vector_counter_clockwise_from_plus_y(angle: float) -> None:
    hx, hy = heading(angle)
    rad = math.radians(angle)
    assert math.isclose(hx, -math.sin(rad), abs_tol=1e-12)
    assert math.isclose(hy, math.cos(rad), abs_tol=1e-12)
    assert math.isclose(math.hypot(hx, hy), 1.0, rel_tol=1e-12)


def test_card_turned_90_faces_minus_x() -> None:
    pose = Pose(0.0, 0.0, 90.0)
    assert pose.direction(0.0) == (-1.0, 0.0)  # its front now points to -x
    assert pose.to_world(0.0, HL) == (-HL, 0.0)  # the middle of its front edge
    assert pose.to_world(HW, 0.0) == (0.0, HW)  # its right edge faces +y
    assert Pose(0.0, 0.0, -90.0).direction(0.0) == (1.0, 0.0)


@CORE
@given(poses, st.sampled_from([(0.0, "front"), (90.0, "left"), (-90.0, "right"), (180.0, "back")]))
def test_laser_angles_point_out_of_the_matching_edge(pose: Pose, case: tuple[float, Edge]) -> None:
    """A laser at 0/90/-90/180 degrees leaves along the outward normal of front/left/right/back."""
    angle, edge = case
    normal = {"front": (0.0, 1.0), "back": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
    wx, wy = pose.to_world(*normal[edge])
    assert close(pose.direction(angle), (wx - pose.x, wy - pose.y), 1e-12)


@CORE
@given(poses, st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_to_world_to_local_round_trip(pose: Pose, lx: float, ly: float) -> None:
    wx, wy = pose.to_world(lx, ly)
    back = pose.to_local(wx, wy)
    assert close(back, (lx, ly), 1e-9)
    # and the other way round
    assert close(pose.to_world(*pose.to_local(lx, ly)), (lx, ly), 1e-9)
    # a rotation keeps distances from the centre
    assert math.isclose(math.dist((wx, wy), (pose.x, pose.y)), math.hypot(lx, ly), abs_tol=1e-9)


@given(
    st.integers(-8, 8),
    st.integers(-500, 500),
    st.integers(-500, 500),
    st.integers(-100, 100),
    st.integers(-100, 100),
)
def test_quarter_turns_are_exact(k: int, x: int, y: int, lx: int, ly: int) -> None:
    pose = Pose(float(x), float(y), 90.0 * k)
    expected = {
        0: (x + lx, y + ly),
        1: (x - ly, y + lx),
        2: (x - lx, y - ly),
        3: (x + ly, y - lx),
    }[k % 4]
    assert pose.to_world(float(lx), float(ly)) == expected
    assert pose.to_local(*map(float, expected)) == (lx, ly)
    assert pose.direction(0.0) == heading(90.0 * k)


def test_corners_at_quarter_turns_are_exact() -> None:
    assert card(0.0, 0.0, 0.0).corners() == ((HW, HL), (-HW, HL), (-HW, -HL), (HW, -HL))
    assert card(100.0, 50.0, 90.0).corners() == (
        (100.0 - HL, 50.0 + HW),
        (100.0 - HL, 50.0 - HW),
        (100.0 + HL, 50.0 - HW),
        (100.0 + HL, 50.0 + HW),
    )
    assert card(0.0, 0.0, -90.0).corners() == card(0.0, 0.0, 270.0).corners()


@CORE
@given(rects)
def test_corners_match_plain_trigonometry(rect: Rect) -> None:
    for got, want in zip(rect.corners(), ref_corners(rect), strict=True):
        assert close(got, want, 1e-9)


def test_edge_coordinate() -> None:
    assert edge_coordinate("front", (3.0, 4.0)) == 3.0
    assert edge_coordinate("back", (3.0, 4.0)) == 3.0
    assert edge_coordinate("left", (3.0, 4.0)) == 4.0
    assert edge_coordinate("right", (3.0, 4.0)) == 4.0


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((0.0, HL), True),  # front middle
        ((0.0, -HL), True),  # back middle
        ((-HW, 0.0), True),  # left middle
        ((HW, 10.0), True),  # right
        ((HW, HL), True),  # corners
        ((-HW, -HL), True),
        ((0.0, HL + 1e-7), True),  # within the default tolerance
        ((HW - 1e-7, -5.0), True),
        ((0.0, 0.0), False),  # centre
        ((0.0, HL - 0.01), False),  # just inside
        ((0.0, HL + 0.01), False),  # just outside
        ((HW + 8.5, HL), False),  # on the front edge's line, beyond the corner
        ((HW, HL + 5.0), False),  # on the right edge's line, beyond the corner
    ],
)
def test_on_edge(point: tuple[float, float], expected: bool) -> None:
    assert on_edge(point, CARD_W, CARD_L) is expected


def test_on_edge_tolerance_is_adjustable() -> None:
    assert on_edge((0.0, HL + 0.01), CARD_W, CARD_L, tol=0.02)
    assert not on_edge((0.0, HL + 1e-7), CARD_W, CARD_L, tol=1e-9)


def test_rect_inside() -> None:
    assert rect_inside(card(), CARD_W, CARD_L)  # exactly fills the table: still inside
    assert rect_inside(card(0.0, 0.0, 90.0), CARD_L, CARD_W)
    assert not rect_inside(card(0.0, 0.0, 90.0), CARD_W, CARD_L)
    assert not rect_inside(card(0.01, 0.0), CARD_W, CARD_L)
    assert rect_inside(card(100.0, -50.0, 37.0), 400.0, 300.0)
    # a card turned 45 degrees needs (63 + 88) / sqrt(2) mm each way
    diag = (CARD_W + CARD_L) / math.sqrt(2)
    assert rect_inside(card(0.0, 0.0, 45.0), diag + 1e-6, diag + 1e-6)
    assert not rect_inside(card(0.0, 0.0, 45.0), diag - 0.01, diag + 1.0)
    # off the edge of a large table
    assert not rect_inside(card(600.0 - HW + 0.01, 0.0), 1200.0, 800.0)
    assert rect_inside(card(600.0 - HW, 0.0), 1200.0, 800.0)


@CORE
@given(rects, st.floats(10.0, 500.0), st.floats(10.0, 500.0))
def test_rect_inside_matches_shapely(rect: Rect, width: float, height: float) -> None:
    table = shapely.box(-width / 2, -height / 2, width / 2, height / 2)
    corners = ref_corners(rect)
    # stay away from cards that just reach the table's border
    margin = min(
        width / 2 - max(abs(x) for x, _ in corners), height / 2 - max(abs(y) for _, y in corners)
    )
    assume(abs(margin) > NEAR)
    assert rect_inside(rect, width, height) is bool(table.covers(ref_polygon(rect)))


# --------------------------------------------------------------------------- rects_touch


@CORE
@given(rects, rects)
def test_rects_touch_matches_shapely(a: Rect, b: Rect) -> None:
    pa, pb = ref_polygon(a), ref_polygon(b)
    gap = pa.distance(pb)
    assume(not (0.0 < gap <= NEAR))  # near-touches depend on the tolerance
    expected = bool(pa.intersects(pb))
    event("touch" if expected else "apart")
    assert rects_touch(a, b) is expected
    assert rects_touch(b, a) is expected


@given(rects)
def test_a_card_touches_itself(rect: Rect) -> None:
    assert rects_touch(rect, rect)


def test_card_inside_another_touches() -> None:
    big = Rect(Pose(0.0, 0.0, 10.0), 200.0, 200.0)
    assert rects_touch(big, card(5.0, -3.0, 77.0))
    assert rects_touch(card(5.0, -3.0, 77.0), big)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # edge to edge, side by side, at rotation 0
        (card(0.0, 0.0, 0.0), card(CARD_W, 0.0, 0.0)),
        (card(0.0, 0.0, 0.0), card(-CARD_W, 30.0, 0.0)),  # partly along the edge
        (card(0.0, 0.0, 0.0), card(10.0, CARD_L, 0.0)),  # front to back
        # edge to edge with quarter turns
        (card(0.0, 0.0, 0.0), card(HW + HL, 0.0, 90.0)),
        (card(0.0, 0.0, 90.0), card(0.0, CARD_W, 90.0)),
        (card(0.0, 0.0, 90.0), card(0.0, CARD_W, -90.0)),
        (card(0.0, 0.0, 180.0), card(CARD_W, 0.0, 0.0)),
        (card(0.0, 0.0, 270.0), card(CARD_L, 0.0, 90.0)),
        # corner to corner
        (card(0.0, 0.0, 0.0), card(CARD_W, CARD_L, 0.0)),
        (card(0.0, 0.0, 0.0), card(-CARD_W, -CARD_L, 180.0)),
        (card(0.0, 0.0, 0.0), card(HW + HL, HL + HW, 90.0)),
        # a corner of a card turned 45 degrees on the edge of another
        (card(0.0, 0.0, 0.0), card(HW + (HW + HL) / math.sqrt(2), 0.0, 45.0)),
        # far from the origin, where rounding is larger
        (card(1000.0, 1000.0, 0.0), card(1000.0 + CARD_W, 1000.0, 0.0)),
    ],
)
def test_exactly_touching_cards_touch(a: Rect, b: Rect) -> None:
    assert rects_touch(a, b)
    assert rects_touch(b, a)


@pytest.mark.parametrize("rotation", [0.0, 30.0, 45.0, 90.0, 123.4, -60.0])
def test_turned_cards_touching_along_an_edge_or_at_a_corner(rotation: float) -> None:
    a = card(12.0, -7.0, rotation)
    for lx, ly in ((CARD_W, 0.0), (0.0, CARD_L), (CARD_W, CARD_L), (-CARD_W, CARD_L)):
        wx, wy = a.pose.to_world(lx, ly)
        assert rects_touch(a, card(wx, wy, rotation)), (lx, ly)
        # 0.01 mm further out along the same direction: apart
        scale = 1.0 + 0.01 / (abs(lx) or abs(ly))
        if lx and ly:  # a corner: move 0.01 mm apart on both axes
            fx, fy = a.pose.to_world(lx + math.copysign(0.01, lx), ly + math.copysign(0.01, ly))
        else:
            fx, fy = a.pose.to_world(lx * scale, ly * scale)
        assert not rects_touch(a, card(fx, fy, rotation)), (lx, ly)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (card(0.0, 0.0, 0.0), card(CARD_W + 0.01, 0.0, 0.0)),
        (card(0.0, 0.0, 0.0), card(10.0, CARD_L + 0.01, 0.0)),
        (card(0.0, 0.0, 0.0), card(HW + HL + 0.01, 0.0, 90.0)),
        (card(0.0, 0.0, 90.0), card(0.0, CARD_W + 0.01, 90.0)),
        (card(0.0, 0.0, 0.0), card(CARD_W + 0.01, CARD_L + 0.01, 0.0)),
        (card(0.0, 0.0, 0.0), card(CARD_W, CARD_L + 0.01, 0.0)),
        (card(0.0, 0.0, 0.0), card(HW + (HW + HL) / math.sqrt(2) + 0.01, 0.0, 45.0)),
        (card(1000.0, 1000.0, 0.0), card(1000.0 + CARD_W + 0.01, 1000.0, 0.0)),
    ],
)
def test_cards_a_hundredth_of_a_millimetre_apart_do_not_touch(a: Rect, b: Rect) -> None:
    assert not rects_touch(a, b)
    assert not rects_touch(b, a)


# --------------------------------------------------------------------------- ray_hit


@st.composite
def outside_rays(
    draw: st.DrawFn,
) -> tuple[tuple[float, float], tuple[float, float], Rect]:
    """A rectangle and a ray from a point outside it, aimed somewhere near the rectangle
    (so that about half the rays hit) or in a random direction."""
    rect = draw(rects)
    origin = (draw(coords), draw(coords))
    if draw(st.booleans()):
        u = draw(st.floats(-1.5, 1.5))
        v = draw(st.floats(-1.5, 1.5))
        tx, ty = ref_corners(Rect(rect.pose, rect.width * u, rect.length * v))[0]
        dx, dy = tx - origin[0], ty - origin[1]
        norm = math.hypot(dx, dy)
        assume(norm > 1e-3)
        direction = (dx / norm, dy / norm)
    else:
        rad = math.radians(draw(angles))
        direction = (math.cos(rad), math.sin(rad))
    return origin, direction, rect


@CORE
@given(outside_rays())
def test_ray_hit_matches_shapely(
    ray: tuple[tuple[float, float], tuple[float, float], Rect],
) -> None:
    origin, direction, rect = ray
    poly = ref_polygon(rect)
    assume(poly.distance(Point(origin)) > NEAR)  # lasers from another card start outside
    far = (origin[0] + direction[0] * 1e5, origin[1] + direction[1] * 1e5)
    line = LineString([origin, far])
    gap = line.distance(poly)
    assume(not (0.0 < gap <= NEAR))  # near-miss
    crossing = line.intersection(poly)
    assume(crossing.is_empty or crossing.length > NEAR)  # grazing a corner
    assume(not crossing.is_empty or gap > NEAR)  # touching a corner: shapely may miss it

    hit = ray_hit(origin, direction, rect)
    event("miss" if crossing.is_empty else "hit")
    if crossing.is_empty:
        assert hit is None
        return
    assert hit is not None
    expected = min(math.dist(origin, tuple(p)) for p in shapely.get_coordinates(crossing))
    assert math.isclose(hit.distance, expected, abs_tol=TOL)
    # the point is where the ray is after that distance, on the boundary of the card
    assert close(
        hit.point,
        (origin[0] + direction[0] * hit.distance, origin[1] + direction[1] * hit.distance),
    )
    assert poly.exterior.distance(Point(hit.point)) <= TOL
    assert close(hit.local, rect.pose.to_local(*hit.point))
    assert on_edge(hit.local, rect.width, rect.length)
    # each reported edge holds the point, and the ray does not leave through it
    assert 1 <= len(hit.edges) <= 2
    assert len(set(hit.edges)) == len(hit.edges)
    lvx, lvy = rect.pose.to_local(rect.pose.x + direction[0], rect.pose.y + direction[1])
    outward = {"front": (0.0, 1.0), "back": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
    for edge in hit.edges:
        assert edge in EDGES
        assert edge_contains(rect, edge, hit.point), edge
        nx, ny = outward[edge]
        assert lvx * nx + lvy * ny <= 1e-9, edge


@pytest.mark.parametrize(
    ("rect", "origin", "direction", "distance", "point", "edges"),
    [
        # rotation 0: front is +y, right is +x
        (card(), (0.0, -100.0), (0.0, 1.0), 56.0, (0.0, -HL), ("back",)),
        (card(), (10.0, 100.0), (0.0, -1.0), 56.0, (10.0, HL), ("front",)),
        (card(), (-100.0, 5.0), (1.0, 0.0), 100.0 - HW, (-HW, 5.0), ("left",)),
        (card(), (100.0, -5.0), (-1.0, 0.0), 100.0 - HW, (HW, -5.0), ("right",)),
        # rotation 90: the front faces -x and the right edge faces +y
        (card(0.0, 0.0, 90.0), (-100.0, 0.0), (1.0, 0.0), 100.0 - HL, (-HL, 0.0), ("front",)),
        (card(0.0, 0.0, 90.0), (100.0, 3.0), (-1.0, 0.0), 100.0 - HL, (HL, 3.0), ("back",)),
        (card(0.0, 0.0, 90.0), (0.0, 100.0), (0.0, -1.0), 100.0 - HW, (0.0, HW), ("right",)),
        (card(0.0, 0.0, 90.0), (0.0, -100.0), (0.0, 1.0), 100.0 - HW, (0.0, -HW), ("left",)),
        # rotation -90: the front faces +x
        (card(0.0, 0.0, -90.0), (100.0, 0.0), (-1.0, 0.0), 100.0 - HL, (HL, 0.0), ("front",)),
    ],
)
def test_axis_aligned_hits_are_exact(
    rect: Rect,
    origin: tuple[float, float],
    direction: tuple[float, float],
    distance: float,
    point: tuple[float, float],
    edges: tuple[Edge, ...],
) -> None:
    hit = ray_hit(origin, direction, rect)
    assert hit is not None
    assert hit.distance == distance
    assert hit.point == point
    assert hit.edges == edges


def test_turned_card_hit_through_its_front() -> None:
    rect = card(50.0, -20.0, 30.0)
    front_mid = rect.pose.to_world(0.0, HL)
    # come straight at the front edge, from 100 mm ahead of it
    inward = rect.pose.direction(180.0)
    origin = (front_mid[0] - inward[0] * 100.0, front_mid[1] - inward[1] * 100.0)
    hit = ray_hit(origin, inward, rect)
    assert hit is not None
    assert math.isclose(hit.distance, 100.0, abs_tol=1e-9)
    assert close(hit.point, front_mid, 1e-9)
    assert hit.edges == ("front",)
    assert close(hit.local, (0.0, HL), 1e-9)


@pytest.mark.parametrize(
    ("origin", "direction"),
    [
        ((-100.0, HL + 0.01), (1.0, 0.0)),  # parallel to the front edge, 0.01 mm out
        ((HW + 0.01, -100.0), (0.0, 1.0)),  # parallel to the right edge, 0.01 mm out
        ((0.0, -100.0), (0.0, -1.0)),  # pointing away
        ((0.0, 100.0), (1.0, 0.0)),  # passing by
        # diagonal passing 0.01 mm outside the front-right corner
        ((HW + 10.0, HL - 10.0 + 0.01 * math.sqrt(2)), (-math.sqrt(0.5), math.sqrt(0.5))),
    ],
)
def test_misses(origin: tuple[float, float], direction: tuple[float, float]) -> None:
    assert ray_hit(origin, direction, card()) is None


def test_ray_starting_inside_hits_at_distance_zero() -> None:
    hit = ray_hit((1.0, 2.0), (0.0, 1.0), card())
    assert hit is not None
    assert hit.distance == 0.0
    assert hit.point == (1.0, 2.0)


def test_diagonal_ray_into_a_corner_reports_both_edges() -> None:
    d = -math.sqrt(0.5)
    hit = ray_hit((HW + 10.0, HL + 10.0), (d, d), card())
    assert hit is not None
    assert math.isclose(hit.distance, 10.0 * math.sqrt(2), abs_tol=1e-9)
    assert hit.point == (HW, HL)
    assert set(hit.edges) == {"front", "right"}


def test_diagonal_ray_into_a_corner_of_a_turned_card_reports_both_edges() -> None:
    rect = card(-40.0, 25.0, 90.0)  # front faces -x, right faces +y
    corner = rect.pose.to_world(HW, HL)  # front-right corner
    assert corner == (-40.0 - HL, 25.0 + HW)
    d = math.sqrt(0.5)
    hit = ray_hit((corner[0] - 10.0, corner[1] + 10.0), (d, -d), rect)
    assert hit is not None
    assert close(hit.point, corner, 1e-9)
    assert set(hit.edges) == {"front", "right"}


# A ray that reaches a corner while running along an edge, or that only grazes a corner,
# touches both of the corner's edges: a shield on either blocks it (DESIGN ruling 3).
@pytest.mark.parametrize(
    ("rect", "origin", "direction", "corner", "edges"),
    [
        # along the front edge from the left: enters at the front-left corner
        (card(), (-100.0, HL), (1.0, 0.0), (-HW, HL), {"front", "left"}),
        # along the left edge from behind: enters at the back-left corner
        (card(), (-HW, -100.0), (0.0, 1.0), (-HW, -HL), {"back", "left"}),
        # along the right edge from ahead: enters at the front-right corner
        (card(), (HW, 100.0), (0.0, -1.0), (HW, HL), {"front", "right"}),
        # a card turned 90 degrees (front faces -x): along its front edge from -y
        (card(0.0, 0.0, 90.0), (-HL, -100.0), (0.0, 1.0), (-HL, -HW), {"front", "left"}),
        # grazing the front-right corner only, on a diagonal
        (
            card(),
            (HW + 10.0, HL - 10.0),
            (-math.sqrt(0.5), math.sqrt(0.5)),
            (HW, HL),
            {"front", "right"},
        ),
    ],
    ids=["along-front", "along-left", "along-right", "turned-along-front", "graze-corner"],
)
def test_corner_hits_report_both_edges(
    rect: Rect,
    origin: tuple[float, float],
    direction: tuple[float, float],
    corner: tuple[float, float],
    edges: set[Edge],
) -> None:
    hit = ray_hit(origin, direction, rect)
    assert hit is not None
    assert close(hit.point, corner, 1e-9)
    assert set(hit.edges) == edges
