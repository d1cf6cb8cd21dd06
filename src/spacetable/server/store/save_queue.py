"""Finished matches on their way to storage, kept until the database takes them.

A room hands each finished match to the :class:`SaveQueue` (:meth:`SaveQueue.store`, which
it awaits before anyone hears of the result; :meth:`SaveQueue.put` for who does not wait):
one thread of the queue's own stores the matches in the order they finished. While the database is
unreachable (a PostgreSQL restart, a locked SQLite file) the match at the head is tried
again with a growing pause, and the ones behind it wait their turn, so a match that ends
while the database is down is stored when it comes back. The queue is bounded: when it is
full, the newest match is dropped and the log names it. On shutdown every waiting match
gets one more try.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from spacetable.server.store._worker import worker
from spacetable.server.store.storage import Storage, StorageUnavailable, StoredMatch

log = logging.getLogger("spacetable.storage")

#: What else a match's transaction writes (``Storage.save``'s ``also``).
Also = Callable[[Session], None]


@dataclass(slots=True)
class _Job:
    match: StoredMatch
    also: Also | None = None
    #: Called on the queue's thread once the match leaves the queue: stored or not.
    done: Callable[[bool], None] | None = None


class SaveQueue:
    """Stores finished matches in order, in a thread of its own, retrying while the
    database is away.

    ``limit`` bounds the matches waiting; ``first_retry`` and ``longest_retry`` (seconds)
    bound the pause between two tries of the same match, which doubles from the first to
    the longest."""

    def __init__(
        self,
        storage: Storage,
        *,
        limit: int = 1000,
        first_retry: float = 0.25,
        longest_retry: float = 10.0,
    ) -> None:
        self.storage = storage
        self.limit = limit
        self.first_retry = first_retry
        self.longest_retry = longest_retry
        self._waiting: deque[_Job] = deque()
        self._changed = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._failures = 0

    def put(
        self,
        match: StoredMatch,
        also: Also | None = None,
        done: Callable[[bool], None] | None = None,
    ) -> bool:
        """Queue ``match`` to be stored (with what ``also`` writes in its transaction);
        never blocks on the database. ``done`` hears, on the queue's thread, whether it was
        stored. False (and a log line naming the match) if it was dropped: the queue is
        full, or closed."""
        with self._changed:
            if self._closing or len(self._waiting) >= self.limit:
                why = (
                    "the server is stopping"
                    if self._closing
                    else (f"{len(self._waiting)} matches already wait for the database")
                )
                log.error("match %s of room %s is not stored: %s", match.id, match.room, why)
                return False
            self._waiting.append(_Job(match, also, done))
            self._thread = worker(self._thread, self._run, "spacetable-saves")
            self._changed.notify()
        return True

    def store(self, match: StoredMatch, also: Also | None = None) -> asyncio.Future[bool]:
        """Queue ``match`` as :meth:`put` does; a future (of the running event loop) that
        says, once it left the queue, whether it was stored. A room awaits it before it
        tells anyone the match is over."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()

        def done(stored: bool) -> None:
            def settle() -> None:
                if not future.done():
                    future.set_result(stored)

            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                loop.call_soon_threadsafe(settle)

        if not self.put(match, also, done):
            future.set_result(False)
        return future

    def failing(self) -> bool:
        """Whether the database refused the last try (the match at the head waits)."""
        return self._failures > 0

    def pending(self) -> int:
        """Matches not stored yet (the one being tried included)."""
        with self._changed:
            return len(self._waiting)

    def wait_stored(self, timeout: float) -> bool:
        """Wait until no match waits (each stored, or dropped), at most ``timeout``
        seconds; whether none waits."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting, timeout)

    def wait_for(self, match_id: str, timeout: float) -> bool:
        """Wait until match ``match_id`` leaves the queue (stored, or dropped), at most
        ``timeout`` seconds; whether it was waiting at all. A match that is not in the
        queue returns False at once."""
        with self._changed:
            if not any(job.match.id == match_id for job in self._waiting):
                return False
            self._changed.wait_for(
                lambda: all(job.match.id != match_id for job in self._waiting), timeout
            )
            return True

    def close(self, timeout: float = 10.0) -> None:
        """Try once more to store every waiting match, then stop. Matches the database
        still refuses are logged as lost. Waits at most ``timeout`` seconds."""
        with self._changed:
            self._closing = True
            self._changed.notify()
            thread = self._thread
        if thread is None:
            return
        thread.join(timeout)
        if thread.is_alive():
            log.error("%d matches were still being stored when the server stopped", self.pending())

    def _run(self) -> None:
        pause = self.first_retry
        failures = 0
        while True:
            with self._changed:
                while not self._waiting and not self._closing:
                    self._changed.wait()
                if not self._waiting:
                    return  # closing, and everything is stored
                job = self._waiting[0]
                match = job.match
                closing = self._closing
            stored = False
            try:
                self.storage.save(match, job.also)
            except StorageUnavailable as exc:  # worth trying again; anything else is not
                failures += 1
                self._failures = failures
                if closing:
                    self._give_up(f"the database is unreachable ({exc})")
                    return
                log.warning(
                    "cannot store match %s (try %d; %d waiting), trying again in %.1f s: %s",
                    match.id,
                    failures,
                    self.pending(),
                    pause,
                    exc,
                )
                with self._changed:
                    self._changed.wait_for(lambda: self._closing, timeout=pause)
                pause = min(pause * 2, self.longest_retry)
                continue
            except Exception:
                log.exception("match %s of room %s cannot be stored; dropped", match.id, match.room)
            else:
                stored = True
                if failures:
                    log.warning("stored match %s after %d failed tries", match.id, failures)
            with self._changed:
                self._waiting.popleft()
                self._changed.notify_all()  # for wait_stored
            if job.done is not None:
                job.done(stored)
            pause, failures = self.first_retry, 0
            self._failures = 0

    def _give_up(self, why: str) -> None:
        with self._changed:
            jobs = list(self._waiting)
            lost = [job.match.id for job in jobs]
            self._waiting.clear()
            self._changed.notify_all()
        for job in jobs:
            if job.done is not None:
                job.done(False)
        log.error("%d matches are not stored, %s: %s", len(lost), why, ", ".join(lost))
