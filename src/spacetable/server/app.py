"""The FastAPI application: pages, the JSON API, and the rooms the websockets reach.

Handlers only translate HTTP requests to storage and room-directory calls; the room
websockets are served by uvicorn's protocol itself (``_ws_protocol.py``), which finds the
room directory in the lifespan state. Each room is owned by its own asyncio task
(``rooms.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import PurePosixPath
from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from redis.exceptions import RedisError

from spacetable import i18n
from spacetable._time_limit import RESOLVE_BUDGET_S
from spacetable._userinput import clipped, parse_json
from spacetable.i18n import client_catalog, translator
from spacetable.i18n.phrase import refusal, says
from spacetable.i18n.schemas import translate_listing, translate_resource
from spacetable.i18n.validation import problem
from spacetable.lasers.tables import MAX_TABLE_BYTES
from spacetable.registry import UnknownGame, game, game_for_ruleset, games
from spacetable.render.rules_figures import FIGURES, figure_svg
from spacetable.server._clock import MovableClock
from spacetable.server._guards import Guards, client_address
from spacetable.server._http_protocol import GUARDS, HostGuard
from spacetable.server._photo import add_photo_route
from spacetable.server._referee_answers import referee_answer
from spacetable.server._referee_pool import RefereePool
from spacetable.server._ws_protocol import POLICY, ROOMS, SocketPolicy
from spacetable.server.cluster.node import CLUSTER, ClusterNode
from spacetable.server.directory import RebuildFailed, RoomDirectory, RoomsFull
from spacetable.server.pages import compose, reader_language
from spacetable.server.rooms import RoomOptions, Timing
from spacetable.server.storage import PAGE_LIMIT, Storage, StorageUnavailable, UnknownMatch

WEB = resources.files("spacetable") / "web"
#: Largest ``POST /api/rooms`` body, in bytes (a room's options take a few dozen).
ROOM_BODY_LIMIT = 16 * 1024
#: The most rooms the lobby's list shows (the newest).
ROOM_LIST_LIMIT = 50
#: What a room plays when ``POST /api/rooms`` names no ruleset.
DEFAULT_RULESET = "lightspeed"
#: How long ``GET /api/matches/{id}`` waits for a match that has ended but is not stored yet.
STORED_WAIT_S = 10.0


def warm_up() -> None:
    """Load what every game's first bot move would wait for (seconds: call it off the
    event loop)."""
    for entry in games():
        if entry.bots is not None:
            entry.bots.warm()


def room_options(body: Any) -> RoomOptions:
    """Validate a ``POST /api/rooms`` body. Raises ``ValueError`` with a message naming
    the bad field."""
    if not isinstance(body, dict):
        raise ValueError(refusal("the body must be a JSON object"))
    ruleset = body.get("ruleset", DEFAULT_RULESET)
    playable = [r for entry in games() if entry.rules.playable for r in entry.rules.rulesets]
    if not isinstance(ruleset, str) or ruleset not in playable:
        raise ValueError(
            refusal(
                "ruleset: must be one of {rulesets}, got {value}",
                rulesets=", ".join(playable),
                value=clipped(ruleset),
            )
        )
    model = game_for_ruleset(ruleset).rules.room_options
    assert model is not None
    try:
        parsed = model.model_validate(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise ValueError(
            refusal("{field}: {problem}", field=where, problem=problem(first))
        ) from None
    game = parsed.model_dump(exclude={"ruleset", "seats"}, by_alias=True)
    options = RoomOptions(ruleset, parsed.model_dump()["seats"], game)
    options.check()  # InvalidOptions (a ValueError): e.g. two seats with one race
    return options


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


class _BodyRefused(Exception):
    """A JSON API request refused before its body is parsed: ``status`` and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def response(self, key: str) -> JSONResponse:
        """The answer, with the message under ``key``. The connection is closed after it:
        the rest of the body is never read (uvicorn would otherwise drain it)."""
        return JSONResponse({key: str(self)}, status_code=self.status, headers=_CLOSE)


_CLOSE = {"Connection": "close"}


async def _json_body(request: Request, limit: int) -> bytes:
    """The body of a JSON API request, at most ``limit`` bytes.

    Raises :class:`_BodyRefused`: 415 unless the body is declared ``application/json``
    (a form or ``text/plain`` post, which another site's page may send without asking),
    413 when it is larger than ``limit``, refused before the rest is read."""
    declared_type = request.headers.get("content-type", "")
    if declared_type.split(";", 1)[0].strip().lower() != "application/json":
        raise _BodyRefused(
            415, f"send JSON with Content-Type: application/json, not {clipped(declared_type)}"
        )
    too_large = _BodyRefused(413, f"the body is larger than {limit:,} bytes")
    declared_length = request.headers.get("content-length", "")
    if len(declared_length) > 12 or (declared_length.isdigit() and int(declared_length) > limit):
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def _refused(said: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    """A refused request's answer: ``detail`` in English, and ``says``, its phrase for the
    page to write in its reader's language, when ``said`` is a phrase."""
    phrase = says(said)
    body = {"detail": str(said)} | ({"says": phrase} if phrase is not None else {})
    return JSONResponse(body, status_code=status, headers=headers)


def _tune_gc() -> None:
    """Keep the garbage collector's pauses away from the rooms.

    Everything loaded at start-up (numba, pydantic, FastAPI: a large heap) lives as long
    as the server, so it is frozen out of the collector's passes, and again once the bots
    are warm. The young generation is collected every 10,000 allocations instead of 700:
    most messages' objects are gone by then, so far fewer are promoted and full passes,
    each of which stalls every room, become rare (measured: docs/performance.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


#: The most seconds one ``POST /api/test/clock`` moves the clock (a day).
MAX_CLOCK_MOVE_S = 86_400.0


def _add_clock_route(app: FastAPI, clock: MovableClock) -> None:
    """``POST /api/test/clock`` ``{"advance": seconds}``: move every room's clock forward
    (``spacetable serve --test-clock`` only): a plot timer, a countdown or an absence's
    grace runs out at once, as it would have after that many seconds."""

    @app.post("/api/test/clock", include_in_schema=False, response_model=None)
    async def move_clock(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            body = parse_json(await _json_body(request, 1024))
        except _BodyRefused as exc:
            return exc.response("detail")
        except ValueError as exc:
            return _refused(exc.args[0] if exc.args else str(exc), 422)
        seconds = body.get("advance") if isinstance(body, dict) else None
        if (
            not isinstance(seconds, int | float)
            or isinstance(seconds, bool)
            or not 0 <= seconds <= MAX_CLOCK_MOVE_S
        ):
            # (English only: the tests' own address, no player reads it.)
            return _refused("advance: give the seconds to move the clock, 0 to 86400", 422)
        clock.advance(float(seconds))  # the timers now due run on the loop's next turns
        return {"advanced": seconds}


def create_app(
    storage: Storage,
    timing: Timing | None = None,
    sockets: SocketPolicy | None = None,
    referee_seconds: float = RESOLVE_BUDGET_S,
    room_seed: int | None = None,
    guards: Guards | None = None,
    redis_url: str | None = None,
    address: str = "127.0.0.1:8000",
    node_name: str | None = None,
    test_clock: bool = False,
) -> FastAPI:
    """The whole web application, storing finished matches in ``storage``; ``sockets``
    guards the room websockets (default: pages of the server's own origin, the usual
    message rate); the referee spends at most ``referee_seconds`` on an uploaded table.
    ``room_seed`` (for tests and reproducible demos) fixes the chance of every room's
    matches, in the order the rooms are created (:class:`RoomDirectory`), and lets a
    ``POST /api/rooms`` body name its room's ``seed`` (:func:`requested_seed`).
    ``guards`` (default: none) are a public server's limits: its host names, rooms per
    client, sockets per client and room, the request head's deadline (``_guards.py``).
    With ``redis_url`` the process is one of several sharing the Redis there
    (docs/scaling.md): its rooms are registered as its own, reached at ``address``
    (``host:port``), the lobby lists every process's rooms, and a room socket for a room
    another process owns is relayed to it; ``node_name`` is the process's name in the
    balancer (its ``server`` line), which a room's page gives its socket (``?node=``) so
    that the balancer sends it straight to the room's process. With ``test_clock`` every
    room and the rate limits keep time with a :class:`MovableClock` that ``POST
    /api/test/clock`` moves forward (tests of the whole server, never a public one)."""
    guards = guards or Guards()
    clock = MovableClock() if test_clock else None
    directory = RoomDirectory(storage, timing or Timing(), room_seed=room_seed, clock=clock)
    node = None
    if redis_url is not None:
        # The durable rooms (issue 21 item 2) rebuild a room whose process died.
        rebuild = getattr(directory, "get_or_rebuild", None)
        node = ClusterNode(redis_url, address, directory, rebuild, name=node_name)
    # Uploaded tables are resolved in a worker process, within a time budget.
    referee = RefereePool(budget_s=referee_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        # Load the bots' compiled resolver in the background: the first bot move would
        # otherwise stall its room for seconds.
        warming = asyncio.create_task(asyncio.to_thread(warm_up))
        _tune_gc()
        warming.add_done_callback(lambda _: _tune_gc())
        referee.start()
        directory.start()  # the stored rooms' heartbeat (live_store.py)
        if node is not None:
            node.start()
        # The room sockets find their rooms and their policy here (_ws_protocol).
        yield {
            ROOMS: directory,
            POLICY: sockets or SocketPolicy(),
            GUARDS: guards,
            CLUSTER: node,
        }
        if node is not None:
            node.draining = True  # no new room; the room sockets were closed with 1012
        await warming
        await asyncio.to_thread(referee.close)
        await directory.close()
        if node is not None:
            await node.close()  # the rooms stopped: the next process may take them at once
        storage.close()

    app = FastAPI(title="spacetable", lifespan=lifespan, docs_url="/api/docs")
    app.state.directory = directory
    app.state.cluster = node
    app.add_middleware(HostGuard, hosts=guards.hosts)
    # A game registered from outside the package serves its browser module from its own
    # folder, at the URL the registry gives it (mounted before /static, which would take it).
    for entry in games():
        if entry.web_dir is not None:
            folder = str(PurePosixPath(entry.client).parent)
            mounted = StaticFiles(directory=str(entry.web_dir))
            app.mount(folder, mounted, name=f"game-{entry.rules.key}")
    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")

    @app.exception_handler(StorageUnavailable)
    async def storage_unavailable(request: Request, exc: StorageUnavailable) -> JSONResponse:
        # The database is away (finished matches wait in the save queue): say so, briefly.
        detail = f"the match store is unavailable, try again soon ({exc})"
        return JSONResponse({"detail": detail}, status_code=503)

    if clock is not None:
        _add_clock_route(app, clock)

    @app.get("/", include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        return HTMLResponse(compose("lobby", lang=reader_language(request)))

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        # The balancer's health check: a stopping process fails it.
        if node is not None and node.draining:
            return JSONResponse({"status": "draining"}, status_code=503)
        return JSONResponse({"status": "ok"})

    @app.get("/rooms/{room_id}", include_in_schema=False)
    async def room_page(room_id: str, request: Request) -> HTMLResponse:
        room = directory.get(room_id)
        ruleset = None if room is None else room.options.ruleset
        if ruleset is None and node is not None:  # a room of another process?
            with contextlib.suppress(RedisError, OSError):
                ruleset = await node.ruleset(room_id)
            if ruleset is None:  # or in storage, its process gone: its socket rebuilds it
                ruleset = await directory.stored_ruleset(room_id)
        elif ruleset is None:
            try:  # a room of a server that restarted comes back from storage
                room = await directory.get_or_rebuild(room_id)
            except RebuildFailed as exc:
                raise HTTPException(
                    410, f"room {room_id!r} could not be brought back after a server restart: {exc}"
                ) from None
            except RoomsFull as exc:
                raise HTTPException(503, str(exc)) from None
            ruleset = None if room is None else room.options.ruleset
        if ruleset is None:
            raise HTTPException(404, f"no room {room_id!r}: it may have closed")
        game = game_for_ruleset(ruleset).rules.key
        # Which process holds the room, for the balancer: its socket goes straight there.
        owner = None if node is None else await node.owner_name(room_id)
        page = compose("room", game=game, lang=reader_language(request), node=owner)
        return HTMLResponse(page)

    @app.get("/matches", include_in_schema=False)
    async def matches_page(request: Request) -> HTMLResponse:
        return HTMLResponse(compose("matches", lang=reader_language(request)))

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(match_id: str, request: Request) -> HTMLResponse:
        return HTMLResponse(compose("replay", lang=reader_language(request)))

    @app.get("/referee", include_in_schema=False)
    async def referee_page(request: Request) -> HTMLResponse:
        return HTMLResponse(compose("referee", lang=reader_language(request)))

    @app.get("/tutorial", include_in_schema=False)
    async def tutorial_page(request: Request) -> HTMLResponse:
        return HTMLResponse(compose("tutorial", lang=reader_language(request)))

    @app.get("/rules", include_in_schema=False)
    async def rules_page(request: Request) -> HTMLResponse:
        return HTMLResponse(compose("rules", lang=reader_language(request)))

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def messages(lang: str) -> Response:
        if lang not in i18n.LANGUAGES:
            raise HTTPException(404, f"no language {clipped(lang)}")
        body = orjson.dumps(client_catalog(translator(lang)))
        headers = {"Cache-Control": "no-cache"}
        return Response(body, media_type="application/json", headers=headers)

    figures: dict[tuple[str, str], str] = {}  # the rules page's pictures, drawn once each

    @app.get("/rules/figures/{name}.svg", include_in_schema=False)
    async def rules_figure(name: str, lang: str = i18n.SOURCE) -> Response:
        # The language is the link's (?lang=fr), never the reader's cookie: one address,
        # one picture, however it is cached.
        if name not in FIGURES:
            raise HTTPException(404, f"the rules have no figure {clipped(name)}")
        if lang not in i18n.LANGUAGES:
            raise HTTPException(404, f"no language {clipped(lang)}")
        if (name, lang) not in figures:
            drawn = await asyncio.to_thread(figure_svg, name, translator(lang))
            figures[name, lang] = drawn
        headers = {"Cache-Control": "public, max-age=3600"}
        return Response(figures[name, lang], media_type="image/svg+xml", headers=headers)

    @app.post("/api/rooms", response_model=None)
    async def create_room(request: Request) -> dict[str, Any] | JSONResponse:
        peer = request.client.host if request.client else None
        forwarded = request.headers.getlist("x-forwarded-for")  # every line, the proxy's last
        client = client_address(peer, forwarded, guards.proxies)
        now = clock.now() if clock is not None else asyncio.get_running_loop().time()
        wait = guards.rooms.wait(client, now)
        if wait > 0:
            per_minute = guards.rooms.per_minute
            said = refusal(
                "too many rooms created from your address (at most {n} a minute): "
                "try again in {s} s",
                n=int(per_minute) if float(per_minute).is_integer() else per_minute,
                s=round(wait),
            )
            headers = {"Retry-After": str(max(1, round(wait)))}
            return _refused(said, 429, headers)
        try:
            body = parse_json(await _json_body(request, ROOM_BODY_LIMIT))
            seed = requested_seed(body, seeded=directory.room_seed is not None)
            options = room_options(body)
        except _BodyRefused as exc:
            return exc.response("detail")
        except ValueError as exc:  # malformed JSON, a bad field, an unplayable setup
            return _refused(exc.args[0] if exc.args else str(exc), 422)  # says: for the lobby
        if node is not None and node.draining:
            said = refusal("this server is restarting: try again in a moment")
            return _refused(said, 503, {"Retry-After": "1"})
        try:
            room = directory.create(options, seed=seed)
        except RoomsFull as exc:
            return _refused(exc.args[0], 503)
        if node is not None:
            await node.adopt(room)  # registered before its link is handed out
        created = {"id": room.id, "url": str(request.url_for("room_page", room_id=room.id))}
        if node is not None and node.name is not None:
            created["node"] = node.name  # the balancer's name for the room's process
        return created

    @app.get("/api/rooms")
    async def list_rooms() -> list[dict[str, Any]]:
        if node is not None:  # every process's rooms
            return await node.lobby(ROOM_LIST_LIMIT)
        # Finished and abandoned rooms stay open for their links, but are not offered.
        listed = (room for room in directory.rooms() if room.listed)
        return [room.summary() for room, _ in zip(listed, range(ROOM_LIST_LIMIT), strict=False)]

    @app.get("/api/matches")
    async def list_matches(
        limit: int = Query(50, ge=1, le=PAGE_LIMIT),
        before: str | None = Query(None, max_length=64),
        after: str | None = Query(None, max_length=64),
    ) -> list[dict[str, Any]]:
        if before is not None and after is not None:
            raise HTTPException(400, "give 'before' or 'after', not both")
        try:
            return await asyncio.to_thread(storage.page, limit, before, after)
        except UnknownMatch as exc:
            raise HTTPException(400, f"{'before' if before else 'after'}: {exc}") from None

    @app.get("/api/matches/{match_id}", response_model=None)
    async def get_match(match_id: str) -> dict[str, Any] | JSONResponse:
        match = await asyncio.to_thread(storage.get, match_id)
        # A match that has just ended may still be on its way to the database: the answer
        # waits for it (the replay link of a room's end works at once). Asked again even
        # when the queue no longer holds it: it may have been stored in between.
        if match is None:
            await asyncio.to_thread(directory.saves.wait_for, match_id, STORED_WAIT_S)
            match = await asyncio.to_thread(storage.get, match_id)
        if match is None:  # said in the replay page's language
            return _refused(refusal("no stored match {match}", match=clipped(match_id)), 404)
        stored = match.to_json()
        try:  # one stored by an older version, as its game replays it now
            entry = game_for_ruleset(stored["ruleset"])
        except UnknownGame:  # a game no longer registered: as it was stored
            return stored
        if entry.upgrade_stored is None:
            return stored
        return await asyncio.to_thread(entry.for_replay, stored)

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

    @app.post("/api/resolve", response_model=None)
    async def resolve_table(request: Request) -> Response:
        try:
            body = await _json_body(request, MAX_TABLE_BYTES)
        except _BodyRefused as exc:
            return exc.response("error")
        # 400: malformed JSON, a bad table or turn, a limit broken.
        # The drawing in the page's language (?lang=, its cookie or Accept-Language).
        return await referee_answer(referee.resolve(body, reader_language(request)))

    add_photo_route(app, referee)  # POST /api/referee/photo: a photo of the table
    return app
