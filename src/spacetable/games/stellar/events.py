"""Stellar Conflict's events beside the placing round's (:mod:`spacetable.games._deployment`:
cards placed, stop called, cards dropped or discarded) and the battle's
(:mod:`spacetable.lasers.events`)."""

from __future__ import annotations

from spacetable.core.events import Event
from spacetable.core.records import tagged


@tagged("fleet-chosen")
class FleetChosen(Event):
    """``player`` has chosen his fleet (which ships stays secret)."""

    player: str
    t: float


@tagged("deployment")
class DeploymentBegan(Event):
    """Every fleet is in and every deck formed; the countdown runs until ``deadline``
    (server time, s; ``None`` under the stop rule)."""

    deadline: float | None
    t: float


@tagged("timer")
class TimerRang(Event):
    """The countdown ran out: the cards in hand froze, the rest of the decks are out."""

    t: float


@tagged("deployment-over")
class DeploymentOver(Event):
    """Every card is down or discarded; the battle's events follow."""

    t: float
