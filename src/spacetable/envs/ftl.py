"""Faster Than Light as a parallel environment: a step is a turn of secret plots.

Every agent with a ship in play plots at once; when the last plot is in, the turn
resolves (launches, rotations, then the sprints together) exactly as a room's turn does.

**The discretisation of a plot.** An action is a pair: one order for the agent's ship and
one order that all its missiles on the table carry out (a player plots one order a piece;
here his missiles move as one). The ship's orders (21): none, a rotation by a multiple of
30 degrees (``R+30`` ... ``R+180``, ``R-30`` ... ``R-150``: 11), a sprint of a whole number
of inches (``S1`` ... ``S8``: 8), or ``L`` (launch). The missiles' orders (20): the same
but ``L``. The action is ``ship_order * 20 + missile_order``; the mask allows ``L`` only
while the ship carries missiles, and a missiles' order only while one is on the table. An
agent whose ship is gone (three or four seats) has only "none" until the match ends.
(The rules allow every multiple of 15 degrees and sprints in half inches: the grid keeps
the action space small; the rules check every plot all the same.)

**Observations**, from the seat's view: the turn as a share of the turn limit; for each
seat (the agent's own first) its ship (on the table, x and y as a share of half the
table, the heading's sine and cosine, hits as a share of three, missiles left, whether it
has plotted) and a slot for each missile it may launch (``<seat>-m1``...: on the table,
x, y, heading's sine and cosine).

**Rewards** at the end only, by place: the winner, then those still in play, then hits
scored and pieces left (the turn limit's order); +1/-1/0 in a duel. The room's table (24 x
24 in) and turn limit (20) are the defaults, so every episode ends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from spacetable.core.match import IllegalAction
from spacetable.envs._base import Observation, fraction, observed, seat_order
from spacetable.envs._parallel import MatchParallelEnv
from spacetable.games.ftl import TurnFile
from spacetable.games.ftl.events import OrdersRevealed
from spacetable.games.ftl.match import ROOM_TABLE_IN, ROOM_TURN_LIMIT, FtlMatch, Plot
from spacetable.games.ftl.pieces import HITS_TO_DESTROY, Piece

#: Rotations of a plot, in degrees (as written: positive is clockwise).
ROTATIONS = (30, 60, 90, 120, 150, 180, -30, -60, -90, -120, -150)
#: Sprints of a plot, in inches.
SPRINTS = (1, 2, 3, 4, 5, 6, 7, 8)
#: The missiles' orders: none, the rotations, the sprints.
MISSILE_ORDERS = ("", *(f"R{a:+d}" for a in ROTATIONS), *(f"S{d}" for d in SPRINTS))
#: The ship's orders: the missiles' and a launch.
SHIP_ORDERS = (*MISSILE_ORDERS, "L")
#: A room's FTL options: its table and turn limit (then hits, then pieces left, win).
ROOM_OPTIONS: dict[str, Any] = {"table_size_in": list(ROOM_TABLE_IN), "turn_limit": ROOM_TURN_LIMIT}


def plot_orders(ship: str, missiles: list[str], action: int) -> tuple[str, ...]:
    """The plot of ``action`` for the ship ``ship`` and its missiles on the table."""
    ship_order, missile_order = divmod(action, len(MISSILE_ORDERS))
    orders = [f"{ship}:{SHIP_ORDERS[ship_order]}"] if SHIP_ORDERS[ship_order] else []
    if MISSILE_ORDERS[missile_order]:
        orders += [f"{m}:{MISSILE_ORDERS[missile_order]}" for m in missiles]
    return tuple(orders)


class FtlEnv(MatchParallelEnv):
    """Faster Than Light as a PettingZoo ``ParallelEnv`` (2 to 4 seats; options as
    :class:`~spacetable.games.ftl.match.FtlOptions` reads them, a room's table and turn
    limit unless given)."""

    key: ClassVar[str] = "ftl"
    #: The pieces on the table as the last round began (what its drawing starts from).
    _before: tuple[Piece, ...] = ()
    metadata: ClassVar[dict[str, Any]] = {
        **MatchParallelEnv.metadata,
        "name": "spacetable_ftl_v0",
    }

    def __init__(
        self, seats: int = 2, options: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(seats, {**ROOM_OPTIONS, **(options or {})}, **kwargs)

    def action_count(self) -> int:
        """A ship's order times a missiles' order."""
        return len(SHIP_ORDERS) * len(MISSILE_ORDERS)

    @property
    def _missiles(self) -> int:
        return int(self.match.options.missiles)

    def observation_size(self) -> int:
        """The turn, and per seat its ship (8) and its missiles (5 each), and a 1."""
        return 1 + len(self.possible_agents) * (8 + 5 * self._missiles) + 1

    def _on_table(self, player: str) -> list[str]:
        match: FtlMatch = self.match
        return [p.id for p in match.pieces_of(player) if not p.is_ship]

    def mask(self, agent: str) -> np.ndarray:
        """What ``agent`` may plot now, as the rules check each order for its ship and for
        its missiles on the table (only "none" once its ship is gone)."""
        match: FtlMatch = self.match
        ship_ok = np.zeros(len(SHIP_ORDERS), np.int8)
        missile_ok = np.zeros(len(MISSILE_ORDERS), np.int8)
        ship_ok[0] = missile_ok[0] = 1
        if match.needs_action(agent):
            missiles = self._on_table(agent)
            for index, order in enumerate(SHIP_ORDERS[1:], 1):
                ship_ok[index] = match.plot_problem(agent, (f"{agent}:{order}",)) is None
            for index, order in enumerate(MISSILE_ORDERS[1:], 1):
                entries = tuple(f"{m}:{order}" for m in missiles)
                missile_ok[index] = bool(missiles) and match.plot_problem(agent, entries) is None
        return np.outer(ship_ok, missile_ok).astype(np.int8).reshape(-1)

    def play_round(self, actions: Mapping[str, int]) -> dict[str, str]:
        """Every agent in play plots (a refused plot is an empty one); the last resolves
        the turn."""
        match: FtlMatch = self.match
        t = float(self.rounds)
        self._before = tuple(p for p in match.pieces.values() if p.on_table)
        refused: dict[str, str] = {}
        for agent in self.possible_agents:
            if not match.needs_action(agent):
                continue
            chosen = actions.get(agent, 0)
            orders: tuple[str, ...] = ()
            if 0 <= chosen < self.action_count():
                orders = plot_orders(agent, self._on_table(agent), chosen)
            else:
                refused[agent] = f"no action {chosen} (0 to {self.action_count() - 1})"
            try:
                match.apply(Plot(agent, orders, t))
            except IllegalAction as exc:
                refused[agent] = str(exc)
                match.apply(Plot(agent, (), t))
        return refused

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (from its view of the match) and action mask."""
        view = self.match.view(agent)
        width, height = view["table_size_in"]
        pieces = {p["id"]: p for p in view["pieces"]}
        limit = view["turn_limit"]
        features = [0.0 if limit is None else fraction(view["turn"], limit)]
        for seat in seat_order(self.possible_agents, agent):
            ship = pieces[seat]
            features += [*_piece(ship, width, height), fraction(ship["hits"], HITS_TO_DESTROY),
                         fraction(ship["missiles"], self._missiles),
                         float(view["players"][seat]["plotted"])]  # fmt: skip
            for k in range(1, self._missiles + 1):
                features += _piece(pieces.get(f"{seat}-m{k}"), width, height)
        features.append(1.0)
        return observed(features, self.mask(agent))

    def ranks(self, match: FtlMatch) -> dict[str, tuple[float, ...]]:
        """The winner, then those in play, then hits scored, then pieces left."""
        result = match.result()
        assert result is not None
        return {
            p: (
                float(result.winner == p),
                float(match.in_play(p)),
                float(result.hits_scored.get(p, 0)),
                float(result.pieces_left.get(p, 0)),
            )
            for p in match.players
        }

    def began(self) -> None:
        """No turn resolved yet."""
        self._before = ()

    def svg(self) -> str:
        """The last turn resolved, drawn as the game draws a turn file: the pieces as it
        began, every order, tape and contact, the pieces after it and who won (before the
        first turn, the table as it stands)."""
        match: FtlMatch = self.match
        table = match.options.table_size_in
        revealed = [e for e in match.last_turn if isinstance(e, OrdersRevealed)]
        if not revealed:
            on_table = tuple(p for p in match.pieces.values() if p.on_table)
            return self.game.svg(TurnFile(match.players, table, on_table, ()), None)
        orders = tuple(
            (piece, order)
            for event in revealed
            for piece, _, order in (entry.rpartition(":") for entry in event.orders)
        )
        turn = TurnFile(match.players, table, self._before, orders)
        return self.game.svg(turn, turn.resolve())


def _piece(piece: Mapping[str, Any] | None, width: float, height: float) -> list[float]:
    """On the table, x and y as a share of half the table, the heading's sine and cosine."""
    if piece is None or not piece["on_table"]:
        return [0.0] * 5
    heading = math.radians(piece["heading"])
    return [1.0, fraction(piece["x"], width / 2), fraction(piece["y"], height / 2),
            math.sin(heading), math.cos(heading)]  # fmt: skip
