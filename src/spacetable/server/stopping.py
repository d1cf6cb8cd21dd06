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
"""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import threading
from collections.abc import Awaitable
from types import FrameType

import uvicorn

#: Seconds the connections have to end once the server is told to stop.
GRACE_SECONDS = 10.0
#: Seconds after the order to stop at which a process still alive prints its threads.
REPORT_SECONDS = 20.0
#: Seconds a step of the application's shutdown may take before the log says it waits.
SLOW_STEP_SECONDS = 5.0

log = logging.getLogger(__name__)


class GameServer(uvicorn.Server):
    """uvicorn's server that reports, on its standard error, a stop that hangs."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._report_armed = False

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """A signal to stop: stop as uvicorn does, and arm the report of a hung stop."""
        self.arm_report()
        super().handle_exit(sig, frame)

    def arm_report(self) -> None:
        """Print every thread's stack if the process still lives :data:`REPORT_SECONDS`
        from now (once: a second signal does not push it back). Only where signals come,
        in the main thread: a test that serves from a thread of its own is left alone."""
        if threading.current_thread() is not threading.main_thread():
            return
        if not self._report_armed:
            self._report_armed = True
            faulthandler.dump_traceback_later(REPORT_SECONDS, exit=False)


async def shutdown_step(
    what: str, step: Awaitable[object], after: float = SLOW_STEP_SECONDS
) -> None:
    """Await ``step`` of the application's shutdown (``what``: its name in the log). One
    that is not done ``after`` seconds (:data:`SLOW_STEP_SECONDS`) is said in the log, and still
    awaited: a stop that hangs names its step beside the threads' stacks (a cluster
    process once outlived its SIGTERM by 20 s in a test run, every thread idle: an await
    of the shutdown never ended, and the stacks could not say which)."""
    task = asyncio.ensure_future(step)
    try:
        await asyncio.wait_for(asyncio.shield(task), after)
    except TimeoutError:
        log.warning("stopping: still waiting for %s after %g s", what, after)
        await task
