"""Quick pairing over HTTP (issue 69 item 2; docs/finding-a-game.md).

* ``POST /api/seeks`` ``{"game", "seats"?, "rated", "turn_hours"?, "range"?}``: 201
  ``{"id"}``; the pool pairs it (``meet/pool.py``) and sends ``paired`` on the player's
  lobby socket. A guest (the ``spacetable_guest`` cookie) seeks casual real-time games
  only (403 otherwise); a bot account (issue 72) seeks nothing (403: it plays
  challenges); one open seek a game and player (409, naming it); a bad field 400, an
  unknown game or option 422, each naming the problem.
* ``DELETE /api/seeks/{id}``: 204 (404: no seek of his with that id).
* ``GET /api/seeks``: ``{"mine": [...], "waiting": [{"game", "seats", "turn_hours",
  "waiting"}]}``: the player's own seeks, and how many wait for each game and pace.

A request that changes something from a page of another site is refused (403), its body
must be JSON (``bodies.py``), as the account routes'.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable._userinput import parse_json
from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.meet.identity import player_of
from spacetable.server.meet.seeks import SeekRefused, add_seek, seek_body
from spacetable.server.store.meetings import MeetingStore

#: Largest body of a seek or a challenge, in bytes.
BODY_LIMIT = 4096

#: ``POST``/``GET /api/seeks``, ``DELETE /api/seeks/{id}``.
router = APIRouter()


class Refused(Exception):
    """A request refused: its answer."""

    def __init__(self, answer: JSONResponse) -> None:
        super().__init__()
        self.answer = answer


def meetings_of(served: Services) -> MeetingStore:
    """The application's seeks and challenges."""
    assert served.meetings is not None, "create_app makes the meetings"
    return served.meetings


def foreign(request: Request, served: Services) -> JSONResponse | None:
    """The refusal (403) of a request that changes something sent by another site's page."""
    page = request.headers.get("origin")
    if page is None or same_origin(page, request.headers.get("host"), served.allowed_origins):
        return None
    return refused(refusal("requests from another site's page are not allowed"), 403)


async def json_object(request: Request, served: Services, *, token: bool = False) -> Any:
    """The request's JSON body; raises :class:`Refused` for another site's page (403: but
    a request with a bot's ``token``, which no page of another site holds) or a body that
    is not JSON (400, 413, 415)."""
    if not token and (answer := foreign(request, served)) is not None:
        raise Refused(answer)
    try:
        return parse_json(await json_body(request, BODY_LIMIT))
    except BodyRefused as exc:
        raise Refused(exc.response("detail")) from None
    except ValueError as exc:
        raise Refused(refused(exc.args[0] if exc.args else str(exc), 400)) from None


@router.post("/api/seeks", status_code=201, response_model=None)
async def create_seek(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    try:
        body = await json_object(request, served)
        asked = seek_body(body)
        player = await player_of(request, served.accounts)
        if player.account is not None and await asyncio.to_thread(
            served.ratings.bots.is_bot, player.account
        ):
            said = refusal(
                "A bot account is never in the quick pairing: it plays the challenges it is sent."
            )
            return refused(said, 403)
        seek = await add_seek(meetings_of(served), served.ratings, player, asked)
    except Refused as exc:
        return exc.answer
    except SeekRefused as exc:
        return refused(exc.args[0], exc.status)
    return {"id": seek.id}


@router.delete("/api/seeks/{seek_id}", status_code=204, response_model=None)
async def cancel_seek(seek_id: str, request: Request, served: App) -> Response:
    if (answer := foreign(request, served)) is not None:
        return answer
    player = await player_of(request, served.accounts)
    meetings = meetings_of(served)
    if not await asyncio.to_thread(meetings.cancel_seek, seek_id[:64], player.key):
        said = refusal("You have no seek {id}: it was paired or cancelled.", id=seek_id[:40])
        return refused(said, 404)
    return Response(status_code=204)


@router.get("/api/seeks")
async def list_seeks(request: Request, served: App) -> dict[str, Any]:
    player = await player_of(request, served.accounts)
    meetings = meetings_of(served)

    def read() -> dict[str, Any]:
        mine = [seek.to_json() for seek in meetings.seeks_of(player.key)]
        return {"mine": mine, "waiting": meetings.counts()}

    return await asyncio.to_thread(read)
