"""The FastAPI application, assembled: the room directory, the cluster node and the
referee's workers, started and stopped with the application (its lifespan), and the routes
of :mod:`spacetable.server.http` added to it. The room websockets are served by uvicorn's
protocol itself (``http/ws_protocol.py``), which finds the room directory in the lifespan
state. Each room is owned by its own asyncio task (``rooms/room.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from spacetable._time_limit import RESOLVE_BUDGET_S
from spacetable.registry import Bots, games
from spacetable.server.cluster.interface import CLUSTER
from spacetable.server.http import accounts as account_routes
from spacetable.server.http import bot_accounts as bot_account_routes
from spacetable.server.http import bot_events as bot_event_routes
from spacetable.server.http import bot_games as bot_game_routes
from spacetable.server.http import challenges as challenge_routes
from spacetable.server.http import clock_route, digest, email_routes, leaving, pages
from spacetable.server.http import games as game_routes
from spacetable.server.http import lobby as lobby_routes
from spacetable.server.http import matches as match_routes
from spacetable.server.http import moderation as moderation_routes
from spacetable.server.http import my_games as my_games_routes
from spacetable.server.http import notifications as notification_routes
from spacetable.server.http import photo as photo_routes
from spacetable.server.http import players as player_routes
from spacetable.server.http import referee as referee_routes
from spacetable.server.http import relations as relation_routes
from spacetable.server.http import rooms as room_routes
from spacetable.server.http import seeks as seek_routes
from spacetable.server.http import tokens as token_routes
from spacetable.server.http import tournament_photo as tournament_photo_routes
from spacetable.server.http import tournament_print as tournament_print_routes
from spacetable.server.http import tournaments as tournament_routes
from spacetable.server.http.assets import Assets
from spacetable.server.http.deps import Services
from spacetable.server.http.email_routes import MailService
from spacetable.server.http.guards import Guards, forwarded_https
from spacetable.server.http.http_protocol import GUARDS, HostGuard
from spacetable.server.http.mailer import Mailer, SmtpUrl
from spacetable.server.http.password_gate import password_gate
from spacetable.server.http.referee_pool import RefereePool
from spacetable.server.http.ws_protocol import ACCOUNTS, POLICY, ROOMS, SocketPolicy
from spacetable.server.meet.bot_events import BotEvents
from spacetable.server.meet.bus import Bus
from spacetable.server.meet.challenges import expire as expire_challenges
from spacetable.server.meet.identity import GuestCookie
from spacetable.server.meet.moderation import Moderation
from spacetable.server.meet.notices import Notices, TellingHub
from spacetable.server.meet.pool import Pool
from spacetable.server.meet.relations import BlockNews
from spacetable.server.meet.tournaments import sweep as tournament_sweep
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.rooms.deadlines import DeadlineSweeper, Opener
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.room import Timing
from spacetable.server.stopping import shutdown_step
from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.email import EmailStore
from spacetable.server.store.meetings import MeetingStore
from spacetable.server.store.moderation import ModerationStore
from spacetable.server.store.notifications import NotificationStore
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.relations import RelationStore
from spacetable.server.store.storage import Storage, StorageUnavailable
from spacetable.server.store.tournaments import TournamentStore
from spacetable.server.warming import warm_in_background

if TYPE_CHECKING:
    from spacetable.server.cluster.node import ClusterNode

WEB = resources.files("spacetable") / "web"

log = logging.getLogger(__name__)


def warm_up() -> None:
    """Load what every game's first bot move would wait for (seconds: call it off the
    event loop). The server warms each game's in the background (``server/warming.py``)."""
    for bots in _bots():
        bots.warm()


def _bots() -> list[Bots]:
    """Every game's bots."""
    return [entry.bots for entry in games() if entry.bots is not None]


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


def _warmed(app: FastAPI, done: asyncio.Future[None]) -> None:
    """The bots are loaded (``done``): the heap is frozen again and ``/healthz`` says so. A
    warm-up that failed is logged (a bot's first move loads what it needs itself); one
    cancelled (the server stopped first) is left."""
    if done.cancelled():
        return
    if (error := done.exception()) is not None:
        log.error("could not load the bots' compiled code ahead", exc_info=error)
        return
    _tune_gc()
    app.state.bots_warm = True


#: The HTTP routes, one router a concern (``http/*.py``), in the order they are matched.
ROUTERS: tuple[APIRouter, ...] = (
    pages.router,  # the pages but a room's, the catalogs, the rules' figures
    room_routes.router,  # the health check, a room's page, creating and listing rooms
    match_routes.router,  # the finished matches
    account_routes.router,  # sign-up, login, logout, deletion
    player_routes.router,  # profiles and leaderboards
    my_games_routes.router,  # a player's correspondence matches
    leaving.router,  # what deleting an account would end
    game_routes.router,  # the games' listing and resources
    referee_routes.router,  # POST /api/resolve: a table in JSON
    photo_routes.router,  # POST /api/referee/photo: a photo of the table
    lobby_routes.router,  # /ws/lobby, GET /api/online: who is online (issue 69)
    moderation_routes.router,  # reports and the moderators' routes (issue 69)
    email_routes.router,  # e-mail addresses, their verification, password resets (issue 70)
    digest.router,  # the daily digest's hour, its one-click unsubscribe (issue 70)
    seek_routes.router,  # POST/GET /api/seeks, DELETE /api/seeks/{id} (issue 69)
    challenge_routes.router,  # /api/challenges: send, list, accept, decline, cancel
    notification_routes.router,  # /api/notifications, /api/push/..., /sw.js (issue 70)
    relation_routes.router,  # /api/following, /api/blocking: follows and blocks (issue 69)
    tournament_routes.router,  # /api/tournaments: Swiss tournaments (issue 71)
    tournament_print_routes.router,  # their printed pairings and standings (PDF)
    tournament_photo_routes.router,  # a board table settled from a photo (issue 71)
    token_routes.router,  # /api/tokens, /api/bot/account: the bot API's tokens (issue 72)
    bot_account_routes.router,  # /api/bot/account/upgrade: bot accounts (issue 72)
    bot_event_routes.router,  # GET /api/stream/event: a bot's event stream (issue 72)
    bot_game_routes.router,  # /api/bot/game/...: a bot's game stream and moves (issue 72)
)


async def _storage_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request that needed the database while it is away (finished
    matches wait in the save queue): 503, saying so briefly."""
    detail = f"the match store is unavailable, try again soon ({exc})"
    return JSONResponse({"detail": detail}, status_code=503)


def _route(app: FastAPI, test_clock: bool) -> None:
    """Include the routers in ``app`` (``POST /api/test/clock``'s only with ``test_clock``)
    and its answers to a database away and to an address that is nothing here."""
    app.add_exception_handler(StorageUnavailable, _storage_unavailable)
    app.add_exception_handler(StarletteHTTPException, pages.not_found)  # a page, not JSON
    if test_clock:
        app.include_router(clock_route.router)  # POST /api/test/clock
    for router in ROUTERS:
        app.include_router(router)


def _assets() -> Assets:
    """The browser's files, at addresses a browser may keep for good (http/assets.py); a
    game registered from outside the package serves its browser module from its own
    folder, at the URL the registry gives it."""
    outside = {
        str(PurePosixPath(entry.client).parent.relative_to("/static")): entry.web_dir
        for entry in games()
        if entry.web_dir is not None
    }
    return Assets(Path(str(WEB)), outside)


def _join_cluster(
    redis_url: str,
    address: str,
    node_name: str | None,
    directory: RoomDirectory,
    guards: Guards,
    clock: MovableClock | None,
) -> tuple[ClusterNode, Guards]:
    """This process's node of the cluster sharing the Redis at ``redis_url`` (reached at
    ``address``, named ``node_name`` in the balancer), and ``guards`` with the rooms per
    client counted for the whole cluster, on Redis's clock plus the test ``clock``'s moves
    (``http/shared_limit.py``)."""
    # Redis and the cluster's parts load only for a cluster (a server alone starts sooner).
    from spacetable.server.cluster.node import ClusterNode
    from spacetable.server.http.shared_limit import SharedCreationLimit

    # The durable rooms (issue 21 item 2) rebuild a room whose process died.
    rebuild = getattr(directory, "get_or_rebuild", None)
    node = ClusterNode(redis_url, address, directory, rebuild, name=node_name)
    shared = SharedCreationLimit(
        node.redis, guards.rooms.per_minute, lambda: 0.0 if clock is None else clock.shift
    )
    return node, dataclasses.replace(guards, rooms=shared)


def _hub(
    directory: RoomDirectory, node: ClusterNode | None, clock: MovableClock | None
) -> TellingHub:
    """The hub of the players' lobby sockets (meet/lobby_sockets.py; a challenge's news
    also becomes a notification: meet/notices.py): with the bus and the
    presence board of Redis in a cluster (loaded only then), of this process alone else."""
    if node is None:
        return TellingHub(directory, Bus(), clock)
    from spacetable.server.meet.presence import PresenceBoard
    from spacetable.server.meet.redis_bus import RedisBus

    board = PresenceBoard(node.redis, node.node_id)
    return TellingHub(directory, RedisBus(node.redis, node.url, node.node_id), clock, board)


def _blocking_pairs(served: Services) -> Callable[[Iterable[str]], set[frozenset[str]]]:
    """The pairs of accounts the pool keeps apart (``store/relations.py``; none without)."""
    relations = served.relations
    return (lambda keys: set()) if relations is None else relations.blocking_pairs


@dataclasses.dataclass(frozen=True, slots=True)
class MailSettings:
    """How the server sends e-mail: through ``smtp`` (``--smtp``), from ``sender``
    (``--mail-from``), its links starting with ``public_url`` (``--public-url``)."""

    smtp: SmtpUrl
    sender: str
    public_url: str


@dataclasses.dataclass(frozen=True, slots=True)
class PushSettings:
    """How the server sends Web Push: signed for ``subject`` (``--vapid-subject``), the
    push hosts ``allowed`` as they are (``--push-allow-host``)."""

    subject: str
    allowed: tuple[str, ...] = ()


def _notices(
    storage: Storage,
    wall: Callable[[], float],
    clock: MovableClock | None,
    push: PushSettings | None,
) -> Notices:
    """The notifications (``meet/notices.py``), pushed with ``push`` (none without)."""
    store = NotificationStore(storage, wall)
    if push is None:
        return Notices(store)
    from spacetable.server.meet.push import PushSender  # (loads pywebpush only then)

    return Notices(store, PushSender(store, push.subject, push.allowed, clock))


def _rooms_of(directory: RoomDirectory) -> digest.Waiting:
    """An account's correspondence rooms, from the stored rooms (none without them)."""
    live = directory.live
    return (lambda key: []) if live is None else live.correspondence


def _mail_service(
    storage: Storage, wall: Callable[[], float], settings: MailSettings | None
) -> MailService:
    """The server's e-mail (``http/email_routes.py``): off without ``settings``."""
    store = EmailStore(storage, wall)
    if settings is None:
        return MailService(store, None, "", "")
    return MailService(store, Mailer(settings.smtp), settings.sender, settings.public_url)


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
    password_hasher: PasswordHasher | None = None,
    mail: MailSettings | None = None,
    push: PushSettings | None = None,
) -> FastAPI:
    """The whole web application, storing finished matches in ``storage``; ``sockets``
    guards the room websockets (default: pages of the server's own origin, the usual
    message rate); the referee spends at most ``referee_seconds`` on an uploaded table.
    ``room_seed`` (for tests and reproducible demos) fixes the chance of every room's
    matches, in the order the rooms are created (:class:`RoomDirectory`), and lets a
    ``POST /api/rooms`` body name its room's ``seed``
    (:func:`~spacetable.server.http.rooms.requested_seed`).
    ``guards`` (default: none) are a public server's limits: its host names, rooms per
    client, sockets per client and room, the request head's deadline (``http/guards.py``).
    With ``redis_url`` the process is one of several sharing the Redis there
    (docs/scaling.md): its rooms are registered as its own, reached at ``address``
    (``host:port``), the lobby lists every process's rooms, and a room socket for a room
    another process owns is relayed to it; ``node_name`` is the process's name in the
    balancer (its ``server`` line), which a room's page gives its socket (``?node=``) so
    that the balancer sends it straight to the room's process. With ``test_clock`` every
    room and the rate limits keep time with a :class:`MovableClock` that ``POST
    /api/test/clock`` moves forward (tests of the whole server, never a public one).
    ``password_hasher`` hashes the accounts' passwords (default: argon2id's recommended
    cost; tests that make many accounts give a cheap one: ``store/accounts.py``).
    ``mail``: how the server sends e-mail (``--smtp``; ``None``: it sends none, and the
    routes that would mail say so: ``http/email_routes.py``). ``push``: how it sends Web
    Push (``--vapid-subject``; ``None``: none, ``meet/push.py``)."""
    guards = guards or Guards()
    sockets = sockets or SocketPolicy()
    clock = MovableClock() if test_clock else None
    # Sessions and bans are timed by the server's clock (the test clock's, moved by tests).
    wall = time.time if clock is None else clock.wall
    accounts = AccountStore(storage, password_hasher, wall)
    ratings = RatingBook(storage, accounts)  # updated as each match is stored
    directory = RoomDirectory(
        storage,
        timing or Timing(),
        room_seed=room_seed,
        clock=clock,
        accounts=accounts,
        ratings=ratings,
    )
    node: ClusterNode | None = None
    # Opens a stored room as a socket would (in a cluster: the one process that takes its lock).
    opener: Opener = directory.get_or_rebuild
    if redis_url is not None:
        node, guards = _join_cluster(redis_url, address, node_name, directory, guards, clock)
        opener = node.locate
    # Passwords are checked on threads of their own, within limits counted for the whole
    # cluster (http/password_gate.py).
    gate = password_gate(clock, guards.proxies, None if node is None else node.redis)
    # Correspondence turns that ran out while no process held their room (rooms/deadlines.py).
    sweeper = None
    if directory.live is not None:
        sweeper = DeadlineSweeper(directory.live, opener, directory.get, clock)
        directory.puts_away = True  # idle correspondence rooms wait in storage
    # Uploaded tables are resolved in a worker process, within a time budget.
    referee = RefereePool(budget_s=referee_seconds)
    # The players' lobby sockets, and the bus to the other processes (meet/).
    hub = _hub(directory, node, clock)
    # The notifications: stored off the rooms' task, told to pages and devices (meet/).
    notices = _notices(storage, wall, clock, push)
    directory.told = notices.told  # correspondence turns (rooms/correspondence.py)
    # Reports, moderators, mutes and bans; the rooms ask its copy of the mutes (meet/).
    moderation = Moderation(ModerationStore(storage, wall), hub.bus, directory)
    directory.muted = moderation.is_muted
    # Follows and blocks; the rooms hide a blocked player's chat and hear of new blocks.
    relations = RelationStore(storage)
    directory.blocked_by = relations.blocking
    block_news = BlockNews(hub.bus, directory)
    # Seeks and challenges, every process's (store/meetings.py); the pool pairs the seeks.
    meetings = MeetingStore(storage, wall)
    # A challenge's news also becomes a notification (meet/notices.py).
    hub.notices, hub.meetings = notices, meetings
    # The bots' event streams (issue 72): a room's match over reaches them (meet/).
    bot_events = BotEvents(hub, directory, meetings, clock)
    directory.match_over = bot_events.match_over
    # E-mail: the addresses and links' tokens, and the mail thread (http/mailer.py).
    mailing = _mail_service(storage, wall, mail)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        # Load the bots' compiled resolver in the background: the first bot move would
        # otherwise stall its room for seconds. A daemon thread: a stop does not wait for a
        # compile under way (a fresh install's first minute: server/warming.py).
        warming = warm_in_background(_bots())
        _tune_gc()
        warming.add_done_callback(lambda done: _warmed(app, done))
        referee.start()
        directory.start()  # the stored rooms' heartbeat (store/live_store.py)
        if node is not None:
            node.start()
        if sweeper is not None:
            sweeper.start()  # at once: the turns that ran out while the server was down
        await hub.bus.start()
        hub.start()
        await moderation.start()
        notices.hub = hub
        if notices.push is not None:
            await notices.push.start()  # the VAPID key, read or made once
        block_news.start()
        pool.start()  # a round every 2 s on the server's clock (meet/pool.py)
        if mailing.mailer is not None:
            mailing.mailer.start()  # its own thread and event loop (http/mailer.py)
        # The room sockets find their rooms and their policy here (_ws_protocol).
        yield {
            ROOMS: directory,
            POLICY: sockets,
            ACCOUNTS: accounts,
            GUARDS: guards,
            CLUSTER: node,
        }
        if node is not None:
            node.draining = True  # no new room; the room sockets were closed with 1012
        if sweeper is not None:
            await shutdown_step("the deadline sweeper", sweeper.close())
        await shutdown_step("the pairing pool", pool.close())
        if mailing.mailer is not None:
            await shutdown_step("the mail thread", asyncio.to_thread(mailing.mailer.close))
        await shutdown_step("moderation", moderation.close())
        await shutdown_step("the notifications", notices.close())
        if notices.push is not None:
            await shutdown_step("the push sender", notices.push.close())
        block_news.close()
        await shutdown_step("the bots' event streams", bot_events.close())
        await shutdown_step("the lobby sockets", hub.close())
        await shutdown_step("the bus", hub.bus.close())
        warming.cancel()  # (if still loading: the thread is left to the process's end)
        await shutdown_step("the referee's workers", referee.close())
        gate.close()  # (the password checks still waiting are cancelled)
        await shutdown_step("the rooms", directory.close())
        if node is not None:
            # The rooms stopped: the next process may take them at once.
            await shutdown_step("letting go of the rooms in Redis", node.close())
        storage.close()

    app = FastAPI(title="spacetable", lifespan=lifespan, docs_url="/api/docs")
    # What the routes (http/*.py, each an APIRouter) are given, through http/deps.py.
    app.state.services = Services(
        storage=storage,
        directory=directory,
        node=node,
        accounts=accounts,
        ratings=ratings,
        guards=guards,
        clock=clock,
        gate=gate,
        referee=referee,
        allowed_origins=frozenset(sockets.allowed_origins),
        # A deleted account's matches end first, resigned, its seats freed (http/leaving.py).
        leave=functools.partial(leaving.leave_rooms, directory, opener),
        hub=hub,
        relations=relations,  # follows and blocks (http/relations.py)
        block_news=block_news,
        moderation=moderation,  # reports, mutes, bans (http/moderation.py)
        meetings=meetings,  # seeks and challenges (http/seeks.py, http/challenges.py)
        tournaments=TournamentStore(storage, wall),  # Swiss tournaments (issue 71)
    )
    # The pairing pool: pairs the seeks into seated rooms, closes the challenges run out.
    served = app.state.services
    pool = Pool(meetings, _blocking_pairs(served), hub, served, clock)
    pool.sweeps.append(functools.partial(expire_challenges, meetings, hub))
    # The daily digests due, at most once a minute of the server's clock (http/digest.py).
    pool.sweeps.append(digest.Sweeper(mailing, _rooms_of(directory), wall).sweep)
    # The tournaments' online tables whose matches ended: recorded, next rounds paired.
    pool.sweeps.append(functools.partial(tournament_sweep, served.tournaments, served, hub))
    app.state.pool = pool  # (a test may run a round itself)
    app.state.mail = mailing  # (http/email_routes.py)
    app.state.notices = notices  # (http/notifications.py)
    app.state.bot_events = bot_events  # (http/bot_events.py)
    # Ended first at a stop (server/stopping.py): the bots' event streams and game streams.
    game_streams = functools.partial(bot_game_routes.stop_streams, served)
    app.state.long_lived = [bot_events.stop, game_streams]
    app.state.push = notices.push  # (None: the server sends no push)
    app.state.directory = directory
    app.state.cluster = node
    app.state.accounts = accounts  # a page's header shows who is logged in (http/pages.py)
    app.state.bots_warm = False  # until warm_up has loaded them (/healthz tells)
    app.add_middleware(HostGuard, hosts=guards.hosts)
    # Every page gives a browser without one its guest cookie (meet/identity.py).
    proxies = guards.proxies
    app.add_middleware(
        GuestCookie,
        https=lambda c: (
            c.url.scheme == "https"
            or forwarded_https(
                c.client.host if c.client else None, c.headers.get("x-forwarded-proto", ""), proxies
            )
        ),
    )
    assets = _assets()
    app.state.assets = assets  # the pages name the files where it says (http/pages.py)
    app.mount("/static", assets, name="static")

    _route(app, test_clock=clock is not None)
    return app
