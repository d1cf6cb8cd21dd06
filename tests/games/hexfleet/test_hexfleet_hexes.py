"""The hex grid (property tests): distance is a metric with neighbours at 1, lines are
contiguous and as long as the distance, the light ships' arc holds exactly the hexes in
front and is symmetric, and every move ``reachable`` offers walks where it says."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.games.hexfleet.hexes import (
    DIRECTIONS,
    Board,
    Hex,
    distance,
    in_forward_arc,
    line,
    parse_hex,
)
from spacetable.games.hexfleet.movement import reachable, walk

coords = st.integers(-30, 30)
hexes = st.builds(Hex, coords, coords)
facings = st.integers(0, 5)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) >= 0 and (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, facings)
def test_each_neighbour_is_one_hex_away_and_distinct(a: Hex, facing: int) -> None:
    assert distance(a, a.neighbour(facing)) == 1
    assert len({a.neighbour(f) for f in range(6)}) == 6
    assert a.neighbour(facing).neighbour(facing + 3) == a


@given(hexes, hexes)
def test_a_line_is_contiguous_from_end_to_end(a: Hex, b: Hex) -> None:
    hexes_on = line(a, b)
    assert hexes_on[0] == a and hexes_on[-1] == b
    assert len(hexes_on) == distance(a, b) + 1
    assert all(distance(p, q) == 1 for p, q in itertools.pairwise(hexes_on))


def test_lines_along_the_six_directions_are_straight() -> None:
    for facing, step in enumerate(DIRECTIONS):
        far = Hex(step.q * 5, step.r * 5)
        assert line(Hex(0, 0), far) == [Hex(step.q * k, step.r * k) for k in range(6)], facing


@given(hexes, facings, st.integers(-8, 8), st.integers(-8, 8))
def test_the_forward_arc_is_the_half_plane_ahead(at: Hex, facing: int, dq: int, dr: int) -> None:
    target = Hex(at.q + dq, at.r + dr)
    ax, ay = at.centre()
    tx, ty = target.centre()
    fx, fy = DIRECTIONS[facing].centre()
    ahead = (tx - ax) * fx + (ty - ay) * fy
    assert in_forward_arc(at, facing, target) == (ahead > -1e-6)


@given(hexes, facings, st.integers(1, 6))
def test_the_arc_holds_the_hexes_straight_ahead_not_those_behind(
    at: Hex, facing: int, n: int
) -> None:
    ahead, behind = at, at
    for _ in range(n):
        ahead, behind = ahead.neighbour(facing), behind.neighbour(facing + 3)
    assert in_forward_arc(at, facing, ahead)
    assert not in_forward_arc(at, facing, behind)
    # the two sides square to the facing are on the arc's edge: in (docs/rulings.md)
    side = at.neighbour(facing + 1).neighbour(facing + 2)
    other = at.neighbour(facing - 1).neighbour(facing - 2)
    assert in_forward_arc(at, facing, side) and in_forward_arc(at, facing, other)


def _mirror(h: Hex) -> Hex:
    """The mirror image of ``h`` across the north-south axis through ``Hex(0, 0)``."""
    return Hex(-h.q, h.r + h.q)


@given(st.integers(-10, 10), st.integers(-10, 10))
def test_the_arc_is_symmetric_left_and_right(q: int, r: int) -> None:
    target = Hex(q, r)
    origin = Hex(0, 0)
    assert _mirror(_mirror(target)) == target
    assert distance(origin, _mirror(target)) == distance(origin, target)
    assert in_forward_arc(origin, 0, target) == in_forward_arc(origin, 0, _mirror(target))
    # facing north-east mirrors to facing north-west
    assert in_forward_arc(origin, 1, target) == in_forward_arc(origin, 5, _mirror(target))


def test_a_ship_and_one_facing_the_other_way_share_only_the_edge_of_their_arcs() -> None:
    origin = Hex(0, 0)
    near = [
        Hex(q, r)
        for q in range(-6, 7)
        for r in range(-6, 7)
        if 0 < distance(origin, Hex(q, r)) <= 6
    ]
    for facing in range(6):
        front = {h for h in near if in_forward_arc(origin, facing, h)}
        back = {h for h in near if in_forward_arc(origin, facing + 3, h)}
        assert front | back == set(near)
        fx, fy = DIRECTIONS[facing].centre()
        edge = {h for h in near if abs(h.centre()[0] * fx + h.centre()[1] * fy) < 1e-9}
        assert front & back == edge
        assert len(front) == len(back) > len(near) // 2


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 9),
    st.integers(0, 9),
    facings,
    st.integers(0, 5),
    st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=12),
)
def test_every_reachable_end_is_walked_by_its_steps(
    col: int, row: int, facing: int, allowance: int, blocked_cells: set[tuple[int, int]]
) -> None:
    board = Board(10, 10)
    at = board.hex_at(col, row)
    blocked = {board.hex_at(c, r) for c, r in blocked_cells} - {at}
    ends = reachable(at, facing, allowance, board, blocked)
    for (end, end_facing), steps in ends.items():
        walked = walk(at, facing, steps, board, blocked, allowance)
        assert (walked.at, walked.facing) == (end, end_facing)
        assert walked.cost == len(steps) <= allowance
        assert all(h in board and h not in blocked for h in walked.path)
    # and nothing reachable is missing: every string of steps within the allowance ends
    # in a listed state (or where it started), never cheaper than listed
    for steps in _all_steps(min(allowance, 3)):
        try:
            walked = walk(at, facing, steps, board, blocked, allowance)
        except ValueError:
            continue
        state = (walked.at, walked.facing)
        assert state == (at, facing) or len(ends[state]) <= len(steps)


def _all_steps(most: int) -> list[str]:
    return ["".join(p) for n in range(1, most + 1) for p in itertools.product("FLR", repeat=n)]


def test_parse_hex_reads_q_comma_r() -> None:
    assert parse_hex("3,-2") == Hex(3, -2) and str(Hex(3, -2)) == "3,-2"
    for bad in ("3", "a,b", "3;2"):
        try:
            parse_hex(bad)
        except ValueError as exc:
            assert "is not a hex" in str(exc)
        else:
            raise AssertionError(bad)


@given(st.integers(0, 19), st.integers(0, 11))
def test_offset_and_axial_coordinates_round_trip(col: int, row: int) -> None:
    board = Board(20, 12)
    h = board.hex_at(col, row)
    assert board.offset(h) == (col, row) and h in board
    assert len(list(board)) == 240
