"""What a room asks of a game beyond its rules, so that the server names no game: the
messages a game adds to the websocket protocol, the choices its players make for their
own seats in the lobby, and how a room plays its real-time placing round.

A game's registration (``registry/<key>.py``) declares them as fields of its
:class:`~spacetable.registry.Game`: ``moves`` (messages a player sends during the match,
each becoming one of the game's actions), ``seat_choices`` (:class:`SeatChoice`) and
``realtime`` (:class:`RealtimePlay`). The messages are pydantic models
(:mod:`spacetable.registry.messages`); the server's protocol parses every registered
game's messages beside its own (docs/protocol.md lists them all), and its lobby and its
real-time pacing apply them without asking which game it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the messages' models load pydantic: the server and the games import them
    from spacetable.core.match import Action
    from spacetable.lasers.battle import Resolver
    from spacetable.registry.messages import ChoiceMessage


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A choice each seated player makes for his own seat before the match (Stellar
    Conflict's race), kept in the room's options as one value per seat.

    The room's creator sets every seat's first choice in the option :attr:`option` (a list
    in seat order, or null: each seat then plays :attr:`values` in order); a seated player
    changes his own with :attr:`message` in the lobby, to one of :attr:`values` that no
    other seat plays. The refusals are the game's words, marked ``N_`` for translation;
    each may name ``{<message type>}`` (the value asked, ``{race}``), ``{<option>}`` (the
    values there are, ``{races}``), ``{asked}`` (the value asked, quoted and clipped) and
    ``{seat}`` (the seat, from 1, that plays it already).
    """

    #: The lobby message that makes the choice (its ``type`` is the choice's name).
    message: type[ChoiceMessage]
    #: The room option that holds every seat's choice (``races``).
    option: str
    #: The values a seat may choose, in the order seats with no choice take them.
    values: tuple[str, ...]
    #: Refused in a room of a game that has no such choice (``only Stellar Conflict has
    #: races``).
    elsewhere: str
    #: Refused to a spectator, or once the match began.
    too_late: str
    #: Refused for a value that is not one of :attr:`values`.
    unknown: str
    #: Refused for a value another seat plays.
    taken: str

    @property
    def type(self) -> str:
        """The ``type`` of :attr:`message`."""
        from spacetable.registry.messages import message_type

        return message_type(self.message)

    def seats(self, chosen: object, count: int) -> list[str]:
        """Every seat's choice, from the room option's value ``chosen`` (null: the
        values in order) for ``count`` seats."""
        if isinstance(chosen, list | tuple) and chosen:
            return [str(value) for value in chosen]
        return list(self.values[:count])


@dataclass(frozen=True, slots=True)
class RealtimePlay:
    """How a room plays a game paced in real time (the laser games' placing round, then
    the battle): the actions it makes of the hands' messages and of its clocks, and the
    resolver its battles run with on the event loop (the compiled one: the same outcome
    and events as the reference, without stalling the other rooms)."""

    #: The card in hand put on the table: ``(player, x, y, rotation_deg, t)``.
    place: Callable[[str, float, float, float, float], Action]
    #: After the freeze, the card in hand let fall where it is: as :attr:`place`.
    drop: Callable[[str, float, float, float, float], Action]
    #: After the freeze, the card in hand kept out of the game: ``(player, t)``.
    discard: Callable[[str, float], Action]
    #: The time to drop or discard after the freeze ran out at ``t``.
    timeout: Callable[[float], Action]
    #: The battle's resolver, set on every match the room plays.
    resolver: Resolver
    #: The deployment countdown ran out at ``t`` (``None``: the game has no countdown).
    timer_expired: Callable[[float], Action] | None = None
