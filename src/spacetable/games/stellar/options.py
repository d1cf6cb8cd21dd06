"""How a Stellar Conflict match is set up: players and their races, the battle size, the
deployment rule, the asteroid variant, Stolen Goods and the table."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.core.match import InvalidOptions
from spacetable.games._deployment import (
    DEFAULT_TABLE_MM,
    checked_players,
    checked_table_size,
    is_number,
)
from spacetable.games._laser_match import check_asteroids_fit, options_from_json
from spacetable.games.stellar.fleets import BATTLE_SIZES, CREDITS, RACES, BattleSize, Race
from spacetable.lasers.battle import Card
from spacetable.lasers.geometry import Pose
from spacetable.lasers.tables import CARGO_CUBES

RULESET = "stellar"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: The deployment countdown in seconds, by battle size (the server runs the clock).
COUNTDOWN_SECONDS: dict[BattleSize, float] = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}

DeploymentRule = Literal["timer", "stop"]
DEPLOYMENT_RULES: tuple[DeploymentRule, ...] = ("timer", "stop")

#: The asteroid variant uses 1 to this many asteroid cards.
MAX_ASTEROIDS = 5
#: Two or more asteroids lie evenly spaced on a circle of this radius (mm) around the
#: table's centre, the first to the right of it.
ASTEROID_RING_MM = 220.0


@dataclass(frozen=True, slots=True)
class StellarOptions:
    """How a Stellar Conflict match is set up.

    ``players``: 2 to 4 distinct names in seat order. ``races``: one distinct race per
    player, in seat order (default: :data:`RACES` in order). ``battle_size``: ``dispute``,
    ``conflict`` or ``war`` (the credits and the countdown). ``deployment``: ``timer`` or
    ``stop`` (Light Speed's rule). ``asteroids``: 0 for the normal game with cargo ships,
    1 to 5 for the asteroid variant (no cargo ships; the cubes lie on the asteroids).
    ``stolen_goods``: the Stolen Goods variant. ``table_size_mm``: width and height of the
    table, centred on the origin. ``countdown``: seconds the deployment countdown runs
    instead of the battle size's (a server setting, for quick tests or a house rule);
    ``None``: 30, 60 or 120 s.

    Raises :class:`~spacetable.core.match.InvalidOptions` naming the bad option.
    """

    players: tuple[str, ...] = ("red", "blue")
    races: tuple[Race, ...] | None = None
    battle_size: BattleSize = "conflict"
    deployment: DeploymentRule = "timer"
    asteroids: int = 0
    stolen_goods: bool = False
    table_size_mm: tuple[float, float] = field(default=DEFAULT_TABLE_MM)
    countdown: float | None = None

    def __post_init__(self) -> None:
        players = checked_players(self.players, "Stellar Conflict", MIN_PLAYERS, MAX_PLAYERS)
        if self.countdown is not None and not (
            is_number(self.countdown) and math.isfinite(self.countdown) and self.countdown > 0
        ):
            raise InvalidOptions(
                f"'countdown' must be a number of seconds > 0, got {self.countdown!r}"
            )
        races = RACES[: len(players)] if self.races is None else self.races
        if not isinstance(races, list | tuple) or len(races) != len(players):
            raise InvalidOptions(f"'races' must name one race per player, got {races!r}")
        for race in races:
            if race not in RACES:
                raise InvalidOptions(f"unknown race {race!r} (choose from {', '.join(RACES)})")
        if len(set(races)) != len(races):
            raise InvalidOptions("each race's cards exist once: players need distinct races")
        if self.battle_size not in BATTLE_SIZES:
            raise InvalidOptions(
                f"'battle_size' must be one of {', '.join(BATTLE_SIZES)}, got {self.battle_size!r}"
            )
        if self.deployment not in DEPLOYMENT_RULES:
            raise InvalidOptions(
                f"'deployment' must be one of {', '.join(DEPLOYMENT_RULES)}, "
                f"got {self.deployment!r}"
            )
        if (
            isinstance(self.asteroids, bool)
            or not isinstance(self.asteroids, int)
            or not 0 <= self.asteroids <= MAX_ASTEROIDS
        ):
            raise InvalidOptions(
                f"'asteroids' must be a whole number from 0 to {MAX_ASTEROIDS}, "
                f"got {self.asteroids!r}"
            )
        if not isinstance(self.stolen_goods, bool):
            raise InvalidOptions(f"'stolen_goods' must be true or false, got {self.stolen_goods!r}")
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "races", tuple(races))
        object.__setattr__(self, "table_size_mm", checked_table_size(self.table_size_mm))
        check_asteroids_fit(self)

    def race(self, player: str) -> Race:
        """The race ``player`` commands."""
        assert self.races is not None
        return self.races[self.players.index(player)]

    @property
    def credits(self) -> int:
        """What a fleet may cost in this battle."""
        return CREDITS[self.battle_size]

    @property
    def countdown_seconds(self) -> float:
        """How long the deployment countdown runs (also set under the stop rule)."""
        if self.countdown is not None:
            return float(self.countdown)
        return COUNTDOWN_SECONDS[self.battle_size]

    @property
    def cargo_cubes(self) -> int:
        """Cubes on each cargo ship: 8, 5 or 4 for 2, 3 or 4 players."""
        return CARGO_CUBES[len(self.players)]

    @property
    def cubes_per_asteroid(self) -> int:
        """Asteroid variant: the cubes the cargo ships would have carried, shared equally
        among the asteroids (rounded down); 0 without asteroids."""
        if not self.asteroids:
            return 0
        return len(self.players) * self.cargo_cubes // self.asteroids

    def asteroid_cards(self) -> tuple[Card, ...]:
        """The asteroid cards as they lie before deployment: one at the centre, or several
        evenly spaced on a ring of :data:`ASTEROID_RING_MM` around it."""
        cubes = self.cubes_per_asteroid
        if self.asteroids == 1:
            return (Card("asteroid", Pose(0.0, 0.0), rocks=cubes),)
        cards = []
        for index in range(self.asteroids):
            angle = 2 * math.pi * index / self.asteroids
            x = round(ASTEROID_RING_MM * math.cos(angle), 1) + 0.0  # + 0.0: no -0.0
            y = round(ASTEROID_RING_MM * math.sin(angle), 1) + 0.0
            cards.append(Card(f"asteroid-{index + 1}", Pose(x, y), rocks=cubes))
        return tuple(cards)

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (round-trips through :meth:`from_json`)."""
        return {
            "players": list(self.players),
            "races": list(self.races or ()),
            "battle_size": self.battle_size,
            "deployment": self.deployment,
            "asteroids": self.asteroids,
            "stolen_goods": self.stolen_goods,
            "table_size_mm": list(self.table_size_mm),
        } | ({} if self.countdown is None else {"countdown": self.countdown})

    @classmethod
    def from_json(cls, data: Any) -> StellarOptions:
        """Options from JSON; missing keys take their defaults. Raises InvalidOptions."""
        return options_from_json(cls, "Stellar Conflict", data)
