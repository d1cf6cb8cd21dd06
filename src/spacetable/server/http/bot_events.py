"""A bot's event stream over HTTP (issue 72 item 3; docs/bots.md).

* ``GET /api/stream/event``: newline-delimited JSON (``application/x-ndjson``), long-lived:
  the challenges still open to the account and a ``gameStart`` for each of its rooms not
  over first, then ``challenge``, ``challengeCanceled``, ``gameStart``, ``gameFinish`` as
  they happen (``protocol/event_lines.py``), and an empty line every 7 seconds. A bearer
  token only (``Authorization: Bearer``, scope ``bot:play`` or ``challenge:read``: 403
  without). One stream per token: a new one closes the older one, on any process; a
  revoked token's stream closes at once, on every process (the bus).

The streams themselves are ``meet/bot_events.py``'s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.bot_accounts import player_of_bearer
from spacetable.server.http.deps import App
from spacetable.server.http.tokens import bearer_of, token_store
from spacetable.server.meet.bot_events import BotEvents

#: ``GET /api/stream/event``.
router = APIRouter()

#: The scopes that may read the event stream (either).
SCOPES = ("bot:play", "challenge:read")


@router.get("/api/stream/event", response_model=None)
async def event_stream(request: Request, served: App) -> Response:
    # The account's events, one JSON line each, until the reader goes or a newer stream of
    # the token opens.
    found = await bearer_of(request, served)
    if isinstance(found, JSONResponse):
        return found
    if not any(scope in found.scopes for scope in SCOPES):
        said = refusal("This token lacks the scope {scope}.", scope=" or ".join(SCOPES))
        return refused(said, 403)
    events: BotEvents = request.app.state.bot_events
    shown = request.headers["authorization"].partition(" ")[2].strip()
    tokens = token_store(served)
    stream = await events.open(
        player_of_bearer(found), found.token_id, lambda: tokens.bearer(shown) is not None
    )

    async def lines() -> AsyncIterator[bytes]:
        try:
            async for data in stream.lines():
                yield data
        finally:
            events.release(stream)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=headers)
