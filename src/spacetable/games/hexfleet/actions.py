"""What a player does with his activated ship in a hex fleet battle: the match's actions.

Each is a frozen :class:`~spacetable.core.match.Action` naming the player and the ship (the
one whose chit came out), with the server's time ``t``; its JSON ``type`` is the tag the
``act`` message carries (docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spacetable.core.match import Action


@dataclass(frozen=True, slots=True)
class Move(Action):
    """``player`` moves the active ``ship`` by ``steps``: ``F`` ahead, ``L``/``R`` a turn."""

    type_name: ClassVar[str] = "move"
    player: str
    ship: str
    steps: str
    t: float


@dataclass(frozen=True, slots=True)
class RaiseShields(Action):
    """``player`` tries to raise the active ``ship``'s shields."""

    type_name: ClassVar[str] = "shields"
    player: str
    ship: str
    t: float


@dataclass(frozen=True, slots=True)
class Hail(Action):
    """``player``'s active ``ship`` hails ``target``."""

    type_name: ClassVar[str] = "hail"
    player: str
    ship: str
    target: str
    t: float


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """``player``'s active ``ship`` fires a salvo at ``target``."""

    type_name: ClassVar[str] = "fire"
    player: str
    ship: str
    target: str
    t: float


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """``player``'s active ``ship`` jumps out; it comes back on turn ``returns_on`` (0: it
    leaves the battle)."""

    type_name: ClassVar[str] = "jump"
    player: str
    ship: str
    returns_on: int
    t: float


@dataclass(frozen=True, slots=True)
class Return(Action):
    """``player`` puts the active ``ship``, back from its jump, on hex ``(q, r)`` facing
    ``facing``."""

    type_name: ClassVar[str] = "return"
    player: str
    ship: str
    q: int
    r: int
    facing: int
    t: float


@dataclass(frozen=True, slots=True)
class EndActivation(Action):
    """``player`` is done with the active ``ship``: the next chit is drawn."""

    type_name: ClassVar[str] = "done"
    player: str
    ship: str
    t: float


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """``player`` takes back the active ``ship``'s last move: allowed inside the open
    activation, for the moves made since the last card was turned (docs/rulings.md, H14)."""

    type_name: ClassVar[str] = "undo"
    player: str
    ship: str
    t: float


HexAction = Move | RaiseShields | Hail | Fire | Jump | Return | EndActivation | Undo
ACTION_TYPES: tuple[type[HexAction], ...] = (
    Move,
    RaiseShields,
    Hail,
    Fire,
    Jump,
    Return,
    EndActivation,
    Undo,
)
