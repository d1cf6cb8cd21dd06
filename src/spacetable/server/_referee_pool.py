"""The referee's worker: files uploaded to ``POST /api/resolve`` (any game's table or turn
file, found through the game registry by its ``ruleset``) are read, resolved and drawn in
a separate process, never on the event loop that runs every room.

A table within the file limits (docs/formats.md, Limits) can still take seconds to
resolve, and CPU-bound Python cannot be interrupted from another thread: only a process
can be stopped when its time budget runs out. So the work runs in a small
:class:`pebble.ProcessPool` (one worker by default: the rooms keep the other core), whose
task timeout kills a worker that overruns and starts a fresh one. Workers are forked from
a fork server that has already imported the resolver and the renderer, so a replacement is
ready in milliseconds; they run at a lower priority, and with a ceiling on their memory.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os

import orjson
import pebble

from spacetable._userinput import InputError, parse_json
from spacetable.core.registry import UnknownGame, preload, referee_for
from spacetable.lasers.tables import RESOLVE_BUDGET_S

#: Tables that may wait for the worker (or run) at once; more are turned away as busy.
MAX_PENDING = 8
#: Most memory a worker may map (bytes): a bounded table needs a small fraction of it.
WORKER_MEMORY = 1 << 30
#: How much lower than the rooms' event loop the workers run (``nice`` increment).
WORKER_NICENESS = 10


class UploadRefused(ValueError):
    """An upload no game can settle: malformed JSON, an unknown ruleset, a bad table or
    turn; the message names the problem."""


class RefereeBusy(Exception):
    """Too many tables are already waiting for the referee's worker."""


class RefereeGaveUp(Exception):
    """A table took longer than the time budget to resolve, or more memory than a worker
    has; its worker was stopped. The message says which."""


def resolve_upload(body: bytes) -> bytes:
    """In a worker: read, check, resolve and draw an uploaded file; the answer of ``POST
    /api/resolve`` as JSON bytes: ``ruleset``, ``result`` (what ``spacetable resolve
    --json`` prints), ``svg``, and ``table`` (the table as checked) for table files.

    Raises :class:`UploadRefused` naming the problem in the upload."""
    try:
        data = parse_json(body)
        _, referee = referee_for(data)
    except (InputError, UnknownGame) as exc:
        raise UploadRefused(str(exc)) from None
    try:
        settled = referee.read(data)
        resolution = referee.resolve(settled)
    except referee.error as exc:
        raise UploadRefused(str(exc)) from None
    answer = {
        "ruleset": data["ruleset"],
        "result": referee.result_json(resolution),
        "svg": referee.svg(settled, resolution),
    }
    if referee.to_json is not None:
        answer["table"] = referee.to_json(settled)
    return orjson.dumps(answer)


def _ready() -> bool:
    """A task that only proves a worker is up (the pool is warmed with it)."""
    return True


def _start_worker() -> None:
    """Lower the worker's priority, and bound its memory where the system allows."""
    os.nice(WORKER_NICENESS)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    except (ImportError, ValueError, OSError):  # no resource module, or a lower hard limit
        pass


class RefereePool:
    """Workers that resolve uploaded tables, each within ``budget_s`` seconds.

    Start it with :meth:`start` (in the server's lifespan) and stop it with :meth:`close`.
    """

    def __init__(
        self, workers: int = 1, budget_s: float = RESOLVE_BUDGET_S, pending: int = MAX_PENDING
    ) -> None:
        self.workers = workers
        self.budget_s = budget_s
        self.pending = pending
        self._waiting = 0
        self._pool: pebble.ProcessPool | None = None

    def start(self) -> None:
        """Start the workers (from a fork server that has imported this module)."""
        method = (
            "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        )
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload([__name__])
        self._pool = pebble.ProcessPool(
            max_workers=self.workers, initializer=_start_worker, context=context
        )
        self._pool.schedule(_ready)  # start a worker now, not on the first upload

    async def resolve(self, body: bytes) -> bytes:
        """The answer to an uploaded table, as JSON bytes (see :func:`resolve_upload`).

        Raises :class:`UploadRefused` for a bad file,
        :class:`RefereeBusy` when :attr:`pending` tables already wait, and
        :class:`RefereeGaveUp` when this one took longer than :attr:`budget_s` or more
        memory than a worker may take."""
        if self._pool is None:
            raise RuntimeError("the referee pool is not started")
        if self._waiting >= self.pending:
            raise RefereeBusy
        self._waiting += 1
        try:
            future = self._pool.schedule(resolve_upload, args=(body,), timeout=self.budget_s)
            try:
                answer: bytes = await asyncio.wrap_future(future)
            except TimeoutError:
                raise RefereeGaveUp(
                    f"the battle took longer than {self.budget_s:g} s to resolve: refused"
                ) from None
            except (MemoryError, pebble.ProcessExpired):
                raise RefereeGaveUp("the table took too much memory to resolve: refused") from None
            return answer
        finally:
            self._waiting -= 1

    def close(self) -> None:
        """Stop the workers, abandoning any table still being resolved."""
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]  # pebble leaves it unannotated
            self._pool.join()
            self._pool = None


preload()  # in the fork server: every worker starts with the games and renderers imported
