"""The FTL greedy bot: the one-ply best reply to opponents who do nothing, that does
not sit out a duel it is not winning."""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.ftl._plots import Orders, Resolved, Seat, combine, resolve, to_plot
from spacetable.bots.ftl._tactics import IDLE, launch_blockers, menu, presses, waiting
from spacetable.bots.ftl._value import evaluate
from spacetable.games.ftl.match import Plot


def greedy_orders(
    seat: Seat, against: Orders | None = None, lead: float = 0.0, idle: float = 0.0
) -> Orders:
    """The plot that would be best if the opponents did nothing this turn (or played
    ``against``), built piece by piece from the seat's menu
    (:func:`~spacetable.bots.ftl._tactics.menu`), each option scored by
    :func:`~spacetable.bots.ftl._value.evaluate` on the engine's resolution (a lead
    counted ``lead``; the greedy level counts none), a plot that does not press
    (:func:`~spacetable.bots.ftl._tactics.presses`) charged ``idle``."""
    options = menu(seat.board, seat.player, seat.players, seat.table_in)
    board, table_in = seat.board, seat.table_in
    theirs = None if not against else Resolved.of(board, against, table_in)
    barring = launch_blockers(board, seat.player) if idle else []

    def score(orders: Orders) -> float:
        if theirs is None:
            after = resolve(board, orders, table_in)
        else:
            after = combine(board, Resolved.of(board, orders, table_in), theirs, table_in)
        value = evaluate(after, seat.player, seat.players, table_in, seat.turns_left, lead)
        if idle and not presses(orders, seat.player, barring):
            value -= idle
        return value

    return options.best(score)


class GreedyBot:
    """Plays the best reply to opponents who do nothing this turn (one ply): it never
    guesses that you may turn or sprint. While it is not ahead and has missiles to
    launch, a turn that does not press (launch, turn its ship, clear its launch point)
    costs it :data:`~spacetable.bots.ftl._tactics.IDLE`: it plays to win, so a still
    ship, which nothing can hit, does not sit out the duel to a draw. It sees no risk in
    a turn (it expects you to do nothing), so it often turns where a careful player
    would wait; docs/performance.md has the studies."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The greedy plot for ``view["player"]`` (deterministic; ``rng`` is unused)."""
        seat = Seat.of(view)
        idle = IDLE if waiting(seat.board, seat.player, seat.players) else 0.0
        return to_plot(seat.player, greedy_orders(seat, idle=idle))
