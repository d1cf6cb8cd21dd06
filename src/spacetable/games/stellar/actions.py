"""Stellar Conflict's actions: the secret fleet, the countdown running out, and the
placing round's actions shared with Light Speed (:mod:`spacetable.games._deployment`)."""

from __future__ import annotations

from spacetable.core.match import Action
from spacetable.core.records import tagged
from spacetable.games._deployment import Discard, Drop, Place, Timeout

# Deployment uses the actions shared with Light Speed's fast round
# (:mod:`spacetable.games._deployment`): :class:`Place` while deploying, :class:`Drop` or
# :class:`Discard` once the cards in hand froze, and the server's :class:`Timeout` at the
# end of its countdown for that choice.


@tagged("fleet")
class Fleet(Action):
    """Preparation: ``player`` secretly chooses the ships (keys of his race, Cargo and Flag
    ships left out) that join the battle. Final once sent."""

    player: str
    ships: tuple[str, ...]
    t: float

    def __post_init__(self) -> None:
        if isinstance(self.ships, list):
            object.__setattr__(self, "ships", tuple(self.ships))


@tagged("timer-expired")
class TimerExpired(Action):
    """The server's deployment countdown ran out: every card in hand freezes."""

    t: float


StellarAction = Fleet | Place | Drop | Discard | TimerExpired | Timeout
ACTION_TYPES: tuple[type[StellarAction], ...] = (
    Fleet,
    Place,
    Drop,
    Discard,
    TimerExpired,
    Timeout,
)
