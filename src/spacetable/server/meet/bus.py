"""The cluster's bus: a message published on one process reaches the subscribers of its
channel on every process (issue 69). The hub carries ``send``, ``broadcast`` and
``end_sessions`` on it; moderation carries mutes and bans.

A server alone uses :class:`Bus` itself: a publication reaches this process's subscribers
and nothing else. With ``--redis`` it is a :class:`~spacetable.server.meet.redis_bus.RedisBus`,
which also publishes to Redis (channel ``spacetable:bus:<channel>``) and hands what the
other processes published to this one's subscribers.

Usage::

    unsubscribe = services.bus.subscribe("mute", on_mute)  # on every process, at start
    await services.bus.publish("mute", {"account": key})  # anywhere, any process

A payload is anything ``orjson`` writes (a dict of strings, numbers, lists); a handler is
called with it as read back from JSON, on the event loop: a plain function or a
coroutine function (awaited before the next handler). The delivery is at most once and
only to the processes connected to Redis at the time (a process that lost Redis misses
what was published meanwhile: keep the state itself in the database or a Redis key, and
use the bus to say "look now").
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

#: A subscriber: called with each payload published on its channel.
Handler = Callable[[Any], Awaitable[None] | None]


class Bus:
    """The bus of one process: what is published here reaches the subscribers here."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}

    async def start(self) -> None:
        """Start listening to the other processes (nothing to do alone)."""

    async def close(self) -> None:
        """Stop listening (nothing to do alone)."""

    def subscribe(self, channel: str, handler: Handler) -> Callable[[], None]:
        """Call ``handler`` with every payload published on ``channel`` from now on, by
        any process; returns the function that unsubscribes it."""
        self._handlers.setdefault(channel, []).append(handler)

        def unsubscribe() -> None:
            handlers = self._handlers.get(channel, [])
            if handler in handlers:
                handlers.remove(handler)

        return unsubscribe

    async def publish(self, channel: str, payload: Any) -> None:
        """Deliver ``payload`` to the subscribers of ``channel`` on every process (this
        one's first, before this returns)."""
        await self.deliver(channel, payload)

    async def deliver(self, channel: str, payload: Any) -> None:
        """Call this process's subscribers of ``channel`` with ``payload``; one that
        raises is logged and the others still called."""
        for handler in list(self._handlers.get(channel, ())):
            try:
                result = handler(payload)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("a subscriber of the bus channel %r failed", channel)
