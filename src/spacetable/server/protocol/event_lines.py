"""The lines of a bot's event stream (``GET /api/stream/event``, issue 72 item 3;
docs/bots.md), declared as the sockets' messages are (``server_messages.py``): the stream is
newline-delimited JSON, one of these a line, and an empty line every 7 seconds to keep it
alive. :data:`EVENT_LINES` lists them (docs/protocol.md's table of the event stream)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict
from typing_extensions import Doc, TypedDict

from spacetable.server.protocol.lobby_messages import ChallengeView
from spacetable.server.protocol.records import message

__all__ = [
    "EVENT_LINES",
    "ChallengeCanceled",
    "ChallengeLine",
    "ClosedChallenge",
    "GameFinish",
    "GameStart",
]


@message("challenge")
class ChallengeLine:
    """A challenge to the account, to answer (`POST /api/challenges/<id>/accept` or
    `.../decline`): as it arrives, and on connecting, each one still open."""

    challenge: Annotated[ChallengeView, Doc("the challenge, as `GET /api/challenges` lists it")]


class ClosedChallenge(TypedDict):
    """A challenge that ended without a game."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    id: Annotated[str, Doc("the challenge's id")]
    status: Annotated[
        Literal["declined", "cancelled", "expired"],
        Doc("`declined`, `cancelled` (by the challenger, or a ban) or `expired`"),
    ]


@message("challengeCanceled")
class ChallengeCanceled:
    """A challenge to or from the account ended without a game: withdrawn, declined or run
    out (an accepted one is followed by `gameStart`)."""

    challenge: Annotated[ClosedChallenge, Doc("its `id` and how it ended (`status`)")]


@message("gameStart")
class GameStart:
    """A room where the account holds a seat opened (a challenge accepted, a tournament's
    pairing): play it on its game stream (`GET /api/bot/game/stream/<room>`). On
    connecting, one for each room of the account whose match is not over."""

    room: Annotated[str, Doc("the room's id")]
    game: Annotated[str, Doc("the game's key")]


@message("gameFinish")
class GameFinish:
    """The match of a room where the account holds a seat is over."""

    room: Annotated[str, Doc("the room's id")]
    game: Annotated[str, Doc("the game's key")]


#: Every line of the event stream, in the order docs/protocol.md lists them.
EVENT_LINES: tuple[type[Any], ...] = (ChallengeLine, ChallengeCanceled, GameStart, GameFinish)
