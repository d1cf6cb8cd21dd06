"""The event log of a hex fleet battle, in the order things happen at the table.

Every event is a frozen :class:`~spacetable.core.events.Event`; :func:`event_from_json`
rebuilds one from its JSON. Cards are written as in DESIGN section 6 (``"10S"``), hexes as
``[q, r]`` lists, facings 0..5 clockwise from north.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.events import Event, decode_event
from spacetable.core.records import by_tag, tagged


@tagged("turn")
class TurnBegan(Event):
    """Turn ``turn`` begins: ``cup`` holds these ships' chits and the blank."""

    turn: int
    cup: tuple[str, ...]


@tagged("chit")
class ChitDrawn(Event):
    """A chit came out of the cup: ``ship`` is activated (``None``: the blank, the turn
    ends)."""

    turn: int
    ship: str | None


@tagged("return")
class Returned(Event):
    """``ship`` came back from its jump at ``at`` facing ``facing``."""

    ship: str
    at: tuple[int, int]
    facing: int


@tagged("move")
class Moved(Event):
    """``ship`` moved by ``steps`` (``F`` forward, ``L``/``R`` a side's turn), through
    ``path`` (the hexes entered), ending at ``at`` facing ``facing``; ``cost`` hexes of
    movement spent, ``left`` still to spend this activation."""

    ship: str
    steps: str
    path: tuple[tuple[int, int], ...]
    at: tuple[int, int]
    facing: int
    cost: int
    left: int


@tagged("undo")
class MoveUndone(Event):
    """``ship``'s last move was taken back: it stands again at ``at`` facing ``facing``
    with ``left`` hexes of movement to spend this activation."""

    ship: str
    at: tuple[int, int]
    facing: int
    left: int


@tagged("shields")
class ShieldsRaised(Event):
    """``ship`` tried to raise its shields with ``cards``: ``success`` if they matched."""

    ship: str
    cards: tuple[str, ...]
    success: bool


@tagged("hail")
class Hailed(Event):
    """``ship`` hailed ``target`` with ``cards``: ``success`` if communications opened."""

    ship: str
    target: str
    cards: tuple[str, ...]
    success: bool


@tagged("fire")
class Fired(Event):
    """``ship`` fired at ``target`` from ``distance`` hexes: it turned ``cards``; those of
    ``suits`` got through the shields, ``hits`` of them. ``shields_up`` and ``shields``: the
    target's shields as the salvo was fired (up or not, points left), which the log and the
    cards on screen both tell from here."""

    ship: str
    target: str
    distance: int
    cards: tuple[str, ...]
    suits: str
    hits: int
    shields_up: bool
    shields: int


@tagged("damage")
class DamageCard(Event):
    """A damage card for a hit on ``target``: ``system`` is ``weapons``, ``shields``,
    ``propulsion`` or ``None`` for a club (drawn again); ``left`` is what that system has
    left after it."""

    target: str
    card: str
    system: str | None
    left: int


@tagged("reshuffle")
class Reshuffled(Event):
    """The draw pile ran out: ``cards`` discards were shuffled into a new one."""

    cards: int


@tagged("jump")
class Jumped(Event):
    """``ship`` jumped out of the battle; it comes back on turn ``returns_on`` (``None``:
    it has left the battle)."""

    ship: str
    returns_on: int | None


@tagged("wrecked")
class Wrecked(Event):
    """``ship`` has no weapons and no propulsion left: a wreck, out of the battle."""

    ship: str


@tagged("done")
class ActivationEnded(Event):
    """``ship``'s activation is over."""

    ship: str


@tagged("over")
class BattleOver(Event):
    """The battle is over: ``winner`` (``None``: a draw) by ``reason``; ``strength`` is
    each side's systems left as a share of its fleet's (0..1)."""

    winner: str | None
    reason: str
    strength: dict[str, float]


EVENT_TYPES: dict[str, type[Event]] = by_tag(
    TurnBegan,
    ChitDrawn,
    Returned,
    Moved,
    MoveUndone,
    ShieldsRaised,
    Hailed,
    Fired,
    DamageCard,
    Reshuffled,
    Jumped,
    Wrecked,
    ActivationEnded,
    BattleOver,
)


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild a hex fleet event from its JSON. Raises ``ValueError``."""
    return decode_event(data, EVENT_TYPES, "hex fleet")
