"""What the hex fleet bots read from a seat's view: the ships, the board and the active
ship's activation (:class:`Seat`), and the geometry every bot aims with."""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from spacetable.games.hexfleet.combat import RANGE, raise_shields_problem
from spacetable.games.hexfleet.hexes import Board, Hex, distance, in_forward_arc
from spacetable.games.hexfleet.movement import reachable
from spacetable.games.hexfleet.ships import CLASSES, Ship, Weapons


def moves_from(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> dict[tuple[Hex, int], str]:
    """:func:`~spacetable.games.hexfleet.movement.reachable`, remembered: the bots ask it
    of the same ship and board many times (the expert's playouts above all). The answer
    is shared: never change it."""
    return _moves(at, facing, allowance, board, frozenset(blocked))


def sorted_moves(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> tuple[tuple[Hex, int, str], ...]:
    """:func:`moves_from` as (hex, facing, steps), sorted by hex and facing, remembered
    (the tactical bot weighs them in this order)."""
    return _sorted_moves(at, facing, allowance, board, frozenset(blocked))


@functools.lru_cache(maxsize=512)
def _sorted_moves(
    at: Hex, facing: int, allowance: int, board: Board, blocked: frozenset[Hex]
) -> tuple[tuple[Hex, int, str], ...]:
    moves = _moves(at, facing, allowance, board, blocked)
    return tuple((h, f, steps) for (h, f), steps in sorted(moves.items()))


def ends_from(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> frozenset[Hex]:
    """The hexes of :func:`moves_from`'s moves (whatever the facing), remembered."""
    return _ends(at, facing, allowance, board, frozenset(blocked))


@functools.lru_cache(maxsize=512)
def _ends(
    at: Hex, facing: int, allowance: int, board: Board, blocked: frozenset[Hex]
) -> frozenset[Hex]:
    return frozenset(there for there, _ in _moves(at, facing, allowance, board, blocked))


#: :func:`~spacetable.games.hexfleet.hexes.in_forward_arc`, remembered (the bots weigh
#: every hex a ship can reach against every enemy).
in_arc = functools.lru_cache(maxsize=1 << 16)(in_forward_arc)


@functools.lru_cache(maxsize=512)
def _moves(
    at: Hex, facing: int, allowance: int, board: Board, blocked: frozenset[Hex]
) -> dict[tuple[Hex, int], str]:
    return reachable(at, facing, allowance, board, blocked)


def ship_from_json(data: dict[str, Any]) -> Ship:
    """A ship as the view shows it (:meth:`Ship.to_json`), back as a :class:`Ship`."""
    at = data["at"]
    return Ship(
        id=data["id"],
        name=data["name"],
        owner=data["owner"],
        cls=CLASSES[data["class"]],
        weapons=Weapons(data["weapons"]),
        shields_left=data["shields"],
        weapons_left=data["weapon_systems"],
        propulsion_left=data["propulsion"],
        shields_up=data["shields_up"],
        at=None if at is None else Hex(at[0], at[1]),
        facing=data["facing"],
        status=data["status"],
        returns_on=data["returns_on"],
    )


@dataclass(frozen=True, slots=True)
class Seat:
    """What a bot reads from the view: its player, the board, the ships, the turn, and the
    active ship's activation (movement left, what it has done, whether it is placing)."""

    player: str
    board: Board
    ships: dict[str, Ship]
    turn: int
    turn_limit: int
    ship: Ship
    movement: int
    done: frozenset[str]
    placing: bool

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seat:
        """The seat of ``view``. Raises ``ValueError`` if it is not the player's turn."""
        player, activation = view["player"], view["activation"]
        if player is None:
            raise ValueError("a bot plays a seat: the view must name its player")
        ships = {s["id"]: ship_from_json(s) for s in view["ships"]}
        if activation is None or ships[activation["ship"]].owner != player:
            raise ValueError(f"no ship of {player!r} is activated")
        board = Board(view["board"]["width"], view["board"]["height"])
        return cls(
            player, board, ships, view["turn"], view["turn_limit"], ships[activation["ship"]],
            activation["movement"], frozenset(activation["done"]), activation["placing"],
        )  # fmt: skip

    def on_table(self) -> list[Ship]:
        """Every ship on the table."""
        return [s for s in self.ships.values() if s.on_table and s.at is not None]

    def enemies(self) -> list[Ship]:
        """The other sides' ships on the table."""
        return [s for s in self.on_table() if s.owner != self.player]

    def blocked(self, moving: str | None = None) -> set[Hex]:
        """The hexes ships on the table hold (but ``moving``'s own)."""
        return {s.at for s in self.on_table() if s.id != moving and s.at is not None}

    def free_hexes(self) -> list[Hex]:
        """The board's hexes no ship holds, in the board's order."""
        held = self.blocked()
        return [h for h in self.board if h not in held]

    def moves(self) -> dict[tuple[Hex, int], str]:
        """Every (hex, facing) the active ship can end its move in, with the steps."""
        ship = self.ship
        if self.movement <= 0 or ship.at is None:
            return {}
        return moves_from(ship.at, ship.facing, self.movement, self.board, self.blocked(ship.id))

    def targets(self) -> list[Ship]:
        """The enemies the active ship may fire at now (none if it has fired)."""
        if "fire" in self.done or self.ship.salvo == 0:
            return []
        return [t for t in self.enemies() if can_hit(self.ship, self.ship.at, self.ship.facing, t)]

    def can_raise(self) -> bool:
        """Whether the active ship may try to raise its shields now."""
        return "shields" not in self.done and raise_shields_problem(self.ship) is None

    def can_jump(self) -> bool:
        """Whether the active ship may jump now (it has not moved and keeps the cells)."""
        return "moved" not in self.done and self.ship.can_jump


def can_hit(ship: Ship, at: Hex | None, facing: int, target: Ship) -> bool:
    """Whether ``ship`` at ``at`` facing ``facing`` has ``target`` in reach and arc."""
    if at is None or target.at is None or ship.salvo == 0:
        return False
    if distance(at, target.at) > RANGE:
        return False
    return ship.cls.all_round or in_arc(at, facing, target.at)


def facing_toward(at: Hex, target: Hex) -> int:
    """The facing whose forward arc is centred closest to ``target``."""
    ax, ay = at.centre()
    tx, ty = target.centre()
    best, score = 0, float("-inf")
    for facing in range(6):
        fx, fy = Hex(0, 0).neighbour(facing).centre()
        dot = (tx - ax) * fx + (ty - ay) * fy
        if dot > score:
            best, score = facing, dot
    return best


def nearest(at: Hex, ships: list[Ship]) -> Ship | None:
    """The ship of ``ships`` nearest to ``at`` (the first listed on a tie)."""
    placed = [s for s in ships if s.at is not None]
    if not placed:
        return None
    return min(placed, key=lambda s: distance(at, s.at))  # type: ignore[arg-type]
