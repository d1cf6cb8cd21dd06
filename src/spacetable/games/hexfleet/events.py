"""The event log of a hex fleet battle, in the order things happen at the table.

Every event is a frozen :class:`~spacetable.core.events.Event`; :func:`event_from_json`
rebuilds one from its JSON. Cards are written as in DESIGN section 6 (``"10S"``), hexes as
``[q, r]`` lists, facings 0..5 clockwise from north.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spacetable.core.events import Event, decode_event


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """Turn ``turn`` begins: ``cup`` holds these ships' chits and the blank."""

    type_name: ClassVar[str] = "turn"
    turn: int
    cup: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChitDrawn(Event):
    """A chit came out of the cup: ``ship`` is activated (``None``: the blank, the turn
    ends)."""

    type_name: ClassVar[str] = "chit"
    turn: int
    ship: str | None


@dataclass(frozen=True, slots=True)
class Returned(Event):
    """``ship`` came back from its jump at ``at`` facing ``facing``."""

    type_name: ClassVar[str] = "return"
    ship: str
    at: tuple[int, int]
    facing: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """``ship`` moved by ``steps`` (``F`` forward, ``L``/``R`` a side's turn), through
    ``path`` (the hexes entered), ending at ``at`` facing ``facing``; ``cost`` hexes of
    movement spent, ``left`` still to spend this activation."""

    type_name: ClassVar[str] = "move"
    ship: str
    steps: str
    path: tuple[tuple[int, int], ...]
    at: tuple[int, int]
    facing: int
    cost: int
    left: int


@dataclass(frozen=True, slots=True)
class MoveUndone(Event):
    """``ship``'s last move was taken back: it stands again at ``at`` facing ``facing``
    with ``left`` hexes of movement to spend this activation."""

    type_name: ClassVar[str] = "undo"
    ship: str
    at: tuple[int, int]
    facing: int
    left: int


@dataclass(frozen=True, slots=True)
class ShieldsRaised(Event):
    """``ship`` tried to raise its shields with ``cards``: ``success`` if they matched."""

    type_name: ClassVar[str] = "shields"
    ship: str
    cards: tuple[str, ...]
    success: bool


@dataclass(frozen=True, slots=True)
class Hailed(Event):
    """``ship`` hailed ``target`` with ``cards``: ``success`` if communications opened."""

    type_name: ClassVar[str] = "hail"
    ship: str
    target: str
    cards: tuple[str, ...]
    success: bool


@dataclass(frozen=True, slots=True)
class Fired(Event):
    """``ship`` fired at ``target`` from ``distance`` hexes: it turned ``cards``; those of
    ``suits`` got through the shields, ``hits`` of them. ``shields_up`` and ``shields``: the
    target's shields as the salvo was fired (up or not, points left), which the log and the
    cards on screen both tell from here."""

    type_name: ClassVar[str] = "fire"
    ship: str
    target: str
    distance: int
    cards: tuple[str, ...]
    suits: str
    hits: int
    shields_up: bool
    shields: int


@dataclass(frozen=True, slots=True)
class DamageCard(Event):
    """A damage card for a hit on ``target``: ``system`` is ``weapons``, ``shields``,
    ``propulsion`` or ``None`` for a club (drawn again); ``left`` is what that system has
    left after it."""

    type_name: ClassVar[str] = "damage"
    target: str
    card: str
    system: str | None
    left: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The draw pile ran out: ``cards`` discards were shuffled into a new one."""

    type_name: ClassVar[str] = "reshuffle"
    cards: int


@dataclass(frozen=True, slots=True)
class Jumped(Event):
    """``ship`` jumped out of the battle; it comes back on turn ``returns_on`` (``None``:
    it has left the battle)."""

    type_name: ClassVar[str] = "jump"
    ship: str
    returns_on: int | None


@dataclass(frozen=True, slots=True)
class Wrecked(Event):
    """``ship`` has no weapons and no propulsion left: a wreck, out of the battle."""

    type_name: ClassVar[str] = "wrecked"
    ship: str


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    """``ship``'s activation is over."""

    type_name: ClassVar[str] = "done"
    ship: str


@dataclass(frozen=True, slots=True)
class BattleOver(Event):
    """The battle is over: ``winner`` (``None``: a draw) by ``reason``; ``strength`` is
    each side's systems left as a share of its fleet's (0..1)."""

    type_name: ClassVar[str] = "over"
    winner: str | None
    reason: str
    strength: dict[str, float]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type_name: cls
    for cls in (
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
}


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild a hex fleet event from its JSON. Raises ``ValueError``."""
    event = decode_event(data, EVENT_TYPES, "hex fleet")
    if isinstance(event, Moved):
        return Moved(
            event.ship,
            event.steps,
            tuple(tuple(p) for p in event.path),  # type: ignore[misc]
            event.at,
            event.facing,
            event.cost,
            event.left,
        )
    return event
