"""Bot accounts over HTTP (issue 72 item 2; docs/bots.md).

* ``POST /api/bot/account/upgrade``: the account becomes a bot account, for good (200
  ``{"name", "bot": true}``; again: the same answer). Refused (409, saying why) once the
  account has played a rated match. Asked with a bearer token of scope ``bot:play``, or
  with the session cookie from a page of this site. Its seeks go (a bot account is never
  in the quick-pairing pools).

:func:`acting_player` is who a bot API request acts for: the account of its bearer token
(``Authorization: Bearer``, within a scope; no cookie, no ``Origin`` needed), else the
account of its session cookie, from a page of this site (another site's page: 403).
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import Reason, refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.http.tokens import bearer_of
from spacetable.server.meet.hub import Player
from spacetable.server.meet.identity import account_player
from spacetable.server.store.tokens import Bearer

#: ``POST /api/bot/account/upgrade``.
router = APIRouter()


def bearing(request: Request) -> bool:
    """Whether the request shows a token (``Authorization: Bearer ...``)."""
    kind, _, _ = request.headers.get("authorization", "").partition(" ")
    return kind.lower() == "bearer"


async def acting_player(
    request: Request, served: Services, scope: str | tuple[str, ...], login: Reason
) -> Player | JSONResponse:
    """The account a request acts for: its bearer token's, which must grant ``scope`` (one
    of them, for a tuple) else 403, or its session's (from a page of this site; 401 with
    ``login`` when it has none). A bad token is 401, whatever the cookie."""
    if bearing(request):
        scopes = (scope,) if isinstance(scope, str) else scope
        found = await bearer_of(request, served)
        if isinstance(found, JSONResponse):
            return found
        if not any(s in found.scopes for s in scopes):
            said = refusal("This token lacks the scope {scope}.", scope=" or ".join(scopes))
            return refused(said, 403)
        return player_of_bearer(found)
    page = request.headers.get("origin")
    if page is not None and not same_origin(
        page, request.headers.get("host"), served.allowed_origins
    ):
        return refused(refusal("requests from another site's page are not allowed"), 403)
    player = await account_player(request, served.accounts)
    if player is None:
        return refused(login, 401)
    return player


def player_of_bearer(found: Bearer) -> Player:
    """The account a token acts for, as a player."""
    return Player(found.account.key, found.account.name, found.account.key)


@router.post("/api/bot/account/upgrade", response_model=None)
async def upgrade(request: Request, served: App) -> Response:
    # The account becomes a bot account, for good (again: the same answer).
    login = refusal("Log in, or send a token: Authorization: Bearer <token>.")
    player = await acting_player(request, served, "bot:play", login)
    if isinstance(player, JSONResponse):
        return player
    account = await asyncio.to_thread(served.accounts.find, player.name)
    if account is None or account.key != player.key:
        return refused(refusal("no player {name}", name=player.name), 404)
    done = await asyncio.to_thread(served.ratings.bots.upgrade, account)
    if done == "rated":
        said = refusal(
            "{name} has played a rated match: only an account that has played none can "
            "become a bot account.",
            name=account.name,
        )
        return refused(said, 409)
    meetings = served.meetings
    if meetings is not None:  # never in the pools: its seeks go

        def drop() -> None:
            for seek in meetings.seeks_of(account.key):
                meetings.cancel_seek(seek.id, account.key)

        await asyncio.to_thread(drop)
    return JSONResponse({"name": account.name, "bot": True})
