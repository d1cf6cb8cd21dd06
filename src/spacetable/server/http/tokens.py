"""Personal access tokens over HTTP (issue 72 item 1; docs/bots.md).

* ``POST /api/tokens`` ``{description, scopes}``: a new token of the logged-in account,
  201 ``{id, token}``; the token (it starts ``spt_``) is shown this once, only its digest
  is kept. ``scopes``: some of ``bot:play``, ``challenge:read``, ``challenge:write``.
* ``GET /api/tokens``: ``[{id, description, scopes, created_at}]``, never a token.
* ``DELETE /api/tokens/{id}``: the token stops working at once, on every process (204).
* ``GET /api/bot/account``: ``{name, scopes, bot}``, who an ``Authorization: Bearer``
  token acts for (a program checks its token with it); ``bot``: whether the account is a
  bot account (``http/bot_accounts.py``).

The token routes take the session cookie, and refuse a page of another site (its
``Origin``), as the account routes do; a request with a bearer token carries no cookie
and needs no ``Origin`` check (another site's page cannot read the token). Refusals name
the problem: 401 without a session or with an unknown or revoked token, 400 for a bad
body, 404 for no such token, 409 past :data:`~spacetable.server.store.tokens.TOKENS_MAX`.
The database is asked on a thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.meet.bot_events import BotEvents
from spacetable.server.store.accounts import SESSION_COOKIE, Account
from spacetable.server.store.tokens import DESCRIPTION_MAX, SCOPES, Bearer, TokenStore

#: ``/api/tokens`` and ``/api/bot/account``.
router = APIRouter()

#: Largest body of a token request, in bytes.
TOKEN_BODY_LIMIT = 2048


def token_store(served: Services) -> TokenStore:
    """The application's :class:`TokenStore`, made on first use over its storage."""
    found: TokenStore | None = getattr(served, "_tokens", None)
    if found is None:
        found = TokenStore(served.storage)
        served._tokens = found  # type: ignore[attr-defined]
    return found


async def bearer_of(
    request: Request, served: Services, scope: str | None = None
) -> Bearer | JSONResponse:
    """Who the request's ``Authorization: Bearer`` token acts for, or the refusal: 401
    without a token or with an unknown or revoked one, 403 when it lacks ``scope``."""
    header = request.headers.get("authorization", "")
    kind, _, token = header.partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        return refused(refusal("Send a token: Authorization: Bearer <token>."), 401)
    found = await asyncio.to_thread(token_store(served).bearer, token.strip())
    if found is None:
        return refused(refusal("This token is unknown or revoked."), 401)
    if scope is not None and scope not in found.scopes:
        return refused(refusal("This token lacks the scope {scope}.", scope=scope), 403)
    return found


async def _account(request: Request, served: Services) -> Account | JSONResponse:
    """The account of the request's session (from a page of this site), or the refusal."""
    page = request.headers.get("origin")
    if page is not None and not same_origin(
        page, request.headers.get("host"), served.allowed_origins
    ):
        return refused(refusal("requests from another site's page are not allowed"), 403)
    session_id = request.cookies.get(SESSION_COOKIE)
    account = None
    if session_id:
        account = await asyncio.to_thread(served.accounts.session_account, session_id)
    if account is None:
        return refused(refusal("Log in to manage your tokens."), 401)
    return account


def _scopes_of(body: object) -> tuple[str, str, tuple[str, ...]] | JSONResponse:
    """A token request's description and scopes, or the refusal (400)."""
    if not isinstance(body, dict):
        return refused(refusal("Send a JSON object with description and scopes."), 400)
    description = body.get("description", "")
    if not isinstance(description, str) or len(description) > DESCRIPTION_MAX:
        said = refusal(
            "description must be text of at most {most} characters", most=DESCRIPTION_MAX
        )
        return refused(said, 400)
    scopes = body.get("scopes")
    if (
        not isinstance(scopes, list)
        or not scopes
        or not all(isinstance(s, str) and s in SCOPES for s in scopes)
    ):
        said = refusal("scopes must be a list of some of: {scopes}", scopes=", ".join(SCOPES))
        return refused(said, 400)
    chosen = tuple(s for s in SCOPES if s in scopes)
    return "ok", description.strip(), chosen


@router.post("/api/tokens", response_model=None)
async def create_token(request: Request, served: App) -> Response:
    # A new token of the logged-in account: shown this once (201).
    account = await _account(request, served)
    if isinstance(account, JSONResponse):
        return account
    try:
        raw = await json_body(request, TOKEN_BODY_LIMIT)
        body = json.loads(raw)
    except BodyRefused as exc:
        return exc.response("detail")
    except ValueError:
        return refused(refusal("Send a JSON object with description and scopes."), 400)
    asked = _scopes_of(body)
    if isinstance(asked, JSONResponse):
        return asked
    _, description, scopes = asked
    made = await asyncio.to_thread(token_store(served).create, account, description, scopes)
    if made is None:
        return refused(refusal("You keep too many tokens: revoke one first."), 409)
    token_id, token = made
    headers = {"Cache-Control": "no-store"}
    return JSONResponse({"id": token_id, "token": token}, status_code=201, headers=headers)


@router.get("/api/tokens", response_model=None)
async def list_tokens(request: Request, served: App) -> Response:
    # The logged-in account's tokens, without the tokens themselves.
    account = await _account(request, served)
    if isinstance(account, JSONResponse):
        return account
    listed = await asyncio.to_thread(token_store(served).listed, account)
    return JSONResponse(
        [
            {
                "id": t.id,
                "description": t.description,
                "scopes": list(t.scopes),
                "created_at": t.created_at,
            }
            for t in listed
        ]
    )


@router.delete("/api/tokens/{token_id}", response_model=None)
async def revoke_token(request: Request, served: App, token_id: str) -> Response:
    # The token stops working at once, on every process (204).
    account = await _account(request, served)
    if isinstance(account, JSONResponse):
        return account
    if not await asyncio.to_thread(token_store(served).revoke, account, token_id[:16]):
        return refused(refusal("No such token."), 404)
    events: BotEvents | None = getattr(request.app.state, "bot_events", None)
    if events is not None:  # its open event streams end now, on every process
        await events.token_revoked(token_id[:16])
    return Response(status_code=204)


@router.get("/api/bot/account", response_model=None)
async def bot_account(request: Request, served: App) -> Response:
    # Who the bearer token acts for, its scopes, whether the account is a bot account.
    found = await bearer_of(request, served)
    if isinstance(found, JSONResponse):
        return found
    bot = await asyncio.to_thread(served.ratings.bots.is_bot, found.account.key)
    return JSONResponse({"name": found.account.name, "scopes": sorted(found.scopes), "bot": bot})
