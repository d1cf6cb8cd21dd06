"""The bus of a cluster's process (``meet/bus.py``) over Redis pub/sub: published to
``spacetable:bus:<channel>`` through the cluster node's connection, read by one pattern
subscription (``spacetable:bus:*``) on a connection of its own (a subscribed connection
does nothing else). Imported only with ``--redis``: a server alone never loads Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from spacetable.server.cluster.node import PREFIX
from spacetable.server.meet.bus import Bus

log = logging.getLogger(__name__)

#: The Redis channels' prefix.
CHANNELS = f"{PREFIX}bus:"
#: Seconds between two attempts to subscribe again after Redis went away.
RETRY_SECONDS = 0.5
#: The longest a process's start waits for its subscription (seconds): past it, the
#: process starts anyway and subscribes as soon as Redis answers.
READY_SECONDS = 5.0


class RedisBus(Bus):
    """The bus of one process of a cluster: it publishes through ``redis`` (the cluster
    node's client), listens on a connection of its own to the Redis at ``url``, and signs
    what it publishes ``origin`` (the node's id) so as not to hear it twice."""

    def __init__(self, redis: aioredis.Redis, url: str, origin: str) -> None:
        super().__init__()
        self.redis = redis
        self.origin = origin
        self._listener = aioredis.from_url(url, socket_connect_timeout=1.0)
        self._task: asyncio.Task[None] | None = None
        #: Set once the subscription is in place (again, after Redis came back).
        self.ready = asyncio.Event()

    async def start(self) -> None:
        """Subscribe, waiting for it up to :data:`READY_SECONDS` (what another process
        publishes after that reaches this one)."""
        self._task = asyncio.create_task(self._listen_forever())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), READY_SECONDS)

    async def close(self) -> None:
        """Stop listening and close the subscription's connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(RedisError, OSError):
            await self._listener.aclose()

    async def publish(self, channel: str, payload: Any) -> None:
        """This process's subscribers first, then the others' through Redis (Redis away:
        logged, and only this process heard it)."""
        await self.deliver(channel, payload)
        data = orjson.dumps({"from": self.origin, "payload": payload})
        try:
            await self.redis.publish(CHANNELS + channel, data)
        except (RedisError, OSError) as exc:
            log.warning("the bus could not reach the other processes (%s): %s", channel, exc)

    async def _listen_forever(self) -> None:
        warned = False
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNELS + "*")
                self.ready.set()
                if warned:
                    log.warning("the bus hears the other processes again")
                    warned = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        await self._received(message)
            except (RedisError, OSError) as exc:
                self.ready.clear()
                if not warned:
                    log.warning("the bus does not hear the other processes (Redis: %s)", exc)
                    warned = True
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(RETRY_SECONDS)

    async def _received(self, message: dict[str, Any]) -> None:
        channel = message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not isinstance(channel, str) or not channel.startswith(CHANNELS):
            return
        try:
            body = orjson.loads(message["data"])
        except (orjson.JSONDecodeError, TypeError, KeyError):
            log.warning("the bus dropped a message that is not JSON on %s", channel)
            return
        if not isinstance(body, dict) or body.get("from") == self.origin:
            return  # its own: delivered here when it was published
        await self.deliver(channel.removeprefix(CHANNELS), body.get("payload"))
