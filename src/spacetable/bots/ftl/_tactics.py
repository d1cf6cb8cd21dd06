"""The sensible orders of one FTL side this turn (its *menu*), and plots drawn from it.

Every order on a menu has a purpose (see :mod:`spacetable.bots.ftl._aim`):

- the ship holds (a ship that does nothing is never hit), launches when its missile lands
  on the table and no missile of its side stands on the launch point (launches come
  before sprints, so a new missile would stack on it, or be struck by its sprint),
  sprints to a post on the table clear of its edge, or turns toward the
  nearest enemy ship, toward the centre near an edge, or a quarter turn out of a line;
- a missile holds, strikes when its tape crosses an enemy ship's post, lies in wait
  (``R+0``) only when it stands on an enemy ship's sprint line, turns to cover where an
  enemy ship can be next turn (its post and landing posts, or its post alone without
  foresight), closes in along its heading, or, out of reach and pointing away, turns
  toward the nearest enemy ship; one standing on its ship's launch point may also sprint
  clear of it; never off the table, never onto a point another of its side's missiles
  already holds.

A side ahead on hits, or even on hits and ahead on pieces, keeps its ship still: nothing
can hit a ship that does nothing, so it wins at the turn limit. Its missiles hunt on.
Pure: chance comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from spacetable.bots.ftl._aim import (
    REACH_IN,
    STACK_IN,
    bearing,
    best_aim,
    launch_point,
    on_launch_point,
    on_path,
    reach,
    strike,
    turn_toward,
)
from spacetable.bots.ftl._plots import Orders
from spacetable.bots.ftl._value import pieces_left, scores, standing_ships
from spacetable.games.ftl.orders import Launch, Order, Rotate, Sprint
from spacetable.games.ftl.pieces import Piece, normal_heading
from spacetable.games.ftl.resolution import tape_contact

#: The ship's sprints on its menu (in).
SHIP_SPRINTS_IN = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
#: A ship's sprint must land this far (in) inside the table's edge.
SHIP_MARGIN_IN = 1.5
#: A missile's sprint must land this far (in) inside the edge.
MISSILE_MARGIN_IN = 0.3
#: At most this many missiles of one side lie in wait (``R+0``) in one turn: one mine
#: on a ship's line is enough to punish its sprint, more only expose them.
MAX_MINES = 2
#: Near an edge (in), the ship's menu turns it toward the centre.
TURN_IN_IN = 6.0
#: Kinds of order and their weights when a plot is drawn (before a plot's temper).
KINDS = ("hold", "strike", "mine", "aim", "close", "clear", "launch", "sprint", "turn")
_WEIGHT = {"hold": 2.0, "strike": 3.0, "mine": 2.0, "aim": 3.0, "close": 2.0, "clear": 2.0,
           "launch": 3.0, "sprint": 3.0, "turn": 2.0}  # fmt: skip
#: The sprint (in) that takes a missile off its ship's launch point.
CLEAR_IN = 1.5
#: What a bot that plays to win charges itself for a turn it does not press
#: (:func:`presses`) while it is not ahead and has missiles to launch: waiting leads at
#: best to a draw.
IDLE = 30.0

#: One option: its kind, the order (``None``: do nothing), the post it ends on.
Option = tuple[str, Order | None, tuple[float, float]]


@dataclass(frozen=True, slots=True)
class Menu:
    """One side's options this turn: its ship's and each missile's."""

    player: str
    ship: tuple[Option, ...]
    missiles: tuple[tuple[Piece, tuple[Option, ...]], ...]

    def draw(self, rng: random.Random, temper: str | None = None) -> Orders:
        """One plot: an option for each piece, drawn by weight, the ``temper`` kind (or
        one drawn at random) four times likelier; a missile's sprint that would land on
        another missile of the side holds instead."""
        temper = temper or rng.choice(KINDS)
        orders: Orders = {}

        def pick(options: Sequence[Option]) -> Option:
            weights = [_WEIGHT[k] * (4.0 if k == temper else 1.0) for k, _, _ in options]
            return rng.choices(options, weights)[0]

        if self.ship:
            _, order, _ = pick(self.ship)
            if order is not None:
                orders[self.player] = order
        taken: list[tuple[float, float]] = []
        mines = 0
        for missile, options in self.missiles:
            kind, order, post = pick(options)
            if (kind == "mine" and mines >= MAX_MINES) or (
                kind in ("strike", "close", "clear")
                and any(math.dist(post, other) < STACK_IN for other in taken)
            ):
                order, post = None, (missile.x, missile.y)
            mines += order is not None and kind == "mine"
            taken.append(post)
            if order is not None:
                orders[missile.id] = order
        return orders

    def best(self, score: Callable[[Orders], float]) -> Orders:
        """The plot built piece by piece (ship first), each piece taking the option of its
        menu that ``score`` rates highest given the orders chosen before it (doing
        nothing wins ties)."""
        orders: Orders = {}
        pieces = [(self.player, self.ship)] if self.ship else []
        pieces += [(m.id, options) for m, options in self.missiles]
        taken: list[tuple[float, float]] = []
        mines = 0
        current = score(orders) if pieces else 0.0
        for piece_id, options in pieces:
            # The orders so far score what the last piece's best did (``score`` is pure).
            best_score, best_order, best_post = current, None, options[0][2]
            best_kind = "hold"
            for kind, order, post in options:
                if (
                    order is None
                    or (kind == "mine" and mines >= MAX_MINES)
                    or (
                        kind in ("strike", "close", "clear")
                        and any(math.dist(post, other) < STACK_IN for other in taken)
                    )
                ):
                    continue
                value = score({**orders, piece_id: order})
                if value > best_score + 1e-9:
                    best_score, best_order, best_post, best_kind = value, order, post, kind
            if best_order is not None:
                orders[piece_id] = best_order
                mines += best_kind == "mine"
            current = best_score
            if piece_id != self.player:
                taken.append(best_post)
        return orders


def ahead(board: Mapping[str, Piece], player: str, players: Sequence[str]) -> bool:
    """Whether ``player`` would win at the turn limit as things stand (more hits scored,
    or as many and more pieces left than every other player in play)."""
    standing = [s.id for s in standing_ships(board, players)]
    scored = scores(board, players)
    mine = (scored[player], pieces_left(board, player))
    return all(mine > (scored[p], pieces_left(board, p)) for p in standing if p != player)


def waiting(board: Mapping[str, Piece], player: str, players: Sequence[str]) -> bool:
    """Whether ``player`` is not ahead (:func:`ahead`) and its ship still has missiles to
    launch: a turn it does not press (:func:`presses`) is then a turn let go by."""
    ship = board.get(player)
    return ship is not None and ship.missiles > 0 and not ahead(board, player, players)


def presses(plot: Orders, player: str, barring: Sequence[str]) -> bool:
    """Whether ``plot`` presses for the lead: ``player``'s ship launches or turns (either
    puts it in normal space, where a tape can hit it: docs/rulings.md F14, a fair risk
    taken for a chance of the first hit), or a missile of ``barring`` (those standing on
    its launch point) sprints off it, which readies the next launch. Measured (hard
    against itself, 40 duels): counting launches alone, once a ship no longer launches
    onto its own missile, left 68% of the duels decisive; with turns, 85%."""
    if isinstance(plot.get(player), (Launch, Rotate)):
        return True
    return any(isinstance(plot.get(missile), Sprint) for missile in barring)


def launch_blockers(board: Mapping[str, Piece], player: str) -> list[str]:
    """The ids of ``player``'s missiles standing on its ship's launch point."""
    ship = board[player]
    return sorted(
        p.id
        for p in board.values()
        if p.owner == player and not p.is_ship and p.on_table and on_launch_point(p, ship)
    )


def menu(
    board: Mapping[str, Piece],
    player: str,
    players: Sequence[str],
    table_in: tuple[float, float],
    *,
    foresight: bool = True,
) -> Menu:
    """``player``'s sensible options this turn (see the module's docstring); with
    ``foresight`` its missiles aim where an enemy ship can be after its next order, else
    at its post."""
    ship = board.get(player)
    enemies = [s for s in standing_ships(board, players) if s.id != player]
    if ship is None or not ship.on_table or not enemies:
        return Menu(player, (), ())
    hold = ahead(board, player, players)
    own = sorted(
        (p for p in board.values() if p.owner == player and not p.is_ship and p.on_table),
        key=lambda p: p.id,
    )
    blocking = [m for m in own if on_launch_point(m, ship)]
    targets = tuple(enemies)
    ship_options = () if hold else _ship_menu(ship, targets, table_in, bool(blocking))
    missiles = tuple(
        (m, _missile_menu(m, targets, table_in, foresight, ship if m in blocking else None))
        for m in own
    )
    return Menu(player, ship_options, missiles)


@functools.lru_cache(maxsize=8192)
def _ship_menu(
    ship: Piece, enemies: tuple[Piece, ...], table_in: tuple[float, float], blocked: bool
) -> tuple[Option, ...]:
    """:func:`_ship_options`, remembered: the look-ahead builds the menu of the same
    pieces on many boards, and the options depend on nothing else."""
    return _ship_options(ship, enemies, table_in, blocked)


@functools.lru_cache(maxsize=16384)
def _missile_menu(
    missile: Piece,
    enemies: tuple[Piece, ...],
    table_in: tuple[float, float],
    foresight: bool,
    ship: Piece | None,
) -> tuple[Option, ...]:
    """:func:`_missile_options` aiming with or without ``foresight``, remembered (as
    :func:`_ship_menu`)."""
    regions = {e.id: reach(e, table_in) if foresight else [(e.x, e.y, 1.0)] for e in enemies}
    return _missile_options(missile, enemies, regions, table_in, ship)


def _inside(x: float, y: float, table_in: tuple[float, float], margin: float) -> bool:
    return abs(x) <= table_in[0] / 2.0 - margin and abs(y) <= table_in[1] / 2.0 - margin


def _ship_options(
    ship: Piece, enemies: Sequence[Piece], table_in: tuple[float, float], blocked: bool
) -> tuple[Option, ...]:
    here = (ship.x, ship.y)
    options: list[Option] = [("hold", None, here)]
    if ship.missiles > 0 and not blocked and _inside(*launch_point(ship), table_in, 0.0):
        options.append(("launch", Launch(), here))
    for d in SHIP_SPRINTS_IN:
        post = ship.ahead(d)
        if _inside(*post, table_in, SHIP_MARGIN_IN):
            options.append(("sprint", Sprint(d), post))
    target = min(enemies, key=lambda e: math.dist(here, (e.x, e.y)))
    turns: list[Rotate] = []
    toward = turn_toward(ship, target.x, target.y)
    if toward is not None:
        turns.append(toward)
    if not _inside(ship.x, ship.y, table_in, TURN_IN_IN):
        centre = turn_toward(ship, 0.0, 0.0)
        if centre is not None:
            turns.append(centre)
    turns += [Rotate(90), Rotate(-90)]
    for turn in dict.fromkeys(turns):
        options.append(("turn", turn, here))
    return tuple(options)


def _missile_options(
    missile: Piece,
    enemies: Sequence[Piece],
    regions: Mapping[str, list[tuple[float, float, float]]],
    table_in: tuple[float, float],
    ship: Piece | None = None,
) -> tuple[Option, ...]:
    """The options of ``missile``; with ``ship``, it stands on that ship's launch point and
    may sprint clear of it (:data:`CLEAR_IN`, on the table, its tape off the ship)."""
    here = (missile.x, missile.y)
    options: list[Option] = [("hold", None, here)]
    if ship is not None:
        post = missile.ahead(CLEAR_IN)
        clear = tape_contact(missile.nose, missile.heading, CLEAR_IN, ship.footprint()) is None
        if clear and _inside(*post, table_in, MISSILE_MARGIN_IN):
            options.append(("clear", Sprint(CLEAR_IN), post))
    target = min(enemies, key=lambda e: math.dist(here, (e.x, e.y)))
    for enemy in enemies:
        shot = strike(missile, enemy)
        if shot is not None:
            options.append(("strike", shot, missile.ahead(shot.distance_in)))
            break
    if any(on_path(missile, e) for e in enemies):
        options.append(("mine", Rotate(0), here))
    aim = best_aim(missile, target, regions[target.id])
    if aim is not None:
        options.append(("aim", aim[0], here))
    distance = math.dist(here, (target.x, target.y))
    off = abs(normal_heading(bearing(missile, target.x, target.y) - missile.heading))
    if distance > REACH_IN - 1.0 and off <= 45.0:
        # Close in along the heading, ending a few inches from the target.
        along = distance * math.cos(math.radians(off))
        d = min(REACH_IN, max(1.0, math.floor((along - 3.0) * 2.0) / 2.0))
        post = missile.ahead(d)
        if _inside(*post, table_in, MISSILE_MARGIN_IN):
            options.append(("close", Sprint(d), post))
    elif distance > REACH_IN - 1.0 and aim is None:
        # Out of reach and pointing away: turn toward the target, to close in next turn
        # (without this, a missile launched facing away never came into play).
        toward = turn_toward(missile, target.x, target.y)
        if toward is not None:
            options.append(("turn", toward, here))
    return tuple(options)
