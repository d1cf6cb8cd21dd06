"""The event log of a Faster Than Light turn, in the order the referee resolves it.

Every event is a frozen :class:`~spacetable.lasers.events.Event` with ``to_json`` and
:func:`event_from_json` that round-trip. Lengths are inches, angles degrees (DESIGN
section 5's frame); points and distances are rounded to 1e-9 in so logs compare equal
from machine to machine.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.events import Event, Point, decode_event
from spacetable.core.records import by_tag, tagged

#: Decimal places kept for coordinates and distances in events (1e-9 in).
PLACES = 9


def rounded(value: float) -> float:
    """``value`` to :data:`PLACES` decimals, never ``-0.0``."""
    return round(value, PLACES) + 0.0


def rounded_point(point: tuple[float, float]) -> Point:
    """Both coordinates of ``point`` :func:`rounded`."""
    return (rounded(point[0]), rounded(point[1]))


@tagged("turn")
class TurnBegan(Event):
    """Turn ``turn`` (from 1) is resolved; the orders of every player follow."""

    turn: int


@tagged("plotted")
class PlotIn(Event):
    """``player`` has plotted turn ``turn`` (the orders stay secret until it resolves)."""

    player: str
    turn: int


@tagged("unplotted")
class PlotWithdrawn(Event):
    """``player`` took back his plot for turn ``turn`` before the last one was in."""

    player: str
    turn: int


@tagged("plot")
class OrdersRevealed(Event):
    """What ``player`` plotted, as ``piece:order`` texts (empty: no plot, or nothing
    ordered). Plots are secret until this event."""

    player: str
    orders: tuple[str, ...]


@tagged("ignored")
class OrderIgnored(Event):
    """A second order for ``piece`` was plotted: it is ignored."""

    piece: str
    order: str


@tagged("launch")
class Launched(Event):
    """``ship`` put ``missile`` on the table at ``post`` facing ``heading``; both are now in
    normal space. ``missiles_left`` is what the ship still carries."""

    ship: str
    missile: str
    post: Point
    heading: float
    missiles_left: int


@tagged("rotate")
class Rotated(Event):
    """``piece`` turned ``angle_deg`` clockwise as plotted (negative: counter-clockwise)
    and now faces ``heading``; it is in normal space."""

    piece: str
    angle_deg: int
    heading: float


@tagged("tape")
class TapeLaid(Event):
    """``piece`` sprints ``length`` in: its tape runs from ``start`` (its nose) to ``end``.
    ``reach`` is how far the tape was followed: the full length, or the distance of the
    contact that removed the piece (``stopped``)."""

    piece: str
    length: float
    start: Point
    end: Point
    reach: float
    stopped: bool


@tagged("contact")
class Contact(Event):
    """``piece``'s tape touched ``target`` at ``point``, ``distance`` in along the tape.

    ``effect``: ``missiles`` (missile on missile: both removed), ``missile-on-ship`` (the
    sprinting missile is removed, the target ship scores a hit), ``ship-on-missile`` (the
    target missile is removed, the sprinting ship scores a hit) or ``collision`` (ship on
    ship: both removed)."""

    piece: str
    target: str
    distance: float
    point: Point
    effect: str


@tagged("hit")
class Hit(Event):
    """``ship`` scored ``count`` hits this turn and now has ``hits``."""

    ship: str
    count: int
    hits: int


@tagged("removed")
class Removed(Event):
    """``piece`` left the table: ``reason`` is ``contact`` (a missile spent on a contact),
    ``collision`` (a ship that met a ship) or ``hits`` (a ship's third hit)."""

    piece: str
    reason: str


@tagged("move")
class Moved(Event):
    """The surviving sprinter ``piece`` moved its post from ``start`` to ``end``."""

    piece: str
    start: Point
    end: Point


@tagged("off-table")
class OffTable(Event):
    """``piece``'s post ended at ``post``, off the table: it is removed from the game."""

    piece: str
    post: Point


@tagged("end")
class GameOver(Event):
    """The end phase ended the game: ``winner`` (``None``: a draw) and ``reason``:
    ``last-ship`` (one player still has a ship), ``no-ships`` (nobody has) or
    ``turn-limit`` (the most hits scored, then pieces left, won; a draw if they tied)."""

    winner: str | None
    reason: str


EVENT_TYPES: dict[str, type[Event]] = by_tag(
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


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an FTL event from its ``to_json`` output. Raises ``ValueError`` if the type
    is unknown or a field is missing."""
    return decode_event(data, EVENT_TYPES, "FTL")
