"""Seeded hex fleet battles the bots' tests start from."""

from __future__ import annotations

import random

from spacetable.bots.hexfleet import make_bot
from spacetable.games.hexfleet.match import HexMatch, HexOptions


def battle_after(seed: int, actions: int) -> HexMatch:
    """A seeded skirmish (turn limit 20, as in the duels) after ``actions`` actions of the
    tactical bots."""
    match = HexMatch(HexOptions(players=("red", "blue"), scenario="skirmish", turn_limit=20), seed)
    tactical, rng = make_bot("tactical"), random.Random(seed)
    for _ in range(actions):
        assert match.active is not None
        match.apply(tactical.choose(match.view(match.active.owner), rng))
    return match
