"""Accounts over HTTP (issue 37 item 1; docs/accounts.md, docs/protocol.md):

* ``POST /api/accounts`` ``{"name", "password"}``: 201 ``{"name"}`` and a session cookie;
  409 for a name taken (compared after NFKC and case folding), 422 naming what is wrong.
* ``POST /api/session`` ``{"name", "password"}``: 200 ``{"name"}`` and a session cookie;
  401 for a wrong name or password (the same answer, about the same time); 429 with
  ``Retry-After`` after :data:`FAILURES` failures for one name or one address within
  :data:`FAILURE_WINDOW_S`.
* ``GET /api/session``: ``{"name"}`` or 401. ``DELETE /api/session``: the session is
  revoked on the server and the cookie cleared.
* ``DELETE /api/accounts/me`` ``{"password"}``: the account is deleted (204).

The cookie is ``HttpOnly``, ``SameSite=Lax``, and ``Secure`` when the request came over
HTTPS (directly, or through a trusted proxy's ``X-Forwarded-Proto``). A request that
changes something and comes from a page of another site (its ``Origin``) is refused
(403), as the room sockets are; its body must be JSON (``bodies.py``), which a form of
another site cannot send. The failed logins are counted on the server's clock (the test
clock when there is one: ``POST /api/test/clock`` moves it).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from spacetable._userinput import parse_json
from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.guards import Guards, client_address
from spacetable.server.http.leaving import RoomsElsewhere
from spacetable.server.http.ws_protocol import same_origin
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.store.accounts import (
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    AccountRefused,
    AccountStore,
    NameTaken,
    name_key,
)

#: Failed logins allowed for one name, or from one address, within the window.
FAILURES = 10
#: The window the failures are counted in, in seconds (15 minutes).
FAILURE_WINDOW_S = 15 * 60.0
#: Largest body of an account request, in bytes.
ACCOUNT_BODY_LIMIT = 2048


@dataclass(slots=True)
class FailedLogins:
    """Failed logins per name and per address, each forgotten after the window."""

    failures: int = FAILURES
    window: float = FAILURE_WINDOW_S
    _seen: dict[str, deque[float]] = field(default_factory=dict)

    #: Names and addresses tracked at most (the oldest are forgotten first).
    MAX_KEYS = 100_000

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._seen.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._seen[key]
        return times

    def wait(self, keys: Iterable[str], now: float) -> float:
        """0 if a login for these keys may be tried now, else the seconds until one may."""
        waits = [
            times[-self.failures] + self.window - now
            for times in (self._recent(key, now) for key in keys)
            if len(times) >= self.failures
        ]
        return max(waits, default=0.0)

    def failed(self, keys: Iterable[str], now: float) -> None:
        """Count one failure for each key."""
        for key in keys:
            if key not in self._seen and len(self._seen) >= self.MAX_KEYS:
                del self._seen[next(iter(self._seen))]
            self._seen.setdefault(key, deque()).append(now)

    def forget(self, key: str) -> None:
        """A login succeeded: the name's failures are forgotten."""
        self._seen.pop(key, None)


def _https(request: Request, guards: Guards) -> bool:
    """Whether the browser reached us over HTTPS: directly, or through a trusted proxy
    that says so."""
    if request.url.scheme == "https":
        return True
    peer = request.client.host if request.client else None
    if not guards.proxies.trusts(peer):
        return False
    forwarded = request.headers.get("x-forwarded-proto", "")
    return forwarded.split(",")[-1].strip().lower() == "https"


def session_id_of(request: Request) -> str | None:
    """The session id the request's cookie carries, if any."""
    return request.cookies.get(SESSION_COOKIE)


def add_account_routes(
    app: FastAPI,
    accounts: AccountStore,
    guards: Guards,
    clock: MovableClock | None,
    allowed_origins: Iterable[str] = (),
    leave: Callable[[str], Awaitable[int]] | None = None,
) -> None:
    """The account and session routes; ``clock`` (the test clock, if any) times the failed
    logins; ``allowed_origins``: pages of other origins that may use them; ``leave``: ends
    a deleted account's unfinished matches and frees its seats first (``http/leaving.py``)."""
    origins = frozenset(allowed_origins)
    failures = FailedLogins()

    def now() -> float:
        return clock.now() if clock is not None else asyncio.get_running_loop().time()

    def foreign(request: Request) -> JSONResponse | None:
        page = request.headers.get("origin")
        if page is not None and not same_origin(page, request.headers.get("host"), origins):
            return refused(refusal("requests from another site's page are not allowed"), 403)
        return None

    async def body_of(request: Request, *, checked: bool = False) -> dict[str, Any] | JSONResponse:
        """The request's JSON object, or the refusal to answer (``checked``: the request
        is known to come from an allowed page, else that is checked first)."""
        if not checked and (refusal_ := foreign(request)) is not None:
            return refusal_
        try:
            body = parse_json(await json_body(request, ACCOUNT_BODY_LIMIT))
        except BodyRefused as exc:
            return exc.response("detail")
        except ValueError as exc:
            return refused(exc.args[0] if exc.args else str(exc), 422)
        if not isinstance(body, dict):
            return refused(refusal("the body must be a JSON object"), 422)
        return body

    def signed_in(request: Request, account: Account, session_id: str, status: int) -> Response:
        response = JSONResponse({"name": account.name}, status_code=status)
        response.set_cookie(
            SESSION_COOKIE,
            session_id,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=_https(request, guards),
        )
        return response

    async def current(request: Request) -> Account | None:
        session_id = session_id_of(request)
        if session_id is None:
            return None
        return await asyncio.to_thread(accounts.session_account, session_id)

    def not_signed_in() -> JSONResponse:
        return refused(refusal("You are not logged in."), 401)

    def signed_out() -> Response:
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    def too_many_failures(keys: list[str]) -> JSONResponse | None:
        """The refusal while ``keys`` (an address, a name) wait after failed logins."""
        wait = failures.wait(keys, now())
        if wait <= 0:
            return None
        said = refusal("Too many failed logins: try again in {s} s.", s=round(wait))
        return refused(said, 429, {"Retry-After": str(max(1, round(wait)))})

    @app.post("/api/accounts", response_model=None)
    async def create_account(request: Request) -> Response:
        body = await body_of(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            account = await asyncio.to_thread(
                accounts.create, body.get("name"), body.get("password")
            )
        except AccountRefused as exc:
            return refused(exc.args[0], 422)
        except NameTaken as exc:  # (its sentence says whether taken, or too like another)
            return refused(exc.args[0], 409)
        session_id = await asyncio.to_thread(accounts.open_session, account)
        return signed_in(request, account, session_id, 201)

    @app.post("/api/session", response_model=None)
    async def log_in(request: Request) -> Response:
        body = await body_of(request)
        if isinstance(body, JSONResponse):
            return body
        name, password = body.get("name"), body.get("password")
        peer = request.client.host if request.client else None
        address = client_address(peer, request.headers.getlist("x-forwarded-for"), guards.proxies)
        keys = [f"address:{address}"]
        if isinstance(name, str):
            keys.append(f"name:{name_key(name)[:64]}")
        if (waiting := too_many_failures(keys)) is not None:
            return waiting
        account = await asyncio.to_thread(accounts.verify, name, password)
        if account is None:
            failures.failed(keys, now())
            return refused(refusal("Wrong name or password."), 401)
        failures.forget(f"name:{account.key}")
        session_id = await asyncio.to_thread(accounts.open_session, account)
        return signed_in(request, account, session_id, 200)

    @app.get("/api/session", response_model=None)
    async def who(request: Request) -> Response:
        account = await current(request)
        if account is None:
            return not_signed_in()
        return JSONResponse({"name": account.name})

    @app.delete("/api/session", response_model=None)
    async def log_out(request: Request) -> Response:
        if (refusal_ := foreign(request)) is not None:
            return refusal_
        session_id = session_id_of(request)
        if session_id is not None:
            await asyncio.to_thread(accounts.revoke, session_id)
        return signed_out()

    @app.delete("/api/accounts/me", response_model=None)
    async def delete_account(request: Request) -> Response:
        if (refusal_ := foreign(request)) is not None:
            return refusal_
        account = await current(request)
        if account is None:
            return not_signed_in()
        body = await body_of(request, checked=True)
        if isinstance(body, JSONResponse):
            return body
        keys = [f"name:{account.key}"]  # a stolen session may not guess the password either
        if (waiting := too_many_failures(keys)) is not None:
            return waiting
        password = body.get("password")
        if await asyncio.to_thread(accounts.verify, account.name, password) is None:
            failures.failed(keys, now())
            return refused(refusal("Wrong password: your account is not deleted."), 401)
        if leave is not None:  # its unfinished matches end, resigned; its seats free
            try:
                await leave(account.key)
            except RoomsElsewhere:
                said = refusal("One of your matches could not be ended just now: your account "
                               "is not deleted. Try again in a minute.")  # fmt: skip
                return refused(said, 503, {"Retry-After": "60"})
        await asyncio.to_thread(accounts.erase, account)
        return signed_out()
