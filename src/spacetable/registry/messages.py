"""The messages a game adds to the websocket protocol (``Game.moves``, and each
``Game.seat_choices``' message): pydantic models, validated at the boundary as the server's
own are (``server/sockets/protocol.py`` parses them beside its own). Imported by the games'
registrations and the server, not by the registry's package, so that the command line
loads no pydantic until a command needs it."""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, get_args

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from spacetable.core.match import Action


class WireMessage(BaseModel):
    """A client message a game adds to the websocket protocol, validated at the boundary
    as the server's own are: unknown fields refused, values bounded. Each subclass narrows
    ``type`` to a ``Literal`` of its one message type (``Literal["fleet"]``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str


def message_type(model: type[BaseModel]) -> str:
    """The ``type`` a message model takes (the one value of its ``Literal``)."""
    return str(get_args(model.model_fields["type"].annotation)[0])


class MoveMessage(WireMessage):
    """A message a player sends during the match that becomes one of the game's actions
    (Stellar Conflict's ``fleet``). A real-time room applies it as it applies a ``place``:
    a match that has no such action refuses it by name; a room played in plots or in turns
    refuses it as every message that is not its own."""

    @abstractmethod
    def action(self, player: str, t: float) -> Action:
        """The action ``player`` asks for at match time ``t``."""


class ChoiceMessage(WireMessage):
    """A lobby message by which a seated player makes a :class:`SeatChoice` for his own
    seat (Stellar Conflict's ``race``)."""

    @property
    @abstractmethod
    def choice(self) -> str:
        """The value chosen."""
