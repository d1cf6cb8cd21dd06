"""What bots need from a view (the table as engine objects, the ships, where a card may
go) and what they answer with."""

from __future__ import annotations

import functools
import math
import random
from typing import Any

from spacetable.games.lightspeed import Discard, Drop, Place
from spacetable.games.stellar import Fleet
from spacetable.lasers.geometry import Pose, Rect, rect_inside, rects_touch
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import VARIANTS, Table, catalog, table_from_json

#: What a bot may answer: a Stellar Conflict fleet, or a card placed, dropped or discarded
#: (the same actions in both games).
BotAction = Fleet | Place | Drop | Discard


@functools.cache
def ruleset_ships(ruleset: str) -> dict[str, ShipDef]:
    """Every built-in ship a ruleset knows (Light Speed's fleet, or every Stellar
    Conflict race), loaded once."""
    return catalog(ruleset)


def view_table(view: dict[str, Any]) -> Table:
    """The cards on the table in a view, as a :class:`Table` under the view's ruleset and
    variants."""
    ruleset = view["ruleset"]
    variant = {name: bool(view.get(name, False)) for name in VARIANTS[ruleset]}
    width, height = view["table_size_mm"]
    if not view["table"]:  # a Stellar Conflict table before its first card
        return Table(ruleset, tuple(view["players"]), (), variant, table_size=(width, height))
    return table_from_json(
        {
            "ruleset": ruleset,
            "players": list(view["players"]),
            "variant": variant,
            "cards": view["table"],
            "table": {"width": width, "height": height},
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
