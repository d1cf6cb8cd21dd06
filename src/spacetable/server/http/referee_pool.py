"""The referee's worker: files uploaded to ``POST /api/resolve`` (any game's table or turn
file, found through the game registry by its ``ruleset``) are read, resolved and drawn in
a separate process, never on the event loop that runs every room.

A table within the file limits (docs/formats.md, Limits) can still take seconds to
resolve, so it is settled within a time budget as ``spacetable resolve`` settles one
(:mod:`spacetable._time_limit`): in a small pool of worker processes (one by default: the
rooms keep the other core), a worker that overruns stopped and a fresh one started.
Workers are forked from a fork server that has already imported the resolver and the
renderer, so a replacement is ready in milliseconds; they run at a lower priority, and
each call with a ceiling on the memory it may take (:data:`WORKER_MEMORY` more than its
worker had when the call began, lifted after it: no call inherits what an earlier one
left). A photo is read in a worker of its own, started for it and stopped after it
(:meth:`RefereePool.settle` with ``fresh``): decoding and measuring a large photo takes
hundreds of megabytes that a process does not give back, and a worker that ran out of
memory, or died, must not read the next photo.

An upload is settled in two calls to the worker: the first reads and checks it (the file
limits bound that work to a fraction of a second), the second resolves and draws it
within the budget. So a file refused for what it holds (20,000 lasers) is refused as such
however busy the machine is, never as a table that took too long: the budget counts only
the resolving, which is what it bounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from spacetable._time_limit import RESOLVE_BUDGET_S, OutOfMemory, OutOfTime, Workers
from spacetable._userinput import InputError, parse_json
from spacetable.i18n import N_, SOURCE, translator
from spacetable.i18n.phrase import Phrase, phrase
from spacetable.registry import UnknownGame, game_for_ruleset, preload, referee_for
from spacetable.server.stopping import in_daemon_thread

#: Uploads that may wait for the workers (or run) at once, counted apart for photos and
#: for the rest; more are turned away as busy.
MAX_PENDING = 8
#: Most memory one call may map in a worker (bytes) beyond what the worker had mapped
#: when the call began: a bounded table needs a small fraction of it, a 25-megapixel
#: photo about half (docs/print-and-photo.md, Limits).
WORKER_MEMORY = 1 << 30
#: How much lower than the rooms' event loop the workers run (``nice`` increment).
WORKER_NICENESS = 10
#: Seconds a worker may take to read and check an upload before it is resolved. The file
#: limits bound that work to a fraction of a second of a core; this only stops a worker
#: that no longer answers, and it is far above what a loaded machine needs, so that a
#: refusal for what a file holds never turns into a refusal for time.
READ_SECONDS = 60.0


#: The photo referee's modules (``POST /api/referee/photo``) and its reader (OpenCV), which
#: the server imports only when it needs them: the fork server imports them first.
PHOTO_MODULES = ("spacetable.server.http.photo", "spacetable.photo.table")


class UploadRefused(ValueError):
    """An upload no game can settle: malformed JSON, an unknown ruleset, a bad table or
    turn; the message names the problem. ``says`` (when set) is the message as a phrase
    (:mod:`spacetable.i18n.phrase`), for a client to write in its reader's language."""

    says: dict[str, Any] | None = None


def refused_upload(exc: Exception) -> UploadRefused:
    """``exc`` as an :class:`UploadRefused`, with its phrase when it has one (a JSON object:
    it crosses from the worker's process)."""
    refused = UploadRefused(str(exc))
    said = getattr(exc, "says", None)
    if isinstance(said, Phrase):
        refused.says = said.to_json()
    return refused


class RefereeBusy(Exception):
    """Too many tables are already waiting for the referee's worker."""


class RefereeGaveUp(Exception):
    """A table took longer than the time budget to resolve, or more memory than a worker
    has; its worker was stopped. The message says which; :attr:`says` is it as a phrase."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(said.text())
        self.says = said


def read_upload(body: bytes) -> tuple[str, Any]:
    """In a worker: read and check an uploaded file; its ``ruleset`` and the file as its
    game's referee built it, for :func:`resolve_settled`.

    Raises :class:`UploadRefused` naming the problem in the upload."""
    try:
        data = parse_json(body)
        _, referee = referee_for(data)
    except (InputError, UnknownGame) as exc:
        raise refused_upload(exc) from None
    try:
        return data["ruleset"], referee.read(data)
    except referee.error as exc:
        raise refused_upload(exc) from None


def resolve_settled(ruleset: str, settled: Any, lang: str = SOURCE) -> bytes:
    """In a worker: resolve and draw a file :func:`read_upload` checked; the answer of
    ``POST /api/resolve`` as JSON bytes: ``ruleset``, ``result`` (what ``spacetable
    resolve --json`` prints), ``svg``, and ``table`` (the table as checked) for table
    files.

    Raises :class:`UploadRefused` for what shows only as the file is resolved."""
    entry = game_for_ruleset(ruleset)
    referee = entry.rules.referee
    assert referee is not None  # read_upload found it
    try:
        resolution = referee.resolve(settled)
    except referee.error as exc:
        raise refused_upload(exc) from None
    answer = {
        "ruleset": ruleset,
        "result": referee.result_json(resolution),
        "svg": entry.svg(settled, resolution, translator(lang)),
    }
    if referee.to_json is not None:
        answer["table"] = referee.to_json(settled)
    return orjson.dumps(answer)


def _start_worker() -> None:
    """Lower the worker's priority (its memory is bounded call by call: :class:`Workers`)."""
    os.nice(WORKER_NICENESS)


def _start_workers(workers: int, max_tasks: int = 0) -> Workers:
    """The referee's workers, from the fork server (which imports this module and the photo
    referee's), each call within :data:`WORKER_MEMORY`; ``max_tasks`` as in
    :class:`Workers`."""
    return Workers(
        workers,
        fork_server=True,
        preload=[__name__, *PHOTO_MODULES],
        initializer=_start_worker,
        memory_bytes=WORKER_MEMORY,
        max_tasks=max_tasks,
    )


def _start_both(workers: int) -> tuple[Workers, Workers]:
    """The long-lived workers, and the one that reads each photo in a process of its own."""
    return _start_workers(workers), _start_workers(1, max_tasks=1)


class RefereePool:
    """Workers that resolve uploaded tables, each within ``budget_s`` seconds.

    Open it with :meth:`start` (in the server's lifespan) and stop it with :meth:`close`.
    Its fork server and worker start with the first upload, not with the server: they
    import the resolvers, the renderers and OpenCV (seconds of a core and a few hundred
    megabytes), and most servers never referee a table. A page that uploads tables starts
    them as it is served (:meth:`warm`), so that the reader's first upload seldom waits
    for them; an upload that comes first waits (about a second on a quiet machine). The
    time budgets count from when a worker runs.
    """

    def __init__(
        self, workers: int = 1, budget_s: float = RESOLVE_BUDGET_S, pending: int = MAX_PENDING
    ) -> None:
        self.workers = workers
        self.budget_s = budget_s
        self.pending = pending
        #: Uploads waiting or running: photos (``fresh``) and the rest, apart, so that
        #: photos slow to read never make a table wait or turn it away.
        self._waiting = {True: 0, False: 0}
        self._open = False
        self._starting: asyncio.Future[tuple[Workers, Workers]] | None = None

    def start(self) -> None:
        """Open the pool: its workers start with the first upload (or :meth:`warm`)."""
        self._open = True

    def warm(self) -> None:
        """Start the workers now, if the pool is open and they have not started: a page
        that uploads tables was just opened, and its first upload then need not wait
        the seconds of their start. Returns at once: they start on a thread of their own
        (never one of the loop's executor, which the rooms' storage uses)."""
        if self._open and self._starting is None:
            workers = self.workers
            self._starting = in_daemon_thread(
                lambda: _start_both(workers), "starting the referee's workers"
            )

    async def _started(self) -> tuple[Workers, Workers]:
        """The workers, started now if this is the first upload (from a fork server that
        has imported this module and the photo referee's): the long-lived ones, and the
        one whose worker is fresh for each call. They start on a thread: the fork server
        imports for seconds of a core, and the rooms and the lobby go on meanwhile;
        uploads that come during the start wait for the same one."""
        if not self._open:
            raise RuntimeError("the referee pool is not started")
        self.warm()
        assert self._starting is not None
        workers = await asyncio.shield(self._starting)
        if not self._open:  # closed while it started (close stops them)
            raise RuntimeError("the referee pool is closed")
        return workers

    async def resolve(self, body: bytes, lang: str = SOURCE) -> bytes:
        """The answer to an uploaded table, as JSON bytes (see :func:`resolve_settled`):
        read and checked by a worker (:func:`read_upload`), then resolved within
        :attr:`budget_s`; the drawing's words in ``lang``.

        Raises :class:`UploadRefused` for a bad file,
        :class:`RefereeBusy` when :attr:`pending` tables already wait, and
        :class:`RefereeGaveUp` when this one took longer than :attr:`budget_s` to resolve
        (or :data:`READ_SECONDS` to read) or more memory than a worker may take."""
        resolve = functools.partial(resolve_settled, lang=lang)
        return await self.settle(READ_SECONDS, read_upload, resolve, body)

    async def settle(
        self,
        read_seconds: float,
        read: Callable[[bytes], tuple[Any, ...]],
        resolve: Callable[..., bytes],
        body: bytes,
        what: str = N_("the file"),
        fresh: bool = False,
    ) -> bytes:
        """Settle an upload in two calls to a worker: ``read(body)`` within
        ``read_seconds``, then ``resolve(*what_read_returned)`` within :attr:`budget_s`
        (the photo referee reads photos so: ``http/photo.py``). With ``fresh``, ``read``
        runs in a worker started for it alone (a photo), and the upload counts among the
        photos waiting, not the tables: :attr:`pending` of each. Raises as :meth:`resolve`."""
        if self._waiting[fresh] >= self.pending:
            raise RefereeBusy
        self._waiting[fresh] += 1
        try:
            workers, fresh_workers = await self._started()
            with _given_up(what, N_("to read")):
                settled = await (fresh_workers if fresh else workers).run(read_seconds, read, body)
            with _given_up(N_("the battle"), N_("to resolve")):
                return await workers.run(self.budget_s, resolve, *settled)
        finally:
            self._waiting[fresh] -= 1

    async def close(self) -> None:
        """Stop the workers, abandoning any table still being resolved (workers still
        starting are stopped once started)."""
        self._open = False
        starting, self._starting = self._starting, None
        if starting is None:
            return
        try:
            both = await starting
        except Exception:  # they never started: nothing to stop
            return
        for workers in both:
            await asyncio.to_thread(workers.close)


@contextlib.contextmanager
def _given_up(what: str, doing: str) -> Iterator[None]:
    """Say a worker's call that ran out of time or memory as :class:`RefereeGaveUp`."""
    try:
        yield
    except OutOfTime as exc:
        said = phrase(
            "{what} took longer than {seconds} s {doing}: refused",
            what=Phrase(what),
            seconds=f"{exc.seconds:g}",
            doing=Phrase(doing),
        )
        raise RefereeGaveUp(said) from None
    except OutOfMemory:
        said = phrase(
            "{what} took more than {most} MB of memory {doing}: refused",
            what=Phrase(what),
            most=str(WORKER_MEMORY >> 20),
            doing=Phrase(doing),
        )
        raise RefereeGaveUp(said) from None


preload()  # in the fork server: every worker starts with the games and renderers imported
