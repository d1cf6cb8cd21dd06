"""Challenges over HTTP (issue 69 item 3; docs/finding-a-game.md). Accounts only (401 for
a guest).

* ``POST /api/challenges`` ``{"to", "game", "options"?, "rated", "turn_hours"?}``: 201
  ``{"id"}``; the challenged player gets ``challenge`` at once on his lobby sockets.
  Refused: oneself (400), an unknown or deleted name (404), an unknown game or option
  (422), a player either of the two blocks (403), more than 20 challenges within the hour
  (429, counted in the database for every process).
* ``GET /api/challenges``: ``{"in": [...], "out": [...]}``, the open challenges received
  and sent (each as the ``challenge`` message shows it).
* ``POST /api/challenges/{id}/accept``: ``{"room"}``, a room where both are seated (both
  are sent ``challenge_closed`` and ``paired``).
* ``POST /api/challenges/{id}/decline`` ``{"reason"}``: 204; ``reason`` one of
  ``generic``, ``later``, ``too_fast``, ``too_slow``, ``rated``, ``casual``, ``game``.
* ``DELETE /api/challenges/{id}``: 204, the challenger withdraws it.

Each route also takes a bot's token (``Authorization: Bearer``, issue 72; docs/bots.md)
in place of the session cookie: scope ``challenge:read`` to list, ``challenge:write`` to
send, accept, decline and cancel (403 without it); a request with a token needs no
``Origin``, one with the cookie keeps its check (another site's page: 403).

An answer to a challenge that is not open for that player (answered, withdrawn, run out,
someone else's) is 404. A real-time challenge runs out after 2 minutes, a correspondence
one after 7 days, on the server's clock (both are told: ``challenge_closed`` ``expired``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.bot_accounts import acting_player, bearing
from spacetable.server.http.deps import App, Services
from spacetable.server.http.seeks import Refused, json_object, meetings_of
from spacetable.server.http.seeks import foreign as foreign_page
from spacetable.server.meet import challenges
from spacetable.server.meet.challenges import ChallengeRefused
from spacetable.server.meet.hub import Player, PlayerHub
from spacetable.server.rooms.directory import RoomsFull

#: The challenge routes.
router = APIRouter()


def foreign(request: Request, served: Services) -> JSONResponse | None:
    """The refusal (403) of a request with the session cookie from another site's page (a
    request with a bot's token needs no ``Origin``)."""
    return None if bearing(request) else foreign_page(request, served)


def _hub(served: Services) -> PlayerHub:
    assert served.hub is not None, "the application's start makes the hub"
    return served.hub


async def _account(request: Request, served: Services, scope: str = "challenge:write") -> Player:
    """The account behind the request (its token's, within ``scope``, or its session's);
    raises :class:`Refused` for a guest (401), a token without ``scope`` (403)."""
    player = await acting_player(request, served, scope, refusal("Log in to challenge a player."))
    if isinstance(player, JSONResponse):
        raise Refused(player)
    return player


@router.post("/api/challenges", status_code=201, response_model=None)
async def create_challenge(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    try:
        player = await _account(request, served)
        body = await json_object(request, served, token=bearing(request))
        asked = challenges.challenge_body(body)
        made = await challenges.send_challenge(
            meetings_of(served), served.accounts, served.relations, _hub(served), player, asked
        )
    except Refused as exc:
        return exc.answer
    except ChallengeRefused as exc:
        return refused(exc.args[0], exc.status)
    return {"id": made.id}


@router.get("/api/challenges", response_model=None)
async def list_challenges(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    try:
        player = await _account(request, served, "challenge:read")
    except Refused as exc:
        return exc.answer
    assert player.account is not None
    got, sent = await asyncio.to_thread(meetings_of(served).open_challenges, player.account)
    return {"in": [c.view() for c in got], "out": [c.view() for c in sent]}


@router.post("/api/challenges/{challenge_id}/accept", response_model=None)
async def accept_challenge(
    challenge_id: str, request: Request, served: App
) -> dict[str, Any] | JSONResponse:
    if (answer := foreign(request, served)) is not None:
        return answer
    try:
        player = await _account(request, served)
        room = await challenges.accept(served, player, challenge_id[:64])
    except Refused as exc:
        return exc.answer
    except ChallengeRefused as exc:
        return refused(exc.args[0], exc.status)
    except RoomsFull as exc:
        return refused(exc.args[0], 503)
    return {"room": room}


@router.post("/api/challenges/{challenge_id}/decline", status_code=204, response_model=None)
async def decline_challenge(challenge_id: str, request: Request, served: App) -> Response:
    try:
        body = await json_object(request, served, token=bearing(request))
        reason = body.get("reason") if isinstance(body, dict) else None
        player = await _account(request, served)
        await challenges.decline(
            meetings_of(served), _hub(served), player, challenge_id[:64], reason
        )
    except Refused as exc:
        return exc.answer
    except ChallengeRefused as exc:
        return refused(exc.args[0], exc.status)
    return Response(status_code=204)


@router.delete("/api/challenges/{challenge_id}", status_code=204, response_model=None)
async def cancel_challenge(challenge_id: str, request: Request, served: App) -> Response:
    if (answer := foreign(request, served)) is not None:
        return answer
    try:
        player = await _account(request, served)
        await challenges.cancel(meetings_of(served), _hub(served), player, challenge_id[:64])
    except Refused as exc:
        return exc.answer
    except ChallengeRefused as exc:
        return refused(exc.args[0], exc.status)
    return Response(status_code=204)
