"""The failed-login counts and the sign-ups per address of ``http/login_limits.py``, kept in
Redis for every process of a cluster (issue 67 item 5): two processes on one database
counted alone let a name be guessed ten times *per process*.

Each count is a sorted set, ``spacetable:login:<key>``, of its attempts (their ids, scored
by their times, ms): one Lua script drops the attempts older than the window, checks the
limits and adds the new attempt to every count, atomically whichever process asks, so
that concurrent guesses sent to several processes are counted as one stream. A name,
browser or address known to a name is a key that lapses after
:data:`~spacetable.server.http.login_limits.KNOWN_S`. The sign-ups are the token bucket of
``shared_limit.py`` (the time an address's allowance is full again, one key an address).
Every key lapses when it no longer counts, so Redis keeps only recent attempts.

Time: Redis's own clock (``TIME``), plus the server's test clock's moves (its ``shift``),
as ``shared_limit.py`` does. Redis away: each process falls back to its own count (the
classes of ``login_limits.py``), open but not unlimited, and says so in its log.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from spacetable.server.http.guards import is_local
from spacetable.server.http.login_limits import (
    FAILURE_WINDOW_S,
    FAILURES,
    KNOWN_S,
    NAME_FAILURES,
    SIGN_UPS_PER_HOUR,
    Attempt,
    LocalLoginLimits,
    Login,
    SignUpLimit,
)
from spacetable.server.http.shared_limit import _TAKE

log = logging.getLogger(__name__)

#: The prefix of every key here.
KEY_PREFIX = "spacetable:login:"

_T = TypeVar("_T")

# The time, on Redis's clock plus the test clock's shift (ARGV[1], ms).
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 + tonumber(ARGV[1])
"""

# KEYS: the pair, the address, the name, the address known to the name, then (with a
# browser) the browser's pair and the browser known to the name. ARGV: the shift (ms), the
# window (ms), FAILURES, NAME_FAILURES, the attempt's id. Returns the wait in ms ("0":
# counted), as text.
_BEGIN = (
    _NOW
    + """
local window = tonumber(ARGV[2])
local few = tonumber(ARGV[3])
local counts = {KEYS[1], KEYS[2], KEYS[3]}
local limits = {few, few, tonumber(ARGV[4])}
local checked = {1, 2, 3}
if #KEYS > 4 then
  counts[4] = KEYS[5]
  limits[4] = few
end
if #KEYS > 4 and redis.call('EXISTS', KEYS[6]) == 1 then
  checked = {4}
elseif redis.call('EXISTS', KEYS[4]) == 1 then
  checked = {1}
end
for _, key in ipairs(counts) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
end
local wait = 0
for _, i in ipairs(checked) do
  local n = redis.call('ZCARD', counts[i])
  if n >= limits[i] then
    local oldest = redis.call('ZRANGE', counts[i], n - limits[i], n - limits[i], 'WITHSCORES')
    local left = tonumber(oldest[2]) + window - now
    if left > wait then wait = left end
  end
end
if wait > 0 then
  return string.format('%.3f', wait)
end
for _, key in ipairs(counts) do
  redis.call('ZADD', key, now, ARGV[5])
  redis.call('PEXPIRE', key, math.ceil(window) + 1)
end
return '0'
"""
)

# KEYS: every count of the attempt. ARGV: the shift (unused), the attempt's id.
_RELEASE = """
for _, key in ipairs(KEYS) do
  redis.call('ZREM', key, ARGV[2])
end
return 0
"""

# KEYS: every count of the attempt, then the counts to forget (the pairs), then the
# "known" keys; ARGV: the shift (unused), the attempt's id, how many counts, how many to
# forget, how long the known keys last (ms).
_SUCCEEDED = """
local counts = tonumber(ARGV[3])
local forgotten = tonumber(ARGV[4])
for i = 1, counts do
  redis.call('ZREM', KEYS[i], ARGV[2])
end
for i = counts + 1, counts + forgotten do
  redis.call('DEL', KEYS[i])
end
for i = counts + forgotten + 1, #KEYS do
  redis.call('SET', KEYS[i], '1', 'PX', ARGV[5])
end
return 0
"""

# KEYS[1]: the address's key. ARGV: the shift (ms), the interval (ms). Gives one sign-up
# back to the bucket of shared_limit.py's _TAKE.
_GIVE_BACK = (
    _NOW
    + """
local full_at = tonumber(redis.call('GET', KEYS[1]))
if full_at == nil then return 0 end
local back = full_at - tonumber(ARGV[2])
if back <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%.3f', back), 'PX', math.ceil(back - now) + 1)
end
return 0
"""
)


class _Shared:
    """A Redis script runner that falls back to this process's count while Redis is away."""

    def __init__(self, redis: aioredis.Redis, shift: Callable[[], float], what: str) -> None:
        self._redis = redis
        self._shift = shift
        self._what = what
        self._reachable = True

    def shift_ms(self) -> str:
        return repr(self._shift() * 1000)

    async def _run(self, call: Awaitable[_T]) -> _T | None:
        """The script's answer, or None with Redis away (said once in the log)."""
        try:
            answer = await call
        except (RedisError, OSError) as exc:
            if self._reachable:
                log.warning("Redis away (%s): %s counted by this process", exc, self._what)
            self._reachable = False
            return None
        if not self._reachable:
            log.warning("Redis answers again: %s counted for the cluster", self._what)
        self._reachable = True
        return answer


class SharedLoginLimits(_Shared):
    """The failed-login counts of :class:`LocalLoginLimits`, in ``redis`` for every
    process that shares it; ``shift`` gives the seconds the server's test clock was moved."""

    def __init__(self, redis: aioredis.Redis, shift: Callable[[], float] = lambda: 0.0) -> None:
        super().__init__(redis, shift, "failed logins")
        self._begin = redis.register_script(_BEGIN)
        self._release = redis.register_script(_RELEASE)
        self._succeeded = redis.register_script(_SUCCEEDED)
        #: This process's own count, for while Redis does not answer.
        self.fallback = LocalLoginLimits()

    @staticmethod
    def _counts(login: Login) -> list[str]:
        return [KEY_PREFIX + key for key, _ in login.counters()]

    async def begin(self, login: Login, now: float) -> Attempt | float:
        """See :class:`~spacetable.server.http.login_limits.LoginLimits`."""
        keys = [login.pair, login.by_address, login.by_name, login.known_address]
        if login.by_device is not None and login.known_device is not None:
            keys += [login.by_device, login.known_device]
        attempt = Attempt(login)
        args: list[str | int] = [
            *(self.shift_ms(), repr(FAILURE_WINDOW_S * 1000), FAILURES, NAME_FAILURES)
        ]
        waited = await self._run(
            self._begin(keys=[KEY_PREFIX + key for key in keys], args=[*args, attempt.id])
        )
        if waited is None:
            return self.fallback.begin_now(login, now)
        wait = float(waited) / 1000.0
        return attempt if wait <= 0 else wait

    async def release(self, attempt: Attempt) -> None:
        """See :class:`~spacetable.server.http.login_limits.LoginLimits`."""
        self.fallback.release_now(attempt)
        keys = self._counts(attempt.login)
        await self._run(self._release(keys=keys, args=[self.shift_ms(), attempt.id]))

    async def succeeded(self, attempt: Attempt, now: float) -> None:
        """See :class:`~spacetable.server.http.login_limits.LoginLimits`."""
        self.fallback.succeeded_now(attempt, now)
        login = attempt.login
        counts = self._counts(login)
        forgotten = [key for key in (login.pair, login.by_device) if key is not None]
        known = [key for key in (login.known_address, login.known_device) if key is not None]
        keys = [*counts, *(KEY_PREFIX + key for key in (*forgotten, *known))]
        args: list[str | int] = [self.shift_ms(), attempt.id, len(counts), len(forgotten)]
        args.append(int(KNOWN_S * 1000))
        await self._run(self._succeeded(keys=keys, args=args))


class SharedSignUpLimit(_Shared):
    """At most ``per_hour`` accounts an hour from one address (as many at once), counted
    in ``redis`` for every process that shares it (this machine's own not limited)."""

    def __init__(
        self,
        redis: aioredis.Redis,
        per_hour: float = SIGN_UPS_PER_HOUR,
        shift: Callable[[], float] = lambda: 0.0,
    ) -> None:
        super().__init__(redis, shift, "sign-ups per address")
        self.per_hour = per_hour
        self._take = redis.register_script(_TAKE)
        self._give_back = redis.register_script(_GIVE_BACK)
        #: This process's own count, for while Redis does not answer.
        self.fallback = SignUpLimit(per_hour)

    def _key(self, address: str) -> str:
        return KEY_PREFIX + "sign-ups:" + address[:64]

    def _interval_ms(self) -> float:
        return 3_600_000.0 / self.per_hour

    async def take(self, address: str, now: float) -> float:
        """See :class:`~spacetable.server.http.login_limits.SignUps`."""
        if self.per_hour <= 0 or is_local(address):
            return 0.0
        # _TAKE's arguments: the interval, the burst, the shift.
        args = [repr(self._interval_ms()), repr(float(self.per_hour)), self.shift_ms()]
        waited = await self._run(self._take(keys=[self._key(address)], args=args))
        if waited is None:
            return self.fallback.take_now(address, now)
        return float(waited) / 1000.0

    async def give_back(self, address: str, now: float) -> None:
        """See :class:`~spacetable.server.http.login_limits.SignUps`."""
        if self.per_hour <= 0 or is_local(address):
            return
        self.fallback.give_back_now(address, now)
        args = [self.shift_ms(), repr(self._interval_ms())]
        await self._run(self._give_back(keys=[self._key(address)], args=args))
