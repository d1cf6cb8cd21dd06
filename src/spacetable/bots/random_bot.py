"""The random bot: puts each card anywhere legal, facing anywhere."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots._view import random_free_pose, view_table
from spacetable.games.lightspeed import Discard, Drop, LightSpeedAction, Place


class RandomBot:
    """Places its card at a uniformly random legal pose; at "stop" drops it at one too
    (discarding only when no legal spot is found)."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> LightSpeedAction:
        """A random legal placement for ``view["player"]``."""
        player = view["player"]
        pose = random_free_pose(view_table(view), rng)
        if pose is None:
            if view["phase"] == "stop":
                return Discard(player, 0.0)
            raise RuntimeError("no free spot left on the table")
        kind = Drop if view["phase"] == "stop" else Place
        return kind(player, pose.x, pose.y, pose.rotation_deg, 0.0)
