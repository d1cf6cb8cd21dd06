"""The room directory: every open room of this process, found by id, at most
:data:`MAX_ROOMS` of them (the room-directory seam of DESIGN section 6). A room this
process does not hold, but storage does (its process died, the server restarted), is
brought back by :meth:`RoomDirectory.get_or_rebuild`."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import secrets
import string
import time
from collections.abc import Awaitable, Callable

from spacetable.i18n.phrase import refusal
from spacetable.server.rooms.clock import RoomClock
from spacetable.server.rooms.correspondence import Told
from spacetable.server.rooms.match import RoomOptions, Timing
from spacetable.server.rooms.rebuild import RebuildFailed, rebuild_room
from spacetable.server.rooms.room import Room
from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.live_store import HEARTBEAT_SECONDS, LiveStore
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage, StorageUnavailable

__all__ = ["RebuildFailed", "RoomDirectory", "RoomsFull"]

log = logging.getLogger("spacetable.rooms")

#: The most rooms open at once (an idle room holds about 7 KB until it closes).
MAX_ROOMS = 5000
#: What a room id is made of: letters and digits only, so that an id never starts with a
#: dash or an underscore ("--jSlZp6" read as punctuation in the page's title and links).
ROOM_ID_ALPHABET = string.ascii_letters + string.digits
#: The length of a room id: 62**8, about 2**47 ids, as many as 6 random bytes.
ROOM_ID_LENGTH = 8


def new_room_id() -> str:
    """A fresh room id: :data:`ROOM_ID_LENGTH` letters and digits drawn by ``secrets``."""
    return "".join(secrets.choice(ROOM_ID_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def _well_formed(room_id: str) -> bool:
    """Whether ``room_id`` could be a room's (storage is not asked about other names)."""
    return len(room_id) == ROOM_ID_LENGTH and all(c in ROOM_ID_ALPHABET for c in room_id)


def room_seed(base: int, ordinal: int) -> int:
    """The seed of the ``ordinal``-th room (from 0) a server started with the room seed
    ``base`` creates: ``base`` for the first, then ``base + 1``... (modulo 2**31), so that
    a test that creates one room knows its seed."""
    return (base + ordinal) % 2**31


class RoomsFull(RuntimeError):
    """The server holds as many open rooms as it may: try again once some have closed."""


class RoomDirectory:
    """Every room of this process (the room-directory seam of DESIGN section 6). Rooms
    close themselves when nobody has used them for a while (``Timing.room_idle_seconds``)
    and leave the directory; at most ``max_rooms`` are open at once. With ``room_seed``
    the rooms' matches are reproducible: the ``k``-th room created (from 0) has the seed
    :func:`room_seed` (``room_seed``, ``k``); without it each match draws its own. Rooms
    keep time with ``clock`` (default: the event loop's). With ``durable`` (the default)
    every room is stored as it lives (``store/live_store.py``), and can be rebuilt."""

    def __init__(
        self,
        storage: Storage,
        timing: Timing,
        max_rooms: int = MAX_ROOMS,
        *,
        room_seed: int | None = None,
        clock: RoomClock | None = None,
        durable: bool = True,
        accounts: AccountStore | None = None,
        ratings: RatingBook | None = None,
    ) -> None:
        self.storage = storage
        #: The accounts (issue 37): a guest may not sit under a registered name.
        self.accounts = accounts
        #: Their ratings, shown beside a registered player's seat.
        self.ratings = ratings
        #: Whether an account (its key) is muted by a moderator, without a database call
        #: (the application gives ``meet/moderation.py``'s copy of the mutes).
        self.muted: Callable[[str], bool] = lambda account: False
        #: The names of the accounts an account (its key) blocks: its chat hides their
        #: lines (the application gives ``store/relations.py``'s; a database query).
        self.blocked_by: Callable[[str], list[str]] = lambda account: []
        #: Tells the players' accounts of their correspondence turns (the application gives
        #: ``meet/notices.py``'s, which stores them off the rooms' task; none: nobody is).
        self.told: Told | None = None
        #: Called with a room whose match is over (the application gives the bots' event
        #: streams': ``meet/bot_events.py``; none: nobody hears of it).
        self.match_over: Callable[[Room], None] | None = None
        self.saves = SaveQueue(storage)
        self.live = LiveStore(storage) if durable else None
        self._rebuilding: dict[str, asyncio.Future[Room | None]] = {}
        self.timing = timing
        self.max_rooms = max_rooms
        self.room_seed = room_seed
        self.clock = clock
        self._created = 0
        self._rooms: dict[str, Room] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        #: Put idle correspondence rooms away (closed here, their rows kept): only when
        #: something opens them again when a turn runs out (the server's
        #: ``DeadlineSweeper``, ``rooms/deadlines.py``), which sets it.
        self.puts_away = False

    def start(self) -> None:
        """Begin the heartbeat of this process's stored rooms (call on the running loop;
        nothing without storage of live rooms)."""
        if self.live is not None and self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._beat_forever(self.live))

    async def _beat_forever(self, live: LiveStore) -> None:
        """Every :data:`HEARTBEAT_SECONDS`, mark this process's open rooms as held, at
        their match time (a rebuilt countdown resumes from there); now and then, forget
        the stored rooms nobody has held for the rooms' idle time (their process died
        and nobody came back to them: the room would have closed anyway)."""
        idle = max(self.timing.room_idle_seconds, 5 * HEARTBEAT_SECONDS)
        sweep_every = max(1, int(min(60.0, idle / 2) / HEARTBEAT_SECONDS))
        beats = 0
        while True:
            clocks = {
                room.id: (None if room.match is None else room.now())
                for room in self._rooms.values()
                if not room.expired
            }
            try:
                await asyncio.to_thread(live.beat, clocks, time.time())
                if beats % sweep_every == 0:
                    keep = set(self._rooms)
                    swept = await asyncio.to_thread(live.sweep, time.time() - idle, keep)
                    if swept:
                        log.info("forgot %d stored rooms nobody held: %s", len(swept), swept)
            except StorageUnavailable as exc:
                log.warning("the rooms' heartbeat is not stored: %s", exc)
            beats += 1
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def create(self, options: RoomOptions, seed: int | None = None) -> Room:
        """Open a new room, whose matches draw their chance from ``seed`` when given (a
        test's room, independent of the rooms before it: not counted in the order of
        ``room_seed``). Raises RoomsFull when ``max_rooms`` are open."""
        if len(self._rooms) >= self.max_rooms:
            raise RoomsFull(
                refusal(
                    "the server has {n} open rooms, its most: try again when some have closed",
                    n=self.max_rooms,
                )
            )
        room_id = new_room_id()
        if seed is None and self.room_seed is not None:
            seed = room_seed(self.room_seed, self._created)
            self._created += 1
        room = Room(
            room_id,
            options,
            self.saves,
            self.timing,
            self._expired,
            clock=self.clock,
            seed=seed,
            live=self.live,
        )
        self._rooms[room_id] = room
        self._furnish(room)
        return room

    def _furnish(self, room: Room) -> None:
        """Give a room opened here what the directory knows: the accounts, the ratings,
        whether it may be put away."""
        room.may_put_away = self.puts_away and self.live is not None
        room.muted = self.muted
        room.blocked_by = self.blocked_by
        room.correspondence.told = self.told
        if self.match_over is not None:
            room.match_over = self.match_over
        if self.accounts is not None:
            room.registered = self.accounts.is_registered
        if self.ratings is not None:
            room.rating_of = self.ratings.shown
            room.bot_account_of = self.ratings.bots.is_bot
            room.unrated_of = self.ratings.unrated

    def _expired(self, room: Room) -> None:
        if self._rooms.get(room.id) is not room:
            return
        del self._rooms[room.id]
        if self.live is not None and not room.journal.moved and not room.kept_stored:
            # Closed for good: its stored rows go too.
            forgetting = asyncio.ensure_future(asyncio.to_thread(self.live.forget, room.id))
            forgetting.add_done_callback(_log_failure)

    async def get_or_rebuild(self, room_id: str) -> Room | None:
        """The room with this id: open in this process, or rebuilt from storage (where
        it lives on after its process died); ``None`` if storage has no such room either.
        Raises :class:`RebuildFailed` for a stored room that cannot be played again (its
        players are told why), StorageUnavailable."""
        room = self._rooms.get(room_id)
        if room is not None or self.live is None or not _well_formed(room_id):
            return room
        rebuilding = self._rebuilding.get(room_id)
        if rebuilding is None:  # the first socket to ask rebuilds; the others wait for it
            rebuilding = asyncio.ensure_future(self._rebuild(room_id))
            self._rebuilding[room_id] = rebuilding
            rebuilding.add_done_callback(lambda _: self._rebuilding.pop(room_id, None))
        return await asyncio.shield(rebuilding)

    def rebuilding(self, room_id: str) -> Awaitable[Room | None] | None:
        """The rebuild of ``room_id`` under way in this process (:meth:`get_or_rebuild`),
        to wait for with the socket that began it; None if there is none."""
        rebuilding = self._rebuilding.get(room_id)
        return None if rebuilding is None else asyncio.shield(rebuilding)

    async def stored_ruleset(self, room_id: str) -> str | None:
        """What the room with this id plays, as storage has it (``None``: no such stored
        room, or storage is away): a room page's game before its socket rebuilds it."""
        if self.live is None or not _well_formed(room_id):
            return None
        try:
            return await asyncio.to_thread(self.live.ruleset, room_id)
        except StorageUnavailable:
            return None

    async def _rebuild(self, room_id: str) -> Room | None:
        live = self.live
        assert live is not None
        stored = await asyncio.to_thread(live.load, room_id)
        if stored is None:
            return None
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        if len(self._rooms) >= self.max_rooms:
            raise RoomsFull(
                refusal(
                    "the server has {n} open rooms, its most: try again when some have closed",
                    n=self.max_rooms,
                )
            )
        try:
            room = rebuild_room(stored, self.saves, self.timing, live, self._expired, self.clock)
        except RebuildFailed as exc:
            log.error("room %s cannot be rebuilt: %s", room_id, exc)
            raise
        log.info(
            "room %s rebuilt: %s, %s, match %d with %d actions",
            room_id,
            stored.ruleset,
            stored.phase,
            stored.match_number,
            len(stored.actions),
        )
        self._rooms[room_id] = room
        self._furnish(room)
        return room

    async def hand_over(self, room: Room, code: int = 1012) -> None:
        """Stop a room that another process now owns (a cluster's, docs/scaling.md): it
        leaves the directory and its sockets are closed with ``code`` (1012, "service
        restart": the clients reconnect, and reach the room's new owner)."""
        self._rooms.pop(room.id, None)
        await room.close()
        for connection in list(room.connections):
            connection.hang_up(code, "the room moved to another server: reconnecting")

    def get(self, room_id: str) -> Room | None:
        """The room with this id, if open."""
        return self._rooms.get(room_id)

    def rooms(self, limit: int | None = None) -> list[Room]:
        """Open rooms, newest first (the ``limit`` newest)."""
        if limit is not None:
            return heapq.nlargest(limit, self._rooms.values(), key=lambda r: r.created)
        return sorted(self._rooms.values(), key=lambda r: r.created, reverse=True)

    async def close(self) -> None:
        """Stop every room, then store the matches still waiting for the database. The
        rooms' stored rows stay: a server started again on the same database brings each
        back when its players return."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        for room in list(self._rooms.values()):
            await room.close()
        await asyncio.to_thread(self.saves.close)
        if self.live is not None:
            self.live.close()


def _log_failure(task: asyncio.Future[None]) -> None:
    exc = None if task.cancelled() else task.exception()
    if isinstance(exc, StorageUnavailable):
        log.warning("a closed room's rows stay stored: %s", exc)
    elif exc is not None:
        log.error("forgetting a closed room failed", exc_info=exc)
