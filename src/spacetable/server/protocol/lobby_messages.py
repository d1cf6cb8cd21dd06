"""The messages the server sends on the lobby socket (``/ws/lobby``, issue 69), declared
once as the room's are (``server_messages.py``, which lists them all in
:data:`~spacetable.server.protocol.server_messages.SERVER_MESSAGES`): who is online and a
session ended. A new message of the lobby socket is declared here."""

from __future__ import annotations

from typing import Annotated, Literal

from typing_extensions import Doc, TypedDict

from spacetable.server.protocol.records import message

__all__ = ["Online", "OnlinePlayer", "SessionEnded"]


class OnlinePlayer(TypedDict):
    """One registered player online, as ``online`` and ``GET /api/online`` list him."""

    name: Annotated[str, Doc("his account's name")]
    status: Annotated[Literal["lobby", "playing", "watching"], Doc("what he is doing")]
    game: Annotated[str | None, Doc("the game's key when playing or watching, else null")]
    room: Annotated[str | None, Doc("the room's id when playing or watching, else null")]


@message("online")
class Online:
    """On the lobby socket (`/ws/lobby`), after `watch_online` and at every change: the
    whole list of who is online on every process (as `GET /api/online` answers)."""

    players: Annotated[list[OnlinePlayer], Doc("the registered players online, by name")]
    guests: Annotated[int, Doc("how many guests are online")]


@message("session_ended")
class SessionEnded:
    """On the lobby socket: this page's session is over (logged out elsewhere, the account
    banned or deleted); the socket closes after it and the page shows itself logged out."""

    reason: Annotated[
        Literal["ended", "logged_out", "banned", "deleted"],
        Doc("`ended`, `logged_out`, `banned` or `deleted`"),
    ]
