"""The room websockets (``/ws/rooms/{room_id}``), served straight from uvicorn's protocol.

A room's sockets carry most of the server's traffic: every player's hand pose 20 times a
second in, the coalesced poses of the others out. Through ASGI each message in wakes the
connection's task through a queue (and stops and restarts reading the socket), and each
message out is framed again for every player. :class:`GameWebSocketProtocol` is uvicorn's
own sans-I/O websocket protocol (``uvicorn.run(ws=...)``) that keeps uvicorn's handshake,
pings and closing handshake but hands a room socket's messages to its room as they are
read (its text frames split and unmasked by ``sockets/client_frames.py``, every other frame
through uvicorn's parser), and writes the room's messages as frames built once for all their readers
(:func:`~spacetable.server.sockets.connection.text_frame`). Every other websocket path still goes
to the ASGI application.

The socket layer also holds the room sockets' limits (docs/protocol.md, "Limits"): a
message is at most :data:`MAX_MESSAGE_BYTES` (refused with 1009 as soon as a fragmented one
grows past it), a client sends at most so many messages a second (``sockets/rate_limit.py``; a
flood is closed with 1008), a client that stops reading is closed with 1013, and a socket
whose client does not answer a close within :data:`CLOSE_GRACE_SECONDS` is aborted, its
buffers freed. A browser's websocket from a page of another site (its ``Origin`` is not
this server's host nor an allowed origin) is refused with 403; one for a host name the
server does not answer to with 400, and one over the sockets a client or a room may hold
(``http/guards.py``) with 429.

The room directory comes from the application's lifespan state (key :data:`ROOMS`), and
the server's :class:`SocketPolicy` (the origins allowed besides its own, the message rate)
from key :data:`POLICY`.
"""

from __future__ import annotations

import asyncio
import random
import re
import socket
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from uvicorn.protocols.websockets import websockets_sansio_impl
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidHandshake
from websockets.http11 import Request
from websockets.protocol import State

from spacetable.i18n import N_, choose
from spacetable.i18n.phrase import Reason
from spacetable.server.cluster.interface import CLUSTER, Moving, cluster_errors
from spacetable.server.cluster.relay import RECONNECT, Relay, connect_owner
from spacetable.server.http.guards import Guards, client_address
from spacetable.server.http.http_protocol import GUARDS
from spacetable.server.http.origins import origin
from spacetable.server.http.origins import same_origin as same_origin  # (accounts.py reads it here)
from spacetable.server.protocol.server_messages import Error, wire
from spacetable.server.rooms.directory import RebuildFailed, RoomDirectory, RoomsFull
from spacetable.server.rooms.room import Room
from spacetable.server.sockets.client_frames import FrameReader
from spacetable.server.sockets.connection import Connection
from spacetable.server.sockets.protocol import (
    MAX_TAB_CHARS,
    Pose,
    ProtocolError,
    parse_client_message,
)
from spacetable.server.sockets.rate_limit import MESSAGES_PER_SECOND, MessageLimits, Verdict
from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore
from spacetable.server.store.storage import StorageUnavailable

if TYPE_CHECKING:
    from spacetable.server.cluster.node import ClusterNode

#: The lifespan-state key under which the application shares its room directory.
ROOMS = "spacetable.rooms"
#: The lifespan-state key of the accounts (``store/accounts.py``): a socket's session.
ACCOUNTS = "spacetable.accounts"
#: The lifespan-state key of the room sockets' :class:`SocketPolicy`.
POLICY = "spacetable.sockets"
#: Close code for a room that does not exist (4000-4999: free for applications).
NO_SUCH_ROOM = 4404
#: Close code for a stored room that cannot be played again (``directory.RebuildFailed``).
ROOM_LOST = 4410
#: Close code for a room that storage cannot bring back now (the database is away).
ROOM_UNAVAILABLE = 4503
#: The most messages a socket sends before its room is rebuilt from storage (kept, then
#: handed to the room in order).
EARLY_MESSAGES = 64
#: Close code for a client that does not read what it is sent (RFC 6455: "try again later").
TOO_SLOW = 1013
#: Close code for a client that floods the room with messages (RFC 6455: "policy violation").
FLOODING = 1008
#: Bytes waiting to be sent to a client before it counts as not reading.
MAX_BACKLOG = 4 * 1024 * 1024
#: The largest message a client may send. The largest legitimate one, a Stellar Conflict
#: fleet of 40 ship keys of 64 characters, is under 3 KB.
MAX_MESSAGE_BYTES = 64 * 1024
#: Seconds a client has to answer the server's close before its socket is aborted (a client
#: that does not read never answers, and its unsent messages would stay in memory).
CLOSE_GRACE_SECONDS = 2.0

_ROOM_PATH = re.compile(r"/ws/rooms/([^/?]+)")
#: SO_LINGER on, for 0 seconds: closing the socket drops what the kernel still holds for
#: the client and resets the connection.
_RESET_ON_CLOSE = struct.pack("ii", 1, 0)


@dataclass(frozen=True, slots=True)
class SocketPolicy:
    """How the room sockets are guarded (``spacetable serve`` options)."""

    #: Origins (:func:`origin`) whose pages may connect besides the server's own.
    allowed_origins: frozenset[str] = frozenset()
    #: Messages a second each client may send (``sockets/rate_limit.py``); 0: no limit.
    message_rate: float = MESSAGES_PER_SECOND

    @classmethod
    def from_options(
        cls, allowed_origins: Iterable[str] = (), message_rate: float | None = None
    ) -> SocketPolicy:
        """The policy for ``spacetable serve``'s options (``message_rate`` None: the
        default). Raises ``ValueError`` naming an option that is not valid."""
        try:
            origins = frozenset(origin(url) for url in allowed_origins)
        except ValueError as exc:
            raise ValueError(f"--allow-origin: {exc}") from None
        rate = MESSAGES_PER_SECOND if message_rate is None else message_rate
        if not rate >= 0:  # NaN too
            raise ValueError(f"--message-rate must be 0 or more, got {message_rate}")
        return cls(origins, rate)


#: uvicorn's keepalive pings drew their payload from the ``random`` module's generator,
#: which the whole process shares (a test beside a server saw it move: Hypothesis failed).
websockets_sansio_impl.random = random.Random()  # type: ignore[attr-defined,assignment]


class GameWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with room sockets handled in place."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The sans-I/O parser counts a fragmented message's size as its frames arrive and
        # fails (1009) at the first frame header that would take it past the limit.
        self.conn.max_message_size = MAX_MESSAGE_BYTES
        self.game: Connection | None = None
        self.room: Room | None = None
        self.limits: MessageLimits | None = None
        self.counted: tuple[Guards, str, str] | None = None  # (guards, client, room id)
        # In a cluster, a socket for a room another process owns is relayed there.
        self.relay: Relay | None = None
        self.finding: asyncio.Task[None] | None = None
        #: Messages that came while the room was being rebuilt from storage.
        self.early: list[bytes] | None = None
        #: Reads a room socket's text messages without the general parser (``None``: not
        #: a room socket, or not at a frame's start when it opened).
        self.frame_reader: FrameReader | None = None
        #: The session id of the socket's cookie (issue 37), passed on to a relayed owner.
        self.session_id: str | None = None

    # -- uvicorn's hooks ------------------------------------------------------------

    def handle_connect(self, event: Request) -> None:
        """The opening handshake: a room's socket is accepted here; others go to ASGI.
        Any websocket from a page of another site is refused first."""
        policy: SocketPolicy = self.app_state.get(POLICY, SocketPolicy())
        page = event.headers.get("Origin")
        host = event.headers.get("Host")
        guards: Guards = self.app_state.get(GUARDS) or Guards()
        if not guards.hosts.allows(host):  # a DNS-rebinding page's Host is its own name
            why = f"this server does not answer to the host name {host!r}"
            self._refuse(event, HTTPStatus.BAD_REQUEST, why)
            return
        if page is not None and not same_origin(page, host, policy.allowed_origins):
            self._refuse(event, HTTPStatus.FORBIDDEN, f"websockets from {page} are not allowed")
            return
        found = _ROOM_PATH.fullmatch(event.path.partition("?")[0])
        directory: RoomDirectory | None = self.app_state.get(ROOMS)
        if found is None or directory is None:
            super().handle_connect(event)
            return
        peer = self.client[0] if self.client else None
        # Every line: a balancer adds its own after the client's (a forged one is not read).
        forwarded = event.headers.get_all("X-Forwarded-For")
        client = client_address(peer, forwarded, guards.proxies)
        refusal = guards.sockets.open(client, found[1])
        if refusal is not None:
            self._refuse(event, HTTPStatus.TOO_MANY_REQUESTS, refusal)
            return
        self.counted = (guards, client, found[1])
        self.request = event
        self.response = self.conn.accept(event)
        self.handshake_initiated = self.handshake_complete = True
        self.conn.send_response(self.response)
        self._flush()
        if self.response.status_code != 101:  # not a valid websocket handshake
            self.close_sent = True
            self.transport.close()
            return
        self.start_keepalive()
        # The room's messages from here on are read by the frame reader; only if nothing
        # came with the handshake (a client waits for the server's answer, RFC 6455 4.1),
        # so that the general parser it hands other frames to is at a frame's start.
        if not self.conn.reader.buffer:
            self.frame_reader = FrameReader(MAX_MESSAGE_BYTES)
        # The room page takes the state as patches (``sockets/state_patch.py``); other clients
        # (tools, tests) get every state whole unless they ask the same.
        query = parse_qs(event.path.partition("?")[2])
        patches = query.get("patches") == ["1"]
        self.game = Connection(
            self.write_frame, self.close, patches=patches, lang=_reader_language(event)
        )
        # The page's tab (``?tab=``, as ``join`` and ``rejoin`` name it): who speaks in the
        # chat, whether seated or watching (``rooms/chat.py``).
        tab = query.get("tab", [""])[0]
        if 0 < len(tab) <= MAX_TAB_CHARS:
            self.game.tab = tab
        room_id = found[1]
        # A socket opened with a session cookie sits as its account (issue 37 item 2):
        # the session is looked up first, off the loop; what comes meanwhile is kept.
        session_id = self.session_id = _session_id(event.headers.get("Cookie"))
        accounts: AccountStore | None = self.app_state.get(ACCOUNTS)
        if session_id is not None and accounts is not None:
            self.early = []
            self.finding = asyncio.create_task(
                self._identify(accounts, session_id, directory, room_id, client)
            )
            return
        self._enter(directory, room_id, client)

    async def _identify(
        self,
        accounts: AccountStore,
        session_id: str,
        directory: RoomDirectory,
        room_id: str,
        client: str,
    ) -> None:
        """Find the account of the socket's session (none: it is a guest), then go on to
        its room with the messages that came meanwhile."""
        assert self.game is not None
        try:
            account = await asyncio.to_thread(accounts.session_account, session_id)
        except StorageUnavailable:
            account = None  # the database is away: a guest for now
        early, self.early = self.early or [], None
        if self.close_sent or self.disconnected:
            return
        if account is not None:
            self.game.account = account.name
        self._enter(directory, room_id, client)
        if self.early is not None:  # being rebuilt: the early ones first
            self.early[:0] = early
        elif self.relay is not None:
            for data in early:
                self.relay.send(data)
        elif self.room is not None:
            for data in early:
                self._deliver(self.room, data)

    def _enter(self, directory: RoomDirectory, room_id: str, client: str) -> None:
        """The socket goes to its room: here, through a relay to another process, or
        rebuilt from storage."""
        room = directory.get(room_id)
        cluster: ClusterNode | None = self.app_state.get(CLUSTER)
        if room is None and cluster is not None:
            # Another process may own it (or it must be rebuilt here): ask Redis.
            self.relay = Relay(self.write_frame, self.close)
            self.finding = asyncio.create_task(self._find(cluster, room_id, client))
            return
        if room is None:  # perhaps in storage: its process died, the server restarted
            self.early = []
            self.finding = asyncio.create_task(self._rebuild(directory, room_id))
            return
        self._attach(room)

    async def _rebuild(self, directory: RoomDirectory, room_id: str) -> None:
        """Find the room in storage, rebuilt (``directory.get_or_rebuild``); the messages
        that came meanwhile go to it in order. A room that storage does not hold, or
        cannot bring back, is said so and the socket closed."""
        try:
            room = await directory.get_or_rebuild(room_id)
        except (RebuildFailed, StorageUnavailable, RoomsFull) as exc:
            self.early = None
            self._unavailable(room_id, exc)
            return
        early, self.early = self.early or [], None
        if self.close_sent or self.disconnected:
            return
        if room is None:
            self._no_room(room_id)
            return
        self._attach(room)
        for data in early:
            self._deliver(room, data)

    def _unavailable(self, room_id: str, exc: Exception) -> None:
        """The room is in storage but cannot be played here: a room that cannot be rebuilt
        (4410, the page gives up), or not now (4503, the page tries again)."""
        assert self.game is not None
        if self.close_sent or self.disconnected:
            return
        if isinstance(exc, RebuildFailed):
            why = N_("room {room} could not be brought back after a server restart: {problem}")
            code, reason = ROOM_LOST, "room lost"
        else:
            why = N_("room {room} is unavailable: {problem}")
            code, reason = ROOM_UNAVAILABLE, "later"
        self.game.error(why, room=repr(room_id), problem=str(exc))
        self.close(code, reason)

    def _no_room(self, room_id: str) -> None:
        assert self.game is not None
        self.game.error(N_("no room {room}"), room=repr(room_id))
        self.close(NO_SUCH_ROOM, "no such room")

    def _attach(self, room: Room) -> None:
        """The socket joins ``room`` of this process."""
        assert self.game is not None
        policy: SocketPolicy = self.app_state.get(POLICY, SocketPolicy())
        self.room = room
        if policy.message_rate > 0:  # the socket's limits keep its room's time
            self.limits = MessageLimits(policy.message_rate, room.clock)
        room.connect(self.game)

    async def _find(self, cluster: ClusterNode, room_id: str, client: str) -> None:
        """Reach the room another process owns, through a relay, or the room rebuilt
        here if its owner is gone. An owner that does not answer (killed, stopping), or a
        room this process let go a moment ago (``Moving``), is tried again until its lock
        lapses or is released and the room can be rebuilt here."""
        relay = self.relay
        assert relay is not None
        deadline = self.loop.time() + 2 * cluster.owner_ttl_ms / 1000
        while not (self.close_sent or self.disconnected):
            try:
                where = await cluster.locate(room_id)
            except cluster_errors():
                self.close(TOO_SLOW, "the room directory does not answer: try again")
                return
            except (RebuildFailed, StorageUnavailable, RoomsFull) as exc:
                self.relay = None
                self._unavailable(room_id, exc)
                return
            if where is None:
                self.relay = None
                self._no_room(room_id)
                return
            if isinstance(where, Room):
                self.relay = None
                self._attach(where)
                for data in relay.take_pending():
                    self._deliver(where, data)
                return
            if isinstance(where, Moving):  # let go here a moment ago: asked again
                if self.loop.time() > deadline:
                    self.close(RECONNECT, "the room is moving to another server: reconnect")
                    return
                await asyncio.sleep(0.25)  # polling the lock, as for an owner that is gone
                continue
            try:
                patches = self.game is not None and self.game.patches  # asked of the owner too
                tab = self.game.tab if self.game is not None else None
                upstream = await connect_owner(
                    where.address,
                    room_id,
                    client,
                    patches=patches,
                    tab=tab,
                    session=self.session_id,
                )
            except (OSError, InvalidHandshake, TimeoutError):
                if self.loop.time() > deadline:
                    self.close(RECONNECT, "the room's server does not answer: try again")
                    return
                await asyncio.sleep(0.25)  # polling the lock another process holds
                continue
            if self.close_sent or self.disconnected:
                await upstream.close()
                return
            relay.start(upstream)
            return

    def data_received(self, data: bytes) -> None:
        """Bytes from the client: a room socket's text messages go to its room at once
        (``sockets/client_frames.py``); every other frame through uvicorn's parser."""
        reader = self.frame_reader
        if reader is None:
            super().data_received(data)
            return
        payload = reader.whole(data)
        if payload is not None:
            room = self.room
            if room is not None and self.early is None and not self.close_sent:
                self._deliver(room, payload)  # a pose to its room, nearly every read
                return
            self.frames = [payload]
            self.send_receive_event_to_app()
            return
        pieces = reader.frames(data)
        for kind, piece in pieces:
            if kind == "text":
                self.frames = [piece]
                self.send_receive_event_to_app()
                continue
            super().data_received(piece)  # a control frame, or the rest of the stream
            if reader.plain and self.conn.state is not State.OPEN:  # closing: it reads on
                pieces.close()
                super().data_received(reader.rest())
                return

    def send_receive_event_to_app(self) -> None:
        """A whole message has arrived: a room socket's goes to its room."""
        if self.game is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.early is not None:  # the room is being rebuilt: kept for it
            if len(self.early) < EARLY_MESSAGES:
                self.early.append(data)
            return
        if self.relay is not None and not self.close_sent:
            self.relay.send(data)
            return
        if self.room is None or self.close_sent:
            return
        self._deliver(self.room, data)

    def _deliver(self, room: Room, data: bytes) -> None:
        """One message from the client to its room, within the socket's limits."""
        assert self.game is not None
        limits = self.limits
        if limits is not None and not self._admitted(limits.message()):
            return
        try:
            message = parse_client_message(data)
        except ProtocolError as exc:  # told in the socket's language (its message is a phrase)
            said = exc.args[0] if exc.args else str(exc)
            text = said.phrase.text(self.game.tr) if isinstance(said, Reason) else str(said)
            self.game.send(wire(Error(text)))
            return
        if isinstance(message, Pose):
            room.pose(self.game, message)  # the stream: no trip through the queue
        elif limits is None or self._admitted(limits.action()):
            room.submit(self.game, message)

    def handle_ping(self) -> None:
        """A ping from the client: it counts as a message, and its pong (which the sans-I/O
        protocol has queued) is written like every message to the client."""
        pong = b"".join(self.conn.data_to_send())
        if self.game is None:
            self.transport.write(pong)
        elif self.limits is None or self._admitted(self.limits.message()):
            self.write_frame(pong)

    def handle_parser_exception(self) -> None:
        """The client broke the protocol (a message over :data:`MAX_MESSAGE_BYTES`: 1009):
        uvicorn sends the close and closes; the message's frames are dropped at once, and
        the socket aborted if what is queued for the client never leaves."""
        self.frames = []
        super().handle_parser_exception()
        self._abort_later()

    def keepalive_timeout(self) -> None:
        """The client did not answer a ping in time: closed, then aborted if need be."""
        super().keepalive_timeout()
        self._abort_later()

    def connection_lost(self, exc: Exception | None) -> None:
        """The socket is gone: the room hears of it once."""
        super().connection_lost(exc)
        if self.finding is not None:
            self.finding.cancel()
            self.finding = None
        if self.relay is not None:
            self.relay.close()
            self.relay = None
        if self.counted is not None:
            guards, client, room_id = self.counted
            guards.sockets.close(client, room_id)
            self.counted = None
        if self.game is not None and self.room is not None:
            self.room.disconnect(self.game)
            self.room = None

    # -- writing --------------------------------------------------------------------

    def write_frame(self, frame: bytes) -> bool:
        """Send one ready-made frame; False once the socket can no longer be written."""
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return False
        self.transport.write(frame)
        if self.transport.get_write_buffer_size() > MAX_BACKLOG:
            self.close(TOO_SLOW, "not reading")
            return False
        return True

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake; the transport closes when the client answers, or
        is aborted (what waits to be sent dropped) after :data:`CLOSE_GRACE_SECONDS`."""
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.send_close(code, reason)
        self._flush()
        self.close_sent = True
        self.close_timer = self.loop.call_later(CLOSE_GRACE_SECONDS, self._abort)

    def _flush(self) -> None:
        self.transport.write(b"".join(self.conn.data_to_send()))

    def _abort_later(self) -> None:
        """A closed transport still holds what waits to be sent until the client reads it:
        abort it after the grace period (nothing happens if it is gone by then)."""
        self.loop.call_later(CLOSE_GRACE_SECONDS, self._abort)

    def _abort(self) -> None:
        """Drop the connection now, and everything that waits to be sent on it, in this
        process and in the kernel."""
        if self.disconnected:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET_ON_CLOSE)
        self.transport.abort()

    def _admitted(self, verdict: Verdict) -> bool:
        """Whether a message may go on, by its rate-limit verdict; the client hears of the
        first one dropped, and a flood is closed."""
        if verdict is Verdict.ALLOW:
            return True
        if verdict is Verdict.THROTTLE and self.game is not None and self.limits is not None:
            self.game.send(wire(Error(self.limits.explain(self.game.tr))))
        elif verdict is Verdict.FLOOD:
            self.close(FLOODING, "too many messages")
            self.transport.pause_reading()  # nothing more from it: its close waits the grace
        return False

    def _refuse(self, event: Request, status: HTTPStatus, why: str) -> None:
        """Answer the opening handshake with an HTTP error and close."""
        self.request = event
        self.response = self.conn.reject(status, why + "\n")
        self.handshake_initiated = self.handshake_complete = True
        self.conn.send_response(self.response)
        self._flush()
        self.close_sent = True
        self.transport.close()


def _reader_language(event: Request) -> str:
    """The language of the page that opened the socket: ``?lang=`` in the socket's link,
    else the ``lang`` cookie, else the browser's Accept-Language (as ``pages.reader_language``
    for a page)."""
    asked = parse_qs(event.path.partition("?")[2]).get("lang", [None])[0]
    remembered = None
    try:
        cookie = SimpleCookie(event.headers.get("Cookie", ""))
        remembered = cookie["lang"].value if "lang" in cookie else None
    except CookieError:
        pass  # a garbled cookie header: the browser's languages still say
    return choose(asked, remembered, event.headers.get("Accept-Language"))


def _session_id(header: str | None) -> str | None:
    """The session id of the socket's cookie header (``store/accounts.py``), if any."""
    if not header or SESSION_COOKIE not in header:
        return None
    try:
        cookie = SimpleCookie(header)
    except CookieError:
        return None
    return cookie[SESSION_COOKIE].value if SESSION_COOKIE in cookie else None
