"""The random bot: a random fleet within the credits (Stellar Conflict), then each card
anywhere legal, facing anywhere."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.lasers._fleet import fleet_action
from spacetable.bots.lasers._view import BotAction, random_free_pose, view_table
from spacetable.games.lightspeed import Discard, Drop, Place


class RandomBot:
    """Picks its Stellar Conflict fleet at random within the credits; places each card at a
    uniformly random legal pose; after the freeze drops it at one too (discarding only when
    no legal spot is found)."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> BotAction:
        """A random legal action for ``view["player"]``."""
        player = view["player"]
        if view["phase"] == "preparation":
            return fleet_action(view, rng, by_value=False)
        pose = random_free_pose(view_table(view), rng)
        if pose is None:
            if view["phase"] == "stop":
                return Discard(player, 0.0)
            raise RuntimeError("no free spot left on the table")
        kind = Drop if view["phase"] == "stop" else Place
        return kind(player, pose.x, pose.y, pose.rotation_deg, 0.0)
