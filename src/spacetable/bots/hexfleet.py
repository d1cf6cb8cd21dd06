"""Hex fleet bots: ``make_hexfleet_bot(level).choose(view, rng) -> action``.

A hex fleet battle is played one activated ship at a time, so a bot is asked for one action
whenever the chit drawn is one of its ships: it reads the seat's view (every ship, the
board, the activation so far, the discards; never the order of the draw pile) and answers
with one action for the active ship, stamped ``t = 0`` (whoever drives the match stamps the
time). An activation is several actions (move, fire, shields...) ended by
:class:`~spacetable.games.hexfleet.match.EndActivation` or a jump.

- ``random``: a uniformly random legal action (:class:`HexRandomBot`); it ends the
  activation one time in three, so it always ends.
- ``easy``: closes on the nearest enemy, raises its shields, fires at the nearest enemy
  in its arc; never jumps (:class:`~spacetable.bots.hexfleet_tactics.HexEasyBot`).
- ``tactical``: raises shields before it comes into reach, weighs targets by the damage
  a salvo is expected to do, moves to a hex in reach and arc of its target and out of the
  others' arcs, and jumps out when crippled
  (:class:`~spacetable.bots.hexfleet_tactics.HexTacticalBot`).

Everything is pure: chance comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from spacetable.games.hexfleet.combat import raise_shields_problem
from spacetable.games.hexfleet.hexes import Board, Hex, distance, in_forward_arc
from spacetable.games.hexfleet.match import (
    RANGE,
    EndActivation,
    Fire,
    Hail,
    HexAction,
    Jump,
    Move,
    RaiseShields,
    Return,
)
from spacetable.games.hexfleet.movement import reachable
from spacetable.games.hexfleet.ships import CLASSES, Ship, Weapons

#: Every level :func:`make_hexfleet_bot` knows, weakest first.
HEXFLEET_LEVELS: tuple[str, ...] = ("random", "easy", "tactical")
#: How often the random bot ends its activation at a decision.
RANDOM_END = 1 / 3


class HexBot(Protocol):
    """Anything that chooses a hex fleet action from a seat's view."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> HexAction:
        """The next action of ``view["player"]``'s active ship."""
        ...


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
        return reachable(ship.at, ship.facing, self.movement, self.board, self.blocked(ship.id))

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
    return ship.cls.all_round or in_forward_arc(at, facing, target.at)


class HexRandomBot:
    """Plays a uniformly random legal action of the active ship (hailing and jumping only
    now and then), ending the activation one time in three."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> HexAction:
        """A random legal action for ``view["player"]``'s active ship."""
        seat = Seat.of(view)
        player, ship = seat.player, seat.ship
        if seat.placing:
            at = rng.choice(seat.free_hexes())
            return Return(player, ship.id, at.q, at.r, rng.randrange(6), 0.0)
        end = EndActivation(player, ship.id, 0.0)
        if rng.random() < RANDOM_END:
            return end
        choices: list[HexAction] = [end]
        moves = seat.moves()
        if moves:
            choices.append(Move(player, ship.id, moves[rng.choice(sorted(moves))], 0.0))
        choices.extend(Fire(player, ship.id, t.id, 0.0) for t in seat.targets())
        if seat.can_raise():
            choices.append(RaiseShields(player, ship.id, 0.0))
        if "hail" not in seat.done and rng.random() < 0.1:
            others = [s for s in seat.on_table() if s.id != ship.id]
            if others:
                choices.append(Hail(player, ship.id, rng.choice(others).id, 0.0))
        if seat.can_jump() and rng.random() < 0.05:
            later = list(range(seat.turn + 1, seat.turn_limit + 1))
            choices.append(Jump(player, ship.id, rng.choice([0, *later]), 0.0))
        return rng.choice(choices)


def make_hexfleet_bot(level: str) -> HexBot:
    """A hex fleet bot of one of :data:`HEXFLEET_LEVELS`. Raises ``ValueError`` for an
    unknown level."""
    if level == "random":
        return HexRandomBot()
    if level in ("easy", "tactical"):
        from spacetable.bots.hexfleet_tactics import HexEasyBot, HexTacticalBot

        return HexEasyBot() if level == "easy" else HexTacticalBot()
    raise ValueError(
        f"unknown hex fleet bot level {level!r} (choose from {', '.join(HEXFLEET_LEVELS)})"
    )
