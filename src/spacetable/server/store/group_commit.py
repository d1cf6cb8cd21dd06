"""Group commit: every room's live writes of a moment in one transaction.

A room stores what its messages changed before anyone hears of it (``rooms/journal.py``).
Written one transaction a room, a hundred busy rooms pay a hundred commits a second, each
on a thread of its own. A :class:`GroupCommit` gathers a loop's writes for
:data:`GATHER_SECONDS` and commits them together: a database file on this machine (SQLite)
by the loop itself (``inline``: cheaper than waking a thread), a database across the
network (PostgreSQL) by one writer thread, which takes every write waiting when it is free,
so that the writes that came during a commit share the next one and the cost of a write
falls as the load rises. Each room still waits for its own write, as before.

A write that another process's row refuses (``StaleWriter``: that process plays the room
now) must not fail the others: the group is then written again
one room at a time, and only that room hears of it. A database that cannot be reached fails
the whole group (``StorageUnavailable``); each room
tries again as it did alone (the journal's pauses), and their retries meet in a group again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spacetable.server.store._worker import worker

#: How long a loop gathers its rooms' writes before it commits them. A hand-over to the
#: writer thread and back costs about 100 µs of processor time and five switches of the
#: server's core (one write at a time, the process on one core, a trivial write; the
#: interpreter's lock changes hands twice), more than a SQLite transaction of a live room
#: (about 50-80 µs): so a database file on this machine is written by the loop itself
#: (``inline``), and only a database across the network (PostgreSQL) from the thread. A
#: placement waits at most this much more. 5 ms, not 2: at 100 rooms (about 200
#: placements a second) a group then holds one write and a half instead of one and a
#: third, and the commits cost the server 1.8% of its core instead of 3.1% (placement
#: p50 3.0 -> 5.5 ms, p99 8-10 -> 11-12 ms, under the 50 ms budget: docs/performance.md).
GATHER_SECONDS = 0.005

#: One room's write (for the live store: the room's row or ``None``, its id, its new
#: actions and chat).
Write = tuple[Any, ...]


@dataclass(slots=True)
class _Waiting:
    write: Write
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


class GroupCommit:
    """One writer thread for a process's live rooms (see the module's docstring).

    ``write_all(writes)`` stores several rooms' writes in one transaction, and
    ``write_one(write)`` one alone; both block. When ``write_all`` raises ``isolate`` (a
    write that fails alone), the group is written again one at a time."""

    def __init__(
        self,
        write_all: Callable[[list[Write]], None],
        write_one: Callable[[Write], None],
        isolate: type[Exception],
        *,
        inline: bool = False,
    ) -> None:
        #: Whether a loop commits what it gathered itself instead of handing it to the
        #: writer thread (a database file on this machine: see :data:`GATHER_SECONDS`).
        self.inline = inline
        self._write_all = write_all
        self._write_one = write_one
        self._isolate = isolate
        self._waiting: list[_Waiting] = []
        #: What each event loop gathered for the writer since its last hand-over.
        self._gathering: dict[asyncio.AbstractEventLoop, list[_Waiting]] = {}
        #: Whether the writer thread waits for work (only then is it woken).
        self._sleeping = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Transactions committed and writes they held (``loadtest`` and tests read them).
        self.commits = 0
        self.writes = 0

    async def write(self, write: Write) -> None:
        """Store ``write`` with whatever else waits; returns once it is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        gathering = self._gathering.get(loop)
        if gathering is None:
            gathering = self._gathering[loop] = []
            loop.call_later(GATHER_SECONDS, self._hand_over, loop)
        gathering.append(_Waiting(write, future, loop))
        await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the writer what a loop gathered; wake it only if it sleeps (a busy writer
        takes it when its commit is done)."""
        group = self._gathering.pop(loop, [])
        if self.inline:
            self._commit(group, _settle_here)
            return
        with self._wake:
            self._waiting.extend(group)
            self._thread = worker(self._thread, self._run, "spacetable-group-commit")
            if self._sleeping:
                self._wake.notify()

    def close(self) -> None:
        """End the writer thread once what waits is committed (a later write starts
        another)."""
        with self._wake:
            self._closed = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._waiting and not self._closed:
                    self._sleeping = True
                    self._wake.wait()
                    self._sleeping = False
                if not self._waiting:  # closed, and nothing left to write
                    self._thread = None
                    self._closed = False
                    return
                group, self._waiting = self._waiting, []
            self._commit(group)

    def _commit(
        self,
        group: list[_Waiting],
        settle: Callable[[list[tuple[_Waiting, Exception | None]]], None] | None = None,
    ) -> None:
        settle = settle or _settle
        try:
            self._write_all([waiting.write for waiting in group])
        except self._isolate:  # one of them fails alone (another process's room): which
            outcomes: list[tuple[_Waiting, Exception | None]] = []
            for waiting in group:
                try:
                    self._write_one(waiting.write)
                except Exception as exc:
                    outcomes.append((waiting, exc))
                else:
                    self._count(1)
                    outcomes.append((waiting, None))
            settle(outcomes)
            return
        except Exception as exc:
            settle([(waiting, exc) for waiting in group])
            return
        self._count(len(group))
        settle([(waiting, None) for waiting in group])

    def _count(self, writes: int) -> None:
        self.commits += 1
        self.writes += writes


def _settle(outcomes: list[tuple[_Waiting, Exception | None]]) -> None:
    """Tell the rooms' loops that their writes are in (or why not): one call a loop, not
    one a room (each wakes the loop from another thread)."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[_Waiting, Exception | None]]] = {}
    for outcome in outcomes:
        loops.setdefault(outcome[0].loop, []).append(outcome)
    for loop, theirs in loops.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(_settle_here, theirs)


def _settle_here(outcomes: list[tuple[_Waiting, Exception | None]]) -> None:
    for waiting, error in outcomes:
        if waiting.future.done():  # the room stopped waiting (its task was cancelled)
            continue
        if error is None:
            waiting.future.set_result(None)
        else:
            waiting.future.set_exception(error)
