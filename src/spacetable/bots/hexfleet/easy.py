"""The hex fleet easy bot: shields up, close on the nearest enemy, fire at the nearest."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.hexfleet._seat import Seat, can_hit, facing_toward, nearest
from spacetable.games.hexfleet.hexes import Hex, distance
from spacetable.games.hexfleet.match import (
    EndActivation,
    Fire,
    HexAction,
    Move,
    RaiseShields,
    Return,
)
from spacetable.games.hexfleet.ships import Ship


class EasyBot:
    """Raises its shields, closes on the nearest enemy and fires at the nearest enemy it
    can hit; never jumps."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> HexAction:
        """The next action of ``view["player"]``'s active ship (``rng`` is unused)."""
        seat = Seat.of(view)
        player, ship = seat.player, seat.ship
        if seat.placing:
            return _place_near(seat)
        if seat.can_raise():
            return RaiseShields(player, ship.id, 0.0)
        assert ship.at is not None
        targets = seat.targets()
        if targets:
            target = nearest(ship.at, targets)
            assert target is not None
            return Fire(player, ship.id, target.id, 0.0)
        goal = nearest(ship.at, seat.enemies())
        moves = seat.moves()
        if goal is not None and goal.at is not None and moves and "moved" not in seat.done:
            here = _closing_score(ship, ship.at, ship.facing, goal)
            (at, facing), steps = min(
                moves.items(),
                key=lambda m: (_closing_score(ship, m[0][0], m[0][1], goal), len(m[1])),
            )
            if _closing_score(ship, at, facing, goal) < here:
                return Move(player, ship.id, steps, 0.0)
        return EndActivation(player, ship.id, 0.0)


def _closing_score(ship: Ship, at: Hex, facing: int, goal: Ship) -> tuple[int, int]:
    """Lower is better: in reach and arc of ``goal`` first, then nearer."""
    assert goal.at is not None
    return (0 if can_hit(ship, at, facing, goal) else 1, distance(at, goal.at))


def _place_near(seat: Seat) -> HexAction:
    """A returning ship put on the free hex nearest the nearest enemy, facing it."""
    ship = seat.ship
    enemies = [s.at for s in seat.enemies() if s.at is not None]
    free = seat.free_hexes()
    if not enemies:
        at = free[len(free) // 2]
        return Return(seat.player, ship.id, at.q, at.r, 0, 0.0)
    at = min(free, key=lambda h: min(distance(h, e) for e in enemies))
    aim = min(enemies, key=lambda e: distance(at, e))
    return Return(seat.player, ship.id, at.q, at.r, facing_toward(at, aim), 0.0)
