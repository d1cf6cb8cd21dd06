"""The objects a ``state`` carries beside the game's view: the clocks of the room's pacing
(``rooms/realtime.py``, ``rooms/plots.py``) and the run-up, declared once.

A pacing's clocks are written into the ``state`` in place (``State.clocks``): a laser
game's ``stop`` and ``countdown``, a game of plots' ``plot_deadline`` and
``plot_seconds_left``, nothing in a game played by turns. In a match its players stopped
(resigned, drawn, claimed) the clocks that ran are null. :data:`PACING_CLOCKS` gives the
schema each pacing's, to join with each game's own view (``Game.payloads``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import Doc, TypedDict

__all__ = [
    "PACING_CLOCKS",
    "CardStatus",
    "ChatLine",
    "CorrespondenceView",
    "Countdown",
    "FleetCardStatus",
    "PlacedCard",
    "PlotClocks",
    "Pose",
    "RealtimeClocks",
    "RunUp",
    "StopClock",
]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class RunUp(TypedDict):
    """The 3-2-1 before a placing round (``state``'s ``runup``)."""

    seconds: Annotated[float, Doc("how long the run-up lasts")]
    seconds_left: Annotated[float, Doc("what is left of it")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class StopClock(TypedDict):
    """After the cards in hand froze (a laser game's ``stop``)."""

    by: Annotated[str | None, Doc("who called stop; null: the countdown ran out")]
    timer: Annotated[bool, Doc("the countdown ran out")]
    seconds: Annotated[float, Doc("the time to drop or discard")]
    seconds_left: Annotated[float, Doc("what is left of it")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class Countdown(TypedDict):
    """While a laser game's deployment countdown runs (its ``countdown``)."""

    deadline: Annotated[float, Doc("match time it runs out")]
    seconds: Annotated[float, Doc("its length")]
    seconds_left: Annotated[float, Doc("what is left of it")]


class RealtimeClocks(TypedDict):
    """A laser game's clocks, in its ``state``."""

    stop: Annotated[StopClock | None, Doc("after the freeze; else null")]
    countdown: Annotated[Countdown | None, Doc("while the countdown runs; else null")]


class PlotClocks(TypedDict):
    """A game of secret plots' clocks, in its ``state``."""

    plot_deadline: Annotated[float | None, Doc("match time the plot timer runs out")]
    plot_seconds_left: Annotated[float | None, Doc("seconds left to plot; null: no timer")]


class NoClocks(TypedDict):
    """A game played by turns runs no clock in its ``state``."""


#: Each pacing's clocks (``GameRules.pacing``: ``realtime``, ``plots``, ``turns``).
PACING_CLOCKS: dict[str, Any] = {
    "realtime": RealtimeClocks,
    "plots": PlotClocks,
    "turns": NoClocks,
}


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class PlacedCard(TypedDict):
    """A player's card that landed on the table (``placed``'s ``card``): a table file's
    card object (DESIGN section 3, ``lasers/tables.py`` ``card_json``), never an asteroid."""

    id: Annotated[str, Doc("the card's id")]
    owner: Annotated[str, Doc("who placed it")]
    ship: Annotated[str, Doc("its ship's key")]
    x: Annotated[float, Doc("its centre, mm from the table's left")]
    y: Annotated[float, Doc("its centre, mm from the table's top")]
    rotation: Annotated[float, Doc("degrees")]
    rocks: Annotated[int, Doc("rocks or cargo cubes on it")]
    size: NotRequired[Annotated[list[float], Doc("its size in mm, when not the table's")]]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class Pose(TypedDict):
    """Where a player holds his card in hand (an entry of ``poses``'s ``poses``)."""

    x: Annotated[float, Doc("mm from the table's left")]
    y: Annotated[float, Doc("mm from the table's top")]
    rotation: Annotated[float, Doc("degrees")]
    ship: Annotated[str, Doc("the ship of the card in hand")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class CardStatus(TypedDict):
    """One player's cards, an entry of ``placed``'s ``players`` (a laser game's
    ``card_statuses``; the same as its ``state``'s ``players`` entry)."""

    cards_left: Annotated[int | None, Doc("cards left in the deck; null: not dealt yet")]
    holding: Annotated[str | None, Doc("the ship of the card in hand, or null")]
    decided: Annotated[bool, Doc("after the freeze: nothing left to choose")]
    discarded: Annotated[str | None, Doc("the ship of the card discarded, or null")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class FleetCardStatus(CardStatus):
    """One player's cards in a laser game whose players choose a race and a fleet."""

    race: Annotated[str, Doc("the race the player commands")]
    fleet_chosen: Annotated[bool, Doc("the player chose his fleet")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class ChatLine(TypedDict):
    """One message of ``chat_history``'s ``messages``: the ``chat`` frame as it was sent."""

    type: Literal["chat"]
    t: Annotated[float | None, Doc("match time; null outside a match")]
    seat: Annotated[int | None, Doc("the speaker's seat; null for a spectator")]
    name: Annotated[str, Doc("the speaker's name")]
    speaker: Annotated[str, Doc("who spoke, for a page's mute to follow him")]
    channel: Annotated[Literal["players", "spectators"], Doc("`players` or `spectators`")]
    text: Annotated[str | None, Doc("free text, or null for a quick message")]
    quick: Annotated[str | None, Doc("a quick message's id, or null")]


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class CorrespondenceView(TypedDict):
    """A room played by correspondence, in its ``room`` message (``correspondence``:
    ``rooms/correspondence.py`` ``about``)."""

    turn_hours: Annotated[int | None, Doc("the hours each turn waits")]
    deadline: Annotated[float | None, Doc("wall time the turn runs out; null: none running")]
    waiting: Annotated[list[str], Doc("whom the match waits on")]
    missed: Annotated[dict[str, int], Doc("each player's turns run out in a row")]
    ran_out: Annotated[dict[str, list[int]], Doc("which turns ran out, each player's")]
    lose_at: Annotated[int, Doc("how many turns run out in a row lose the match")]
