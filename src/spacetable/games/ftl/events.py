"""The event log of a Faster Than Light turn, in the order the referee resolves it.

Every event is a frozen :class:`~spacetable.lasers.events.Event` with ``to_json`` and
:func:`event_from_json` that round-trip. Lengths are inches, angles degrees (DESIGN
section 5's frame); points and distances are rounded to 1e-9 in so logs compare equal
from machine to machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spacetable.core.events import Event, Point, decode_event

#: Decimal places kept for coordinates and distances in events (1e-9 in).
PLACES = 9


def rounded(value: float) -> float:
    """``value`` to :data:`PLACES` decimals, never ``-0.0``."""
    return round(value, PLACES) + 0.0


def rounded_point(point: tuple[float, float]) -> Point:
    """Both coordinates of ``point`` :func:`rounded`."""
    return (rounded(point[0]), rounded(point[1]))


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """Turn ``turn`` (from 1) is resolved; the orders of every player follow."""

    type_name: ClassVar[str] = "turn"
    turn: int


@dataclass(frozen=True, slots=True)
class PlotIn(Event):
    """``player`` has plotted turn ``turn`` (the orders stay secret until it resolves)."""

    type_name: ClassVar[str] = "plotted"
    player: str
    turn: int


@dataclass(frozen=True, slots=True)
class PlotWithdrawn(Event):
    """``player`` took back his plot for turn ``turn`` before the last one was in."""

    type_name: ClassVar[str] = "unplotted"
    player: str
    turn: int


@dataclass(frozen=True, slots=True)
class OrdersRevealed(Event):
    """What ``player`` plotted, as ``piece:order`` texts (empty: no plot, or nothing
    ordered). Plots are secret until this event."""

    type_name: ClassVar[str] = "plot"
    player: str
    orders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OrderIgnored(Event):
    """A second order for ``piece`` was plotted: it is ignored."""

    type_name: ClassVar[str] = "ignored"
    piece: str
    order: str


@dataclass(frozen=True, slots=True)
class Launched(Event):
    """``ship`` put ``missile`` on the table at ``post`` facing ``heading``; both are now in
    normal space. ``missiles_left`` is what the ship still carries."""

    type_name: ClassVar[str] = "launch"
    ship: str
    missile: str
    post: Point
    heading: float
    missiles_left: int


@dataclass(frozen=True, slots=True)
class Rotated(Event):
    """``piece`` turned ``angle_deg`` clockwise as plotted (negative: counter-clockwise)
    and now faces ``heading``; it is in normal space."""

    type_name: ClassVar[str] = "rotate"
    piece: str
    angle_deg: int
    heading: float


@dataclass(frozen=True, slots=True)
class TapeLaid(Event):
    """``piece`` sprints ``length`` in: its tape runs from ``start`` (its nose) to ``end``.
    ``reach`` is how far the tape was followed: the full length, or the distance of the
    contact that removed the piece (``stopped``)."""

    type_name: ClassVar[str] = "tape"
    piece: str
    length: float
    start: Point
    end: Point
    reach: float
    stopped: bool


@dataclass(frozen=True, slots=True)
class Contact(Event):
    """``piece``'s tape touched ``target`` at ``point``, ``distance`` in along the tape.

    ``effect``: ``missiles`` (missile on missile: both removed), ``missile-on-ship`` (the
    sprinting missile is removed, the target ship scores a hit), ``ship-on-missile`` (the
    target missile is removed, the sprinting ship scores a hit) or ``collision`` (ship on
    ship: both removed)."""

    type_name: ClassVar[str] = "contact"
    piece: str
    target: str
    distance: float
    point: Point
    effect: str


@dataclass(frozen=True, slots=True)
class Hit(Event):
    """``ship`` scored ``count`` hits this turn and now has ``hits``."""

    type_name: ClassVar[str] = "hit"
    ship: str
    count: int
    hits: int


@dataclass(frozen=True, slots=True)
class Removed(Event):
    """``piece`` left the table: ``reason`` is ``contact`` (a missile spent on a contact),
    ``collision`` (a ship that met a ship) or ``hits`` (a ship's third hit)."""

    type_name: ClassVar[str] = "removed"
    piece: str
    reason: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """The surviving sprinter ``piece`` moved its post from ``start`` to ``end``."""

    type_name: ClassVar[str] = "move"
    piece: str
    start: Point
    end: Point


@dataclass(frozen=True, slots=True)
class OffTable(Event):
    """``piece``'s post ended at ``post``, off the table: it is removed from the game."""

    type_name: ClassVar[str] = "off-table"
    piece: str
    post: Point


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The end phase ended the game: ``winner`` (``None``: a draw) and ``reason``:
    ``last-ship`` (one player still has a ship), ``no-ships`` (nobody has) or
    ``turn-limit`` (the most hits scored, then pieces left, won; a draw if they tied)."""

    type_name: ClassVar[str] = "end"
    winner: str | None
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type_name: cls
    for cls in (
        PlotIn,
        PlotWithdrawn,
        TurnBegan,
        OrdersRevealed,
        OrderIgnored,
        Launched,
        Rotated,
        TapeLaid,
        Contact,
        Hit,
        Removed,
        Moved,
        OffTable,
        GameOver,
    )
}


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an FTL event from its ``to_json`` output. Raises ``ValueError`` if the type
    is unknown or a field is missing."""
    return decode_event(data, EVENT_TYPES, "FTL")
