"""The games over HTTP: ``GET /api/games`` (every registered game's listing, in the
reader's language) and ``GET /api/games/{key}/{name}`` (one of a game's resources)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request

from spacetable._userinput import clipped
from spacetable.i18n import translator
from spacetable.i18n.schemas import translate_listing, translate_resource
from spacetable.registry import UnknownGame, game, games
from spacetable.server.http.pages import reader_language


def add_game_routes(app: FastAPI) -> None:
    """The games' listing and resources."""
    # The games and their options schemas are fixed for the process (the registry is read
    # at start): each language's listing is built once, not for every lobby page (the
    # options' JSON schemas took a twentieth of a test server's time).
    listings: dict[str, list[dict[str, Any]]] = {}

    @app.get("/api/games")
    async def list_games(request: Request) -> list[dict[str, Any]]:
        lang = reader_language(request)
        if lang not in listings:
            tr = translator(lang)
            listings[lang] = [translate_listing(entry.to_json(), tr) for entry in games()]
        return listings[lang]

    @app.get("/api/games/{key}/{name}")
    async def game_resource(key: str, name: str, request: Request) -> Any:
        try:
            return translate_resource(
                game(key).resource(name), translator(reader_language(request))
            )
        except UnknownGame as exc:
            raise HTTPException(404, str(exc)) from None
        except KeyError:
            raise HTTPException(404, f"{game(key).rules.title} has no {clipped(name)}") from None
