"""Correspondence turns that run out while no process holds their room (issue 37 item 4,
docs/correspondence.md).

A room played by correspondence keeps its turn's deadline on its own timer while a
process holds it (``rooms/correspondence.py``). After a restart nobody holds it until
someone opens it; :class:`DeadlineSweeper` does not wait for that: at start-up, then every
:data:`SWEEP_SECONDS` on the rooms' clock (the clock a test moves), it asks storage for
the rooms whose deadline has passed (one query on the indexed ``live_rooms.deadline``:
``store/live_store.py``) and opens each that no process holds, as a socket would: the room
is rebuilt, its deadline runs out at once, the turn passes, a third in a row loses. In a
cluster it opens them through the node (``cluster/node.py``: ``locate``), which takes the
room's ownership lock in Redis first: a room another process holds or rebuilds is left to
it, so one process acts on each room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from spacetable.server.rooms.clock import LoopClock, RoomClock, Timer
from spacetable.server.rooms.rebuild import RebuildFailed
from spacetable.server.rooms.room import Room
from spacetable.server.store.live_store import LiveStore
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger("spacetable.rooms")

#: Seconds between two sweeps (on the rooms' clock): a turn that ran out with nobody
#: holding its room passes at most this late.
SWEEP_SECONDS = 60.0
#: The most rooms one sweep opens (the soonest deadlines first; the next sweep goes on).
SWEEP_LIMIT = 200

#: Opens a room as a socket would (``RoomDirectory.get_or_rebuild``, or in a cluster
#: ``ClusterNode.locate``): the room if this process holds it now, anything else if not.
Opener = Callable[[str], Awaitable[object]]


class DeadlineSweeper:
    """Opens the stored correspondence rooms whose turn ran out while no process held
    them (``open_room``), skipping those open here (``held``: the directory's), on
    ``clock`` (default: the event loop's) every ``every`` seconds."""

    def __init__(
        self,
        live: LiveStore,
        open_room: Opener,
        held: Callable[[str], Room | None],
        clock: RoomClock | None = None,
        every: float = SWEEP_SECONDS,
    ) -> None:
        self._live = live
        self._open = open_room
        self._held = held
        self._clock = clock
        self.every = every
        self._timer: Timer | None = None
        self._task: asyncio.Task[list[str]] | None = None
        #: Rooms that cannot be rebuilt (logged once): not tried again by this process.
        self._failed: set[str] = set()
        #: The rooms the last sweep opened (a test waits for them: :meth:`drained`).
        self._opened: list[Room] = []
        #: What :class:`~spacetable.server.rooms.clock.HandClock` asks of what it drains.
        self.expired = False

    def start(self) -> None:
        """Sweep now, then every :attr:`every` seconds (call on the running loop)."""
        if self._clock is None:
            self._clock = LoopClock(asyncio.get_running_loop())
        self._due()

    def _due(self) -> None:
        self._timer = None
        if self.expired or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.create_task(self.sweep())
        self._task.add_done_callback(lambda _: self._arm())

    def _arm(self) -> None:
        if not self.expired and self._clock is not None:
            self._timer = self._clock.after(self.every, self._due)

    async def sweep(self) -> list[str]:
        """Open every stored room whose turn ran out by now and that no process holds;
        their ids. Storage or Redis away: the next sweep tries again."""
        clock = self._clock
        assert clock is not None, "start() first"
        try:
            skip = frozenset(self._failed)
            due = await asyncio.to_thread(self._live.due, clock.wall(), SWEEP_LIMIT, skip)
        except StorageUnavailable as exc:
            log.warning("the correspondence deadlines are not swept: %s", exc)
            return []
        opened: list[Room] = []
        for room_id in due:
            if room_id in self._failed or self._held(room_id) is not None or self.expired:
                continue
            try:
                room = await self._open(room_id)
            except RebuildFailed:
                self._failed.add(room_id)  # the directory logged why
                continue
            except Exception as exc:  # storage, Redis, the room cap: the next sweep
                log.warning("room %s: its turn ran out, but it is not opened: %r", room_id, exc)
                continue
            if isinstance(room, Room):
                opened.append(room)
        if opened:
            log.info("opened %d rooms whose turn ran out: %s", len(opened), [r.id for r in opened])
        self._opened = opened
        return [room.id for room in opened]

    async def drained(self) -> None:
        """Return once the sweep under way is over and the rooms it opened have handled
        what they were posted (their deadline's run-out)."""
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._task)
        for room in self._opened:
            if not room.expired:
                await room.drained()

    async def close(self) -> None:
        """Stop sweeping: the sweep under way ends after the room it opens (not cancelled
        half-way: its query or rebuild would go on, on a thread, past the storage's close)."""
        self.expired = True
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
