"""The laser battle's event log (Light Speed and Stellar Conflict): what happened, in the
order a referee would announce it; each event round-trips through ``to_json`` and
:func:`event_from_json`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spacetable.core.events import Event, Point, decode_event

__all__ = [
    "CardLeft",
    "Delayed",
    "Destroyed",
    "Event",
    "GoodsTransferred",
    "LaserFired",
    "Point",
    "RocksTaken",
    "RocksVaporized",
    "StepBegan",
    "event_from_json",
]


@dataclass(frozen=True, slots=True)
class StepBegan(Event):
    """All ships of ``speed`` still on the table fire now, together."""

    type_name: ClassVar[str] = "step"
    speed: int
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LaserFired(Event):
    """One laser fired by ``ship`` (its ``laser``-th, from 0) from ``origin``.

    ``target`` is the first card it touches (``None``: off into space, then ``end`` is
    ``None`` too) and ``edge`` the edge it touched. ``result`` is one of ``space``,
    ``blocked`` (a shield stopped it), ``damage`` (``damage`` counters placed), ``ion``
    (an ion hit: no damage), ``mine`` (it touched an asteroid).
    """

    type_name: ClassVar[str] = "laser"
    speed: int
    ship: str
    laser: int
    power: int
    kind: str
    origin: Point
    end: Point | None
    target: str | None
    edge: str | None
    result: str
    damage: int


@dataclass(frozen=True, slots=True)
class Delayed(Event):
    """An ion hit put a Delay token on ``ship``: its speeds are now ``speeds``."""

    type_name: ClassVar[str] = "delay"
    ship: str
    tokens: int
    speeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RocksTaken(Event):
    """``ship`` took ``count`` rocks (or cargo cubes) from ``source``."""

    type_name: ClassVar[str] = "take"
    source: str
    ship: str
    count: int


@dataclass(frozen=True, slots=True)
class RocksVaporized(Event):
    """``count`` rocks or cubes on ``card`` were vaporized; ``reason`` is ``pulse`` (too few
    for the lasers of a pulse), ``own-cargo`` (stolen from one's own cargo ship) or
    ``destroyed`` (the ship carrying them blew up)."""

    type_name: ClassVar[str] = "vaporize"
    card: str
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    """``ship`` had lethal damage and left the table into ``kill_pile`` (``None``:
    vaporized, nobody's pile)."""

    type_name: ClassVar[str] = "destroyed"
    ship: str
    kill_pile: str | None


@dataclass(frozen=True, slots=True)
class GoodsTransferred(Event):
    """Stolen Goods: the destroyed ``source`` ship's cubes went to ``ship``."""

    type_name: ClassVar[str] = "transfer"
    source: str
    ship: str
    count: int


@dataclass(frozen=True, slots=True)
class CardLeft(Event):
    """A card left the table without being destroyed: an asteroid with no rocks left
    (``depleted``) or a cargo ship with no cubes left (``emptied``)."""

    type_name: ClassVar[str] = "left"
    card: str
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type_name: cls
    for cls in (
        StepBegan,
        LaserFired,
        Delayed,
        RocksTaken,
        RocksVaporized,
        Destroyed,
        GoodsTransferred,
        CardLeft,
    )
}


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild a laser battle's event from :meth:`Event.to_json` output. Raises
    ``ValueError`` if the type is unknown or fields are missing."""
    return decode_event(data, EVENT_TYPES)
