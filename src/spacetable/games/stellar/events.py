"""Stellar Conflict's events beside the placing round's (:mod:`spacetable.games._deployment`:
cards placed, stop called, cards dropped or discarded) and the battle's
(:mod:`spacetable.lasers.events`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spacetable.core.events import Event


@dataclass(frozen=True, slots=True)
class FleetChosen(Event):
    """``player`` has chosen his fleet (which ships stays secret)."""

    type_name: ClassVar[str] = "fleet-chosen"
    player: str
    t: float


@dataclass(frozen=True, slots=True)
class DeploymentBegan(Event):
    """Every fleet is in and every deck formed; the countdown runs until ``deadline``
    (server time, s; ``None`` under the stop rule)."""

    type_name: ClassVar[str] = "deployment"
    deadline: float | None
    t: float


@dataclass(frozen=True, slots=True)
class TimerRang(Event):
    """The countdown ran out: the cards in hand froze, the rest of the decks are out."""

    type_name: ClassVar[str] = "timer"
    t: float


@dataclass(frozen=True, slots=True)
class DeploymentOver(Event):
    """Every card is down or discarded; the battle's events follow."""

    type_name: ClassVar[str] = "deployment-over"
    t: float
