"""Players and ratings over HTTP (issue 37 item 3; docs/accounts.md):

* ``GET /api/players/{name}``: ``{"name", "since", "bot", "ratings": {game key: {"rating",
  "provisional", "matches", "wins", "draws", "losses"}}, "matches": [the 20 latest, as the
  match list gives them]}``; 404 for no such account.
* ``GET /api/leaderboard/{game key}``: ``{"game", "players": [{"name", "rating",
  "provisional", "matches"}...]}``, best first, the provisional players after the others;
  404 for no such game. The people only: ``?bots=1`` lists the bot accounts instead
  (issue 72), ranked apart; ``bot`` (in a profile): the account is a bot account.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from spacetable._userinput import clipped
from spacetable.i18n.phrase import refusal
from spacetable.registry import games
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Ratings

#: A player's profile and each game's leaderboard, from the application's ratings.
router = APIRouter()


@router.get("/api/players/{name}", response_model=None)
async def player(name: str, ratings: Ratings) -> dict[str, Any] | JSONResponse:
    found = await asyncio.to_thread(ratings.profile, name[:80])
    if found is None:
        return refused(refusal("no player {name}", name=clipped(name)), 404)
    return found


@router.get("/api/leaderboard/{game}", response_model=None)
async def leaderboard(
    game: str, ratings: Ratings, bots: bool = Query(False)
) -> dict[str, Any] | JSONResponse:
    if game not in {entry.rules.key for entry in games()}:
        return refused(refusal("no game {game}", game=clipped(game)), 404)
    players = await asyncio.to_thread(lambda: ratings.leaderboard(game, bots=bots))
    return {"game": game, "bots": bots, "players": players}
