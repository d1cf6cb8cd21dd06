"""What the Faster Than Light bots share: the pieces a view shows, plots as orders per piece,
the engine's resolution of a plot, and the random bot's plots (the sensible ones are in
:mod:`~spacetable.bots.ftl._tactics`, the worth of a position in
:mod:`~spacetable.bots.ftl._value`).

A plot here is a mapping ``piece id -> Order`` (a piece left out does nothing). Plots are
resolved by the engine itself (:func:`spacetable.games.ftl.resolution.resolve_orders`); only
the pieces given an order go through it, since a piece that does nothing is neither moved
nor hit (DESIGN section 5), which makes the many resolutions of the matrix bot cheap.

Everything here is pure: chance comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.games.ftl.match import Plot
from spacetable.games.ftl.orders import Launch, Order, Rotate, Sprint, orders_for
from spacetable.games.ftl.pieces import Kind, Piece
from spacetable.games.ftl.resolution import resolve_orders

#: Orders per piece, id -> order. A piece without an entry does nothing.
Orders = dict[str, Order]
#: Every piece by id, removed ones included (``on_table`` false).
Board = dict[str, Piece]
#: The turns left when a match has no turn limit.
NO_LIMIT = 10**6

# -- the view ---------------------------------------------------------------------------------


def piece_from_json(data: Mapping[str, Any]) -> Piece:
    """A piece as :meth:`Piece.to_json` (and so the match view) writes it."""
    width, length = data["size"]
    return Piece(
        str(data["id"]), Kind(data["kind"]), str(data["owner"]),
        float(data["x"]), float(data["y"]), float(data["heading"]),
        float(width), float(length),
        hits=int(data.get("hits", 0)), missiles=int(data.get("missiles", 0)),
        launched=int(data.get("launched", 0)), on_table=bool(data.get("on_table", True)),
    )  # fmt: skip


def board_from_view(view: Mapping[str, Any]) -> Board:
    """Every piece the view shows, by id."""
    return {p.id: p for p in (piece_from_json(raw) for raw in view["pieces"])}


def view_players(view: Mapping[str, Any]) -> tuple[str, ...]:
    """The match's players in seat order."""
    return tuple(view["players"])


def view_table(view: Mapping[str, Any]) -> tuple[float, float]:
    """The table's width and height (in)."""
    width, height = view["table_size_in"]
    return (float(width), float(height))


@dataclass(frozen=True, slots=True)
class Seat:
    """What a bot reads from the view: its player, the players, the table, the board and
    the turns left after this one (``NO_LIMIT`` without a turn limit)."""

    player: str
    players: tuple[str, ...]
    table_in: tuple[float, float]
    board: Board
    turns_left: int = NO_LIMIT

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seat:
        """The seat of ``view``. Raises ``ValueError`` for a view of no player."""
        player = view["player"]
        if player is None:
            raise ValueError("a bot plays a seat: the view must name its player")
        limit = view.get("turn_limit")
        left = NO_LIMIT if limit is None else max(0, int(limit) - int(view["turn"]))
        return cls(player, view_players(view), view_table(view), board_from_view(view), left)

    @property
    def opponents(self) -> tuple[str, ...]:
        """The other players with a ship on the table."""
        return tuple(
            p for p in self.players
            if p != self.player and p in self.board and self.board[p].on_table
        )  # fmt: skip


def to_plot(player: str, orders: Mapping[str, Order]) -> Plot:
    """The match action for ``orders``, stamped ``t = 0`` like every bot's action."""
    return Plot(player, tuple(f"{pid}:{order.text}" for pid, order in orders.items()), 0.0)


def plot_key(orders: Mapping[str, Order]) -> tuple[tuple[str, str], ...]:
    """A hashable form of a plot, the same for the same orders in any order."""
    return tuple(sorted((pid, order.text) for pid, order in orders.items()))


def own_pieces(board: Board, player: str) -> list[Piece]:
    """``player``'s pieces on the table, ship first."""
    return sorted(
        (p for p in board.values() if p.owner == player and p.on_table),
        key=lambda p: not p.is_ship,
    )


# -- resolution and evaluation ---------------------------------------------------------------


def resolve(board: Board, orders: Mapping[str, Order], table_in: tuple[float, float]) -> Board:
    """The board after one turn of ``orders``, resolved by the engine (only the pieces
    given an order go through it: the others neither move nor are hit)."""
    moving = [board[pid] for pid in orders]
    after = dict(board)
    for piece in resolve_orders(moving, orders, table_in).pieces:
        after[piece.id] = piece
    return after


@dataclass(frozen=True, slots=True)
class Resolved:
    """One side's plot resolved alone by the engine, kept to combine with another side's:
    the pieces it changed or launched, its tapes ``(nose x, nose y, dx, dy, length)``, and
    the pieces it put in normal space (as they stand after the rotations), each as
    ``(x, y, radius)`` with the radius of a circle about its footprint."""

    orders: Orders
    changed: Board
    tapes: tuple[tuple[float, float, float, float, float], ...]
    exposed: tuple[tuple[float, float, float], ...]

    @classmethod
    def of(cls, board: Board, orders: Orders, table_in: tuple[float, float]) -> Resolved:
        """Resolve ``orders`` alone on ``board``."""
        moving = [board[pid] for pid in orders]
        changed = {p.id: p for p in resolve_orders(moving, orders, table_in).pieces}
        tapes = []
        exposed = []
        for pid, order in orders.items():
            piece = board[pid]
            if isinstance(order, Sprint):
                (nx, ny), (dx, dy) = piece.nose, piece.direction
                tapes.append((nx, ny, dx, dy, order.distance_in))
            else:
                exposed.append(_circle(changed[pid]))
        exposed.extend(_circle(p) for pid, p in changed.items() if pid not in board)
        return cls(orders, changed, tuple(tapes), tuple(exposed))

    @classmethod
    def composed(cls, board: Board, orders: Orders, table_in: tuple[float, float]) -> Resolved:
        """:meth:`of`, built from each piece's order resolved alone (remembered: the
        greedy plot weighs the same piece's options on many boards) while no tape of one
        touches what another put in normal space, which resolves them apart exactly as
        together (as :func:`combine` merges two sides); otherwise resolved at once."""
        parts = [_alone(board[pid], order, table_in) for pid, order in orders.items()]
        if len(parts) == 1:
            return parts[0]
        merged = cls({}, {}, (), ())
        for part in parts:
            if merged.crosses(part):
                return cls.of(board, orders, table_in)
            merged = cls(
                {**merged.orders, **part.orders}, {**merged.changed, **part.changed},
                merged.tapes + part.tapes, merged.exposed + part.exposed,
            )  # fmt: skip
        return merged

    def crosses(self, other: Resolved) -> bool:
        """Whether a tape of either side may touch a piece the other put in normal space
        (a cheap test that errs toward yes)."""
        return _near(self.tapes, other.exposed) or _near(other.tapes, self.exposed)


@functools.lru_cache(maxsize=16384)
def _alone(piece: Piece, order: Order, table_in: tuple[float, float]) -> Resolved:
    """One piece's order resolved alone (it depends on nothing else)."""
    return Resolved.of({piece.id: piece}, {piece.id: order}, table_in)


def combine(board: Board, mine: Resolved, theirs: Resolved, table_in: tuple[float, float]) -> Board:
    """The board after both sides' plots, exactly as the engine resolves them together:
    when no tape of one side can touch what the other put in normal space, the two
    resolutions do not meet and are merged; otherwise the engine resolves both at once."""
    if mine.crosses(theirs):
        return resolve(board, {**mine.orders, **theirs.orders}, table_in)
    after = dict(board)
    after.update(mine.changed)
    after.update(theirs.changed)
    return after


def _circle(piece: Piece) -> tuple[float, float, float]:
    return (piece.x, piece.y, math.hypot(piece.width, piece.length) / 2.0)


def _near(
    tapes: Sequence[tuple[float, float, float, float, float]],
    circles: Sequence[tuple[float, float, float]],
) -> bool:
    for nx, ny, dx, dy, length in tapes:
        for cx, cy, radius in circles:
            along = min(max((cx - nx) * dx + (cy - ny) * dy, 0.0), length)
            ex, ey = cx - nx - dx * along, cy - ny - dy * along
            if ex * ex + ey * ey <= (radius + 1e-6) ** 2:
                return True
    return False


# -- plot generators ---------------------------------------------------------------------------


def random_orders(board: Board, player: str, rng: random.Random) -> Orders:
    """A random legal plot: each piece rotates (15 degree steps), sprints (1 to 8 in by
    0.5), launches (a ship with missiles left) or does nothing, each kind alike likely."""
    orders: Orders = {}
    for piece in own_pieces(board, player):
        choices = orders_for(piece)
        kinds: list[list[Order]] = [
            [o for o in choices if isinstance(o, Rotate)],
            [o for o in choices if isinstance(o, Sprint)],
            [],
        ]
        if any(isinstance(o, Launch) for o in choices):
            kinds.append([Launch()])
        pick = rng.choice(kinds)
        if pick:
            orders[piece.id] = rng.choice(pick)
    return orders
