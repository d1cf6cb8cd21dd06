"""The greedy bot: weighs many candidate poses for the card in hand and keeps the one whose
resolved battle scores best for it (its score minus the best opponent's), under the view's
ruleset and variants. In Stellar Conflict it first builds the fleet with the most value
within the credits (:func:`spacetable.bots.lasers._fleet.value_fleet`).

Candidates are partly aimed (one of the ship's lasers pointed at the asteroid or an enemy
ship from a random distance) and partly uniform; all of them are resolved in one call to
the compiled batch resolver (:func:`spacetable.lasers.fast.resolve_batch`).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from spacetable.bots.lasers._fleet import fleet_action
from spacetable.bots.lasers._view import BotAction, random_free_pose, ruleset_ships, view_table
from spacetable.games.lightspeed import Discard, Drop, Place
from spacetable.lasers.fast import pack, resolve_batch
from spacetable.lasers.geometry import Pose, Rect, heading, rect_inside
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import Table


class GreedyBot:
    """Resolves the battle for ``candidates`` poses of the card in hand and plays the best.

    At "stop" it also weighs discarding, and drops only if that scores at least as well.
    """

    def __init__(self, candidates: int) -> None:
        if candidates < 1:
            raise ValueError("a greedy bot needs at least one candidate")
        self.candidates = candidates

    def choose(self, view: dict[str, Any], rng: random.Random) -> BotAction:
        """The best placement found for ``view["player"]``'s card in hand (in Stellar
        Conflict's preparation: a fleet)."""
        player: str = view["player"]
        if view["phase"] == "preparation":
            return fleet_action(view, rng, by_value=True)
        table = view_table(view)
        ships = ruleset_ships(view["ruleset"])
        ship = ships[view["hand"]]
        poses = self._poses(table, ship, player, rng)
        if not poses:
            fallback = random_free_pose(table, rng)
            if fallback is None:
                return Discard(player, 0.0)
            poses = [fallback]
        players = list(table.players)
        me = players.index(player)
        packed = pack(table.cards, table.rules(), ships)
        index = packed.ship_index(ship.key)
        rows = np.array([(me, index, p.x, p.y, p.rotation_deg) for p in poses], dtype=float)
        values = _advantage(resolve_batch(packed, rows), me)
        best = int(np.nanargmax(values)) if not np.isnan(values).all() else -1
        stop = view["phase"] == "stop"
        if stop:
            base = _advantage(_base_scores(table), me)[0]
            if best < 0 or values[best] < base:
                return Discard(player, 0.0)
        if best < 0:
            fallback = random_free_pose(table, rng)
            if fallback is None:
                return Discard(player, 0.0)
            chosen = fallback
        else:
            chosen = poses[best]
        kind = Drop if stop else Place
        return kind(player, chosen.x, chosen.y, chosen.rotation_deg, 0.0)

    def _poses(self, table: Table, ship: ShipDef, player: str, rng: random.Random) -> list[Pose]:
        """Candidate poses on the table (they may still touch cards: the batch checks)."""
        targets = [c for c in table.cards if c.owner != player]
        size = table.table_size or (1200.0, 800.0)
        poses: list[Pose] = []
        for i in range(self.candidates):
            if targets and ship.lasers and i % 4 != 3:
                pose = _aimed(ship, rng.choice(targets).pose, rng)
            else:
                pose = Pose(
                    rng.uniform(-size[0] / 2, size[0] / 2),
                    rng.uniform(-size[1] / 2, size[1] / 2),
                    rng.uniform(-180, 180),
                )
            if rect_inside(Rect(pose, *CARD_SIZE_MM), *size):
                poses.append(pose)
        return poses


def _aimed(ship: ShipDef, target: Pose, rng: random.Random) -> Pose:
    """A pose that points one of ``ship``'s lasers at a point near ``target``."""
    laser = rng.choice(ship.lasers)
    aim = (target.x + rng.uniform(-25, 25), target.y + rng.uniform(-25, 25))
    direction_deg = rng.uniform(-180.0, 180.0)
    rotation = direction_deg - laser.angle_deg
    distance = rng.uniform(20.0, 260.0)
    dx, dy = heading(direction_deg)
    origin = (aim[0] - dx * distance, aim[1] - dy * distance)
    offset = Pose(0.0, 0.0, rotation).to_world(*laser.at)
    return Pose(origin[0] - offset[0], origin[1] - offset[1], math.remainder(rotation, 360.0))


def _advantage(scores: Any, me: int) -> Any:
    """Each row's score for ``me`` minus the best opponent's (NaN rows stay NaN)."""
    scores = np.atleast_2d(np.asarray(scores, dtype=float))
    others = np.delete(scores, me, axis=1)
    return scores[:, me] - others.max(axis=1)


def _base_scores(table: Table) -> Any:
    """The scores if no card is added."""
    outcome = table.resolve()
    return np.array([[outcome.scores[p] for p in table.players]], dtype=float)
