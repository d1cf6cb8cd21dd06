"""Work within a time limit: the one way the ``spacetable`` command and the server bound
how long a file may take to settle (``resolve`` and ``render --time-limit``, ``serve
--resolve-seconds``, docs/formats.md, Limits).

A file within the limits can still take seconds to resolve, partly in compiled kernels,
and CPU-bound work cannot be interrupted from another thread (a timer's signal reaches
Python only between bytecodes, and not at all on Windows): only a process can be stopped
whenever its time runs out. So the work runs in :class:`Workers`, a pool of processes
(:class:`pebble.ProcessPool`) whose task timeout kills a worker that overruns and starts a
fresh one.

A limit counts the processor time the work takes, not the time it waits: the workers run
at a lower priority than the rooms, and on a busy machine a table that needs 50 ms of a
core may wait seconds for it, which must not turn it into a table that took too long. In
the worker a profiling timer (``ITIMER_PROF``: the process's user and system time) stops
the call once it has used its seconds; a call that does not come back to Python when that
timer rings (a long compiled kernel), or a worker that hangs, is stopped by the pool after
:func:`wall_limit` of the clock on the wall.

A pool may also bound each call's memory (``memory_bytes``: that much beyond what its
worker holds as the call begins, the soft ``RLIMIT_AS``, lifted after the call) and replace
its workers after each call (``max_tasks``), so that no call inherits what another left.

The server keeps one pool for its lifetime (``server/http/referee_pool.py``); the command runs
its one file through :func:`run_within`, in a worker forked from itself, which has the
games imported already.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from types import FrameType, TracebackType
from typing import Any, TypeVar

import pebble

try:
    import resource
except ImportError:  # Windows has no resource module: no memory limit there
    resource = None  # type: ignore[assignment]

#: Seconds the command and the server spend settling one file at most: real tables take
#: milliseconds, the largest the limits allow several seconds.
RESOLVE_BUDGET_S = 5.0

#: A call's wall-clock backstop: this many times its processor seconds, plus the slack.
WALL_FACTOR = 3.0
WALL_SLACK_S = 10.0

T = TypeVar("T")


def wall_limit(seconds: float) -> float:
    """The wall-clock seconds after which a worker whose call has ``seconds`` of processor
    time is stopped however little it ran (it hangs, or its machine is starved)."""
    return seconds * WALL_FACTOR + WALL_SLACK_S


class OutOfTime(Exception):
    """The work took longer than its time limit; its worker was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"took longer than {seconds:g} s")
        #: The time limit that ran out.
        self.seconds = seconds

    def __reduce__(self) -> tuple[type[OutOfTime], tuple[float]]:
        # Raised in a worker, it crosses back to the pool's process by pickling.
        return OutOfTime, (self.seconds,)


class OutOfMemory(Exception):
    """The work took more memory than a worker may have (or its worker died)."""


def _address_space() -> int | None:
    """The bytes this process has mapped now, where the system says (Linux), else ``None``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def _memory_limited(memory_bytes: int | None) -> Iterator[None]:
    """In a worker: let the code within map at most ``memory_bytes`` more than the process
    has mapped as it starts (the soft ``RLIMIT_AS``), and give the process its previous
    limit back after, so that no call inherits what an earlier one left. A call that hits
    the limit raises :class:`OutOfMemory` (the hard limit is never lowered: it could not be
    raised again)."""
    mapped = _address_space() if memory_bytes is not None else None
    if resource is None or memory_bytes is None or mapped is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = mapped + memory_bytes
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
        limited = True
    except (ValueError, OSError):  # a system that refuses it: the call runs unbounded
        limited = False
    if not limited:
        yield
        return
    try:
        yield
    except MemoryError:
        raise OutOfMemory("it took more memory than a worker may have") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _start(preload: tuple[str, ...], initializer: Callable[[], None] | None) -> None:
    """In a new worker: import the pool's ``preload`` modules, then run its initializer."""
    for module in preload:
        importlib.import_module(module)
    if initializer is not None:
        initializer()


def _ready() -> bool:
    """A task that only proves a worker is up."""
    return True


class Workers:
    """Worker processes that each run one function call at a time within a time limit.

    ``fork_server``: start workers from a fork server that has imported the ``preload``
    modules (a long-running server: workers do not inherit its threads, and a replacement
    is ready in milliseconds) rather than fork them from this process (a short command:
    no fork server to start). Where a start method does not exist, workers are spawned.
    Every worker has the ``preload`` modules imported before its first call, even where
    the process's one fork server was started by another pool with other modules.
    ``initializer`` runs in each worker as it starts. A worker starts at once, not with
    the first call. Close the pool with :meth:`close` (or use it as a context manager).

    ``memory_bytes``: each call may map that much more memory than its worker had mapped
    when the call began (where the system can bound it: ``RLIMIT_AS``), and raises
    :class:`OutOfMemory` beyond; the limit is set for the call and lifted after it.
    ``max_tasks``: a worker is replaced by a fresh one after that many calls (0: never),
    so ``max_tasks=1`` runs every call in a process of its own, which gives back all the
    memory the call took, however the call ended.
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        fork_server: bool = False,
        preload: Sequence[str] = (),
        initializer: Callable[[], None] | None = None,
        memory_bytes: int | None = None,
        max_tasks: int = 0,
    ) -> None:
        method = "forkserver" if fork_server else "fork"
        if method not in multiprocessing.get_all_start_methods():
            method = "spawn"
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(list(preload))
        if preload:
            # A process has one fork server, started by its first pool with that pool's
            # preload: a later pool's modules are imported by each of its workers as it
            # starts (already there, this costs nothing), never by its first call, which
            # may run under a memory limit too small to map them.
            initializer = functools.partial(_start, tuple(preload), initializer)
        self._memory_bytes = memory_bytes
        self._pool = pebble.ProcessPool(
            max_workers=workers, max_tasks=max_tasks, initializer=initializer, context=context
        )
        self._pool.schedule(_ready)

    def submit(self, seconds: float, function: Callable[..., T], *args: Any) -> Future[T]:
        """Start ``function(*args)`` in a worker, stopped once it has used ``seconds`` of
        processor time (or after :func:`wall_limit` of them on the clock). Its
        future's result is the call's, or the exception it raised; :meth:`call` and
        :meth:`run` say :class:`OutOfTime` and :class:`OutOfMemory`."""
        if not seconds > 0:
            raise ValueError(f"a time limit must be positive, got {seconds}")
        call = functools.partial(_within_limits, seconds, self._memory_bytes, function)
        return self._pool.schedule(call, args=args, timeout=wall_limit(seconds))

    def call(self, seconds: float, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` run in a worker, waited for here.

        Raises what the call raised, :class:`OutOfTime` when it ran longer than
        ``seconds``, :class:`OutOfMemory` when its worker ran out of memory or died."""
        future = self.submit(seconds, function, *args)
        with _bounded(seconds):
            return future.result()

    async def run(self, seconds: float, function: Callable[..., T], *args: Any) -> T:
        """:meth:`call` for an event loop: awaits the worker without blocking the loop."""
        future = self.submit(seconds, function, *args)
        with _bounded(seconds):
            return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop the workers, abandoning any call still running."""
        self._pool.stop()  # type: ignore[no-untyped-call]  # pebble leaves it unannotated
        self._pool.join()

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _within_limits(
    seconds: float, memory_bytes: int | None, function: Callable[..., T], *args: Any
) -> T:
    """In a worker: ``function(*args)`` within ``seconds`` of processor time and
    ``memory_bytes`` more of memory (:func:`_memory_limited`)."""
    with _memory_limited(memory_bytes):
        return _within_processor_time(seconds, function, *args)


def _within_processor_time(seconds: float, function: Callable[..., T], *args: Any) -> T:
    """In a worker: ``function(*args)``, raising :class:`OutOfTime` once the process has
    used ``seconds`` more of processor time (where the system has a profiling timer)."""
    if not hasattr(signal, "setitimer"):
        return function(*args)

    def stop(signum: int, frame: FrameType | None) -> None:
        raise OutOfTime(seconds)

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def _bounded(seconds: float) -> Iterator[None]:
    """Say how a worker's call was cut short, in this module's terms."""
    try:
        yield
    except TimeoutError:  # pebble's task timeout
        raise OutOfTime(seconds) from None
    except (MemoryError, pebble.ProcessExpired):
        raise OutOfMemory("it took more memory than a worker may have") from None


def run_within(seconds: float, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a worker of its own (forked from this process where it
    can be), stopped after ``seconds``: raises what the call raised, :class:`OutOfTime` or
    :class:`OutOfMemory`."""
    with Workers() as workers:
        return workers.call(seconds, function, *args)
