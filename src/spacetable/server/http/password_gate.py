"""What every password check and every sign-up goes through on its way to argon2 (issue 67
items 2, 3, 5 and 6; docs/accounts.md): the failed-login counts (``login_limits.py``, or
``shared_login_limits.py`` in a cluster), the sign-ups per address, and the password
threads (``password_work.py``). ``http/accounts.py`` keeps the routes; this module says
when a check may run, runs it, and answers 429 or 503 when it may not.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from fastapi import Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.guards import TrustedProxies, client_address
from spacetable.server.http.login_limits import (
    DEVICE_COOKIE,
    KNOWN_S,
    Attempt,
    LocalLoginLimits,
    Login,
    LoginLimits,
    SignUpLimit,
    SignUps,
    new_device_id,
)
from spacetable.server.http.password_work import PasswordsBusy, PasswordWork

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from spacetable.server.rooms.clock import MovableClock

_T = TypeVar("_T")


def too_many_failures(wait: float) -> JSONResponse:
    """The refusal while a login waits ``wait`` seconds after failed ones (told in
    minutes: up to 15)."""
    said = refusal("Too many failed logins: try again in {m} min.", m=max(1, math.ceil(wait / 60)))
    return refused(said, 429, {"Retry-After": str(max(1, math.ceil(wait)))})


def too_many_sign_ups(wait: float) -> JSONResponse:
    """The refusal while an address waits ``wait`` seconds to make another account."""
    minutes = max(1, math.ceil(wait / 60))
    said = refusal(
        "Too many accounts were made from your address: try again in {m} min.", m=minutes
    )
    return refused(said, 429, {"Retry-After": str(max(1, math.ceil(wait)))})


def passwords_busy(busy: PasswordsBusy) -> JSONResponse:
    """The refusal while the password threads are full."""
    said = refusal(
        "The server is busy checking other passwords: try again in {s} s.", s=busy.retry_after
    )
    return refused(said, 503, {"Retry-After": str(busy.retry_after)})


@dataclass(slots=True)
class PasswordGate:
    """The limits and threads of the password checks of one server: ``limits`` (failed
    logins), ``sign_ups`` (accounts per address), ``work`` (the password threads),
    ``now`` (the server's clock, the test clock's when there is one) and ``proxies``
    (whose ``X-Forwarded-For`` names the client)."""

    limits: LoginLimits
    sign_ups: SignUps
    work: PasswordWork
    now: Callable[[], float]
    proxies: TrustedProxies

    def address(self, request: Request) -> str:
        """The address the request came from (``guards.client_address``)."""
        peer = request.client.host if request.client else None
        return client_address(peer, request.headers.getlist("x-forwarded-for"), self.proxies)

    def login(self, request: Request, key: str) -> Login:
        """Who checks the password of the name whose key is ``key``: the request's address
        and its browser's device cookie."""
        device = request.cookies.get(DEVICE_COOKIE)
        if device is not None and not 16 <= len(device) <= 64:
            device = None  # not one of ours
        return Login(key[:64], self.address(request), device)

    async def check(
        self, login: Login, run: Callable[[], _T], right: Callable[[_T], bool]
    ) -> _T | JSONResponse:
        """``run()`` (a password check) on the password threads, counted as a failure
        before it runs (forgotten if ``right`` says its answer is a right password, or if
        it could not run); the refusal instead if the login must wait, or if the threads
        are full. A request that goes away mid-check leaves it counted."""
        begun = await self.limits.begin(login, self.now())
        if not isinstance(begun, Attempt):
            return too_many_failures(begun)
        try:
            answer = await self.work.run(run)
        except PasswordsBusy as busy:
            await self.limits.release(begun)
            return passwords_busy(busy)
        except Exception:
            await self.limits.release(begun)  # (the database away: no password was tried)
            raise
        if right(answer):
            await self.limits.succeeded(begun, self.now())
        return answer

    async def sign_up(self, request: Request, make: Callable[[], _T]) -> _T | JSONResponse:
        """``make()`` (an account's hashing and storing) on the password threads, if the
        request's address may make another account; the refusal instead. An account not
        made (``make`` raised) is not counted."""
        address = self.address(request)
        wait = await self.sign_ups.take(address, self.now())
        if wait > 0:
            return too_many_sign_ups(wait)
        try:
            return await self.work.run(make)
        except PasswordsBusy as busy:
            await self.sign_ups.give_back(address, self.now())
            return passwords_busy(busy)
        except Exception:
            await self.sign_ups.give_back(address, self.now())
            raise

    async def logged_in(self, login: Login, response: Response, secure: bool) -> None:
        """``login`` proved its password (a log-in, a sign-up): its address and browser
        are known to the name from now on, the browser by a device cookie set on
        ``response`` if it had none."""
        if login.device is None:
            login = Login(login.name, login.address, new_device_id())
        await self.limits.succeeded(Attempt(login), self.now())
        response.set_cookie(
            DEVICE_COOKIE,
            login.device or "",
            max_age=int(KNOWN_S),
            path="/api",
            httponly=True,
            samesite="lax",
            secure=secure,
        )

    def close(self) -> None:
        """The server stops: the checks still waiting for a thread are cancelled."""
        self.work.close()


def password_gate(
    clock: MovableClock | None, proxies: TrustedProxies, redis: aioredis.Redis | None = None
) -> PasswordGate:
    """The password gate of a server whose test clock is ``clock`` (None: none): its
    limits counted in this process, or in ``redis`` for every process of a cluster (the
    test clock's moves shift Redis's clock alike)."""

    def now() -> float:
        return clock.now() if clock is not None else asyncio.get_running_loop().time()

    if redis is None:
        return PasswordGate(LocalLoginLimits(), SignUpLimit(), PasswordWork(), now, proxies)
    # Redis's parts load only for a cluster (a server alone starts sooner).
    from spacetable.server.http.shared_login_limits import SharedLoginLimits, SharedSignUpLimit

    def shift() -> float:
        return 0.0 if clock is None else clock.shift

    limits, sign_ups = SharedLoginLimits(redis, shift), SharedSignUpLimit(redis, shift=shift)
    return PasswordGate(limits, sign_ups, PasswordWork(), now, proxies)
