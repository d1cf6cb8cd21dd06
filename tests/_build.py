"""Small builders for battle tests: ships and cards in a line or two."""

from __future__ import annotations

from spacetable.lasers.battle import Card, Rules
from spacetable.lasers.geometry import Pose
from spacetable.lasers.ships import Laser, LaserKind, Role, Shield, ShipDef

HALF_W, HALF_L = 31.5, 44.0


def forward(power: int, x: float = 0.0, kind: LaserKind = "normal") -> Laser:
    """A laser out of the card's front edge at local ``x``, straight ahead."""
    return Laser((x, HALF_L), 0.0, power, kind)


def backward(power: int, x: float = 0.0) -> Laser:
    """A laser out of the back edge, straight backward."""
    return Laser((x, -HALF_L), 180.0, power)


def ship(
    key: str,
    speed: int | tuple[int, ...] = 1,
    health: int = 1,
    lasers: tuple[Laser, ...] = (),
    shields: tuple[Shield, ...] = (),
    vp: int | None = None,
    role: Role = "warship",
) -> ShipDef:
    """A ship definition for a test."""
    speeds = speed if isinstance(speed, tuple) else (speed,)
    return ShipDef(
        key, key.title(), speeds, health, lasers, shields, health if vp is None else vp, 0, role
    )


def card(
    cid: str,
    owner: str,
    definition: ShipDef,
    x: float,
    y: float,
    rotation: float = 0.0,
    rocks: int = 0,
) -> Card:
    """A ship card at ``(x, y)`` turned ``rotation`` degrees."""
    return Card(cid, Pose(x, y, rotation), definition, owner, rocks)


def asteroid(cid: str, x: float, y: float, rocks: int = 12) -> Card:
    """An asteroid card."""
    return Card(cid, Pose(x, y, 0.0), None, None, rocks)


def rules(*players: str, **options: bool | str) -> Rules:
    """Rules for the given players (``ruleset="stellar"``, ``piracy=True``...)."""
    ruleset = str(options.pop("ruleset", "lightspeed"))
    return Rules(
        tuple(players),
        ruleset,  # type: ignore[arg-type]  # checked by Rules
        piracy=bool(options.get("piracy", False)),
        stolen_goods=bool(options.get("stolen_goods", False)),
    )
