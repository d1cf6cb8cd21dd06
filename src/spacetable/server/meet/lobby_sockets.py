"""The hub: every lobby socket (``/ws/lobby``) of this process, and through the bus and
the presence board those of every process (issue 69; the interface is ``meet/hub.py``).

A lobby socket is registered here as a :class:`LobbySocket` (its player, a way to push a
frame to it and to close it: the route in ``http/lobby.py`` writes them). A message for a
player (:meth:`LobbyHub.send`) is published on the bus (``meet/bus.py``): each process
pushes it to that player's sockets it holds. Who is online is refreshed every
:data:`REFRESH_SECONDS`, and at once (within :data:`SETTLE_SECONDS`) when a socket opens
or closes here (``meet/presence.py``); the sockets that asked (``watch_online``) are sent
the list again whenever it changed. A player whose last lobby socket closed, and who has
none on another process :data:`GONE_SECONDS` later (on the server's clock: a reload or
going from page to page is not leaving), is told to the :meth:`LobbyHub.on_gone`
listeners by the process that held his last socket (by each process that held one, if
they closed together: a listener takes a player gone twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

import orjson

from spacetable.server.cluster.interface import cluster_errors
from spacetable.server.meet.bus import Bus
from spacetable.server.meet.hub import EndReason, Gone, Player, Presence
from spacetable.server.meet.presence import (
    PresenceBoard,
    Share,
    merge,
    presence_json,
    room_statuses,
)
from spacetable.server.protocol.server_messages import Online, SessionEnded, wire
from spacetable.server.rooms.clock import RoomClock
from spacetable.server.rooms.directory import RoomDirectory

log = logging.getLogger(__name__)

#: Seconds between two refreshes of who is online (and writes of this process's share).
REFRESH_SECONDS = 1.0
#: Seconds a refresh waits after a socket opened or closed here (a burst makes one).
SETTLE_SECONDS = 0.05
#: The least seconds between two ``online`` messages to the watching sockets (a burst
#: of sockets opening makes one message, not one every :data:`SETTLE_SECONDS`).
ONLINE_EVERY_SECONDS = 1.0
#: Seconds a player is without a lobby socket anywhere before he is gone (server clock).
GONE_SECONDS = 3.0
#: Close code of a lobby socket whose session ended (4000-4999: the application's).
SESSION_ENDED = 4401
#: The bus channels the hub uses.
SEND, BROADCAST, END = "hub.send", "hub.broadcast", "hub.end"


@dataclass(eq=False, slots=True)
class LobbySocket:
    """One open lobby socket of this process: its ``player``, ``push`` (queue a text
    frame; False once the socket cannot take more) and ``close`` (code, reason)."""

    player: Player
    push: Callable[[bytes], bool]
    close: Callable[[int, str], None]
    #: Whether it asked for the online list (``watch_online``).
    watching: bool = False
    #: The client address it came from (the route's limit per address).
    client: str = ""
    #: The digest of its session's id (``store/storage.py``'s ``secret_digest``), for an
    #: account's socket: what logging out of that session closes.
    session: str | None = None


class LobbyHub:
    """The :class:`~spacetable.server.meet.hub.PlayerHub` of this process: its lobby
    sockets, the rooms of ``directory`` (for the players' statuses), the ``bus`` to the
    other processes and, in a cluster, their ``board`` of presence. ``clock``: the
    server's test clock with ``--test-clock`` (else the event loop's), which times
    :data:`GONE_SECONDS`."""

    def __init__(
        self,
        directory: RoomDirectory,
        bus: Bus,
        clock: RoomClock | None = None,
        board: PresenceBoard | None = None,
    ) -> None:
        self.directory = directory
        self.bus = bus
        self.clock = clock
        self.board = board
        self._sockets: dict[str, set[LobbySocket]] = {}
        self._from: dict[str, int] = {}  # sockets by client address
        self._others: list[Share] = []
        self._last: dict[str, Any] | None = None  # the online list last sent
        self._sent_at = -ONLINE_EVERY_SECONDS  # when it was (the event loop's time)
        self._gone_listeners: list[Gone] = []
        #: Players whose last socket here closed, by when (server clock).
        self._leaving: dict[str, float] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe = [
            bus.subscribe(SEND, self._on_send),
            bus.subscribe(BROADCAST, self._on_broadcast),
            bus.subscribe(END, self._on_end),
        ]

    # -- starting and stopping --------------------------------------------------------

    def start(self) -> None:
        """Start refreshing who is online (call on the running loop)."""
        self._task = asyncio.create_task(self._refresh_forever())

    async def close(self) -> None:
        """Stop refreshing, withdraw this process's share, close every lobby socket
        (1012: the page reconnects, to another process behind a balancer)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        for sockets in list(self._sockets.values()):
            for socket in list(sockets):
                socket.close(1012, "the server restarts")
        if self.board is not None:
            try:
                await self.board.withdraw()
            except cluster_errors() as exc:  # Redis away: the share lapses by itself
                log.warning("could not withdraw this process's presence: %s", exc)

    # -- the sockets ------------------------------------------------------------------

    def connect(self, socket: LobbySocket) -> None:
        """A lobby socket opened here."""
        key = socket.player.key
        self._sockets.setdefault(key, set()).add(socket)
        self._from[socket.client] = self._from.get(socket.client, 0) + 1
        self._leaving.pop(key, None)
        self._changed.set()

    def disconnect(self, socket: LobbySocket) -> None:
        """A lobby socket closed here (once; again is nothing)."""
        key = socket.player.key
        sockets = self._sockets.get(key)
        if sockets is None or socket not in sockets:
            return
        sockets.discard(socket)
        left = self._from.pop(socket.client, 1) - 1
        if left:
            self._from[socket.client] = left
        if not sockets:
            del self._sockets[key]
            self._leaving[key] = self._now()
        self._changed.set()

    def sockets_of(self, key: str) -> int:
        """How many lobby sockets the player ``key`` has open on this process."""
        return len(self._sockets.get(key, ()))

    def sockets_from(self, client: str) -> int:
        """How many lobby sockets the client address ``client`` has open on this process."""
        return self._from.get(client, 0)

    def watch(self, socket: LobbySocket) -> None:
        """``socket`` asked for the online list: sent now and at each change."""
        socket.watching = True
        socket.push(_frame(self._online_message()))

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else asyncio.get_running_loop().time()

    # -- PlayerHub ----------------------------------------------------------------------

    async def send(self, key: str, message: object) -> None:
        """Send ``message`` to every lobby socket of the player ``key``, on any process."""
        await self.bus.publish(SEND, {"key": key, "message": wire(message)})

    async def broadcast(self, message: object) -> None:
        """Send ``message`` to every lobby socket of every process."""
        await self.bus.publish(BROADCAST, {"message": wire(message)})

    async def end_sessions(self, account: str, reason: EndReason = "ended") -> None:
        """Tell every page of ``account`` (its key) on every process that its session
        ended (``session_ended`` with ``reason``), and close their lobby sockets."""
        await self.bus.publish(END, {"key": account, "reason": reason})

    async def end_session(self, session: str, reason: EndReason = "logged_out") -> None:
        """Tell the pages of one session (``session``: its id's digest), on every process,
        that it ended (logged out in one of its tabs), and close their lobby sockets."""
        await self.bus.publish(END, {"session": session, "reason": reason})

    def is_online(self, key: str) -> bool:
        """Whether the player ``key`` has a lobby socket open here, or had one on another
        process at the last refresh (within about a second)."""
        return key in self._sockets or any(share.holds(key) for share in self._others)

    def online(self) -> tuple[list[Presence], int]:
        """The online registered players (by name) and the number of online guests: this
        process's as they are now, the others' as of the last refresh."""
        return merge([self.local_share(), *self._others])

    def on_gone(self, listener: Gone) -> None:
        """Call ``listener`` with a player's key once he has had no lobby socket on any
        process for :data:`GONE_SECONDS` (by the process that held his last one)."""
        self._gone_listeners.append(listener)

    # -- what the bus brings --------------------------------------------------------

    def _on_send(self, payload: Any) -> None:
        sockets = self._sockets.get(str(payload.get("key")))
        if sockets:
            frame = _frame(payload.get("message"))
            for socket in list(sockets):
                socket.push(frame)

    def _on_broadcast(self, payload: Any) -> None:
        frame = _frame(payload.get("message"))
        for sockets in list(self._sockets.values()):
            for socket in list(sockets):
                socket.push(frame)

    def _on_end(self, payload: Any) -> None:
        reason = payload.get("reason")
        if reason not in get_args(EndReason):
            reason = "ended"
        frame = _frame(wire(SessionEnded(reason)))
        session = payload.get("session")
        if session is not None:  # one session's sockets, whoever's
            sockets = [s for found in self._sockets.values() for s in found if s.session == session]
        else:
            sockets = list(self._sockets.get(str(payload.get("key")), ()))
        for socket in sockets:
            socket.push(frame)
            socket.close(SESSION_ENDED, "session ended")

    # -- who is online ------------------------------------------------------------------

    def local_share(self) -> Share:
        """This process's part of who is online, now."""
        share = Share(rooms=room_statuses(self.directory.rooms()))
        for key, sockets in self._sockets.items():
            player = next(iter(sockets)).player
            if player.guest:
                share.guests.add(key)
            else:
                share.players[key] = player.name
        return share

    def _online_message(self, share: Share | None = None) -> dict[str, Any]:
        """The ``online`` message: this process's ``share`` (made now if not given) with
        the others' as last read."""
        mine = share if share is not None else self.local_share()
        players, guests = merge([mine, *self._others])
        listed = presence_json(players, guests)
        return wire(Online(listed["players"], guests))

    async def _refresh_forever(self) -> None:
        reachable = True
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), REFRESH_SECONDS)
                await asyncio.sleep(SETTLE_SECONDS)
            self._changed.clear()
            try:
                await self.refresh()
                if not reachable:
                    log.warning("presence: the other processes are heard again")
                reachable = True
            except cluster_errors() as exc:  # Redis away: this process's players only
                if reachable:
                    log.warning("presence: the other processes are not heard (%s)", exc)
                reachable = False
                self._others = []
            except Exception:  # a bug: said, and the next refresh tries again
                log.exception("presence: the refresh failed")

    async def refresh(self) -> None:
        """Write this process's share and read the others' (in a cluster), tell the
        watching sockets of a change, and the listeners of the players gone."""
        share = self.local_share()  # (once: the rooms are read on their loop)
        if self.board is not None:
            await self.board.publish(share)
            self._others = await self.board.others()
        message = self._online_message(share)
        now = asyncio.get_running_loop().time()
        if message != self._last and now - self._sent_at >= ONLINE_EVERY_SECONDS:
            self._last, self._sent_at = message, now
            frame = _frame(message)
            for sockets in list(self._sockets.values()):
                for socket in list(sockets):
                    if socket.watching:
                        socket.push(frame)
        await self._tell_gone()

    async def _tell_gone(self) -> None:
        now = self._now()
        for key, since in list(self._leaving.items()):
            if self._leaving.get(key) != since:
                # Back, or gone again, while a listener below was awaited (or another
                # refresh ran): the next refresh weighs it as it is then.
                continue
            if key in self._sockets:
                del self._leaving[key]  # back here
            elif any(share.holds(key) for share in self._others):
                # On another process (or only as it last wrote): gone once held nowhere,
                # which that process may tell too (the listeners take a player gone twice).
                self._leaving[key] = now
            elif now - since >= GONE_SECONDS:
                del self._leaving[key]
                for listener in list(self._gone_listeners):
                    try:
                        await listener(key)
                    except Exception:
                        log.exception("a listener of players gone failed")


def _frame(message: Any) -> bytes:
    return orjson.dumps(message)
