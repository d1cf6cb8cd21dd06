"""The FTL greedy bot: the one-ply best reply to opponents who do nothing."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.ftl._plots import Orders, Resolved, Seat, combine, resolve, to_plot
from spacetable.bots.ftl._tactics import menu
from spacetable.bots.ftl._value import evaluate
from spacetable.games.ftl.match import Plot


def greedy_orders(seat: Seat, against: Orders | None = None, lead: float = 0.0) -> Orders:
    """The plot that would be best if the opponents did nothing this turn (or played
    ``against``), built piece by piece from the seat's menu
    (:func:`~spacetable.bots.ftl._tactics.menu`), each option scored by
    :func:`~spacetable.bots.ftl._value.evaluate` on the engine's resolution (a lead
    counted ``lead``; the greedy level counts none)."""
    options = menu(seat.board, seat.player, seat.players, seat.table_in)
    board, table_in = seat.board, seat.table_in
    theirs = None if not against else Resolved.of(board, against, table_in)

    def score(orders: Orders) -> float:
        if theirs is None:
            after = resolve(board, orders, table_in)
        else:
            after = combine(board, Resolved.of(board, orders, table_in), theirs, table_in)
        return evaluate(after, seat.player, seat.players, table_in, seat.turns_left, lead)

    return options.best(score)


class GreedyBot:
    """Plays the best reply to opponents who do nothing this turn (one ply): it never
    guesses that you may turn or sprint."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The greedy plot for ``view["player"]`` (deterministic; ``rng`` is unused)."""
        seat = Seat.of(view)
        return to_plot(seat.player, greedy_orders(seat))
