"""The FTL greedy bot: the one-ply best reply to opponents who do nothing."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.ftl._plots import Seat, greedy_orders, to_plot
from spacetable.games.ftl.match import Plot


class GreedyBot:
    """Plays the best reply to opponents who do nothing this turn (one ply)."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The greedy plot for ``view["player"]`` (deterministic; ``rng`` is unused)."""
        seat = Seat.of(view)
        orders = greedy_orders(seat.board, seat.player, seat.players, seat.table_in)
        return to_plot(seat.player, orders)
