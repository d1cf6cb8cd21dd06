"""The messages the server sends on the lobby socket (``/ws/lobby``, issue 69), declared
once as the room's are (``server_messages.py``, which lists them all in
:data:`~spacetable.server.protocol.server_messages.SERVER_MESSAGES`): who is online, a
session ended, a player paired, challenged, a challenge closed. A new message of the lobby
socket is declared here."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict
from typing_extensions import Doc, TypedDict

from spacetable.server.protocol.records import OMITTED, GameObject, message

__all__ = [
    "Challenge",
    "ChallengeClosed",
    "ChallengeView",
    "Online",
    "OnlinePlayer",
    "Paired",
    "SessionEnded",
]


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


@message("paired")
class Paired:
    """On the lobby socket (issue 69): the pool paired this player's seek, or a challenge
    of his was accepted: the page opens `/rooms/<room>`, where his seat is already his
    (an account's, by his session; a guest's, by `token`, which the page keeps as a seat
    token of the room before opening it)."""

    room: Annotated[str, Doc("the room's id")]
    game: Annotated[str, Doc("the game's key")]
    seek: Annotated[
        str | None, Doc("the id of the seek it pairs (none for a challenge)"), OMITTED
    ] = None
    token: Annotated[
        str | None, Doc("a guest's seat token in the room (none for an account)"), OMITTED
    ] = None


ChallengeView = TypedDict(
    "ChallengeView",
    {
        "id": Annotated[str, Doc("the challenge's id")],
        "from": Annotated[str, Doc("the challenger's name")],
        "to": Annotated[str, Doc("the challenged player's name")],
        "game": Annotated[str, Doc("the game's key")],
        "options": Annotated[
            GameObject, Doc("the room's own options, as `POST /api/rooms` takes them")
        ],
        "rated": Annotated[bool, Doc("whether the match is rated")],
        "turn_hours": Annotated[
            float | None, Doc("hours a turn waits, by correspondence; null: real time")
        ],
        "expires_at": Annotated[float, Doc("when it lapses unanswered (Unix time, seconds)")],
    },
)
ChallengeView.__doc__ = "A challenge, as the lobby socket and `GET /api/challenges` show it."
ChallengeView.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]


@message("challenge")
class Challenge:
    """On the lobby socket (issue 69), to the challenged player, at once: a challenge to
    answer (`POST /api/challenges/<id>/accept` or `.../decline`)."""

    challenge: Annotated[ChallengeView, Doc("the challenge")]


@message("challenge_closed")
class ChallengeClosed:
    """On the lobby socket (issue 69), to both players: a challenge ended. Accepted, both
    also get `paired` with its room."""

    id: Annotated[str, Doc("the challenge's id")]
    status: Annotated[
        Literal["accepted", "declined", "cancelled", "expired"],
        Doc("`accepted`, `declined`, `cancelled` (by the challenger, or a ban) or `expired`"),
    ]
    reason: Annotated[
        Literal["generic", "later", "too_fast", "too_slow", "rated", "casual", "game"] | None,
        Doc(
            "declined: why, one of `generic`, `later`, `too_fast`, `too_slow`, `rated`, "
            "`casual`, `game` (the page shows its sentence)"
        ),
        OMITTED,
    ] = None
    room: Annotated[str | None, Doc("accepted: the room made for both"), OMITTED] = None
