"""The HTTP routes as FastAPI routers (issue 68 item 5; docs/architecture.md): every
route is a module-level function of one of ``server/http``'s modules, given what it needs
by FastAPI's dependencies (``http/deps.py``), not a closure made when the application is;
the addresses, methods and the OpenAPI are those the server always had; two applications
in one process each answer from their own stores."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.store.accounts import password_hasher
from spacetable.server.store.storage import Storage

#: Every address of the JSON API and its methods, as /openapi.json lists them.
API = {
    "/api/accounts": ["POST"],
    "/api/accounts/me": ["DELETE"],
    "/api/accounts/me/email": ["DELETE", "GET", "PUT"],
    "/api/accounts/me/email/resend": ["POST"],
    "/api/accounts/me/unfinished": ["GET"],
    "/api/admin/audit": ["GET"],
    "/api/admin/ban": ["POST"],
    "/api/admin/mute": ["POST"],
    "/api/admin/reports": ["GET"],
    "/api/admin/reports/{report_id}/handled": ["POST"],
    "/api/admin/rooms/{room_id}/close": ["POST"],
    "/api/admin/sanctions": ["GET"],
    "/api/admin/unban": ["POST"],
    "/api/admin/unmute": ["POST"],
    "/api/blocking": ["GET"],
    "/api/blocking/{name}": ["DELETE", "PUT"],
    "/api/challenges": ["GET", "POST"],
    "/api/challenges/{challenge_id}": ["DELETE"],
    "/api/challenges/{challenge_id}/accept": ["POST"],
    "/api/challenges/{challenge_id}/decline": ["POST"],
    "/api/following": ["GET"],
    "/api/following/{name}": ["DELETE", "PUT"],
    "/api/accounts/me/email/digest": ["PUT"],
    "/api/accounts/me/notify": ["GET", "PUT"],
    "/api/email/unsubscribe": ["POST"],
    "/api/email/verify": ["POST"],
    "/api/games": ["GET"],
    "/api/notifications": ["GET"],
    "/api/notifications/read": ["POST"],
    "/api/push/key": ["GET"],
    "/api/push/subscriptions": ["DELETE", "POST"],
    "/api/games/{key}/{name}": ["GET"],
    "/api/leaderboard/{game}": ["GET"],
    "/api/matches": ["GET"],
    "/api/matches/{match_id}": ["GET"],
    "/api/me/games": ["GET"],
    "/api/online": ["GET"],
    "/api/password-reset": ["POST"],
    "/api/password-reset/confirm": ["POST"],
    "/api/players/{name}": ["GET"],
    "/api/reports": ["POST"],
    "/api/referee/close-calls": ["POST"],
    "/api/referee/photo": ["POST"],
    "/api/resolve": ["POST"],
    "/api/rooms": ["GET", "POST"],
    "/api/seeks": ["GET", "POST"],
    "/api/seeks/{seek_id}": ["DELETE"],
    "/api/session": ["DELETE", "GET", "POST"],
    # Swiss tournaments (issue 71: http/tournaments.py)
    "/api/tournaments": ["GET", "POST"],
    "/api/tournaments/{tournament_id}": ["GET"],
    "/api/tournaments/{tournament_id}/join": ["POST"],
    "/api/tournaments/{tournament_id}/withdraw": ["POST"],
    "/api/tournaments/{tournament_id}/remove": ["POST"],
    "/api/tournaments/{tournament_id}/start": ["POST"],
    "/api/tournaments/{tournament_id}/pair": ["POST"],
    "/api/tournaments/{tournament_id}/results": ["POST"],
    "/api/tournaments/{tournament_id}/trf": ["GET"],
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/report": ["POST"],
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/confirm": ["POST"],
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/dispute": ["POST"],
    "/api/tournaments/{tournament_id}/codes": ["GET"],
    # The director's printouts (issue 71: http/tournament_print.py)
    "/api/tournaments/{tournament_id}/pairings.pdf": ["GET"],
    "/api/tournaments/{tournament_id}/standings.pdf": ["GET"],
    # A board table settled from a photo (issue 71: http/tournament_photo.py)
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/photo": ["GET", "POST"],
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/battle": ["GET"],
    # The bot API (issue 72: http/tokens.py)
    "/api/tokens": ["GET", "POST"],
    "/api/tokens/{token_id}": ["DELETE"],
    "/api/bot/account": ["GET"],
    # Bot accounts and their event stream (issue 72: http/bot_accounts.py, http/bot_events.py)
    "/api/bot/account/upgrade": ["POST"],
    "/api/stream/event": ["GET"],
    # A bot's games (issue 72: http/bot_games.py)
    "/api/bot/game/stream/{room_id}": ["GET"],
    "/api/bot/game/{room_id}/move": ["POST"],
    "/api/bot/game/{room_id}/resign": ["POST"],
    "/api/bot/game/{room_id}/chat": ["POST"],
}

#: The addresses served but not listed in the OpenAPI (pages, files, the test clock).
HIDDEN = {
    "/",
    "/admin",
    "/api/test/clock",
    "/email/unsubscribe",
    "/email/verify",
    "/healthz",
    "/i18n/{lang}.json",
    "/leaderboard",
    "/leaderboard/{game}",
    "/login",
    "/manifest.webmanifest",
    "/matches",
    "/me/delete",
    "/me/friends",
    "/me/games",
    "/me/settings",
    "/password-reset",
    "/players/{name}",
    "/referee",
    "/replay/{match_id}",
    "/rooms/{room_id}",
    "/rules",
    "/rules/figures/{name}.svg",
    "/signup",
    "/sw.js",
    "/tournaments",
    "/tournaments/{tournament_id}",
    "/tournaments/{tournament_id}/tables/{round_}/{table}",
    "/tutorial",
}

ORIGIN = "http://127.0.0.1"


def _app(folder: Path, name: str) -> tuple[FastAPI, Storage]:
    storage = Storage(f"sqlite:///{folder / name}")
    app = create_app(storage, test_clock=True, password_hasher=password_hasher(cheap=True))
    return app, storage


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    made, storage = _app(tmp_path, "routes.db")
    yield made
    storage.close()


def _routes(routes: list[Any]) -> Iterator[APIRoute]:
    """The application's routes, those of the routers it includes among them (FastAPI
    keeps an included router as one entry that names it: ``original_router``)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes)
        elif isinstance(route, APIRoute):
            yield route


def test_every_route_is_a_module_level_function_of_server_http(app: FastAPI) -> None:
    routes = list(_routes(app.router.routes))
    assert {route.path for route in routes} == set(API) | HIDDEN
    for route in routes:
        endpoint = route.endpoint
        where = f"{route.path} ({endpoint.__module__}.{endpoint.__qualname__})"
        assert endpoint.__module__.startswith("spacetable.server.http."), where
        # A function of its module, found by its name there: no closure of an add_*_routes.
        assert "<locals>" not in endpoint.__qualname__, where
        assert getattr(inspect.getmodule(endpoint), endpoint.__name__) is endpoint, where


def test_the_api_keeps_its_addresses_and_methods(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    assert {path: sorted(m.upper() for m in methods) for path, methods in paths.items()} == API


def test_the_test_clock_is_routed_only_with_a_test_clock(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'plain.db'}")
    try:
        client = TestClient(create_app(storage), base_url=ORIGIN)
        assert client.post("/api/test/clock", json={"advance": 1}).status_code == 404
    finally:
        storage.close()


def test_two_applications_answer_each_from_their_own_stores(tmp_path: Path) -> None:
    first, first_storage = _app(tmp_path, "first.db")
    second, second_storage = _app(tmp_path, "second.db")
    try:
        ann = TestClient(first, base_url=ORIGIN)
        other = TestClient(second, base_url=ORIGIN)
        signed = ann.post("/api/accounts", json={"name": "Ann", "password": "correct horse"})
        assert signed.status_code == 201
        assert ann.get("/api/session").json() == {"name": "Ann"}
        assert ann.get("/api/players/Ann").status_code == 200
        assert other.get("/api/players/Ann").status_code == 404
        # The session cookie of the first application means nothing to the second.
        other.cookies.update(ann.cookies)
        assert other.get("/api/session").status_code == 401
        assert ann.post("/api/test/clock", json={"advance": 5}).json() == {"advanced": 5}
    finally:
        first_storage.close()
        second_storage.close()
