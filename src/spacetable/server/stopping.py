"""How a server process stops: gracefully, within a bound, and saying where it hung.

At SIGTERM or Ctrl+C uvicorn closes its listening socket, asks every connection to
close, waits for their requests and websockets to end, then runs the application's
shutdown (the rooms stop and store what they must: ``server/app.py``). Left to itself it
waits for the connections without end: one request that never finishes (an upload whose
body stops coming) kept the process alive after its SIGTERM for ever, and the rooms'
shutdown never ran. Here the wait has a bound (:data:`GRACE_SECONDS`), after
which uvicorn cancels what is left and the shutdown runs; and a process still alive
:data:`REPORT_SECONDS` after it was told to stop prints every thread's stack on its
standard error (``faulthandler``), so that what held it shows in its log.

Work that a stop need not wait for, and cannot interrupt, runs in a daemon thread
(:func:`in_daemon_thread`): the bots' warm-up, which on a fresh install compiles the numba
kernels for a minute. Run on the loop's executor, it held a Ctrl+C for the rest of the
compile (48 s on a laptop, with every thread's stack printed at 20 s): asyncio's end and
the interpreter's both join the executor's threads, and a compile cannot be cancelled.
A daemon thread ends with the process. numba writes each cache file to a temporary name and
renames it, the compiled code before the index that names it, so a compile cut short
leaves at most a stray temporary file, never a cache that reads wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import socket
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import TypeVar

import uvicorn

#: Seconds the connections have to end once the server is told to stop.
GRACE_SECONDS = 10.0
#: Seconds after the order to stop at which a process still alive prints its threads.
REPORT_SECONDS = 20.0
#: Seconds a step of the application's shutdown may take before the log says it waits.
SLOW_STEP_SECONDS = 5.0

log = logging.getLogger(__name__)

T = TypeVar("T")


class GameServer(uvicorn.Server):
    """uvicorn's server that reports, on its standard error, a stop that hangs."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._report_armed = False

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """A signal to stop: stop as uvicorn does, and arm the report of a hung stop."""
        self.arm_report()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop as uvicorn does, once the application's long-lived responses that never
        end by themselves are ended (``app.state.long_lived``: the bots' event streams),
        so that the wait for the connections does not last the whole grace for them."""
        state = getattr(self.config.app, "state", None)
        for stop in getattr(state, "long_lived", ()):
            stop()
        await super().shutdown(sockets)

    def arm_report(self) -> None:
        """Print every thread's stack if the process still lives :data:`REPORT_SECONDS`
        from now (once: a second signal does not push it back). Only where signals come,
        in the main thread: a test that serves from a thread of its own is left alone."""
        if threading.current_thread() is not threading.main_thread():
            return
        if not self._report_armed:
            self._report_armed = True
            faulthandler.dump_traceback_later(REPORT_SECONDS, exit=False)


def in_daemon_thread(work: Callable[[], T], name: str) -> asyncio.Future[T]:
    """Run ``work`` in a daemon thread named ``name``; a future of the running loop for its
    result (or its exception). Neither the loop's end nor the process's waits for the
    thread: a stop leaves it unfinished, so ``work`` must leave nothing half-done that
    matters (see the module's comment). Once the loop is closed its outcome goes nowhere."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():  # cancelled: nobody waits for it any more
            return
        if error is None:
            future.set_result(result)  # type: ignore[arg-type]
        else:
            future.set_exception(error)

    def run() -> None:
        result: T | None = None
        error: BaseException | None = None
        try:
            result = work()
        except BaseException as exc:  # handed to the future's reader
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


async def shutdown_step(
    what: str, step: Awaitable[object], after: float = SLOW_STEP_SECONDS
) -> None:
    """Await ``step`` of the application's shutdown (``what``: its name in the log). One
    that is not done ``after`` seconds (:data:`SLOW_STEP_SECONDS`) is said in the log with
    what every task of the loop awaits (:func:`awaited_by_tasks`), and still awaited: a
    stop that hangs names its step and the await it hangs on (a cluster process once
    outlived its SIGTERM by 20 s in a test run, every thread idle: an await of the
    shutdown never ended, and the threads' stacks could not say which)."""
    task = asyncio.ensure_future(step)
    try:
        await asyncio.wait_for(asyncio.shield(task), after)
    except TimeoutError:
        log.warning(
            "stopping: still waiting for %s after %g s; the tasks wait on:\n%s",
            what,
            after,
            awaited_by_tasks(),
        )
        await task


def awaited_by_tasks() -> str:
    """Every other unfinished task of the running loop, each with its chain of awaits
    from its coroutine down to the future it waits on (``Task.print_stack`` shows only the
    outermost coroutine's line), one line a frame."""
    lines: list[str] = []
    current = asyncio.current_task()
    for task in sorted(asyncio.all_tasks(), key=lambda t: t.get_name()):
        if task is current:
            continue
        lines.append(f"{task.get_name()}:")
        awaited: object = task.get_coro()
        while frame := getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None):
            code = frame.f_code
            lines.append(f'  File "{code.co_filename}", line {frame.f_lineno}, in {code.co_name}')
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
        # (asyncio keeps the future a task waits on in this attribute, C and Python alike)
        lines.append(f"    waits on {getattr(task, '_fut_waiter', None)!r}"[:300])
    return "\n".join(lines)
