"""The finished matches over HTTP: ``GET /api/matches`` (a page of them, newest first, of
one game or one player's if asked) and
``GET /api/matches/{id}`` (one, as its game replays it now)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import JSONResponse

from spacetable._userinput import clipped
from spacetable.i18n.phrase import refusal
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Directory, Matches
from spacetable.server.store.storage import PAGE_LIMIT, UnknownMatch

#: How long ``GET /api/matches/{id}`` waits for a match that has ended but is not stored yet.
STORED_WAIT_S = 10.0


#: The matches in the application's storage; one that has just ended is waited for in the
#: room directory's save queue.
router = APIRouter()


@router.get("/api/matches")
async def list_matches(
    storage: Matches,
    limit: int = Query(50, ge=1, le=PAGE_LIMIT),
    before: str | None = Query(None, max_length=64),
    after: str | None = Query(None, max_length=64),
    ruleset: str | None = Query(None, max_length=32),
    player: str | None = Query(None, max_length=64),
) -> list[dict[str, Any]]:
    if before is not None and after is not None:
        raise HTTPException(400, "give 'before' or 'after', not both")
    # An empty filter (a form's blank field) filters nothing.
    game, who = ruleset or None, (player or "").strip() or None
    try:
        return await asyncio.to_thread(storage.page, limit, before, after, ruleset=game, player=who)
    except UnknownMatch as exc:
        raise HTTPException(400, f"{'before' if before else 'after'}: {exc}") from None


@router.get("/api/matches/{match_id}", response_model=None)
async def get_match(
    match_id: str, storage: Matches, directory: Directory
) -> dict[str, Any] | JSONResponse:
    match = await asyncio.to_thread(storage.get, match_id)
    # A match that has just ended may still be on its way to the database: the answer
    # waits for it (the replay link of a room's end works at once). Asked again even
    # when the queue no longer holds it: it may have been stored in between.
    if match is None:
        await asyncio.to_thread(directory.saves.wait_for, match_id, STORED_WAIT_S)
        match = await asyncio.to_thread(storage.get, match_id)
    if match is None:  # said in the replay page's language
        return refused(refusal("no stored match {match}", match=clipped(match_id)), 404)
    stored = match.to_json()
    try:  # one stored by an older version, as its game replays it now
        entry = game_for_ruleset(stored["ruleset"])
    except UnknownGame:  # a game no longer registered: as it was stored
        return stored
    if entry.upgrade_stored is None:
        return stored
    return await asyncio.to_thread(entry.for_replay, stored)
