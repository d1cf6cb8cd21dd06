"""How a hex fleet battle is set up (:class:`HexOptions`) and how it ended
(:class:`HexResult`), with the limits the options are checked against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spacetable.core.match import InvalidOptions
from spacetable.games._deployment import checked_players
from spacetable.games.hexfleet.fleets import SCENARIOS, ShipSpec, deploy, fleets_from_json
from spacetable.games.hexfleet.hexes import Board

__all__ = [
    "DEFAULT_TURN_LIMIT",
    "MAX_BOARD",
    "MAX_PLAYERS",
    "MAX_TURN_LIMIT",
    "MIN_BOARD",
    "MIN_PLAYERS",
    "HexOptions",
    "HexResult",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_TURN_LIMIT = 20
MAX_TURN_LIMIT = 200
MIN_BOARD, MAX_BOARD = 8, 60


@dataclass(frozen=True, slots=True)
class HexOptions:
    """How a battle is set up: ``players`` (2 to 4 sides, seat order), a ready
    ``scenario`` (:data:`~.fleets.SCENARIOS`) or ``"custom"`` with ``fleets`` (one list of
    ships per side), the ``board`` size in hexes (``None``: the scenario's) and the
    ``turn_limit``. Raises InvalidOptions naming the bad option."""

    players: tuple[str, ...] = ("red", "blue")
    scenario: str = "duel"
    fleets: tuple[tuple[ShipSpec, ...], ...] | None = None
    board: tuple[int, int] | None = None
    turn_limit: int = DEFAULT_TURN_LIMIT

    def __post_init__(self) -> None:
        players = checked_players(self.players, "Hex fleet", MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "players", players)
        if self.scenario != "custom" and self.scenario not in SCENARIOS:
            known = ", ".join([*SCENARIOS, "custom"])
            raise InvalidOptions(f"unknown scenario {self.scenario!r} (one of: {known})")
        if self.scenario == "custom" and self.fleets is None:
            raise InvalidOptions("a custom battle needs 'fleets', one list of ships per side")
        if self.fleets is not None and self.scenario != "custom":
            raise InvalidOptions("'fleets' are for scenario 'custom' only")
        if self.fleets is not None and len(self.fleets) != len(players):
            raise InvalidOptions(
                f"'fleets' must list one fleet for each of the {len(players)} sides"
            )
        size = self.board
        if size is not None and (
            not isinstance(size, list | tuple)
            or len(size) != 2
            or not all(_whole(v) and MIN_BOARD <= v <= MAX_BOARD for v in size)
        ):
            raise InvalidOptions(
                f"'board' must be [columns, rows], each {MIN_BOARD} to {MAX_BOARD}, got {size!r}"
            )
        if size is not None:
            object.__setattr__(self, "board", (int(size[0]), int(size[1])))
        limit = self.turn_limit
        if not _whole(limit) or not 1 <= limit <= MAX_TURN_LIMIT:
            raise InvalidOptions(f"'turn_limit' must be 1 to {MAX_TURN_LIMIT}, got {limit!r}")
        deploy(self.battle_board(), self.side_fleets(), players)  # every fleet must fit

    def battle_board(self) -> Board:
        """The board this battle is fought on."""
        if self.board is not None:
            return Board(*self.board)
        if self.scenario in SCENARIOS:
            return SCENARIOS[self.scenario].board
        return Board(24, 16)

    def side_fleets(self) -> tuple[tuple[ShipSpec, ...], ...]:
        """Each side's ships, in seat order."""
        if self.fleets is not None:
            return self.fleets
        scenario = SCENARIOS[self.scenario]
        return tuple(scenario.fleet(seat) for seat in range(len(self.players)))

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (round-trips through :meth:`from_json`)."""
        return {
            "players": list(self.players),
            "scenario": self.scenario,
            "fleets": None
            if self.fleets is None
            else [[s.to_json() for s in fleet] for fleet in self.fleets],
            "board": None if self.board is None else list(self.board),
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_json(cls, data: Any) -> HexOptions:
        """Options from JSON; missing keys take their defaults. Raises InvalidOptions."""
        if not isinstance(data, dict):
            raise InvalidOptions("hex fleet options must be a JSON object")
        unknown = sorted(set(data) - {"players", "scenario", "fleets", "board", "turn_limit"})
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
        data = dict(data)
        if data.get("fleets") is not None:
            players = data.get("players", ("red", "blue"))
            sides = len(players) if isinstance(players, list | tuple) else 0
            data["fleets"] = fleets_from_json(data["fleets"], sides)
        return cls(**data)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class HexResult:
    """How the battle ended: ``winner`` (``None``: a draw), ``reason`` (``last-side``,
    ``no-side`` or ``turn-limit``), the turns played and each side's strength left."""

    winner: str | None
    reason: str
    turns: int
    strength: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "winner": self.winner,
            "reason": self.reason,
            "turns": self.turns,
            "strength": dict(self.strength),
            # How the match ended (core/endings.py): at the turn limit, or by the rules.
            "ending": "turn_limit" if self.reason == "turn-limit" else "rules",
        }
