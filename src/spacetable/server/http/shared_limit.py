"""Rooms created per client, counted in Redis for every process of a cluster (issue 36
item 6): behind a balancer that deals requests round robin, a limit each process counted
alone let one client create ``per_minute`` rooms a minute *per process*.

The count is the same token bucket as :class:`~spacetable.server.http.guards.CreationLimit`
(``per_minute`` rooms at once, then one every ``60 / per_minute`` s), kept in one key a
client, ``spacetable:limit:rooms:<address>``, in the cell-rate form: the key holds the
time at which the client's bucket is full again ("theoretical arrival time", ms), so that
one Lua script reads it, decides and writes it atomically, whichever process asks. The key
lapses when the bucket is full again (an absent key is a full bucket), so Redis keeps
only the clients that created rooms lately.

Time: Redis's own clock (``TIME`` in the script), one clock for every process whatever
their machines' clocks say, plus the server's test clock's moves (``--test-clock``: its
``shift``, the seconds ``POST /api/test/clock`` moved it), so that a test moves the window
as it moves the rooms' timers, without sleeping. Every process of a test's cluster is
moved alike, so they keep agreeing.

Redis away: the limit falls back to this process's own count (:class:`CreationLimit`):
open, but not unlimited (a client gets at most the limit per process, as before this
module), and the lobby keeps creating rooms while Redis is away, as it keeps playing them
(docs/scaling.md, "Redis away").
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from spacetable.server.http.guards import CreationLimit, is_local

log = logging.getLogger(__name__)

#: The prefix of the per-client keys.
KEY_PREFIX = "spacetable:limit:rooms:"

# KEYS[1]: the client's key. ARGV: the interval between rooms (ms), the burst (rooms at
# once), the test clock's shift (ms). Returns the wait in ms ("0": take one), as text.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 + tonumber(ARGV[3])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local full_at = tonumber(redis.call('GET', KEYS[1])) or now
if full_at < now then full_at = now end
local after = full_at + interval
local allowed_at = after - burst * interval
if now < allowed_at then
  return string.format('%.3f', allowed_at - now)
end
redis.call('SET', KEYS[1], string.format('%.3f', after), 'PX', math.ceil(after - now) + 1)
return '0'
"""


class SharedCreationLimit:
    """At most ``per_minute`` rooms a minute from one client across every process that
    shares ``redis`` (this machine's own clients not limited; 0: no limit). ``shift``
    gives the seconds the server's test clock was moved (0 without one)."""

    def __init__(
        self,
        redis: aioredis.Redis,
        per_minute: float,
        shift: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.per_minute = per_minute
        self._redis = redis
        self._script = redis.register_script(_TAKE)
        self._shift = shift
        #: This process's own count, for while Redis does not answer.
        self.fallback = CreationLimit(per_minute)
        self._reachable = True

    async def take(self, client: str, now: float) -> float:
        """Take one room for ``client``: 0 if it may create it, else the seconds until it
        may (``now``, the server's clock, is read only by the fallback)."""
        if self.per_minute <= 0 or is_local(client):
            return 0.0
        interval_ms = 60_000.0 / self.per_minute
        args = [repr(interval_ms), repr(float(self.per_minute)), repr(self._shift() * 1000)]
        try:
            waited = await self._script(keys=[KEY_PREFIX + client], args=args)
        except (RedisError, OSError) as exc:
            if self._reachable:
                log.warning("Redis away (%s): rooms per client counted by this process", exc)
            self._reachable = False
            return self.fallback.wait(client, now)
        if not self._reachable:
            log.warning("Redis answers again: rooms per client counted for the cluster")
        self._reachable = True
        return float(waited) / 1000.0
