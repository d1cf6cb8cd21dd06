"""The clock a room keeps time with: what time it is, and a callback at a given time.

Every timer of a room (the deployment countdown and the plot timer, the 3-2-1 run-up, the
freeze after "stop!", bots' pauses, abandoned seats, the idle close, the coalescing windows
of poses and room messages) goes through one :class:`RoomClock`, so that a test can hand a
room a clock it moves by hand and run a two-minute countdown instantly and to the
millisecond. The server's rooms use :class:`LoopClock`, the event loop's monotonic clock.
"""

from __future__ import annotations

import asyncio
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
