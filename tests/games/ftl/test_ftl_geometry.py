"""The tape's geometry (DESIGN section 5), checked against shapely: a sprint's tape is the
closed segment from the nose along the heading; it touches a piece when it meets the
piece's closed footprint (grazing counts), at the distance along the tape of the first
point they share.

Footprints are built here from plain trigonometry in the FTL frame (heading 0 = +y,
counter-clockwise positive). Random cases within ~1e-7 in of touching are discarded: the
answer there is the tolerance's (1e-9 in), and the tests built on the boundary pin it.
"""

from __future__ import annotations

import dataclasses
import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from spacetable.games.ftl.pieces import Piece, normal_heading
from spacetable.games.ftl.resolution import TIE_IN, tape_contact

NEAR = 1e-7
TOL = 1e-7
SETTINGS = settings(max_examples=400, deadline=None)

# GEOS mis-measures subnormal coordinates (a tape at x = 2e-309 entered 0.11 in late).
coords = st.floats(-12.0, 12.0, allow_nan=False, allow_subnormal=False)
sides = st.floats(0.1, 4.0, allow_nan=False, allow_subnormal=False)
headings = st.one_of(
    st.integers(-12, 12).map(lambda k: 15.0 * k),
    st.floats(-180.0, 180.0, allow_nan=False, allow_subnormal=False),
)
lengths = st.one_of(
    st.integers(2, 16).map(lambda k: k / 2), st.floats(0.0, 10.0, allow_subnormal=False)
)


def direction(heading_deg: float) -> tuple[float, float]:
    rad = math.radians(heading_deg)
    return (-math.sin(rad), math.cos(rad))


def footprint(x: float, y: float, heading_deg: float, width: float, length: float) -> Polygon:
    """The closed rectangle, ``length`` along the heading, from trigonometry."""
    fx, fy = direction(heading_deg)
    rx, ry = fy, -fx  # to the piece's right
    hw, hl = width / 2, length / 2
    return Polygon(
        [(x + fx * a * hl + rx * b * hw, y + fy * a * hl + ry * b * hw)
         for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
    )  # fmt: skip


@SETTINGS
@given(coords, coords, headings, sides, sides, coords, coords, headings, lengths)
def test_tape_contact_matches_shapely(
    x: float, y: float, h: float, w: float, ln: float,
    sx: float, sy: float, th: float, length: float,
) -> None:  # fmt: skip
    piece = Piece.missile("m", "red", x, y, h, size=(w, ln))
    poly = footprint(x, y, h, w, ln)
    dx, dy = direction(th)
    start = (sx, sy)
    tape = (
        LineString([start, (sx + dx * length, sy + dy * length)]) if length > 1e-9 else Point(start)
    )
    gap = tape.distance(poly)
    assume(gap == 0.0 or gap > NEAR)
    contact = tape_contact(start, th, length, piece.footprint())
    if gap > NEAR:
        assert contact is None
        return
    assert contact is not None
    expected = Point(start).distance(tape.intersection(poly))
    assert abs(contact[0] - expected) <= TOL
    assert Point(contact[1]).distance(poly) <= TOL
    assert abs(math.dist(start, contact[1]) - contact[0]) <= TOL


@SETTINGS
@given(
    coords, coords, headings, sides, sides,
    st.sampled_from(["corner", "edge"]), st.floats(-1.0, 1.0, allow_subnormal=False),
    st.integers(0, 3),
    headings, st.floats(0.0, 8.0, allow_subnormal=False),
)  # fmt: skip
def test_a_tape_that_ends_on_the_footprint_touches_it(
    x: float, y: float, h: float, w: float, ln: float,
    where: str, along: float, side: int, th: float, length: float,
) -> None:  # fmt: skip
    """Closed footprint: a tape whose far end lies exactly on the boundary (a corner or a
    point of an edge) touches, no farther along than its length."""
    poly = footprint(x, y, h, w, ln)
    corners = list(poly.exterior.coords)[:4]
    a, b = corners[side], corners[(side + 1) % 4]
    t = 0.0 if where == "corner" else (along + 1) / 2
    end = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    dx, dy = direction(th)
    start = (end[0] - dx * length, end[1] - dy * length)
    piece = Piece.missile("m", "red", x, y, h, size=(w, ln))
    contact = tape_contact(start, th, length, piece.footprint())
    assert contact is not None
    assert contact[0] <= length + TIE_IN
    tape = LineString([start, end]) if length > 1e-9 else Point(start)
    shared = tape.intersection(poly.buffer(1e-9))
    # Shapely may lose a tape shorter than its own rounding: then only the end touches.
    expected = length if shared.is_empty else Point(start).distance(shared)
    assert abs(contact[0] - expected) <= 1e-6


@SETTINGS
@given(coords, coords, headings, sides, sides, headings, st.floats(0.0, 8.0, allow_subnormal=False))
def test_a_tape_that_stops_short_misses(
    x: float, y: float, h: float, w: float, ln: float, th: float, length: float
) -> None:
    """A tape pointing straight at the piece's post from outside, stopping 1e-6 in short
    of the footprint, does not touch it."""
    poly = footprint(x, y, h, w, ln)
    dx, dy = direction(th)
    far = 10.0 + math.hypot(w, ln)
    outside = (x - dx * far, y - dy * far)
    entry = Point(outside).distance(poly)
    start_along = entry - length - 1e-6
    start = (outside[0] + dx * start_along, outside[1] + dy * start_along)
    piece = Piece.missile("m", "red", x, y, h, size=(w, ln))
    assert tape_contact(start, th, length, piece.footprint()) is None


@SETTINGS
@given(coords, coords, headings, st.sampled_from([(0.75, 1.5), (0.25, 0.5)]))
def test_the_nose_is_the_middle_of_the_front_edge(
    x: float, y: float, h: float, size: tuple[float, float]
) -> None:
    piece = Piece.ship("red", "red", x, y, h, size=size)
    poly = footprint(x, y, h, *size)
    front = LineString(list(poly.exterior.coords)[:2])
    assert Point(piece.nose).distance(front) <= 1e-9
    assert abs(math.dist(piece.nose, (x, y)) - size[1] / 2) <= 1e-9
    assert Polygon(piece.footprint().corners()).symmetric_difference(poly).area <= 1e-9


@SETTINGS
@given(
    x=coords,
    heading=st.one_of(headings, st.floats(-1000.0, 1000.0, allow_nan=False)),
    hits=st.integers(0, 3),
    on_table=st.booleans(),
)
def test_evolve_is_a_replace_that_keeps_the_heading_in_range(
    x: float, heading: float, hits: int, on_table: bool
) -> None:
    """``Piece.evolve`` copies its fields by hand (the look-ahead makes hundreds of
    thousands of pieces): it must be ``dataclasses.replace`` with the heading brought into
    (-180, 180], field for field."""
    ship = Piece.ship("red", "red", 1.5, -2.0, 30.0)
    changed = ship.evolve(x=x, heading=heading, hits=hits, on_table=on_table)
    assert changed == dataclasses.replace(
        ship, x=x, heading=normal_heading(heading), hits=hits, on_table=on_table
    )
    assert -180.0 < changed.heading <= 180.0
    assert ship.evolve(y=x) == dataclasses.replace(ship, y=x)
