"""One server process in a cluster: its rooms' ownership, lobby and pages, kept in Redis.

Keys (all under ``spacetable:``, in one Redis: the scripts touch several keys at once):

- ``room:<id>:owner``: the owning process's id (``address|random``, or
  ``address|random|name`` for a process named in the balancer), set only if absent
  or already ours (SET NX semantics in a script), with a time to live of
  :data:`OWNER_TTL_MS`, renewed every :data:`RENEW_SECONDS` by the owner (its event
  loop; while the loop is too busy, a thread of its own: :data:`LOOP_STALL_SECONDS`),
  also while the owner rebuilds the room. A process that dies (kill -9) stops
  renewing: its rooms are free again within the TTL.
- ``room:<id>:info``: what any process needs to serve the room's page (its ruleset),
  kept :data:`INFO_TTL_MS` and renewed by the owner.
- ``lobby:<node>``: the lobby entries of one process's open rooms (JSON), and the sorted
  set ``nodes`` of the processes that wrote one, scored by when it lapses. Any process's
  lobby reads them all (two round trips, cached :data:`LOBBY_CACHE_SECONDS`).

Redis being away never stops a room: the rooms live in their process; the lobby shows
this process's rooms only until Redis answers again, and every key is written again at
the next renewal (a restarted, empty Redis is filled again within a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from spacetable.server.cluster.interface import Elsewhere, Moving
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.room import Room

log = logging.getLogger(__name__)

PREFIX = "spacetable:"
#: How long an owner's lock lasts unless renewed (ms): a dead process's rooms are taken
#: over at most this long after its death.
OWNER_TTL_MS = 3000
#: How often the owner renews its locks and its lobby entries (seconds).
RENEW_SECONDS = 1.0
#: A thread of the process keeps its locks alive while its event loop is too busy to renew
#: them (a burst of rebuilds, a starved machine: then another process took its rooms and
#: played a second copy), but not once the loop has not renewed for this long (seconds):
#: a process whose loop hangs still loses its rooms.
LOOP_STALL_SECONDS = 20.0
#: How long a room's page stays known without its owner renewing it (ms): longer than the
#: lock, so that a page opened while the room is being taken over still loads.
INFO_TTL_MS = 3_600_000
#: Renew the page keys every this many renewals (they last an hour).
INFO_EVERY = 60
#: How long a process keeps the other processes' lobby entries before reading them again.
LOBBY_CACHE_SECONDS = 0.5
#: The most lobby entries one process publishes (the newest).
LOBBY_LIMIT = 50

# Take or renew every lock in KEYS for ARGV[1] (the node id) for ARGV[2] ms, where it is
# absent or already ours; return the (1-based) positions of the keys someone else holds.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == false or holder == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
# Extend every lock in KEYS that ARGV[1] holds to ARGV[2] ms, or delete it when ARGV[2] is
# 0 (the process lets the room go); how many it held.
_HELD = """
local held = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    if ARGV[2] == '0' then
      redis.call('DEL', key)
    else
      redis.call('PEXPIRE', key, ARGV[2])
    end
    held = held + 1
  end
end
return held
"""

#: Rebuilds a room this process does not hold from storage (its seed and actions), or
#: None if it cannot (the durable rooms of issue 21 item 2).
Rebuild = Callable[[str], Awaitable[Room | None]]


def owner_key(room_id: str) -> str:
    """The Redis key of a room's ownership lock."""
    return f"{PREFIX}room:{room_id}:owner"


def info_key(room_id: str) -> str:
    """The Redis key of what a room's page needs."""
    return f"{PREFIX}room:{room_id}:info"


def address_of(node_id: str) -> str:
    """The ``host:port`` at which the process ``node_id`` serves its room sockets."""
    return node_id.split("|", 1)[0]


def name_of(node_id: str) -> str | None:
    """The name the balancer knows the process ``node_id`` by (its ``server`` line), or
    None if it was started without one."""
    parts = node_id.split("|")
    return parts[2] if len(parts) > 2 and parts[2] else None


#: The one :class:`Moving` answer.
MOVING = Moving()


class ClusterNode:
    """This process's part of the cluster: it registers the rooms of ``directory`` in
    the Redis at ``url`` as owned by this process, reached at ``address``
    (``host:port``), lists every process's rooms in the lobby, and finds the owner of a
    room it does not hold. ``rebuild`` brings a room whose owner died back from storage
    (None: such a room is lost). ``name`` is this process's name in the balancer's
    configuration (its ``server`` line): the pages of its rooms ask the balancer for it
    by that name, so their sockets reach it without a relay."""

    def __init__(
        self,
        url: str,
        address: str,
        directory: RoomDirectory,
        rebuild: Rebuild | None = None,
        *,
        name: str | None = None,
        owner_ttl_ms: int = OWNER_TTL_MS,
        renew_seconds: float = RENEW_SECONDS,
    ) -> None:
        self.url = url
        self.address = address
        self.name = name
        self.node_id = f"{address}|{secrets.token_hex(6)}" + (f"|{name}" if name else "")
        self.directory = directory
        self.rebuild = rebuild
        self.owner_ttl_ms = owner_ttl_ms
        self.renew_seconds = renew_seconds
        #: Set as the process stops: its health check fails, it takes no new room.
        self.draining = False
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=1.0, socket_connect_timeout=1.0, health_check_interval=5
        )
        self._renew_script = self.redis.register_script(_RENEW)
        self._release_script = self.redis.register_script(_HELD)
        self._held: set[str] = set()  # the rooms whose locks this process holds
        #: The rooms whose locks this process took to rebuild them (renewed meanwhile).
        self._claimed: set[str] = set()
        #: The rooms being located by one of this process's sockets: the others join it.
        self._locating: dict[str, asyncio.Future[Room | Elsewhere | Moving | None]] = {}
        self._task: asyncio.Task[None] | None = None
        #: The lock keys the keeper thread extends (:meth:`keep_alive`), and when the
        #: loop last renewed (monotonic).
        self._keeping: tuple[str, ...] = ()
        self._loop_renewed = time.monotonic()
        self._keeper: threading.Thread | None = None
        self._stop_keeping = threading.Event()
        self._sync = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self._extend_script = self._sync.register_script(_HELD)
        self._ticks = 0
        self._reachable = True
        self._lobby_cache: tuple[float, list[dict[str, Any]]] | None = None

    # -- the renewal loop ---------------------------------------------------------

    def start(self) -> None:
        """Start renewing this process's keys (call on the running loop), and the thread
        that keeps its locks alive while the loop is busy."""
        self._task = asyncio.create_task(self._renew_forever())
        self._keeper = threading.Thread(
            target=self._keep_forever, name="spacetable room locks", daemon=True
        )
        self._keeper.start()

    def _keep_forever(self) -> None:
        while not self._stop_keeping.wait(self.renew_seconds):
            self.keep_alive()

    def keep_alive(self) -> int:
        """Extend the locks this process holds (its open rooms', and those it is
        rebuilding) without the event loop: called every renewal period by a thread of
        its own (blocking). Nothing once the loop has not renewed for
        :data:`LOOP_STALL_SECONDS`. How many locks were extended."""
        keys = self._keeping
        if not keys or time.monotonic() - self._loop_renewed > LOOP_STALL_SECONDS:
            return 0
        try:
            return int(self._extend_script(keys=list(keys), args=[self.node_id, self.owner_ttl_ms]))
        except (RedisError, OSError):
            return 0  # the loop's renewals say so

    def _keep(self) -> None:
        """What the keeper thread extends: the locks held now (an immutable snapshot)."""
        self._keeping = tuple(owner_key(r) for r in self._held | self._claimed)

    async def _renew_forever(self) -> None:
        while True:
            try:
                await self.renew()
                if not self._reachable:
                    log.warning("Redis at %s answers again: the rooms are registered", self.url)
                self._reachable = True
            except (RedisError, OSError) as exc:
                if self._reachable:
                    log.warning("Redis at %s is unreachable (%s): rooms play on", self.url, exc)
                self._reachable = False
            await asyncio.sleep(self.renew_seconds)

    async def renew(self) -> None:
        """Renew (or take again, after a Redis restart) the lock of every open room of
        this process, publish its lobby entries, and let go of the rooms that closed. A
        room whose lock another process took (this one lost Redis longer than the TTL
        and the room was rebuilt there) is closed here: its sockets reconnect to the new
        owner."""
        rooms = self.directory.rooms()
        open_ids = {room.id for room in rooms}
        gone = self._held - open_ids
        if gone:
            await self._release_script(keys=[owner_key(r) for r in gone], args=[self.node_id, 0])
            await self.redis.delete(*(info_key(r) for r in gone))
            self._held -= gone
        # A rebuild under way keeps its lock too: on a busy machine it may outlast the TTL,
        # and another process would rebuild the room a second time meanwhile.
        claimed = sorted(self._claimed - open_ids)
        if rooms or claimed:
            keys = [owner_key(room.id) for room in rooms] + [owner_key(r) for r in claimed]
            lost = await self._renew_script(keys=keys, args=[self.node_id, self.owner_ttl_ms])
            lost_rooms = [rooms[int(i) - 1] for i in lost if int(i) <= len(rooms)]
            self._held = open_ids - {room.id for room in lost_rooms}
            for room in lost_rooms:
                log.warning("room %s is owned by another process now: closing it here", room.id)
                await self.directory.hand_over(room)
            if self._ticks % INFO_EVERY == 0:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for room in rooms:
                        pipe.set(info_key(room.id), _info(room), px=INFO_TTL_MS)
                    await pipe.execute()
        self._ticks += 1
        self._keep()
        self._loop_renewed = time.monotonic()
        await self._publish_lobby()

    async def _publish_lobby(self) -> None:
        entries = self.local_lobby()
        lapses = time.time() * 1000 + self.owner_ttl_ms
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"{PREFIX}lobby:{self.node_id}", orjson.dumps(entries), px=self.owner_ttl_ms)
            pipe.zadd(f"{PREFIX}nodes", {self.node_id: lapses})
            await pipe.execute()

    # -- rooms ----------------------------------------------------------------------

    async def adopt(self, room: Room) -> None:
        """Register a room just created here (its lock, its page, the lobby): before its
        link is handed out, so that a socket reaching another process finds it. With
        Redis away, the next renewal registers it."""
        try:
            lost = await self._renew_script(
                keys=[owner_key(room.id)], args=[self.node_id, self.owner_ttl_ms]
            )
            if not lost:
                self._held.add(room.id)
                self._keep()
            await self.redis.set(info_key(room.id), _info(room), px=INFO_TTL_MS)
            await self._publish_lobby()
        except (RedisError, OSError) as exc:
            log.warning("room %s not registered yet (Redis: %s)", room.id, exc)

    async def ruleset(self, room_id: str) -> str | None:
        """The ruleset of a room of any process (for its page), or None if no process
        knows it."""
        room = self.directory.get(room_id)
        if room is not None:
            return room.options.ruleset
        raw = await self.redis.get(info_key(room_id))
        if raw is None:
            return None
        ruleset = orjson.loads(raw).get("ruleset")
        return ruleset if isinstance(ruleset, str) else None

    async def owner_name(self, room_id: str) -> str | None:
        """The balancer's name for the process that holds ``room_id`` (this one's, for
        its own rooms), or None if it is unknown: no owner, an owner without a name, or
        Redis away. A page gives it to its socket (``?node=``) so that the balancer
        sends the socket straight to that process."""
        if self.directory.get(room_id) is not None:
            return self.name
        try:
            holder = await self.redis.get(owner_key(room_id))
        except (RedisError, OSError):
            return None
        return None if holder is None else name_of(_text(holder))

    async def locate(self, room_id: str) -> Room | Elsewhere | Moving | None:
        """Where a room socket for ``room_id`` goes: the room, if this process holds it
        (or has just rebuilt it from storage, its owner being gone); the owner, if
        another live process holds it; :data:`MOVING` if this process let it go a moment
        ago and still holds its lock (ask again shortly); None if no process holds it and
        it cannot be rebuilt. Raises ``RedisError``/``OSError`` when Redis does not
        answer."""
        room = self.directory.get(room_id)
        if room is not None:
            return room
        # A failover brings every page of a room at once. Between the moment the first
        # socket's lock is in Redis and the moment its rebuild begins here, another socket
        # would find the lock this process's and no room nor rebuild: "no such room". The
        # sockets of one room therefore share one search (each may still give up alone).
        pending = self._locating.get(room_id)
        if pending is None:
            pending = asyncio.ensure_future(self._locate(room_id))
            self._locating[room_id] = pending
            pending.add_done_callback(lambda _: self._locating.pop(room_id, None))
        return await asyncio.shield(pending)

    async def _locate(self, room_id: str) -> Room | Elsewhere | Moving | None:
        room = self.directory.get(room_id)
        if room is not None:
            return room
        holder = await self.redis.get(owner_key(room_id))
        if holder is not None:
            node = _text(holder)
            if node != self.node_id:
                return Elsewhere(address_of(node), node)
            # Ours: open here, or rebuilt right now by another socket of this process,
            # which took the lock first (a failover brings every page of a room at once):
            # that rebuild is joined. Neither: the room left this process a moment ago
            # (another process stored its actions) and the lock goes with the next
            # renewal: the room is moving, not missing (it was "no such room", and the
            # page gave the room up).
            room = self.directory.get(room_id)
            if room is not None:
                return room
            rebuilding = self.directory.rebuilding(room_id)
            return MOVING if rebuilding is None else await rebuilding
        if self.rebuild is None or self.draining:
            return None
        lost = await self._renew_script(
            keys=[owner_key(room_id)], args=[self.node_id, self.owner_ttl_ms]
        )
        if lost:  # another process took it first
            return await self._locate(room_id)
        self._claimed.add(room_id)
        self._keep()
        try:
            room = await self.rebuild(room_id)
        except BaseException:  # storage away, a room that cannot be rebuilt: not ours
            self._claimed.discard(room_id)
            await self._release_script(keys=[owner_key(room_id)], args=[self.node_id, 0])
            raise
        self._claimed.discard(room_id)
        if room is None:
            await self._release_script(keys=[owner_key(room_id)], args=[self.node_id, 0])
            return None
        self._held.add(room_id)
        self._keep()
        return room

    # -- the lobby ------------------------------------------------------------------

    def local_lobby(self) -> list[dict[str, Any]]:
        """The lobby entries of this process's listed rooms (newest first), each with
        the time it was created (``created``, for merging)."""
        listed = (room for room in self.directory.rooms() if room.listed)
        return [
            {**room.summary(), "created": room.created}
            for room, _ in zip(listed, range(LOBBY_LIMIT), strict=False)
        ]

    async def lobby(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` newest listed rooms of every live process: this one's as they
        are now, the others' as they last published them (at most a renewal ago). With
        Redis away, this process's only."""
        mine = self.local_lobby()
        others: list[dict[str, Any]] = []
        now = time.monotonic()
        if self._lobby_cache is not None and now - self._lobby_cache[0] < LOBBY_CACHE_SECONDS:
            others = self._lobby_cache[1]
        else:
            try:
                others = await self._read_others()
                self._lobby_cache = (now, others)
            except (RedisError, OSError):
                others = []
        merged = sorted([*mine, *others], key=lambda entry: entry["created"], reverse=True)
        return [{k: v for k, v in e.items() if k != "created"} for e in merged[:limit]]

    async def _read_others(self) -> list[dict[str, Any]]:
        nodes_key = f"{PREFIX}nodes"
        now_ms = time.time() * 1000
        await self.redis.zremrangebyscore(nodes_key, "-inf", now_ms)
        nodes = [_text(n) for n in await self.redis.zrange(nodes_key, 0, -1)]
        nodes = [n for n in nodes if n != self.node_id]
        if not nodes:
            return []
        entries: list[dict[str, Any]] = []
        for raw in await self.redis.mget([f"{PREFIX}lobby:{n}" for n in nodes]):
            if raw is not None:
                entries.extend(orjson.loads(raw))
        return entries

    # -- stopping -------------------------------------------------------------------

    async def close(self) -> None:
        """Stop renewing and let go of every lock and lobby entry of this process (call
        once its rooms have stopped and stored what they must), so that the next process
        takes its rooms over at once instead of after the locks' TTL."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._stop_keeping.set()
        self._keeping = ()
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.join, 5)
        self._sync.close()
        try:
            if self._held:
                keys = [owner_key(r) for r in self._held]
                await self._release_script(keys=keys, args=[self.node_id, 0])
            await self.redis.delete(f"{PREFIX}lobby:{self.node_id}")
            await self.redis.zrem(f"{PREFIX}nodes", self.node_id)
        except (RedisError, OSError) as exc:
            log.warning("could not release this process's rooms in Redis: %s", exc)
        self._held.clear()
        await self.redis.aclose()


def _text(value: Any) -> str:
    """A Redis reply (bytes: the client does not decode) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _info(room: Room) -> bytes:
    return orjson.dumps({"ruleset": room.options.ruleset})
