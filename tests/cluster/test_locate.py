"""Where a room socket goes when the room's process has died (issue 36, item 7): every page
of the room comes back at once, often to the same process. The first socket takes the
room's lock in Redis and rebuilds it from storage; the others must join that rebuild, not
be told the room does not exist (4404) because the lock is this process's and the room is
not open yet. Nor must a socket that comes just after the room left this process (another
process stored its actions) while its lock is still this process's: the room is moving.
A rebuild slower than the lock's TTL keeps its lock. Real Redis; the room directory's
rebuild is held until the test lets it go."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from types import SimpleNamespace
from typing import Any, cast

import pytest

from spacetable.server.cluster.node import LOOP_STALL_SECONDS, MOVING, ClusterNode, owner_key
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.room import Room
from tests.cluster._cluster import MISSING, RedisServer

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def fake_room(room_id: str) -> Room:
    """A room as the renewal sees it: its id, its game, not listed in the lobby."""
    options = SimpleNamespace(ruleset="lightspeed")
    return cast(Room, SimpleNamespace(id=room_id, listed=False, options=options))


class HeldDirectory:
    """The little of a room directory that :meth:`ClusterNode.locate` and
    :meth:`ClusterNode.renew` ask: the rooms open (none at first), and a rebuild from
    storage that waits for :attr:`stored` (as a slow database would), joined by every
    socket that asks while it runs, as :class:`RoomDirectory` does."""

    def __init__(self, room_id: str = "Room0001") -> None:
        self.stored = asyncio.Event()
        self.began = asyncio.Event()  # a rebuild began
        self.room = fake_room(room_id)  # the rebuilt room (only its identity matters)
        self.open: dict[str, Room] = {}
        self.rebuilds = 0
        self._rebuilding: dict[str, asyncio.Future[Room | None]] = {}

    def get(self, room_id: str) -> Room | None:
        return self.open.get(room_id)

    def rooms(self) -> list[Room]:
        return list(self.open.values())

    def rebuilding(self, room_id: str) -> Awaitable[Room | None] | None:
        pending = self._rebuilding.get(room_id)
        return None if pending is None else asyncio.shield(pending)

    async def get_or_rebuild(self, room_id: str) -> Room | None:
        if room_id not in self._rebuilding:
            self._rebuilding[room_id] = asyncio.ensure_future(self._rebuild(room_id))
        return await asyncio.shield(self._rebuilding[room_id])

    async def _rebuild(self, room_id: str) -> Room | None:
        self.rebuilds += 1
        self.began.set()
        await self.stored.wait()
        self.open[room_id] = self.room
        del self._rebuilding[room_id]
        return self.room


def test_sockets_that_come_while_the_room_is_rebuilt_reach_it(redis_server: RedisServer) -> None:
    async def main() -> tuple[Any, Any, int, Room]:
        directory = HeldDirectory()
        node = ClusterNode(
            redis_server.url,
            "127.0.0.1:1",
            cast(RoomDirectory, directory),
            directory.get_or_rebuild,
            owner_ttl_ms=60_000,
        )
        try:
            first = asyncio.ensure_future(node.locate("Room0001"))
            await directory.began.wait()  # the first socket holds the lock and rebuilds
            second = asyncio.ensure_future(node.locate("Room0001"))
            await asyncio.sleep(0)  # the second socket runs until it waits for something
            assert not second.done(), f"the second socket was answered {second.result()!r}"
            directory.stored.set()
            return await first, await second, directory.rebuilds, directory.room
        finally:
            await node.redis.aclose()

    first, second, rebuilds, room = asyncio.run(main())
    assert first is room
    assert second is room  # before: None, and the page was told "no such room" (4404)
    assert rebuilds == 1


def test_a_socket_that_comes_between_the_lock_and_the_rebuild_joins_it(
    redis_server: RedisServer,
) -> None:
    """The lock is this process's in Redis as soon as the first socket's script has run,
    but the rebuild starts only when its answer is read back: a second socket that asks
    Redis in between must not be told that the room does not exist."""

    async def main() -> tuple[Any, Any, int, Room]:
        directory = HeldDirectory()
        directory.stored.set()
        node = ClusterNode(
            redis_server.url,
            "127.0.0.1:1",
            cast(RoomDirectory, directory),
            directory.get_or_rebuild,
            owner_ttl_ms=60_000,
        )
        locked, go_on = asyncio.Event(), asyncio.Event()
        take_lock = node._renew_script

        async def held_after_locking(*args: Any, **kwargs: Any) -> Any:
            lost = await take_lock(*args, **kwargs)  # in Redis now: this process's
            locked.set()
            await go_on.wait()  # ... and its answer not yet read back
            return lost

        node._renew_script = held_after_locking  # type: ignore[assignment]
        asked: list[object] = []  # the owner lookups sent to Redis
        lookup = node.redis.get

        async def counted_lookup(*args: Any, **kwargs: Any) -> Any:
            asked.append(args)
            return await lookup(*args, **kwargs)

        node.redis.get = counted_lookup  # type: ignore[method-assign]
        try:
            first = asyncio.ensure_future(node.locate("Room0002"))
            await locked.wait()
            second = asyncio.ensure_future(node.locate("Room0002"))
            await asyncio.sleep(0)  # the second socket runs until it waits for something
            # It waits for the first one's search; it did not ask Redis (whose answer,
            # "this process's", found no room and no rebuild: "no such room").
            assert len(asked) == 1 and not second.done(), (asked, second)
            go_on.set()
            return await first, await second, directory.rebuilds, directory.room
        finally:
            await node.redis.aclose()

    first, second, rebuilds, room = asyncio.run(main())
    assert first is room
    assert second is room  # before: None, a 4404 "no such room" to a page of a live room
    assert rebuilds == 1


def node_of(redis_server: RedisServer, directory: HeldDirectory) -> ClusterNode:
    """A process's part of the cluster over ``directory`` (its renewals run when the test
    calls them; locks last a minute unless the test shortens one)."""
    return ClusterNode(
        redis_server.url,
        "127.0.0.1:1",
        cast(RoomDirectory, directory),
        directory.get_or_rebuild,
        owner_ttl_ms=60_000,
    )


def test_a_room_that_left_this_process_a_moment_ago_is_moving_not_missing(
    redis_server: RedisServer,
) -> None:
    """The room was open here; another process stored its actions, so it closed here
    (``journal.py``: "moved") and left the directory. Its lock stays this process's until
    the next renewal releases it: a socket that comes in between is told the room is
    moving (it asks again), and once the lock is gone the room is rebuilt."""

    async def main() -> tuple[Any, Any, int, Room]:
        directory = HeldDirectory("Room0003")
        directory.stored.set()
        node = node_of(redis_server, directory)
        try:
            directory.open["Room0003"] = directory.room
            await node.renew()  # its lock: this process's
            del directory.open["Room0003"]  # it left this process
            meanwhile = await node.locate("Room0003")
            await node.renew()  # the lock goes
            after = await node.locate("Room0003")
            return meanwhile, after, directory.rebuilds, directory.room
        finally:
            await node.redis.aclose()

    meanwhile, after, rebuilds, room = asyncio.run(main())
    assert meanwhile is MOVING  # before: None, "no such room" (4404), and the page gave up
    assert after is room
    assert rebuilds == 1


def test_a_rebuild_slower_than_the_lock_keeps_the_lock(redis_server: RedisServer) -> None:
    """A failover on a busy machine: the rebuild of a room outlasts its lock's TTL. The
    renewals keep the lock this process's meanwhile, so that no other process rebuilds
    the room a second time (two copies: one is stopped when the other stores an action,
    and its sockets were told the room did not exist)."""

    async def main() -> tuple[Any, int, Any]:
        directory = HeldDirectory("Room0004")
        node = node_of(redis_server, directory)
        key = owner_key("Room0004")
        try:
            located = asyncio.ensure_future(node.locate("Room0004"))
            await directory.began.wait()  # the lock taken, the rebuild under way
            await node.redis.pexpire(key, 500)  # as if the lock's time had nearly run out
            await node.renew()
            left = await node.redis.pttl(key)
            holder = await node.redis.get(key)
            directory.stored.set()
            room = await located
            return holder == node.node_id.encode(), left, room is directory.room
        finally:
            await node.redis.aclose()

    ours, left, rebuilt = asyncio.run(main())
    assert ours
    assert left > 500, left  # before: not renewed, lapsed soon, taken by another process
    assert rebuilt


def test_the_locks_outlive_an_event_loop_too_busy_to_renew_them(
    redis_server: RedisServer,
) -> None:
    """The loop renews the locks every second, but a busy loop (rooms rebuilt one after
    the other as a failover brings them, on a starved machine) may not come to it for
    longer than their TTL, and another process then took the rooms of this live one: two
    copies, one stopped when the other stores an action, a room whose stored actions
    both wrote (issue 36 item 7's soak). The keeper thread extends them meanwhile, from
    outside the loop (here the test calls it while the loop is held up by the call
    itself); a loop stalled past ``LOOP_STALL_SECONDS`` is not covered for."""

    async def main() -> tuple[int, int, int, int]:
        directory = HeldDirectory("Room0005")
        directory.open["Room0005"] = directory.room
        node = node_of(redis_server, directory)
        key = owner_key("Room0005")
        try:
            await node.renew()  # the loop's renewal: the lock is this process's
            await node.redis.pexpire(key, 500)  # then the loop is busy, time passes
            kept = node.keep_alive()  # what the thread does meanwhile
            left = await node.redis.pttl(key)
            node._loop_renewed -= LOOP_STALL_SECONDS + 1  # a loop that hangs
            await node.redis.pexpire(key, 500)
            hung = node.keep_alive()
            return kept, left, hung, await node.redis.pttl(key)
        finally:
            await node.redis.aclose()

    kept, left, hung, left_hung = asyncio.run(main())
    assert kept == 1 and left > 500, left  # before: no keeper, the lock lapsed
    assert hung == 0 and left_hung <= 500
