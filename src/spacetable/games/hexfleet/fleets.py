"""Fleets and where they start: the ready scenarios, custom fleets, and the deployment.

A scenario gives every side the same ships (names differ by side) on a board of its size:

- ``duel``: one heavy starship each, the rulebook's Benellyn against the Kal Pol.
- ``skirmish``: a medium ship with heavy weapons and two light escorts each.
- ``fleet``: a heavy flagship, two medium ships (one heavy-armed) and three light ships each.

A custom fleet lists its ships: class, weapons (medium ships only) and a name. Ships get
ID numbers 1, 2, 3... across the battle in seat order, as the rulebook numbers its chits.
Sides deploy along the board's edges facing inwards: two sides on the left and right
edges, a third along the top, a fourth along the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spacetable.core.match import InvalidOptions
from spacetable.games.hexfleet.hexes import Board, Hex
from spacetable.games.hexfleet.ships import Ship, Weapons, class_and_weapons, ship_class

#: The most ships one side may bring, and the longest ship name.
MAX_SHIPS_PER_SIDE = 8
MAX_NAME = 24


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """One ship of a fleet as chosen: its class, weapon size and name."""

    cls: str
    weapons: Weapons
    name: str

    @classmethod
    def from_json(cls, data: Any, where: str) -> ShipSpec:
        """``{"class": ..., "weapons": ..., "name": ...}``; raises InvalidOptions naming
        ``where`` (e.g. "fleet 1, ship 2")."""
        if not isinstance(data, dict):
            raise InvalidOptions(f"{where} must be an object with a 'class'")
        unknown = sorted(set(data) - {"class", "weapons", "name"})
        if unknown:
            raise InvalidOptions(f"{where}: unknown field(s) {', '.join(unknown)}")
        klass, weapons = class_and_weapons(data, where, InvalidOptions)
        name = data.get("name") or f"{klass.name.title()} {where.rsplit(' ', 1)[-1]}"
        if not isinstance(name, str) or len(name.strip()) == 0 or len(name) > MAX_NAME:
            raise InvalidOptions(f"{where}: a name must be 1 to {MAX_NAME} characters")
        return cls(klass.name, weapons, name.strip())

    def to_json(self) -> dict[str, str]:
        """The spec as JSON."""
        return {"class": self.cls, "weapons": self.weapons.value, "name": self.name}


def _specs(*ships: tuple[str, str, str]) -> tuple[ShipSpec, ...]:
    return tuple(ShipSpec(c, Weapons(w), n) for c, w, n in ships)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A ready battle: its title, board, and each side's ships (by seat; sides past the
    listed ones take the first list with their seat number in the names)."""

    key: str
    title: str
    about: str
    board: Board
    sides: tuple[tuple[ShipSpec, ...], ...]

    def fleet(self, seat: int) -> tuple[ShipSpec, ...]:
        """The ships of the side in ``seat`` (0-based)."""
        if seat < len(self.sides):
            return self.sides[seat]
        return tuple(ShipSpec(s.cls, s.weapons, f"{s.name} {seat + 1}") for s in self.sides[0])


SCENARIOS: dict[str, Scenario] = {
    s.key: s
    for s in (
        Scenario(
            "duel",
            "Duel of heavies",
            "Two heavy starships meet at the Neutral Zone (the rulebook's example).",
            Board(18, 12),
            (_specs(("heavy", "heavy", "Benellyn")), _specs(("heavy", "heavy", "Kal Pol"))),
        ),
        Scenario(
            "skirmish",
            "Skirmish",
            "A heavy-armed cruiser and two fast light escorts a side.",
            Board(22, 14),
            (
                _specs(
                    ("medium", "heavy", "Aldrin"),
                    ("light", "light", "Swift"),
                    ("light", "light", "Dart"),
                ),
                _specs(
                    ("medium", "heavy", "Vorn"),
                    ("light", "light", "Kestrel"),
                    ("light", "light", "Hask"),
                ),
            ),
        ),
        Scenario(
            "fleet",
            "Fleet action",
            "A flagship, two cruisers and three light ships a side.",
            Board(28, 18),
            (
                _specs(
                    ("heavy", "heavy", "Resolute"),
                    ("medium", "heavy", "Vigil"),
                    ("medium", "light", "Herald"),
                    ("light", "light", "Spark"),
                    ("light", "light", "Wisp"),
                    ("light", "light", "Quill"),
                ),
                _specs(
                    ("heavy", "heavy", "Tor Kesh"),
                    ("medium", "heavy", "Dravin"),
                    ("medium", "light", "Sul"),
                    ("light", "light", "Ket"),
                    ("light", "light", "Vas"),
                    ("light", "light", "Orr"),
                ),
            ),
        ),
    )
}


def fleets_from_json(data: Any, sides: int) -> tuple[tuple[ShipSpec, ...], ...]:
    """Custom fleets, one list of ships per side. Raises InvalidOptions naming the fleet
    and the ship."""
    if not isinstance(data, list | tuple) or len(data) != sides:
        raise InvalidOptions(f"'fleets' must list one fleet for each of the {sides} sides")
    fleets = []
    for i, fleet in enumerate(data, 1):
        if not isinstance(fleet, list | tuple) or not 1 <= len(fleet) <= MAX_SHIPS_PER_SIDE:
            raise InvalidOptions(f"fleet {i} must list 1 to {MAX_SHIPS_PER_SIDE} ships")
        fleets.append(
            tuple(ShipSpec.from_json(s, f"fleet {i}, ship {j}") for j, s in enumerate(fleet, 1))
        )
    return tuple(fleets)


#: Facing of each side as it deploys (toward the middle): left edge, right, top, bottom.
_SIDE_FACING = (2, 5, 3, 0)


def deploy(board: Board, fleets: tuple[tuple[ShipSpec, ...], ...], players: tuple[str, ...]
           ) -> list[Ship]:  # fmt: skip
    """Every side's ships at their starting hexes, numbered 1, 2, 3... in seat order. Raises
    InvalidOptions if a fleet does not fit along its edge."""
    ships: list[Ship] = []
    for seat, (player, fleet) in enumerate(zip(players, fleets, strict=True)):
        spots = _edge_spots(board, seat, len(fleet))
        for spec, at in zip(fleet, spots, strict=True):
            klass = ship_class(spec.cls)
            ships.append(
                Ship.new(str(len(ships) + 1), spec.name, player, klass, spec.weapons, at,
                         _SIDE_FACING[seat])
            )  # fmt: skip
    return ships


def _edge_spots(board: Board, seat: int, count: int) -> list[Hex]:
    """``count`` hexes two apart, centred along the edge of ``seat``, one hex in."""
    vertical = seat < 2
    length = board.height if vertical else board.width
    if (seat >= 2 and count * 2 > board.width - 6) or (vertical and count * 2 > length):
        raise InvalidOptions(f"{count} ships do not fit along a {length}-hex edge")
    first = (length - (2 * count - 1)) // 2
    spots = []
    for k in range(count):
        along = first + 2 * k
        if seat == 0:
            spots.append(Board.hex_at(1, along))
        elif seat == 1:
            spots.append(Board.hex_at(board.width - 2, along))
        elif seat == 2:
            spots.append(Board.hex_at(along, 1))
        else:
            spots.append(Board.hex_at(along, board.height - 2))
    return spots
