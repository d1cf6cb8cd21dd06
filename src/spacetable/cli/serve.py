"""``spacetable serve``: the browser game, one process (DESIGN section 7)."""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Protocol, cast

import typer

from spacetable._number_options import MAX_SEED, within
from spacetable._time_limit import RESOLVE_BUDGET_S
from spacetable.cli._common import fail, titles

if TYPE_CHECKING:
    from spacetable.server.app import MailSettings, PushSettings

#: Largest request line plus headers the server reads (bytes), as most servers allow.
MAX_REQUEST_HEAD_BYTES = 16 * 1024

#: The longest any of serve's timings may be (seconds): a week.
MAX_SECONDS = 7 * 24 * 3600.0
#: The longest the referee may spend on one uploaded file (seconds).
MAX_RESOLVE_SECONDS = 3600.0
#: Positive seconds up to a week (the timings of rooms and matches).
SECONDS = within(0, MAX_SECONDS, above=True, unit="seconds")
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


def server_name(value: str | None) -> str | None:
    """``--node-name``: a name HAProxy takes for a server (letters, digits, ``_.-``)."""
    if value is not None and not _NAME.fullmatch(value):
        raise typer.BadParameter(
            f"{value!r} is not a server name: 1 to 32 letters, digits, '_', '.' or '-'"
        )
    return value


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: the whole network).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(help="Port to listen on (1 to 65535).", callback=within(1, 65535))
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Storage: a SQLite file's path or URL (default: SQLite in your data "
            "folder), or postgresql://..."
        ),
    ] = None,
    resolve_seconds: Annotated[
        float,
        typer.Option(
            help="Processor seconds the referee (/referee, POST /api/resolve) spends at "
            "most on an uploaded table (time spent waiting for a busy core does not count).",
            callback=within(0, MAX_RESOLVE_SECONDS, above=True, unit="seconds"),
        ),
    ] = RESOLVE_BUDGET_S,
    stop_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds to drop or discard the card in hand after 'stop!'.", callback=SECONDS
        ),
    ] = 5.0,
    abandon_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a seat waits for its player to come back: then a bot takes it "
            "over in a match, and it is freed in the lobby.",
            callback=SECONDS,
        ),
    ] = 30.0,
    grace_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds the others wait for a player gone from a match before they may "
            "choose: wait on, let a bot play his seat, or claim the win.",
            callback=SECONDS,
        ),
    ] = 20.0,
    room_idle_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a room with nobody connected stays open, unless a match is on.",
            callback=SECONDS,
        ),
    ] = 600.0,
    bot_pace: Annotated[
        float,
        typer.Option(
            help="Multiplies the bots' pauses between cards (0.5: twice as fast; up to 100).",
            callback=within(0, 100, above=True),
        ),
    ] = 1.0,
    countdown_seconds: Annotated[
        float | None,
        typer.Option(
            help=f"{titles(lambda g: g.countdown_option)}: seconds of the countdown "
            "instead of the game's own (stored with each match).",
            callback=SECONDS,
        ),
    ] = None,
    runup_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds of the 3-2-1 before every real-time round "
            f"({titles(lambda g: g.pacing == 'realtime')}); 0: none; up to 60.",
            callback=within(0, 60, unit="seconds"),
        ),
    ] = 3.0,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An address (https://host[:port]) whose pages may open room websockets "
            "besides this server's own, for a deployment behind another host name; "
            "repeat for several."
        ),
    ] = None,
    message_rate: Annotated[
        float | None,
        typer.Option(
            help="Messages a second each room websocket may send, poses included (default "
            "60; other messages a twelfth of it); 0 lifts the limit.",
            callback=within(0, 1_000_000),
        ),
    ] = None,
    host_name: Annotated[
        list[str] | None,
        typer.Option(
            help="A host name this server is reached by (play.example.org); repeat for "
            "several. Requests for any other name are refused (DNS rebinding). Default: "
            "this machine's own names, or any name when listening on 0.0.0.0.",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="An address or network (10.0.0.0/24) whose X-Forwarded-For names the "
            "client: the balancer, and in a cluster on several machines the other "
            "processes (they relay sockets); repeat for several. 'none': believe no "
            "proxy. Default: this machine's own addresses.",
        ),
    ] = None,
    rooms_per_minute: Annotated[
        float,
        typer.Option(
            help="Rooms one address may create a minute (as many at once); this machine's "
            "own are not limited; 0 lifts the limit.",
            callback=within(0, 1_000_000),
        ),
    ] = 10.0,
    sockets_per_client: Annotated[
        int,
        typer.Option(
            help="Room connections one address may hold (this machine's own not counted); "
            "0 lifts the limit.",
            callback=within(0, 1_000_000),
        ),
    ] = 32,
    sockets_per_room: Annotated[
        int,
        typer.Option(
            help="Connections one room may hold, players and spectators; 0 lifts the limit.",
            callback=within(0, 1_000_000),
        ),
    ] = 300,
    head_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a client has to send a whole request head before it is closed "
            "(slow-trickling connections); 0 waits forever.",
            callback=within(0, MAX_SECONDS, unit="seconds"),
        ),
    ] = 10.0,
    unjoined_seconds: Annotated[
        float,
        typer.Option(help="Seconds a new room stays open if nobody joins it.", callback=SECONDS),
    ] = 60.0,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:6379/0): run as one of several processes sharing "
            "it, behind a balancer (docs/scaling.md); default: this process alone.",
        ),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(
            help="With --redis: the host:port at which the other processes reach this one "
            "(default: --host and --port, 127.0.0.1 for 0.0.0.0).",
        ),
    ] = None,
    node_name: Annotated[
        str | None,
        typer.Option(
            help="With --redis: this process's name in the balancer's configuration (its "
            "'server' line, e.g. s1): a room's page then asks the balancer for its process "
            "by name and its sockets go straight there (default: by the room's hash, "
            "relayed to the room's process if need be).",
            callback=server_name,
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Run this many server processes, on the ports after --port, behind HAProxy "
            "listening on --port, sharing --redis (or a redis-server started for the run); "
            "1: this process alone.",
            callback=within(1, 64),
        ),
    ] = 1,
    drain_seconds: Annotated[
        float | None,
        typer.Option(
            help="With --redis: seconds between SIGTERM and the stop, while the health "
            "check fails so that the balancer sends nothing new (default 1.5).",
            callback=within(0, 600, unit="seconds"),
        ),
    ] = None,
    room_seed: Annotated[
        int | None,
        typer.Option(
            help="For tests and reproducible demos: the first room's matches draw their "
            "chance from this seed, the next room's from the seed plus 1, and so on; "
            "a POST /api/rooms body may then name its room's own 'seed' "
            "(default: a fresh seed for every match, and no 'seed' taken).",
            callback=within(0, MAX_SEED),
        ),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option(
            help="Send e-mail (address verification, password resets) through this SMTP "
            "server: smtp://user:password@host:port (STARTTLS where offered; port 587 by "
            "default) or smtps://... (TLS; 465). Default: no e-mail (docs/notifications.md).",
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(
            help="With --smtp: the mails' sender (spacetable <noreply@play.example.org>; "
            "default: noreply@ the --public-url's host).",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="With --smtp: the address players open this server at "
            "(https://play.example.org), which the mailed links start with (default: "
            "http://localhost:PORT; never a request's Host header).",
        ),
    ] = None,
    vapid_subject: Annotated[
        str | None,
        typer.Option(
            help="Send Web Push notifications (your move, a challenge...) to the devices "
            "where players allow them, signed with this contact for the push services: "
            "mailto:you@example.org or an https URL. The signing key is made once and kept "
            "in the database. Default: no push (docs/notifications.md).",
        ),
    ] = None,
    push_allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="With --vapid-subject: a push service host trusted as it is (over plain "
            "http too, whatever it resolves to), for a push service on this network; "
            "repeat for several. Every other endpoint must be https on public addresses.",
        ),
    ] = None,
    test_clock: Annotated[
        bool,
        typer.Option(
            "--test-clock",
            help="For tests only, never on a public server: POST /api/test/clock "
            '{"advance": seconds} moves every room\'s clock forward, so that a plot timer '
            "or an absence's grace runs out at once.",
        ),
    ] = False,
) -> None:
    """Run the browser game: lobby, real-time matches with friends and bots, replays."""
    options = dict(locals())  # every option by name, as prepared() reads them
    if workers > 1:  # a supervisor of processes like this one (cli/_workers.py)
        import sys

        from spacetable.cli._workers import Workers, passed_on

        Workers(workers, host, port, redis).run(passed_on(sys.argv))
        return
    server = prepared(options)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"spacetable is running: open http://{shown}:{port}/  (storage: {server.storage_url})")
    if redis is not None:
        print(f"one of several processes sharing a Redis; the others reach it at {server.address}")
    print("press Ctrl+C to stop", flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: the server has stopped
        server.run()
    if not server.started:
        fail("the server did not start (is the port free?)")


def _push_settings(options: Mapping[str, Any]) -> PushSettings | None:
    """How the server sends Web Push, from ``--vapid-subject`` and ``--push-allow-host``
    (``None`` without ``--vapid-subject``)."""
    from spacetable.server.app import PushSettings

    subject = options.get("vapid_subject")
    hosts = tuple(options.get("push_allow_host") or ())
    if subject is None:
        if hosts:
            fail("--push-allow-host: only with --vapid-subject")
        return None
    if not re.fullmatch(r"(mailto:[^\s@]+@[^\s@]+|https://\S+)", subject):
        fail("--vapid-subject: mailto:you@example.org or an https:// URL")
    return PushSettings(subject, hosts)


def _mail_settings(options: Mapping[str, Any]) -> MailSettings | None:
    """How the server sends e-mail, from ``--smtp``, ``--mail-from`` and ``--public-url``
    (``None`` without ``--smtp``). A bad value ends as a user error (its password never
    said)."""
    from email.headerregistry import Address
    from urllib.parse import urlsplit

    from spacetable.server.app import MailSettings
    from spacetable.server.http.mailer import SmtpUrl

    if options.get("smtp") is None:
        return None
    try:
        smtp = SmtpUrl.parse(options["smtp"])
    except ValueError as exc:
        fail(str(exc))
    host, port = options["host"], options["port"]
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::", "") else host
    public = options.get("public_url") or f"http://{shown}:{port}"
    parts = urlsplit(public)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        fail(f"--public-url takes http(s)://host[:port], not {public!r}")
    sender = options.get("mail_from") or str(Address("spacetable", "noreply", parts.hostname))
    if any(c in sender for c in "\r\n"):
        fail("--mail-from: one line")
    return MailSettings(smtp, sender, public.rstrip("/"))


class Prepared(Protocol):
    """What :func:`prepared` returns: a uvicorn server of the game, ready to run."""

    started: bool
    should_exit: bool
    #: Where the finished matches are stored (the URL, any password hidden).
    storage_url: str
    #: Where the other processes of a cluster reach this one (``host:port``).
    address: str

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until stopped (Ctrl+C, SIGTERM, or ``should_exit`` set)."""


def prepared(options: Mapping[str, Any]) -> Prepared:
    """The server ``spacetable serve`` runs with ``options`` (its options by name, as
    parsed: one process, ``workers`` is not read), built and ready to ``run()``: the
    command runs it; tests of the server's HTTP and sockets run it in a thread of their
    own process (tests/_server.py), on a socket they opened. A bad option or a database
    that cannot be opened ends as a user error (:func:`~spacetable.cli._common.fail`)."""
    import uvicorn

    from spacetable.server.app import create_app
    from spacetable.server.http.guards import (
        CreationLimit,
        Guards,
        HostNames,
        SocketCounts,
        TrustedProxies,
    )
    from spacetable.server.http.http_protocol import HeadDeadlineProtocol
    from spacetable.server.http.ws_protocol import GameWebSocketProtocol, SocketPolicy
    from spacetable.server.rooms.room import Timing
    from spacetable.server.stopping import GRACE_SECONDS, GameServer
    from spacetable.server.store.storage import Storage

    host, port, redis = options["host"], options["port"], options["redis"]
    try:
        sockets = SocketPolicy.from_options(options["allow_origin"] or (), options["message_rate"])
        proxies = TrustedProxies.of(options["trusted_proxy"] or ())
    except ValueError as exc:
        fail(str(exc))
    timing = Timing(
        **{
            name: options[name]
            for name in (
                "stop_seconds",
                "abandon_seconds",
                "grace_seconds",
                "room_idle_seconds",
                "unjoined_seconds",
                "bot_pace",
                "countdown_seconds",
                "runup_seconds",
            )
        }
    )
    advertise = options["advertise"]
    if advertise is None:
        advertise = f"{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"
    names = list(options["host_name"] or ())
    if names and redis is not None:  # the other processes reach this one by that name
        names.append(advertise.rsplit(":", 1)[0])
    guards = Guards(
        HostNames.for_server(host, names),
        CreationLimit(options["rooms_per_minute"]),
        SocketCounts(options["sockets_per_client"], options["sockets_per_room"]),
        options["head_seconds"],
        proxies,
    )
    db = options["db"]
    try:
        storage = Storage(db)
    except Exception as exc:  # any driver error: report it in one line
        fail(f"cannot open the database {db or '(default)'}: {exc}")
    app = create_app(
        storage,
        timing,
        sockets,
        referee_seconds=options["resolve_seconds"],
        room_seed=options["room_seed"],
        guards=guards,
        redis_url=redis,
        address=advertise,
        node_name=options["node_name"],
        test_clock=options["test_clock"],
        mail=_mail_settings(options),
        push=_push_settings(options),
    )
    settings: dict[str, Any] = dict(
        host=host,
        port=port,
        log_level="warning",
        ws_ping_interval=20,
        # Game messages are small JSON objects sent many times a second: compressing each
        # one (permessage-deflate) cost the server more CPU than anything else under load.
        ws_per_message_deflate=False,
        ws=GameWebSocketProtocol,
        # h11 bounds a request's head (line and headers): httptools buffers any size, so
        # one request with a 100 MB header was read whole. Only HTTP requests and
        # websocket handshakes go through it; the room sockets' frames do not.
        # The request head has a deadline (http/http_protocol.py): a connection that trickles
        # it is closed.
        http=HeadDeadlineProtocol,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
        # Told to stop, the connections have this long to end (server/stopping.py).
        timeout_graceful_shutdown=GRACE_SECONDS,
        # X-Forwarded-For and -Proto are read by the application, from --trusted-proxy
        # only (http/guards.py, http/accounts.py): uvicorn's own reading of them, on by
        # default and trusting 127.0.0.1, let a client of this machine set its address
        # and get a Secure cookie over plain HTTP whatever --trusted-proxy said.
        proxy_headers=False,
    )
    config = uvicorn.Config(app, **settings)
    node = app.state.cluster
    server: Any
    if node is None:
        server = GameServer(config)
    else:  # one of several processes: SIGTERM drains first (server/cluster/draining.py)
        from spacetable.server.cluster.draining import DrainingServer

        drain = options["drain_seconds"]
        server = DrainingServer(config, node, 1.5 if drain is None else drain)
    server.storage_url = storage.url
    server.address = advertise
    return cast(Prepared, server)
