"""The clock a room keeps time with: what time it is, and a callback at a given time.

Every timer of a room (the deployment countdown and the plot timer, the 3-2-1 run-up, the
freeze after "stop!", bots' pauses, abandoned seats, the idle close, the coalescing windows
of poses and room messages) goes through one :class:`RoomClock`, so that a test can hand a
room a clock it moves by hand and run a two-minute countdown instantly and to the
millisecond (:class:`HandClock`, which ``spacetable bench --state-bytes`` plays rooms on
too). The server's rooms use :class:`LoopClock`, the event loop's monotonic clock.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """A callback waiting for its time; :meth:`cancel` drops it."""

    def cancel(self) -> None:
        """Drop the callback (nothing happens if it already ran)."""


class RoomClock(ABC):
    """Monotonic seconds, and callbacks run at a given time on the room's event loop."""

    @abstractmethod
    def now(self) -> float:
        """The time now, in seconds (monotonic: only differences mean something)."""

    @abstractmethod
    def at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` on the event loop once the clock reads ``when`` (at
        once, on the loop's next turn, if that time has passed)."""

    def after(self, seconds: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` ``seconds`` from now (:meth:`at`)."""
        return self.at(self.now() + seconds, callback, *args)

    def wall(self) -> float:
        """The wall time (Unix seconds) as this clock sees it: what a deadline that must
        outlive the process is stored as (a correspondence turn's). A clock a test moves
        moves its wall time too."""
        return time.time()

    def at_wall(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` once the wall time :meth:`wall` reads ``when``."""
        return self.after(max(0.0, when - self.wall()), callback, *args)


class LoopClock(RoomClock):
    """The event loop's own monotonic clock (``loop.time()``, ``loop.call_at``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def now(self) -> float:
        """The loop's time, in seconds."""
        return self._loop.time()

    def at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """``loop.call_at``."""
        return self._loop.call_at(when, callback, *args)


class Drains(Protocol):
    """What :meth:`HandClock.advance` waits for: a room's handling of what it was posted."""

    expired: bool

    async def drained(self) -> None:
        """Return once everything posted so far has been handled."""


class _Callback:
    def __init__(self, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class HandClock(RoomClock):
    """A clock that stands still until :meth:`advance` moves it, running each timer due
    at its own time, in order, and letting the rooms handle what it posted before the next
    (so that timers the room arms meanwhile run too)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        #: The wall time at ``start`` (the wall time moves with the clock).
        self._wall_at_start = time.time() - start
        self._due: list[tuple[float, int, _Callback]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The time the clock was last moved to."""
        return self._now

    def wall(self) -> float:
        """The wall time when the clock was made, moved as far as the clock was."""
        return self._wall_at_start + self._now

    def at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` when :meth:`advance` passes ``when``."""
        timer = _Callback(callback, args)
        heapq.heappush(self._due, (when, next(self._order), timer))
        return timer

    async def advance(self, seconds: float, *rooms: Drains) -> None:
        """Move the clock ``seconds`` on, running the timers due by then; the ``rooms``
        handle what each one posted before the clock moves further."""
        until = self._now + seconds
        await _drained(rooms)
        while self._due and self._due[0][0] <= until:
            when, _, timer = heapq.heappop(self._due)
            self._now = max(self._now, when)
            if not timer.cancelled:
                timer.callback(*timer.args)
                await _drained(rooms)
        self._now = until


async def _drained(rooms: tuple[Drains, ...]) -> None:
    for room in rooms:
        if not room.expired:
            await room.drained()


class _Shifted:
    """A timer of a :class:`MovableClock`: a loop timer it schedules again when the clock
    moves."""

    def __init__(
        self,
        clock: MovableClock,
        when: float,
        callback: Callable[..., object],
        args: tuple[Any, ...],
    ) -> None:
        self.clock = clock
        self.when = when
        self.callback = callback
        self.args = args
        self.handle: asyncio.TimerHandle | None = None

    def schedule(self) -> None:
        self.handle = asyncio.get_running_loop().call_at(self.when - self.clock.shift, self._run)

    def _run(self) -> None:
        self.clock.pending.discard(self)
        self.callback(*self.args)

    def cancel(self) -> None:
        self.clock.pending.discard(self)
        if self.handle is not None:
            self.handle.cancel()


class MovableClock(RoomClock):
    """The event loop's clock, which can be moved forward (never back): what ``spacetable
    serve --test-clock`` gives every room, so that a test of the whole server (a browser
    driving it) runs a plot timer or an absence's grace at once with
    ``POST /api/test/clock`` instead of waiting for it. Timers due by the new time run in
    the order of their times, on the loop's next turns; a timer one of them arms counts
    from the moved clock (unlike :class:`HandClock`, which runs such chains at once)."""

    def __init__(self) -> None:
        self.shift = 0.0
        self.pending: set[_Shifted] = set()

    def now(self) -> float:
        """The loop's time, plus every move so far."""
        return asyncio.get_running_loop().time() + self.shift

    def wall(self) -> float:
        """The wall time, plus every move so far."""
        return time.time() + self.shift

    def at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` once the clock reads ``when``."""
        timer = _Shifted(self, when, callback, args)
        self.pending.add(timer)
        timer.schedule()
        return timer

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward: every timer due by then runs (in order, as
        soon as the loop turns), the others keep their times on the moved clock."""
        if not seconds >= 0:
            raise ValueError("the clock only moves forward")
        self.shift += seconds
        for timer in sorted(self.pending, key=lambda t: t.when):
            if timer.handle is not None:
                timer.handle.cancel()
            timer.schedule()
