"""The rooms over HTTP: a room's page (``/rooms/{id}``), creating a room (``POST
/api/rooms``, its body validated by :func:`room_options`), the lobby's list (``GET
/api/rooms``) and the balancer's health check (``/healthz``). The room directory creates
and finds the rooms (:mod:`spacetable.server.rooms.directory`); in a cluster the node
(:mod:`spacetable.server.cluster.node`) knows the other processes' rooms."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from spacetable._userinput import clipped, parse_json
from spacetable.i18n.phrase import Reason, refusal
from spacetable.registry import game_for_ruleset
from spacetable.server.cluster.interface import cluster_errors
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.guards import client_address, forwarded_https
from spacetable.server.http.pages import account_name, compose, missing_page, reader_language
from spacetable.server.rooms.directory import RebuildFailed, RoomsFull
from spacetable.server.rooms.options import room_options as room_options  # (re-exported)

#: Largest ``POST /api/rooms`` body, in bytes (a room's options take a few dozen).
ROOM_BODY_LIMIT = 16 * 1024
#: The most rooms the lobby's list shows (the newest).
ROOM_LIST_LIMIT = 50
#: The seeds a ``POST /api/rooms`` body may ask for (the room's matches draw 31 bits).
SEED_LIMIT = 2**31


def requested_seed(body: Any, seeded: bool) -> int | None:
    """Take the optional ``seed`` out of a ``POST /api/rooms`` body (a dict, changed in
    place): the seed the room's matches draw their chance from, whatever rooms were
    created before it. Only a server started with a room seed (``seeded``, for tests and
    reproducible demos) takes one: elsewhere a player who chose the seed would know the
    deal. Raises ``ValueError`` naming the field."""
    if not isinstance(body, dict) or "seed" not in body:
        return None
    seed = body.pop("seed")
    if not seeded:
        raise ValueError(
            "seed: this server draws every room's chance itself; "
            "only a server started with --room-seed takes a room's seed"
        )
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        limit = SEED_LIMIT - 1
        raise ValueError(f"seed: must be an integer from 0 to {limit}, got {clipped(seed)}")
    return seed


#: The health check, a room's page, ``POST /api/rooms`` (limited per client by the
#: application's guards; timed by the test clock, if the rooms keep time with one) and
#: ``GET /api/rooms``.
router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz(request: Request, served: App) -> JSONResponse:
    # The balancer's health check: a stopping process fails it. "bots" says whether
    # the bots' compiled code is loaded yet (a first bot move before it waits).
    if served.node is not None and served.node.draining:
        return JSONResponse({"status": "draining"}, status_code=503)
    bots = "warm" if request.app.state.bots_warm else "warming"
    return JSONResponse({"status": "ok", "bots": bots})


async def _ruleset(request: Request, served: Services, room_id: str) -> str | HTMLResponse:
    """The ruleset of room ``room_id``, wherever it is (here, another process of the
    cluster, storage), or the page that says why it cannot be shown."""
    directory, node = served.directory, served.node
    room = directory.get(room_id)
    ruleset = None if room is None else room.options.ruleset
    if ruleset is None and node is not None:  # a room of another process?
        with contextlib.suppress(*cluster_errors()):
            ruleset = await node.ruleset(room_id)
        if ruleset is None:  # or in storage, its process gone: its socket rebuilds it
            ruleset = await directory.stored_ruleset(room_id)
    elif ruleset is None:
        try:  # a room of a server that restarted comes back from storage
            room = await directory.get_or_rebuild(room_id)
        except RebuildFailed as exc:
            lost = refusal(
                "room {room} could not be brought back after a server restart: {problem}",
                room=clipped(room_id),
                problem=str(exc),
            )
            return await missing_page(request, lost, 410)
        except RoomsFull as exc:
            full = exc.args[0] if isinstance(exc.args[0], Reason) else refusal(str(exc))
            return await missing_page(request, full, 503)
        ruleset = None if room is None else room.options.ruleset
    if ruleset is None:
        gone = refusal(
            "There is no room {room} here: it may have ended and closed, "
            "or its link may be mistyped.",
            room=clipped(room_id),
        )
        return await missing_page(request, gone, 404)
    return ruleset


@router.get("/rooms/{room_id}", include_in_schema=False)
async def room_page(room_id: str, request: Request, served: App) -> HTMLResponse:
    ruleset = await _ruleset(request, served, room_id)
    if isinstance(ruleset, HTMLResponse):
        return ruleset
    game = game_for_ruleset(ruleset).rules.key
    # Which process holds the room, for the balancer: its socket goes straight there.
    node = served.node
    owner = None if node is None else await node.owner_name(room_id)
    lang, account = reader_language(request), await account_name(request)
    static = request.app.state.assets.prefix
    page = compose("room", game=game, lang=lang, node=owner, account=account, static=static)
    return HTMLResponse(page)


def _too_many(wait: float, per_minute: float) -> JSONResponse:
    """The refusal of a room created over the limit (``per_minute`` from an address):
    ``wait`` seconds before the next."""
    said = refusal(
        "too many rooms created from your address (at most {n} a minute): try again in {s} s",
        n=int(per_minute) if float(per_minute).is_integer() else per_minute,
        s=round(wait),
    )
    return refused(said, 429, {"Retry-After": str(max(1, round(wait)))})


@router.post("/api/rooms", response_model=None)
async def create_room(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    directory, node, guards, clock = served.directory, served.node, served.guards, served.clock
    peer = request.client.host if request.client else None
    forwarded = request.headers.getlist("x-forwarded-for")  # every line, the proxy's last
    client = client_address(peer, forwarded, guards.proxies)
    if node is not None and node.draining:  # before the limit: HAProxy retries it
        said = refusal("this server is restarting: try again in a moment")
        return refused(said, 503, {"Retry-After": "1"})  # elsewhere, which counts it
    now = clock.now() if clock is not None else asyncio.get_running_loop().time()
    wait = await guards.rooms.take(client, now)
    if wait > 0:
        return _too_many(wait, guards.rooms.per_minute)
    try:
        body = parse_json(await json_body(request, ROOM_BODY_LIMIT))
        seed = requested_seed(body, seeded=directory.room_seed is not None)
        options = room_options(body)
    except BodyRefused as exc:
        return exc.response("detail")
    except ValueError as exc:  # malformed JSON, a bad field, an unplayable setup
        return refused(exc.args[0] if exc.args else str(exc), 422)  # says: for the lobby
    try:
        room = directory.create(options, seed=seed)
    except RoomsFull as exc:
        return refused(exc.args[0], 503)
    if node is not None:
        await node.adopt(room)  # registered before its link is handed out
    url = request.url_for("room_page", room_id=room.id)
    if forwarded_https(peer, request.headers.get("x-forwarded-proto", ""), guards.proxies):
        url = url.replace(scheme="https")  # the browser's link, behind a TLS proxy
    created = {"id": room.id, "url": str(url)}
    if node is not None and node.name is not None:
        created["node"] = node.name  # the balancer's name for the room's process
    return created


@router.get("/api/rooms")
async def list_rooms(served: App) -> list[dict[str, Any]]:
    if served.node is not None:  # every process's rooms
        return await served.node.lobby(ROOM_LIST_LIMIT)
    # Finished and abandoned rooms stay open for their links, but are not offered.
    listed = (room for room in served.directory.rooms() if room.listed)
    return [room.summary() for room, _ in zip(listed, range(ROOM_LIST_LIMIT), strict=False)]
