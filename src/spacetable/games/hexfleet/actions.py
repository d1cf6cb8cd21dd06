"""What a player does with his activated ship in a hex fleet battle: the match's actions.

Each is a frozen :class:`~spacetable.core.match.Action` naming the player and the ship (the
one whose chit came out), with the server's time ``t``; its JSON ``type`` is the tag the
``act`` message carries (docs/protocol.md).
"""

from __future__ import annotations

from spacetable.core.match import Action
from spacetable.core.records import tagged


@tagged("move")
class Move(Action):
    """``player`` moves the active ``ship`` by ``steps``: ``F`` ahead, ``L``/``R`` a turn."""

    player: str
    ship: str
    steps: str
    t: float


@tagged("shields")
class RaiseShields(Action):
    """``player`` tries to raise the active ``ship``'s shields."""

    player: str
    ship: str
    t: float


@tagged("hail")
class Hail(Action):
    """``player``'s active ``ship`` hails ``target``."""

    player: str
    ship: str
    target: str
    t: float


@tagged("fire")
class Fire(Action):
    """``player``'s active ``ship`` fires a salvo at ``target``."""

    player: str
    ship: str
    target: str
    t: float


@tagged("jump")
class Jump(Action):
    """``player``'s active ``ship`` jumps out; it comes back on turn ``returns_on`` (0: it
    leaves the battle)."""

    player: str
    ship: str
    returns_on: int
    t: float


@tagged("return")
class Return(Action):
    """``player`` puts the active ``ship``, back from its jump, on hex ``(q, r)`` facing
    ``facing``."""

    player: str
    ship: str
    q: int
    r: int
    facing: int
    t: float


@tagged("done")
class EndActivation(Action):
    """``player`` is done with the active ``ship``: the next chit is drawn."""

    player: str
    ship: str
    t: float


@tagged("undo")
class Undo(Action):
    """``player`` takes back the active ``ship``'s last move: allowed inside the open
    activation, for the moves made since the last card was turned (docs/rulings.md, H14)."""

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
