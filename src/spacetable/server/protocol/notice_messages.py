"""The lobby socket's notification message (issue 70 item 1; ``meet/notices.py``,
docs/notifications.md), declared once as the others are (``server_messages.py`` lists it
in :data:`~spacetable.server.protocol.server_messages.SERVER_MESSAGES`)."""

from __future__ import annotations

from typing import Annotated, Any

from typing_extensions import Doc

from spacetable.server.protocol.records import message

__all__ = ["Notification"]


@message("notification")
class Notification:
    """On the lobby socket (`/ws/lobby`), to every page of the account, at once: a new
    notification (your move in a correspondence game, a turn that ran out, a challenge
    received, accepted or declined, a match over, a tournament's round paired), as
    `GET /api/notifications` lists it; the top bar's bell counts it unread."""

    id: Annotated[int, Doc("the notification's id (`POST /api/notifications/read` takes it)")]
    kind: Annotated[
        str,
        Doc(
            "`your_move`, `ran_out`, `challenge`, `challenge_accepted`, "
            "`challenge_declined`, `match_over` or `tournament_round`"
        ),
    ]
    text: Annotated[str, Doc("in words, in English")]
    says: Annotated[
        dict[str, Any], Doc("the words as a phrase (see Phrases), for the page's language")
    ]
    url: Annotated[str, Doc("the page it links to (a room, the lobby)")]
    at: Annotated[float, Doc("when, in seconds since 1970 (UTC)")]
