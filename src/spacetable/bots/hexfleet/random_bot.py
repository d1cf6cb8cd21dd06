"""The hex fleet random bot: a uniformly random legal action of the active ship."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.hexfleet._seat import Seat
from spacetable.games.hexfleet import actions as act

#: How often the random bot ends its activation at a decision.
RANDOM_END = 1 / 3


class RandomBot:
    """Plays a uniformly random legal action of the active ship (hailing and jumping only
    now and then), ending the activation one time in three."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> act.HexAction:
        """A random legal action for ``view["player"]``'s active ship."""
        seat = Seat.of(view)
        player, ship = seat.player, seat.ship
        if seat.placing:
            at = rng.choice(seat.free_hexes())
            return act.Return(player, ship.id, at.q, at.r, rng.randrange(6), 0.0)
        end = act.EndActivation(player, ship.id, 0.0)
        if rng.random() < RANDOM_END:
            return end
        choices: list[act.HexAction] = [end]
        moves = seat.moves()
        if moves:
            choices.append(act.Move(player, ship.id, moves[rng.choice(sorted(moves))], 0.0))
        choices.extend(act.Fire(player, ship.id, t.id, 0.0) for t in seat.targets())
        if seat.can_raise():
            choices.append(act.RaiseShields(player, ship.id, 0.0))
        if "hail" not in seat.done and rng.random() < 0.1:
            others = [s for s in seat.on_table() if s.id != ship.id]
            if others:
                choices.append(act.Hail(player, ship.id, rng.choice(others).id, 0.0))
        if seat.can_jump() and rng.random() < 0.05:
            later = list(range(seat.turn + 1, seat.turn_limit + 1))
            choices.append(act.Jump(player, ship.id, rng.choice([0, *later]), 0.0))
        return rng.choice(choices)
