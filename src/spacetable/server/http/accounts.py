"""Accounts over HTTP (issue 37 item 1; docs/accounts.md, docs/protocol.md):

* ``POST /api/accounts`` ``{"name", "password"}``: 201 ``{"name"}`` and a session cookie;
  409 for a name taken (compared after NFKC and case folding), 422 naming what is wrong.
* ``POST /api/session`` ``{"name", "password"}``: 200 ``{"name"}`` and a session cookie;
  401 for a wrong name or password (the same answer, about the same time); 429 with
  ``Retry-After`` after too many failures (``login_limits.py``: per name and address,
  per address, per name from addresses and browsers not known to it); 503 with
  ``Retry-After`` when the password threads are full (``password_work.py``); 403 for an
  account a moderator banned (docs/moderation.md).
* ``GET /api/session``: ``{"name"}`` or 401. ``DELETE /api/session``: the session is
  revoked on the server and the cookie cleared.
* ``DELETE /api/accounts/me`` ``{"password"}``: the account is deleted (204).

Sign-ups are limited per address (429), and every password is hashed and checked on the
password threads, never on the rooms' (``password_gate.py`` says when one may run).

The cookie is ``HttpOnly``, ``SameSite=Lax``, and ``Secure`` when the request came over
HTTPS (directly, or through a trusted proxy's ``X-Forwarded-Proto``). A request that
changes something and comes from a page of another site (its ``Origin``) is refused
(403), as the room sockets are; its body must be JSON (``bodies.py``), which a form of
another site cannot send. The failed logins and sign-ups are counted on the server's clock
(the test clock when there is one: ``POST /api/test/clock`` moves it).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable._userinput import parse_json
from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import Accounts, App, Gate, Hub, Leaving, Limits, Origins
from spacetable.server.http.guards import Guards, forwarded_https
from spacetable.server.http.leaving import RoomsElsewhere
from spacetable.server.http.ws_protocol import same_origin
from spacetable.server.meet.challenges import drop_account
from spacetable.server.meet.lobby_sockets import LobbyHub
from spacetable.server.store.accounts import (
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    AccountBanned,
    AccountRefused,
    AccountStore,
    NameTaken,
    name_key,
)
from spacetable.server.store.storage import secret_digest

#: Largest body of an account request, in bytes.
ACCOUNT_BODY_LIMIT = 2048

#: The account and session routes; the failed logins and sign-ups are timed by the test
#: clock when the server has one (the password gate's: ``password_gate.py``).
router = APIRouter()


def _https(request: Request, guards: Guards) -> bool:
    """Whether the browser reached us over HTTPS: directly, or through a trusted proxy
    that says so."""
    if request.url.scheme == "https":
        return True
    peer = request.client.host if request.client else None
    return forwarded_https(peer, request.headers.get("x-forwarded-proto", ""), guards.proxies)


def session_id_of(request: Request) -> str | None:
    """The session id the request's cookie carries, if any."""
    return request.cookies.get(SESSION_COOKIE)


def _foreign(request: Request, origins: frozenset[str]) -> JSONResponse | None:
    """The refusal of a request from a page of another site (its ``Origin``) than ours
    or ``origins``, if it is one."""
    page = request.headers.get("origin")
    if page is not None and not same_origin(page, request.headers.get("host"), origins):
        return refused(refusal("requests from another site's page are not allowed"), 403)
    return None


async def _body_of(
    request: Request, origins: frozenset[str], *, checked: bool = False
) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, or the refusal to answer (``checked``: the request is
    known to come from an allowed page, else that is checked first)."""
    if not checked and (refusal_ := _foreign(request, origins)) is not None:
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


def _signed_in(
    request: Request, guards: Guards, account: Account, session_id: str, status: int
) -> Response:
    # The answer to a sign-up or a login: the account's name and its session's cookie.
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


async def _current(request: Request, accounts: AccountStore) -> Account | None:
    """The account whose session the request's cookie carries, if any."""
    session_id = session_id_of(request)
    if session_id is None:
        return None
    return await asyncio.to_thread(accounts.session_account, session_id)


def _not_signed_in() -> JSONResponse:
    return refused(refusal("You are not logged in."), 401)


def _signed_out() -> Response:
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.post("/api/accounts", response_model=None)
async def create_account(
    request: Request, accounts: Accounts, guards: Limits, passwords: Gate, origins: Origins
) -> Response:
    # Sign up: the new account's name and a session cookie (201).
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    try:  # (hashed on the password threads, if the address may make another account)
        account = await passwords.sign_up(
            request, functools.partial(accounts.create, body.get("name"), body.get("password"))
        )
    except AccountRefused as exc:
        return refused(exc.args[0], 422)
    except NameTaken as exc:  # (its sentence says whether taken, or too like another)
        return refused(exc.args[0], 409)
    if isinstance(account, JSONResponse):
        return account
    session_id = await asyncio.to_thread(accounts.open_session, account)
    response = _signed_in(request, guards, account, session_id, 201)
    secure = _https(request, guards)
    await passwords.logged_in(passwords.login(request, account.key), response, secure)
    return response


@router.post("/api/session", response_model=None)
async def log_in(
    request: Request, accounts: Accounts, guards: Limits, passwords: Gate, origins: Origins
) -> Response:
    # Log in: the account's name and a session cookie.
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    name, password = body.get("name"), body.get("password")
    # Counted as a failure before the check runs (password_gate.py): guesses sent at
    # once are refused from the limit on.
    login = passwords.login(request, name_key(name) if isinstance(name, str) else "")
    account = await passwords.check(
        login, functools.partial(accounts.verify, name, password), lambda a: a is not None
    )
    if isinstance(account, JSONResponse):
        return account
    if account is None:
        return refused(refusal("Wrong name or password."), 401)
    try:
        session_id = await asyncio.to_thread(accounts.open_session, account)
    except AccountBanned as exc:  # (a moderator's ban: store/moderation.py)
        return refused(exc.args[0], 403)
    response = _signed_in(request, guards, account, session_id, 200)
    await passwords.logged_in(login, response, _https(request, guards))
    return response


@router.get("/api/session", response_model=None)
async def who(request: Request, accounts: Accounts) -> Response:
    # The logged-in account's name, or 401.
    account = await _current(request, accounts)
    if account is None:
        return _not_signed_in()
    return JSONResponse({"name": account.name})


@router.delete("/api/session", response_model=None)
async def log_out(request: Request, accounts: Accounts, origins: Origins, hub: Hub) -> Response:
    # Log out: the session revoked on the server, its cookie cleared; the session's other
    # pages (the browser's other tabs) are told at once, on any process.
    if (refusal_ := _foreign(request, origins)) is not None:
        return refusal_
    session_id = session_id_of(request)
    if session_id is not None:
        await asyncio.to_thread(accounts.revoke, session_id)
        notices = getattr(request.app.state, "notices", None)
        if notices is not None:  # the session's push subscriptions go (meet/notices.py)
            await asyncio.to_thread(notices.store.forget_session, session_id)
        if isinstance(hub, LobbyHub):
            await hub.end_session(secret_digest(session_id))
    return _signed_out()


@router.delete("/api/accounts/me", response_model=None)
async def delete_account(
    request: Request,
    accounts: Accounts,
    passwords: Gate,
    origins: Origins,
    leave: Leaving,
    hub: Hub,
    served: App,
) -> Response:
    # Delete the logged-in account, its password given again; its unfinished matches
    # end first, resigned, and its seats are freed (``leave``: ``http/leaving.py``).
    if (refusal_ := _foreign(request, origins)) is not None:
        return refusal_
    account = await _current(request, accounts)
    if account is None:
        return _not_signed_in()
    body = await _body_of(request, origins, checked=True)
    if isinstance(body, JSONResponse):
        return body
    # A stolen session may not guess the password either: counted as a login's.
    login = passwords.login(request, account.key)
    verify = functools.partial(accounts.verify, account.name, body.get("password"))
    verified = await passwords.check(login, verify, lambda a: a is not None)
    if isinstance(verified, JSONResponse):
        return verified
    if verified is None:
        return refused(refusal("Wrong password: your account is not deleted."), 401)
    if leave is not None:  # its unfinished matches end, resigned; its seats free
        try:
            await leave(account.key, session_id_of(request))
        except RoomsElsewhere:
            said = refusal("One of your matches could not be ended just now: your account "
                           "is not deleted. Try again in a minute.")  # fmt: skip
            return refused(said, 503, {"Retry-After": "60"})
    await asyncio.to_thread(accounts.erase, account)
    await drop_account(served, account.key)  # its seeks and challenges go, the others told
    # Its pages open elsewhere (other tabs, devices, processes) are told at once.
    await hub.end_sessions(account.key, "deleted")
    return _signed_out()
