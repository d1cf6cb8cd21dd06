"""Follows and blocks over HTTP (issue 69 item 4; docs/accounts.md, "Friends and blocks").

* ``PUT /api/following/{name}``: the logged-in player follows ``name`` (one way: the other
  is not asked); 204, also when he already did. ``DELETE``: he follows him no more (204).
* ``GET /api/following``: ``[{"name", "online", "status", "game", "room"}]``, whom he
  follows, the online ones first (``status``: ``lobby``, ``playing`` or ``watching``, and
  the game and room of a match he plays or watches; all ``null`` when offline, and
  ``status`` too for one online beyond the few hundred the online list names), each group
  by name. Presence comes from the lobby sockets of every process (``Services.hub``).
* ``PUT``/``DELETE /api/blocking/{name}``: he blocks ``name``, or no more (204). A blocked
  player cannot challenge him, is never paired with him, and his chat lines are hidden
  from him in every room (``rooms/chat.py``): a room he sits in hears of it at once.
* ``GET /api/blocking``: ``[{"name"}]``, whom he blocks, by name.

Refusals, each naming the problem: 401 for a guest (no session), 404 for no such account,
400 for oneself, 409 past :data:`~spacetable.server.store.relations.FOLLOWS_MAX` follows
or :data:`~spacetable.server.store.relations.BLOCKS_MAX` blocks, 403 for a change asked
by a page of another site (its ``Origin``), as the account routes refuse it. The database
is asked on a thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.store.accounts import SESSION_COOKIE, Account, name_key
from spacetable.server.store.relations import RelationRefused, RelationStore

#: ``/api/following`` and ``/api/blocking``.
router = APIRouter()

#: What a change does: the store's method, given the player's key and the name.
_Change = Callable[[RelationStore, str, str], str]


def _relations(served: Services) -> RelationStore:
    assert served.relations is not None, "create_app makes the relations"
    return served.relations


async def _account(request: Request, served: Services) -> Account | None:
    """The account of the request's session, if any."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if not session_id:
        return None
    return await asyncio.to_thread(served.accounts.session_account, session_id)


def _not_signed_in() -> JSONResponse:
    return refused(refusal("Log in to follow or block players."), 401)


async def _change(
    request: Request, served: Services, name: str, change: _Change, *, blocks: bool = False
) -> Response:
    """A follow or a block added or removed for the request's account: 204, or the
    refusal. ``blocks``: his rooms, on every process, hear that his blocks changed."""
    page = request.headers.get("origin")
    if page is not None and not same_origin(
        page, request.headers.get("host"), served.allowed_origins
    ):
        return refused(refusal("requests from another site's page are not allowed"), 403)
    account = await _account(request, served)
    if account is None:
        return _not_signed_in()
    try:
        await asyncio.to_thread(change, _relations(served), account.key, name)
    except RelationRefused as exc:
        return refused(exc.args[0], exc.status)
    if blocks and served.block_news is not None:
        await served.block_news.changed(account.key)
    return Response(status_code=204)


@router.put("/api/following/{name}", status_code=204, response_model=None)
async def follow(request: Request, name: str, served: App) -> Response:
    """Follow the player ``name``."""
    return await _change(request, served, name, RelationStore.follow)


@router.delete("/api/following/{name}", status_code=204, response_model=None)
async def unfollow(request: Request, name: str, served: App) -> Response:
    """Follow the player ``name`` no more."""
    return await _change(request, served, name, RelationStore.unfollow)


@router.put("/api/blocking/{name}", status_code=204, response_model=None)
async def block(request: Request, name: str, served: App) -> Response:
    """Block the player ``name``; the rooms the blocker sits in hide his chat at once."""
    return await _change(request, served, name, RelationStore.block, blocks=True)


@router.delete("/api/blocking/{name}", status_code=204, response_model=None)
async def unblock(request: Request, name: str, served: App) -> Response:
    """Block the player ``name`` no more."""
    return await _change(request, served, name, RelationStore.unblock, blocks=True)


@router.get("/api/following", response_model=None)
async def following(request: Request, served: App) -> Any:
    """Whom the logged-in player follows, the online ones first, with their presence."""
    account = await _account(request, served)
    if account is None:
        return _not_signed_in()
    names = await asyncio.to_thread(_relations(served).following, account.key)
    hub = served.hub
    present = {}
    if hub is not None:
        players, _guests = hub.online()
        present = {p.key: p for p in players}
    listed = []
    for name in names:
        key = name_key(name)
        seen = present.get(key)
        # (The online list names a few hundred players at most: one beyond them is online
        # all the same, doing what it does not say.)
        online = seen is not None or (hub is not None and hub.is_online(key))
        listed.append(
            {
                "name": name,
                "online": online,
                "status": seen.status if seen else None,
                "game": seen.game if seen else None,
                "room": seen.room if seen else None,
            }
        )
    listed.sort(key=lambda entry: not entry["online"])  # stable: by name within each
    return listed


@router.get("/api/blocking", response_model=None)
async def blocking(request: Request, served: App) -> Any:
    """Whom the logged-in player blocks, by name."""
    account = await _account(request, served)
    if account is None:
        return _not_signed_in()
    names = await asyncio.to_thread(_relations(served).blocking, account.key)
    return [{"name": name} for name in names]
