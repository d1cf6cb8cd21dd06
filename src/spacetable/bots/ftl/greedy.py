"""The FTL greedy bot: the one-ply best reply to opponents who do nothing, that hunts
while it is not winning: it launches, and its missiles close in."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from spacetable.bots.ftl._plots import Orders, Resolved, Seat, combine, to_plot
from spacetable.bots.ftl._tactics import IDLE, launch_blockers, menu, presses, waiting
from spacetable.bots.ftl._value import BLOCK, evaluate
from spacetable.games.ftl.match import Plot
from spacetable.games.ftl.orders import Launch, Sprint


def greedy_orders(
    seat: Seat,
    against: Orders | None = None,
    lead: float = 0.0,
    idle: float = 0.0,
    *,
    hunt: bool = False,
) -> Orders:
    """The plot that would be best if the opponents did nothing this turn (or played
    ``against``), built piece by piece from the seat's menu
    (:func:`~spacetable.bots.ftl._tactics.menu`), each option scored by
    :func:`~spacetable.bots.ftl._value.evaluate` on the engine's resolution (a lead
    counted ``lead``; the greedy level counts none), a plot that does not press
    (:func:`~spacetable.bots.ftl._tactics.presses`) charged ``idle``. With ``hunt`` (the
    greedy level) a plot presses when it hunts (:func:`hunts`), and a launch is credited
    :data:`~spacetable.bots.ftl._value.BLOCK`: one ply charges the new missile for
    standing on the launch point, but does not see the sprint that clears it next turn
    (uncredited, the greedy level never launched before the last turn)."""
    options = menu(seat.board, seat.player, seat.players, seat.table_in)
    board, table_in = seat.board, seat.table_in
    theirs = None if not against else Resolved.of(board, against, table_in)
    barring = launch_blockers(board, seat.player) if idle else []
    own = [p.id for p in board.values() if p.owner == seat.player and not p.is_ship and p.on_table]

    def score(orders: Orders) -> float:
        mine = Resolved.composed(board, orders, table_in)
        if theirs is None:
            after = dict(board)
            after.update(mine.changed)
        else:
            after = combine(board, mine, theirs, table_in)
        value = evaluate(after, seat.player, seat.players, table_in, seat.turns_left, lead)
        pressed = hunts(orders, seat.player, own) if hunt else presses(orders, seat.player, barring)
        if idle and not pressed:
            value -= idle
        if hunt and isinstance(orders.get(seat.player), Launch):
            value += BLOCK
        return value

    return options.best(score)


def hunts(plot: Orders, player: str, missiles: Sequence[str]) -> bool:
    """Whether ``plot`` hunts: ``player``'s ship launches, or one of its ``missiles``
    sprints. Turning the ship does not count: it would press the cheapest way one ply
    sees (a still enemy makes a turn look free) and never launch nor close in, as the
    greedy level did before issue 36 (R+90, R-90... for twenty turns)."""
    if isinstance(plot.get(player), Launch):
        return True
    return any(isinstance(plot.get(missile), Sprint) for missile in missiles)


class GreedyBot:
    """Plays the best reply to opponents who do nothing this turn (one ply): it never
    guesses that you may turn or sprint. While it is not ahead and has missiles to
    launch, a turn that does not hunt (:func:`hunts`: launch, or send a missile) costs
    it :data:`~spacetable.bots.ftl._tactics.IDLE`: it plays to win, so it neither sits
    out the duel to a draw nor turns its ship on the spot instead (a still enemy makes a
    turn look free to one ply). Its missiles close in along their headings or lie on your
    ship's sprint line, and its ship sprints nearer while it is far; docs/performance.md
    has the studies."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Plot:
        """The greedy plot for ``view["player"]`` (deterministic; ``rng`` is unused)."""
        seat = Seat.of(view)
        idle = IDLE if waiting(seat.board, seat.player, seat.players) else 0.0
        return to_plot(seat.player, greedy_orders(seat, idle=idle, hunt=True))
