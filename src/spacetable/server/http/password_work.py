"""The threads that hash and check passwords (issue 67 item 3; docs/accounts.md).

Argon2 is slow on purpose (a tenth of a second to most of one, and 64 MiB, a hash). Run on
the event loop's default executor, a flood of log-ins took every thread that also reads a
socket's session, a join's accounts, a room's rebuild, a bot's move and the stored
matches: a room's create + open + join went from 17 ms to 2.7 s. Here password work has
threads of its own, :func:`threads_for` of them (one on a machine of two cores: the other
is left to the rooms), and at most :data:`WAITING` checks wait for them. A check beyond
that waits up to :data:`HOLD_S` for a place, holding no thread (:data:`HELD` such at most),
then is refused (:class:`PasswordsBusy`, answered 503 with ``Retry-After``) rather than
queued for ever: a client that sends again as soon as it is refused does so once a second,
not as fast as refusals can be answered (measured: docs/accounts.md). Nothing else runs on
these threads, and they run at a lower priority (:data:`NICENESS`): when the cores are all
busy, the event loop and the rooms' threads come first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

_T = TypeVar("_T")

#: Password checks that may wait for a thread (beyond those running).
WAITING = 10
#: Seconds a check beyond those waits for a place before it is refused.
HOLD_S = 1.0
#: Checks that may wait so at once (beyond them a check is refused at once).
HELD = 20


def threads_for(cores: int | None) -> int:
    """The password threads for a machine of ``cores`` cores: one up to three cores, two
    from four on (argon2 takes a whole core while it runs)."""
    return 2 if (cores or 1) >= 4 else 1


#: The password threads' niceness (Linux: a thread's own): the rooms' threads and the
#: event loop come first when the cores are all busy.
NICENESS = 10


def _yielding() -> None:
    """Lower this thread's priority (where the system gives threads their own)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


class PasswordsBusy(Exception):
    """Every password thread is busy and :data:`WAITING` checks wait: try again in
    ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class PasswordWork:
    """A small bounded pool for password hashing: ``threads`` threads, ``waiting`` checks
    queued at most, and ``held`` more waiting up to ``hold`` seconds for a place. Other slow
    work of its own kind may have such a pool too, its threads named ``name`` (the
    tournaments' printouts: ``http/tournament_print.py``)."""

    def __init__(
        self,
        threads: int | None = None,
        waiting: int = WAITING,
        hold: float = HOLD_S,
        held: int = HELD,
        name: str = "passwords",
    ) -> None:
        self.threads = threads or threads_for(os.cpu_count())
        self.slots = self.threads + waiting
        self.hold, self.held = hold, held
        self._pool = ThreadPoolExecutor(
            self.threads, thread_name_prefix=name, initializer=_yielding
        )
        self._lock = threading.Lock()
        self._taken = 0  # checks running or waiting (counted until their thread ends)
        self._seconds = 0.5  # a check's recent duration (a moving average)
        self._held = 0  # checks waiting for a place (on the event loop)
        # Set when a place frees, on the loop of the checks waiting for one.
        self._freed: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    @property
    def taken(self) -> int:
        """Checks running or waiting now."""
        return self._taken

    def _retry_after(self) -> int:
        return max(1, round(self._seconds * self.slots / self.threads))

    def _timed(self, call: Callable[[], _T]) -> _T:
        started = time.perf_counter()
        try:
            return call()
        finally:
            took = time.perf_counter() - started
            with self._lock:
                self._seconds = 0.8 * self._seconds + 0.2 * took

    def _done(self, _: Future[Any]) -> None:
        with self._lock:
            self._taken -= 1
            freed = self._freed
        if freed is not None and not freed[0].is_closed():
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
                freed[0].call_soon_threadsafe(freed[1].set)

    def _take(self) -> bool:
        with self._lock:
            if self._taken >= self.slots:
                return False
            self._taken += 1
            return True

    async def _place(self) -> None:
        """Wait up to ``hold`` seconds for a place (taken on return); PasswordsBusy after."""
        if self._held >= self.held:
            raise PasswordsBusy(self._retry_after())
        loop = asyncio.get_running_loop()
        if self._freed is None or self._freed[0] is not loop:
            self._freed = (loop, asyncio.Event())
        freed = self._freed[1]
        deadline = loop.time() + self.hold
        self._held += 1
        try:
            while True:
                freed.clear()  # (before trying: a place freed after the try wakes us)
                if self._take():
                    return
                left = deadline - loop.time()
                if left <= 0:
                    raise PasswordsBusy(self._retry_after())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(freed.wait(), left)
        finally:
            self._held -= 1

    async def run(self, function: Callable[..., _T], *args: object) -> _T:
        """``function(*args)`` on a password thread. Raises :class:`PasswordsBusy` when
        all its threads and waiting places are still taken :data:`HOLD_S` later. A
        request that goes away leaves its check to end on the thread, still counted
        until it does."""
        if not self._take():
            await self._place()
        try:
            future = self._pool.submit(self._timed, functools.partial(function, *args))
        except RuntimeError:  # shut down: the server stops
            with self._lock:
                self._taken -= 1
            raise PasswordsBusy(self._retry_after()) from None
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop: the checks still waiting are cancelled, the running ones (under a second)
        end on their own; nothing waits for them."""
        self._pool.shutdown(wait=False, cancel_futures=True)
