"""What bots need from a view: the table as engine objects, and where a card may go."""

from __future__ import annotations

import math
import random
from typing import Any

from spacetable.geometry import Pose, Rect, rect_inside, rects_touch
from spacetable.ships import CARD_SIZE_MM
from spacetable.tables import Table, table_from_json


def view_table(view: dict[str, Any]) -> Table:
    """The cards on the table in a view, as a :class:`Table`."""
    players = list(view["players"])
    return table_from_json(
        {
            "ruleset": view["ruleset"],
            "players": players,
            "variant": {"piracy": bool(view.get("piracy", False))},
            "cards": view["table"],
            "table": {"width": view["table_size_mm"][0], "height": view["table_size_mm"][1]},
        }
    )


def is_free(table: Table, rect: Rect) -> bool:
    """Whether a card at ``rect`` lies on the table and touches no card."""
    if table.table_size is not None and not rect_inside(rect, *table.table_size):
        return False
    return not any(rects_touch(rect, card.rect) for card in table.cards)


def random_free_pose(table: Table, rng: random.Random, tries: int = 500) -> Pose | None:
    """A uniformly random legal pose for a new card, or ``None`` if none was found."""
    width, height = table.table_size or (1200.0, 800.0)
    reach = math.hypot(*CARD_SIZE_MM) / 2.0
    for _ in range(tries):
        pose = Pose(
            rng.uniform(-width / 2 + reach, width / 2 - reach),
            rng.uniform(-height / 2 + reach, height / 2 - reach),
            rng.uniform(-180.0, 180.0),
        )
        if is_free(table, Rect(pose, *CARD_SIZE_MM)):
            return pose
    return None
