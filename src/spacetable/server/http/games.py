"""The games over HTTP: ``GET /api/games`` (every registered game's listing, in the
reader's language) and ``GET /api/games/{key}/{name}`` (one of a game's resources)."""

from __future__ import annotations

import orjson
from fastapi import APIRouter, HTTPException, Request
from starlette.responses import Response

from spacetable._userinput import clipped
from spacetable.i18n import translator
from spacetable.i18n.schemas import translate_listing, translate_resource
from spacetable.registry import UnknownGame, game, games
from spacetable.server.http.deps import Cache
from spacetable.server.http.pages import reader_language

#: The games' listing and resources.
#:
#: The games, their options schemas and their resources are fixed for the process (the
#: registry is read at start): each language's listing and each resource are built and
#: written as JSON once per application (``Drawn``, ``http/deps.py``), not for every page. A
#: room page asks for the listing and two or three resources: built and encoded by FastAPI
#: (``jsonable_encoder``) at each request, a Stellar Conflict page's took 21 ms of the
#: server (its art 15 ms).
router = APIRouter()


@router.get("/api/games", response_model=None)
async def list_games(request: Request, drawn: Cache) -> Response:
    lang = reader_language(request)
    listings = drawn.listings
    if lang not in listings:
        tr = translator(lang)
        listings[lang] = orjson.dumps([translate_listing(g.to_json(), tr) for g in games()])
    return _json(listings[lang])


@router.get("/api/games/{key}/{name}", response_model=None)
async def game_resource(key: str, name: str, request: Request, drawn: Cache) -> Response:
    lang = reader_language(request)
    resources = drawn.resources
    if (key, name, lang) not in resources:
        try:
            found = game(key).resource(name)
        except UnknownGame as exc:
            raise HTTPException(404, str(exc)) from None
        except KeyError:
            title = game(key).rules.title
            raise HTTPException(404, f"{title} has no {clipped(name)}") from None
        resources[key, name, lang] = orjson.dumps(translate_resource(found, translator(lang)))
    return _json(resources[key, name, lang])


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")
