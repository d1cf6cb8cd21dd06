"""Where a room socket goes when the room's process has died (issue 36, item 7): every page
of the room comes back at once, often to the same process. The first socket takes the
room's lock in Redis and rebuilds it from storage; the others must join that rebuild, not
be told the room does not exist (4404) because the lock is this process's and the room is
not open yet. Real Redis; the room directory's rebuild is held until the test lets it go."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, cast

import pytest

from spacetable.server.cluster.node import ClusterNode
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.room import Room
from tests.cluster._cluster import MISSING, RedisServer

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


class HeldDirectory:
    """The little of a room directory that :meth:`ClusterNode.locate` asks: no room open,
    and a rebuild from storage that waits for :attr:`stored` (as a slow database would),
    joined by every socket that asks while it runs, as :class:`RoomDirectory` does."""

    def __init__(self) -> None:
        self.stored = asyncio.Event()
        self.began = asyncio.Event()  # a rebuild began
        self.room = cast(Room, object())  # the rebuilt room (only its identity matters)
        self.open: dict[str, Room] = {}
        self.rebuilds = 0
        self._rebuilding: dict[str, asyncio.Future[Room | None]] = {}

    def get(self, room_id: str) -> Room | None:
        return self.open.get(room_id)

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
