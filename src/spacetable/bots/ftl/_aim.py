"""Where an FTL ship can be next turn, and which of a missile's orders threaten it there.

A ship that does not sprint stays on its post (rotating or launching puts it in normal
space there, where a tape may strike it); one that sprints lays its tape from its nose
along its heading, 1 to 8 inches, and lands that far ahead. So its *reach* next turn is its
post and the fifteen landing posts along its heading that stay on the table. A missile
threatens it in two ways (DESIGN section 5, docs/rulings.md F3-F6):

- a *strike*: the missile sprints along its heading and its tape crosses the ship's post,
  which hits if the ship rotates or launches this turn (a ship that sprints or does nothing
  is never hit);
- a *mine*: the missile rotates (``R+0`` included) and so stands in normal space on the
  ship's sprint line, which hits the ship if it sprints that far.

Everything here is pure geometry over :class:`~spacetable.games.ftl.pieces.Piece` values.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from spacetable.games.ftl.orders import Rotate, Sprint
from spacetable.games.ftl.pieces import (
    LAUNCH_GAP_IN,
    MISSILE_SIZE_IN,
    Piece,
    normal_heading,
    unit_heading,
)
from spacetable.games.ftl.resolution import tape_contact

#: The longest sprint (in): a tape reaches this far from the nose.
REACH_IN = 8.0
#: Every legal sprint length (in).
SPRINTS_IN = tuple(1.0 + 0.5 * k for k in range(15))
#: Rotations are multiples of this (degrees).
STEP_DEG = 15
#: Two missiles of one side never end a turn closer than this (in).
STACK_IN = 0.75


def launch_point(ship: Piece) -> tuple[float, float]:
    """Where ``ship``'s next missile would stand (its centre)."""
    return ship.ahead(ship.length / 2.0 + LAUNCH_GAP_IN + MISSILE_SIZE_IN[1] / 2.0)


def on_launch_point(missile: Piece, ship: Piece) -> bool:
    """Whether ``missile`` stands on ``ship``'s launch point: launches come before sprints,
    so a launch would stack a new missile on it (or its sprint would strike the new one)."""
    return stands_on(missile, launch_point(ship))


def stands_on(missile: Piece, point: tuple[float, float]) -> bool:
    """Whether ``missile`` stands on ``point`` (a launch point found once for many
    missiles): closer to it than two missiles may end a turn."""
    return math.dist((missile.x, missile.y), point) < STACK_IN


#: A piece's tape as the aiming reads it: its nose ``(x, y)`` and its unit heading.
Line = tuple[float, float, float, float]


def nose_line(piece: Piece, heading_deg: float | None = None) -> Line:
    """``piece``'s nose and unit heading, as it points now or turned to ``heading_deg``
    (the nose as Piece.nose finds it, with one cosine)."""
    dx, dy = unit_heading(piece.heading if heading_deg is None else heading_deg)
    half = piece.length / 2.0
    return piece.x + dx * half, piece.y + dy * half, dx, dy


def along_across(piece: Piece, x: float, y: float) -> tuple[float, float]:
    """Where ``(x, y)`` lies from ``piece``'s nose: how far along its heading and how far
    to the side of its centre line (in)."""
    return _along_across(nose_line(piece), x, y)


def _along_across(line: Line, x: float, y: float) -> tuple[float, float]:
    nx, ny, dx, dy = line
    ex, ey = x - nx, y - ny
    return ex * dx + ey * dy, ex * dy - ey * dx


def covers(piece: Piece, x: float, y: float, radius: float) -> bool:
    """Whether ``piece``'s longest tape, as it points now, passes within ``radius`` of
    ``(x, y)``."""
    return _covers(nose_line(piece), x, y, radius)


def _covers(line: Line, x: float, y: float, radius: float) -> bool:
    along, across = _along_across(line, x, y)
    return abs(across) <= radius and -radius <= along <= REACH_IN + radius


def strike_ready(missile: Piece, target: Piece) -> bool:
    """Whether a sprint of ``missile`` as it points now hits ``target`` if the target
    rotates (any rotation) or launches this turn: the tape crosses the disc around its
    post that every rotated footprint covers."""
    return covers(missile, target.x, target.y, target.width / 2.0)


def shielded(missile: Piece, target: Piece) -> bool:
    """Whether a missile launched by ``target`` this turn would stand in ``missile``'s tape
    before the target's post (a head-on strike that a launch blocks: the two missiles
    remove each other)."""
    return _shielded(nose_line(missile), target)


def _shielded(line: Line, target: Piece) -> bool:
    if not target.is_ship or target.missiles <= 0:
        return False
    lx, ly = target.ahead(target.length / 2.0 + LAUNCH_GAP_IN + MISSILE_SIZE_IN[1] / 2.0)
    launch_along, launch_across = _along_across(line, lx, ly)
    post_along, _ = _along_across(line, target.x, target.y)
    return abs(launch_across) <= MISSILE_SIZE_IN[1] / 2.0 and launch_along < post_along


def clean_strike(missile: Piece, target: Piece) -> bool:
    """Whether ``missile`` is :func:`strike_ready` at ``target`` from an angle a launch
    does not block (:func:`shielded`)."""
    return strike_ready(missile, target) and not shielded(missile, target)


def strike(missile: Piece, target: Piece) -> Sprint | None:
    """The sprint that carries ``missile``'s tape across ``target``'s post (so that it hits
    however the target rotates), or ``None`` if the target is not in its line."""
    if not strike_ready(missile, target):
        return None
    along, _ = along_across(missile, target.x, target.y)
    return Sprint(min(REACH_IN, max(1.0, math.ceil(along * 2.0) / 2.0)))


def on_path(piece: Piece, ship: Piece, reach_in: float = REACH_IN) -> bool:
    """Whether ``piece`` stands on ``ship``'s sprint line within ``reach_in`` of its nose:
    in normal space there, it is hit by a sprint that long."""
    return tape_contact(ship.nose, ship.heading, reach_in, piece.footprint()) is not None


def reach(ship: Piece, table_in: tuple[float, float]) -> list[tuple[float, float, float]]:
    """Where ``ship`` can stand after its next order, each ``(x, y, weight)``: its post
    (it does nothing, rotates or launches: half the weight) and every landing post of a
    sprint that stays on the table (the other half, shared)."""
    half_w, half_h = table_in[0] / 2.0, table_in[1] / 2.0
    landings = [ship.ahead(d) for d in SPRINTS_IN]
    landings = [(x, y) for x, y in landings if abs(x) <= half_w and abs(y) <= half_h]
    points = [(ship.x, ship.y, 0.5 if landings else 1.0)]
    points += [(x, y, 0.5 / len(landings)) for x, y in landings]
    return points


def _coverage(line: Line, target: Piece, points: Sequence[tuple[float, float, float]]) -> float:
    """The weight of the ``points`` (where ``target`` may stand next turn) that the tape
    ``line`` (:func:`nose_line`) covers; a head-on line that the target's launch would
    block (:func:`shielded`) covers nothing."""
    if _shielded(line, target):
        return 0.0
    radius = target.width / 2.0
    return sum(w for x, y, w in points if _covers(line, x, y, radius))


def rotation(piece: Piece, new_heading: float) -> Rotate:
    """The order that turns ``piece`` to ``new_heading`` (a multiple of 15 degrees away)."""
    # A clockwise (positive, as written) rotation lowers the heading.
    angle = round(normal_heading(piece.heading - new_heading) / STEP_DEG) * STEP_DEG
    return Rotate(180 if angle == -180 else angle)


def bearing(piece: Piece, x: float, y: float) -> float:
    """The heading (degrees) from ``piece``'s post toward ``(x, y)``."""
    return math.degrees(math.atan2(-(x - piece.x), y - piece.y))


def turn_toward(piece: Piece, x: float, y: float) -> Rotate | None:
    """The legal rotation that points ``piece`` nearest to ``(x, y)``, or ``None`` when it
    already points there as nearly as 15 degree steps allow."""
    turn = rotation(
        piece, piece.heading + STEP_DEG * round(
            normal_heading(bearing(piece, x, y) - piece.heading) / STEP_DEG
        ),
    )  # fmt: skip
    return None if turn.angle_deg == 0 else turn


def best_aim(
    missile: Piece, target: Piece, points: list[tuple[float, float, float]]
) -> tuple[Rotate, float] | None:
    """The rotation after which ``missile``'s tape covers the most weight of ``points``
    (where ``target`` may stand next turn, see :func:`_coverage`), and that weight;
    ``None`` when no rotation covers more than the heading it has.

    Remembered: the bots look ahead through many boards where the same missile aims at the
    same target (seven asks in eight, in the hard bot's plots), and the answer depends on
    nothing else."""
    return _best_aim(missile, target, tuple(points))


@functools.lru_cache(maxsize=4096)
def _best_aim(
    missile: Piece, target: Piece, points: tuple[tuple[float, float, float], ...]
) -> tuple[Rotate, float] | None:
    now = _coverage(nose_line(missile), target, points)
    best: tuple[Rotate, float] | None = None
    for step in range(1, 360 // STEP_DEG):
        turned = normal_heading(missile.heading + step * STEP_DEG)  # as Piece.evolve keeps it
        weight = _coverage(nose_line(missile, turned), target, points)
        if weight > now + 1e-9 and (best is None or weight > best[1] + 1e-9):
            best = (rotation(missile, turned), weight)
    return best
