"""The laser battle's event log (Light Speed and Stellar Conflict): what happened, in the
order a referee would announce it; each event round-trips through ``to_json`` and
:func:`event_from_json`."""

from __future__ import annotations

from typing import Any

from spacetable.core.events import Event, Point, decode_event
from spacetable.core.records import by_tag, tagged

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


@tagged("step")
class StepBegan(Event):
    """All ships of ``speed`` still on the table fire now, together."""

    speed: int
    ships: tuple[str, ...]


@tagged("laser")
class LaserFired(Event):
    """One laser fired by ``ship`` (its ``laser``-th, from 0) from ``origin``.

    ``target`` is the first card it touches (``None``: off into space, then ``end`` is
    ``None`` too) and ``edge`` the edge it touched. ``result`` is one of ``space``,
    ``blocked`` (a shield stopped it), ``damage`` (``damage`` counters placed), ``ion``
    (an ion hit: no damage), ``mine`` (it touched an asteroid).
    """

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


@tagged("delay")
class Delayed(Event):
    """An ion hit put a Delay token on ``ship``: its speeds are now ``speeds``."""

    ship: str
    tokens: int
    speeds: tuple[int, ...]


@tagged("take")
class RocksTaken(Event):
    """``ship`` took ``count`` rocks (or cargo cubes) from ``source``."""

    source: str
    ship: str
    count: int


@tagged("vaporize")
class RocksVaporized(Event):
    """``count`` rocks or cubes on ``card`` were vaporized; ``reason`` is ``pulse`` (too few
    for the lasers of a pulse), ``own-cargo`` (stolen from one's own cargo ship) or
    ``destroyed`` (the ship carrying them blew up)."""

    card: str
    count: int
    reason: str


@tagged("destroyed")
class Destroyed(Event):
    """``ship`` had lethal damage and left the table into ``kill_pile`` (``None``:
    vaporized, nobody's pile)."""

    ship: str
    kill_pile: str | None


@tagged("transfer")
class GoodsTransferred(Event):
    """Stolen Goods: the destroyed ``source`` ship's cubes went to ``ship``."""

    source: str
    ship: str
    count: int


@tagged("left")
class CardLeft(Event):
    """A card left the table without being destroyed: an asteroid with no rocks left
    (``depleted``) or a cargo ship with no cubes left (``emptied``)."""

    card: str
    reason: str


EVENT_TYPES: dict[str, type[Event]] = by_tag(
    StepBegan,
    LaserFired,
    Delayed,
    RocksTaken,
    RocksVaporized,
    Destroyed,
    GoodsTransferred,
    CardLeft,
)


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild a laser battle's event from :meth:`Event.to_json` output. Raises
    ``ValueError`` if the type is unknown or fields are missing."""
    return decode_event(data, EVENT_TYPES)
