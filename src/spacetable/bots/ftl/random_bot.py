"""The FTL random bot: a random legal order, or none, for each piece."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.ftl._plots import Seat, random_orders, to_plot
from spacetable.games.ftl.match import Plot


class RandomBot:
    """Plots a random legal order, or nothing, for each of its pieces."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """A random legal plot for ``view["player"]``."""
        seat = Seat.of(view)
        return to_plot(seat.player, random_orders(seat.board, seat.player, rng))
