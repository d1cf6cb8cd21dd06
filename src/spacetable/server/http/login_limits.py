"""How many password guesses a name, an address and a browser get (issue 67 items 2, 3, 5
and 6; docs/accounts.md, "Failed logins"), and how many accounts one address may make.

A password check (a log-in, or the password a deletion asks for) is **counted before it
runs**: :meth:`LoginLimits.begin` checks the limits and counts the attempt as a failure in
one step (atomic: the event loop's one thread here, one Lua script in Redis), so that 30
guesses sent at once cannot all pass a check made before any of them failed. The attempt
is given back if it did not run (:meth:`LoginLimits.release`: the password workers were
full) and, when the password was right, forgotten with the owner's earlier typos from the
same place (:meth:`LoginLimits.succeeded`).

The failures are counted under three keys, each over a sliding window of
:data:`FAILURE_WINDOW_S`:

* the (name, address) pair, :data:`FAILURES` at most;
* the address, :data:`FAILURES` at most, whatever the names (one address trying names);
* the name, :data:`NAME_FAILURES` at most, whatever the addresses (a name guessed from
  many addresses);

and, for a browser that carries a device cookie (:data:`DEVICE_COOKIE`), the (name,
browser) pair, :data:`FAILURES` at most.

Which of them refuse depends on whether the guesser is **known** to the name: a browser
that logged in to that name before (its device cookie, remembered as a digest of the name
and the cookie, :data:`KNOWN_S`), or else an address that did. A known browser is refused
only by its own (name, browser) count, a known address only by its (name, address) count:
an attacker cannot lock the owner out from elsewhere, whatever the number of addresses he
rotates through. Anyone else is refused by all three counts.

This module counts in the process's memory (:class:`LocalLoginLimits`, :class:`SignUpLimit`);
``http/shared_login_limits.py`` counts the same in Redis for every process of a cluster.
Pure: the clocks are given.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Protocol

from spacetable.server.http.guards import is_local

#: Failed password checks allowed for one (name, address) pair, one (name, browser) pair,
#: and one address, within the window.
FAILURES = 10
#: Failed password checks allowed for one name from every address and browser not known
#: to it, within the window.
NAME_FAILURES = 30
#: The window the failures are counted in, in seconds (15 minutes).
FAILURE_WINDOW_S = 15 * 60.0
#: How long an address or a browser that logged in to a name stays known to it (90 days).
KNOWN_S = 90 * 24 * 3600.0
#: The cookie that tells a browser apart (a random id; the server keeps only digests of
#: it with the names it logged in to).
DEVICE_COOKIE = "spacetable_device"
#: Accounts one address may make an hour (as many at once, then one every 12 minutes);
#: this machine's own addresses are not limited, as for the rooms (``guards.py``).
SIGN_UPS_PER_HOUR = 5.0


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def new_device_id() -> str:
    """A new random id for a browser's device cookie."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class Login:
    """Who checks a password: the name's key (``name_key``), the address the request came
    from, and the browser's device id (its cookie), if it has one."""

    name: str
    address: str
    device: str | None = None

    @property
    def pair(self) -> str:
        """The key counting this name's failures from this address."""
        return "pair:" + _digest(self.name, self.address)

    @property
    def by_address(self) -> str:
        """The key counting this address's failures."""
        return "address:" + self.address[:64]

    @property
    def by_name(self) -> str:
        """The key counting this name's failures."""
        return "name:" + _digest(self.name)

    @property
    def by_device(self) -> str | None:
        """The key counting this name's failures from this browser."""
        return None if self.device is None else "device:" + _digest(self.name, self.device)

    @property
    def known_address(self) -> str:
        """The key remembering that this address logged in to this name."""
        return "known:" + _digest(self.name, "address", self.address)

    @property
    def known_device(self) -> str | None:
        """The key remembering that this browser logged in to this name."""
        return None if self.device is None else "known:" + _digest(self.name, self.device)

    def counters(self) -> list[tuple[str, int]]:
        """Every key an attempt is counted under, with its limit."""
        counted = [(self.pair, FAILURES), (self.by_address, FAILURES)]
        counted.append((self.by_name, NAME_FAILURES))
        if self.by_device is not None:
            counted.append((self.by_device, FAILURES))
        return counted


@dataclass(frozen=True, slots=True)
class Attempt:
    """A password check counted before it runs (``id`` tells it apart from the others)."""

    login: Login
    id: str = field(default_factory=lambda: secrets.token_hex(8))


class LoginLimits(Protocol):
    """The failed-login counts: :class:`LocalLoginLimits`, this process's, or
    ``shared_login_limits.SharedLoginLimits``, a cluster's in Redis."""

    async def begin(self, login: Login, now: float) -> Attempt | float:
        """Count a password check of ``login`` at ``now`` (seconds, the server's clock)
        as failed before it runs: the attempt, or the seconds to wait if it may not run."""

    async def release(self, attempt: Attempt) -> None:
        """The check did not run: it is not counted."""

    async def succeeded(self, attempt: Attempt, now: float) -> None:
        """The password was right: the attempt and the pair's earlier failures are
        forgotten, and the address and browser are known to the name from now on."""


@dataclass(slots=True)
class LocalLoginLimits:
    """The failed-login counts in this process's memory (each forgotten after the window)."""

    window: float = FAILURE_WINDOW_S
    known_for: float = KNOWN_S
    #: Per key, its attempts' times by id (oldest first).
    _seen: dict[str, dict[str, float]] = field(default_factory=dict)
    #: Per "known" key, when it lapses.
    _known: dict[str, float] = field(default_factory=dict)

    #: Keys tracked at most (the oldest are forgotten first).
    MAX_KEYS = 100_000

    def _recent(self, key: str, now: float) -> dict[str, float]:
        times = self._seen.get(key)
        if times is None:
            return {}
        while times and next(iter(times.values())) <= now - self.window:
            del times[next(iter(times))]
        if not times:
            del self._seen[key]
        return times

    def _is_known(self, key: str | None, now: float) -> bool:
        if key is None:
            return False
        lapses = self._known.get(key)
        if lapses is not None and lapses <= now:
            del self._known[key]
            return False
        return lapses is not None

    def checked(self, login: Login, now: float) -> list[tuple[str, int]]:
        """The counts that may refuse ``login`` (see the module's docstring)."""
        if login.by_device is not None and self._is_known(login.known_device, now):
            return [(login.by_device, FAILURES)]
        if self._is_known(login.known_address, now):
            return [(login.pair, FAILURES)]
        return [
            (login.pair, FAILURES),
            (login.by_address, FAILURES),
            (login.by_name, NAME_FAILURES),
        ]

    def wait(self, login: Login, now: float) -> float:
        """0 if ``login`` may check a password now, else the seconds until it may."""
        waits = [0.0]
        for key, limit in self.checked(login, now):
            times = list(self._recent(key, now).values())
            if len(times) >= limit:
                waits.append(times[len(times) - limit] + self.window - now)
        return max(waits)

    def begin_now(self, login: Login, now: float) -> Attempt | float:
        """:meth:`begin`, at once."""
        wait = self.wait(login, now)
        if wait > 0:
            return wait
        attempt = Attempt(login)
        for key, _ in login.counters():
            if key not in self._seen and len(self._seen) >= self.MAX_KEYS:
                del self._seen[next(iter(self._seen))]
            self._seen.setdefault(key, {})[attempt.id] = now
        return attempt

    def release_now(self, attempt: Attempt) -> None:
        """:meth:`release`, at once."""
        for key, _ in attempt.login.counters():
            times = self._seen.get(key)
            if times is not None:
                times.pop(attempt.id, None)
                if not times:
                    del self._seen[key]

    def succeeded_now(self, attempt: Attempt, now: float) -> None:
        """:meth:`succeeded`, at once."""
        self.release_now(attempt)
        login = attempt.login
        for key in (login.pair, login.by_device):
            if key is not None:
                self._seen.pop(key, None)
        for key in (login.known_address, login.known_device):
            if key is not None:
                self._known.pop(key, None)  # (re-inserted last: the newest)
                if len(self._known) >= self.MAX_KEYS:
                    del self._known[next(iter(self._known))]
                self._known[key] = now + self.known_for

    async def begin(self, login: Login, now: float) -> Attempt | float:
        """See :class:`LoginLimits`."""
        return self.begin_now(login, now)

    async def release(self, attempt: Attempt) -> None:
        """See :class:`LoginLimits`."""
        self.release_now(attempt)

    async def succeeded(self, attempt: Attempt, now: float) -> None:
        """See :class:`LoginLimits`."""
        self.succeeded_now(attempt, now)


class SignUps(Protocol):
    """How many accounts one address may make: :class:`SignUpLimit`, or
    ``shared_login_limits.SharedSignUpLimit`` for a cluster."""

    per_hour: float

    async def take(self, address: str, now: float) -> float:
        """Take one sign-up for ``address``: 0 if it may, else the seconds until it may."""

    async def give_back(self, address: str, now: float) -> None:
        """A sign-up taken made no account (refused, or not tried): it is not counted."""


@dataclass(slots=True)
class SignUpLimit:
    """At most ``per_hour`` accounts an hour from one address, as many at once (the time
    each address's allowance is full again, the cell-rate form of a token bucket); this
    machine's own addresses are not limited; 0: no limit."""

    per_hour: float = SIGN_UPS_PER_HOUR
    _full_at: dict[str, float] = field(default_factory=dict)

    #: Addresses kept at most (the oldest are forgotten first).
    MAX_ADDRESSES = 10_000

    def take_now(self, address: str, now: float) -> float:
        """:meth:`take`, at once."""
        if self.per_hour <= 0 or is_local(address):
            return 0.0
        interval = 3600.0 / self.per_hour
        after = max(self._full_at.get(address, now), now) + interval
        allowed_at = after - self.per_hour * interval
        if now < allowed_at:
            return allowed_at - now
        if address not in self._full_at and len(self._full_at) >= self.MAX_ADDRESSES:
            del self._full_at[next(iter(self._full_at))]
        self._full_at[address] = after
        return 0.0

    def give_back_now(self, address: str, now: float) -> None:
        """:meth:`give_back`, at once."""
        if self.per_hour <= 0 or address not in self._full_at:
            return
        back = self._full_at[address] - 3600.0 / self.per_hour
        if back <= now:
            del self._full_at[address]
        else:
            self._full_at[address] = back

    async def take(self, address: str, now: float) -> float:
        """See :class:`SignUps`."""
        return self.take_now(address, now)

    async def give_back(self, address: str, now: float) -> None:
        """See :class:`SignUps`."""
        self.give_back_now(address, now)
