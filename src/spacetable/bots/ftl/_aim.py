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

from spacetable.games.ftl.orders import Rotate, Sprint
from spacetable.games.ftl.pieces import LAUNCH_GAP_IN, MISSILE_SIZE_IN, Piece, normal_heading
from spacetable.games.ftl.resolution import tape_contact
from spacetable.lasers.geometry import heading

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
    return math.dist((missile.x, missile.y), launch_point(ship)) < STACK_IN


@functools.lru_cache(maxsize=1024)
def _direction(heading_deg: float) -> tuple[float, float]:
    """A piece's :attr:`~spacetable.games.ftl.pieces.Piece.direction` at ``heading_deg``,
    remembered (headings are mostly multiples of 15 degrees, and the bots ask often)."""
    return heading(heading_deg)


def along_across(piece: Piece, x: float, y: float) -> tuple[float, float]:
    """Where ``(x, y)`` lies from ``piece``'s nose: how far along its heading and how far
    to the side of its centre line (in)."""
    dx, dy = _direction(piece.heading)
    half = piece.length / 2.0  # the nose, as Piece.nose finds it, with one cosine
    ex, ey = x - (piece.x + dx * half), y - (piece.y + dy * half)
    return ex * dx + ey * dy, ex * dy - ey * dx


def covers(piece: Piece, x: float, y: float, radius: float) -> bool:
    """Whether ``piece``'s longest tape, as it points now, passes within ``radius`` of
    ``(x, y)``."""
    along, across = along_across(piece, x, y)
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
    if not target.is_ship or target.missiles <= 0:
        return False
    lx, ly = target.ahead(target.length / 2.0 + LAUNCH_GAP_IN + MISSILE_SIZE_IN[1] / 2.0)
    launch_along, launch_across = along_across(missile, lx, ly)
    post_along, _ = along_across(missile, target.x, target.y)
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


def coverage(missile: Piece, target: Piece, points: list[tuple[float, float, float]]) -> float:
    """The weight of the ``points`` (where ``target`` may stand next turn) that
    ``missile``'s tape covers as it points now; a head-on line that the target's launch
    would block (:func:`shielded`) covers nothing."""
    if shielded(missile, target):
        return 0.0
    radius = target.width / 2.0
    return sum(w for x, y, w in points if covers(missile, x, y, radius))


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
    (where ``target`` may stand next turn, see :func:`coverage`), and that weight;
    ``None`` when no rotation covers more than the heading it has."""
    now = coverage(missile, target, points)
    best: tuple[Rotate, float] | None = None
    for step in range(1, 360 // STEP_DEG):
        turned = missile.evolve(heading=missile.heading + step * STEP_DEG)
        weight = coverage(turned, target, points)
        if weight > now + 1e-9 and (best is None or weight > best[1] + 1e-9):
            best = (rotation(missile, turned.heading), weight)
    return best
