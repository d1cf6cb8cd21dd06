"""What the Faster Than Light bots share: the pieces a view shows, plots as orders per piece,
the engine's resolution of a plot, plot generators and the evaluation of a position.

A plot here is a mapping ``piece id -> Order`` (a piece left out does nothing). Plots are
resolved by the engine itself (:func:`spacetable.games.ftl.resolution.resolve_orders`); only
the pieces given an order go through it, since a piece that does nothing is neither moved
nor hit (DESIGN section 5), which makes the many resolutions of the matrix bot cheap.

Everything here is pure: chance comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.games.ftl.match import Plot
from spacetable.games.ftl.orders import Launch, Order, Rotate, Sprint, orders_for
from spacetable.games.ftl.pieces import HITS_TO_DESTROY, Kind, Piece, normal_heading
from spacetable.games.ftl.resolution import resolve_orders, tape_contact

#: Orders per piece, id -> order. A piece without an entry does nothing.
Orders = dict[str, Order]
#: Every piece by id, removed ones included (``on_table`` false).
Board = dict[str, Piece]

#: The longest sprint (in): a missile threatens what its longest tape reaches.
REACH_IN = 8.0
#: What a position is worth when the match is decided: won, lost, or a draw (every ship
#: gone), which is worse than an even position since the bots mean to win.
WIN, LOSS, DRAW = 1000.0, -1000.0, -300.0
#: What a ship's hits cost it, by hits taken (the third removes it).
HIT_COST = (0.0, 140.0, 380.0)
#: Missiles ready to launch, and missiles on the table, each worth this much.
MISSILE_IN_STORE, MISSILE_ON_TABLE = 4.0, 7.0
#: A missile whose longest tape reaches an enemy ship as it points now.
AIMED_MISSILE = 22.0
#: A missile within reach of an enemy ship that would have to turn to hit it.
NEAR_MISSILE = 6.0
#: A missile pointed at an enemy ship beyond its reach, up to this far (in).
LINED_UP_MISSILE, LINE_IN = 9.0, 30.0
#: Closer to the table's edge than this (in), a ship pays per inch.
EDGE_MARGIN_IN, EDGE_COST = 9.0, 7.0
#: Beyond this distance from the nearest enemy ship (in), a ship pays per inch; nearer
#: than the second, where a sprint may ram, it pays per inch too.
CLOSE_RANGE_IN, FAR_COST = 11.0, 0.6
RAM_RANGE_IN, NEAR_COST = 6.0, 12.0

#: The ship's orders the plot generators draw from (besides aimed and launch orders).
_SHIP_SPRINTS = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
_SHIP_TURNS = (15, -15, 30, -30, 45, -45, 90, -90, 135, -135, 180)


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
    """What a bot reads from the view: its player, the players, the table and the board."""

    player: str
    players: tuple[str, ...]
    table_in: tuple[float, float]
    board: Board

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seat:
        """The seat of ``view``. Raises ``ValueError`` for a view of no player."""
        player = view["player"]
        if player is None:
            raise ValueError("a bot plays a seat: the view must name its player")
        return cls(player, view_players(view), view_table(view), board_from_view(view))

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


def evaluate(board: Board, me: str, players: Sequence[str], table_in: tuple[float, float]) -> float:
    """How good ``board`` is for ``me``: :data:`WIN` or :data:`LOSS` once the match is
    decided (:data:`DRAW` when every ship is gone), else hits, missiles, aimed missiles,
    the edge and the range, each side's worth to itself, ours minus the best enemy's."""
    ship = board.get(me)
    enemies = [board[p] for p in players if p != me and p in board and board[p].on_table]
    alive = ship is not None and ship.on_table
    if not alive:
        return LOSS if enemies else DRAW
    if not enemies:
        return WIN
    assert ship is not None
    mine = _side_worth(board, ship, enemies, table_in)
    nearest = min(math.dist((ship.x, ship.y), (e.x, e.y)) for e in enemies)
    mine -= FAR_COST * max(0.0, nearest - CLOSE_RANGE_IN)
    mine -= NEAR_COST * max(0.0, RAM_RANGE_IN - nearest)
    theirs = max(
        _side_worth(board, enemy, [ship, *(e for e in enemies if e is not enemy)], table_in)
        for enemy in enemies
    )
    return mine - theirs


def _side_worth(
    board: Board, ship: Piece, enemies: Sequence[Piece], table_in: tuple[float, float]
) -> float:
    worth = -HIT_COST[min(ship.hits, HITS_TO_DESTROY - 1)] + MISSILE_IN_STORE * ship.missiles
    aimed = 0
    for missile in board.values():
        if missile.owner != ship.owner or missile.is_ship or not missile.on_table:
            continue
        worth += MISSILE_ON_TABLE
        if any(_aimed_at(missile, e) for e in enemies):
            aimed += 1
        elif any(math.dist((missile.x, missile.y), (e.x, e.y)) <= REACH_IN for e in enemies):
            worth += NEAR_MISSILE
        elif any(_aimed_at(missile, e, LINE_IN) for e in enemies):
            worth += LINED_UP_MISSILE
    # A second and third aimed missile add less: one can strike at a time.
    worth += AIMED_MISSILE * min(aimed, 1) + 0.5 * AIMED_MISSILE * min(max(aimed - 1, 0), 2)
    margin = min(table_in[0] / 2 - abs(ship.x), table_in[1] / 2 - abs(ship.y))
    worth -= EDGE_COST * max(0.0, EDGE_MARGIN_IN - margin)
    return worth


def _aimed_at(missile: Piece, target: Piece, reach_in: float = REACH_IN) -> bool:
    rad = math.radians(missile.heading)
    dx, dy = -math.sin(rad), math.cos(rad)
    ex = target.x - missile.x - dx * missile.length / 2.0
    ey = target.y - missile.y - dy * missile.length / 2.0
    along, across = ex * dx + ey * dy, ex * dy - ey * dx
    radius = math.hypot(target.width, target.length) / 2.0 + 1e-6
    # Most missiles point nowhere near (a quick test that errs toward yes, in the frame
    # of the heading): only the engine's exact test can say yes.
    if along < -radius or along > reach_in + radius or abs(across) > radius:
        return False
    return tape_contact(missile.nose, missile.heading, reach_in, target.footprint()) is not None


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

    def crosses(self, other: Resolved) -> bool:
        """Whether a tape of either side may touch a piece the other put in normal space
        (a cheap test that errs toward yes)."""
        return _near(self.tapes, other.exposed) or _near(other.tapes, self.exposed)


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


# -- orders that aim ---------------------------------------------------------------------------


def heading_to(piece: Piece, x: float, y: float) -> float:
    """The heading (deg) from ``piece``'s post toward ``(x, y)``: 0 is +y, CCW positive."""
    return math.degrees(math.atan2(-(x - piece.x), y - piece.y))


def turn_toward(piece: Piece, x: float, y: float) -> list[Rotate]:
    """The one or two legal rotations (15 degree steps) that point ``piece`` nearest to
    ``(x, y)``: the step either side of the exact bearing."""
    # A clockwise (positive) rotation lowers the heading.
    exact = normal_heading(piece.heading - heading_to(piece, x, y))
    low = math.floor(exact / 15.0) * 15
    out = []
    for angle in (low, low + 15):
        angle = int(normal_heading(angle))
        rotation = Rotate(180 if angle == -180 else angle)
        if rotation not in out:
            out.append(rotation)
    out.sort(key=lambda r: abs(normal_heading(r.angle_deg - exact)))
    return out


def strike(missile: Piece, target: Piece) -> Sprint | None:
    """The shortest legal sprint whose tape reaches ``target`` as ``missile`` points now,
    or ``None`` if no tape does."""
    contact = tape_contact(missile.nose, missile.heading, REACH_IN, target.footprint())
    if contact is None:
        return None
    return Sprint(min(REACH_IN, max(1.0, math.ceil(contact[0] * 2.0 + 0.25) / 2.0)))


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


def tactical_orders(
    board: Board, player: str, players: Sequence[str], rng: random.Random
) -> Orders:
    """A plausible plot, drawn at random from sensible moves: the ship sprints, turns
    (often toward an enemy or away from the edge), launches or waits; each missile strikes
    along its line, turns toward an enemy ship, closes in, lies in wait in normal space
    (``R+0``) or does nothing."""
    pieces = own_pieces(board, player)
    enemies = [board[p] for p in players if p != player and p in board and board[p].on_table]
    if not pieces or not pieces[0].is_ship or not enemies:
        return {}
    ship = pieces[0]
    target = min(enemies, key=lambda e: math.dist((ship.x, ship.y), (e.x, e.y)))
    orders: Orders = {}
    ship_order = _ship_choice(ship, target, rng)
    if ship_order is not None:
        orders[ship.id] = ship_order
    style = rng.random()
    for missile in pieces[1:]:
        mark = min(enemies, key=lambda e: math.dist((missile.x, missile.y), (e.x, e.y)))
        order = _missile_choice(missile, mark, style, rng)
        if order is not None:
            orders[missile.id] = order
    return orders


def _ship_choice(ship: Piece, target: Piece, rng: random.Random) -> Order | None:
    roll = rng.random()
    if roll < 0.25:
        return None
    if roll < 0.45 and ship.missiles > 0:
        return Launch()
    if roll < 0.7:
        return Sprint(rng.choice(_SHIP_SPRINTS))
    if roll < 0.8:
        return rng.choice(turn_toward(ship, 0.0, 0.0))
    if roll < 0.9:
        return rng.choice(turn_toward(ship, target.x, target.y))
    return Rotate(rng.choice(_SHIP_TURNS))


def _missile_choice(
    missile: Piece, target: Piece, style: float, rng: random.Random
) -> Order | None:
    """One missile's order; ``style`` (0..1) leans the whole plot toward waiting (low) or
    toward striking and turning (high)."""
    shot = strike(missile, target)
    roll = rng.random() * 0.6 + style * 0.4
    if shot is not None:
        if roll < 0.5:
            return None
        if roll < 0.6:
            return Rotate(0)
        return shot
    if roll < 0.3:
        return None
    if roll < 0.75:
        return rng.choice(turn_toward(missile, target.x, target.y))
    if roll < 0.85:
        return Rotate(0)
    return Sprint(rng.choice((1.0, 2.0, 3.0, 4.0)))


def greedy_orders(
    board: Board, player: str, players: Sequence[str], table_in: tuple[float, float]
) -> Orders:
    """The one-ply greedy plot: the best reply to opponents who do nothing, found piece by
    piece (the ship first, then each missile given the orders chosen so far), each order
    scored by :func:`evaluate` on the engine's resolution. Doing nothing wins ties."""
    orders: Orders = {}
    for piece in own_pieces(board, player):
        best_score = evaluate(resolve(board, orders, table_in), player, players, table_in)
        best: Order | None = None
        for order in orders_for(piece):
            trial = {**orders, piece.id: order}
            score = evaluate(resolve(board, trial, table_in), player, players, table_in)
            if score > best_score:
                best_score, best = score, order
        if best is not None:
            orders[piece.id] = best
    return orders
