"""Reports and moderators over HTTP (issue 69 item 5; docs/moderation.md).

* ``POST /api/reports`` ``{"name", "reason", "room"?, "text"?}``: 201 ``{"id"}``. Accounts
  only (401 for a guest); 404 for no such account; 400 naming what is wrong (a reason not
  among ``abuse``, ``cheating``, ``spam``, ``name``, ``other``; oneself; words over 500
  characters); 429 past 5 reports an hour (counted in the database: every process's).

The moderators' routes (401 without a session, 403 for an account that is no moderator;
every action asks a ``reason`` and is written in the audit log with who and when):

* ``GET /api/admin/reports?status=open|handled``: ``{"reports": [...]}``, newest first.
* ``POST /api/admin/reports/{id}/handled``: 204 (404: no such open report).
* ``POST /api/admin/mute`` / ``ban`` ``{"name", "reason", "hours"?}`` (no ``hours``: for
  good): 204. A mute refuses the account's chat in every room of every process; a ban ends
  its sessions, refuses its logins, removes its seeks and challenges and tells its open
  pages at once (``meet/moderation.py``).
* ``POST /api/admin/unmute`` / ``unban`` ``{"name", "reason"}``: 204 (404: none stood).
* ``POST /api/admin/rooms/{room}/close`` ``{"reason"}``: 204; the room ends wherever it is
  held (404: no such room).
* ``GET /api/admin/sanctions``: ``{"sanctions": [...]}``, the mutes and bans in force.
* ``GET /api/admin/audit``: ``{"audit": [{"at", "actor", "action", "target", "reason"}]}``.

A request that changes something from a page of another site is refused (403), its body
must be JSON (``bodies.py``), as the account routes'.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable._userinput import clipped, parse_json
from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.meet.moderation import Moderation
from spacetable.server.store.accounts import SESSION_COOKIE, Account
from spacetable.server.store.moderation import REASON_MAX, REASONS, TEXT_MAX, Kind

#: Largest body of a report or a moderator's action, in bytes.
BODY_LIMIT = 4096
#: The longest mute or ban with an end (hours: a year); longer is for good.
HOURS_MAX = 24 * 366

#: ``POST /api/reports`` and the moderators' routes.
router = APIRouter()


class _Refused(Exception):
    """A request refused: its answer."""

    def __init__(self, answer: JSONResponse) -> None:
        super().__init__()
        self.answer = answer


def _moderation(served: Services) -> Moderation:
    assert served.moderation is not None, "create_app makes the moderation"
    return served.moderation


async def _account(request: Request, served: Services) -> Account:
    """The account of the request's session; raises :class:`_Refused` (401) without one."""
    session_id = request.cookies.get(SESSION_COOKIE)
    account = None
    if session_id:
        account = await asyncio.to_thread(served.accounts.session_account, session_id)
    if account is None:
        raise _Refused(refused(refusal("You are not logged in."), 401))
    return account


async def _moderator(request: Request, served: Services) -> Account:
    """The moderator behind the request; raises :class:`_Refused` (401, 403)."""
    account = await _account(request, served)
    if not await asyncio.to_thread(_moderation(served).store.is_moderator, account):
        raise _Refused(refused(refusal("Only moderators may do this."), 403))
    return account


async def _body(request: Request, served: Services) -> dict[str, Any]:
    """The request's JSON object; raises :class:`_Refused` for another site's page (403),
    a body that is not JSON, or not an object."""
    page = request.headers.get("origin")
    if page is not None and not same_origin(
        page, request.headers.get("host"), served.allowed_origins
    ):
        said = refusal("requests from another site's page are not allowed")
        raise _Refused(refused(said, 403))
    try:
        body = parse_json(await json_body(request, BODY_LIMIT))
    except BodyRefused as exc:
        raise _Refused(exc.response("detail")) from None
    except ValueError as exc:
        raise _Refused(refused(exc.args[0] if exc.args else str(exc), 400)) from None
    if not isinstance(body, dict):
        raise _Refused(refused(refusal("the body must be a JSON object"), 400))
    return body


async def _named(served: Services, name: Any) -> Account:
    """The account called ``name``; raises :class:`_Refused` (400 without a name, 404)."""
    if not isinstance(name, str) or not name.strip():
        raise _Refused(refused(refusal("give the player's 'name'"), 400))
    account = await asyncio.to_thread(served.accounts.find, name[:80])
    if account is None:
        raise _Refused(refused(refusal("no player {name}", name=clipped(name)), 404))
    return account


def _optional_text(body: dict[str, Any], field: str, most: int) -> str | None:
    """The body's optional text ``field``, stripped (``None``: absent or empty); raises
    :class:`_Refused` (400) for one not text or longer than ``most`` characters."""
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        said = refusal("'{field}' must be text", field=field)
        raise _Refused(refused(said, 400))
    value = value.strip()
    if len(value) > most:
        said = refusal(
            "'{field}' is at most {most} characters (this one has {n})",
            field=field,
            most=most,
            n=len(value),
        )
        raise _Refused(refused(said, 400))
    return value or None


def _reason(body: dict[str, Any]) -> str:
    """A moderator's reason (required); raises :class:`_Refused` (400)."""
    reason = _optional_text(body, "reason", REASON_MAX)
    if reason is None:
        raise _Refused(refused(refusal("give a 'reason': the audit log keeps it"), 400))
    return reason


def _until(body: dict[str, Any], now: float) -> float | None:
    """When a mute or ban ends (the body's ``hours`` from now; ``None``: for good); raises
    :class:`_Refused` (400) for hours that are no positive number up to a year's."""
    hours = body.get("hours")
    if hours is None:
        return None
    if (
        isinstance(hours, bool)
        or not isinstance(hours, int | float)
        or not math.isfinite(hours)
        or not 0 < hours <= HOURS_MAX
    ):
        said = refusal(
            "'hours' is a number above 0, at most {most}, or null for good", most=HOURS_MAX
        )
        raise _Refused(refused(said, 400))
    return now + float(hours) * 3600


@router.post("/api/reports", response_model=None, status_code=201)
async def report(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    # Report a player: the report's id (201).
    try:
        reporter = await _account(request, served)
        body = await _body(request, served)
        reported = await _named(served, body.get("name"))
        reason = body.get("reason")
        if reason not in REASONS:
            said = refusal(
                "'reason' is one of {choices}, not {reason}",
                choices=", ".join(REASONS),
                reason=clipped(repr(reason)),
            )
            return refused(said, 400)
        if reported.id == reporter.id:
            return refused(refusal("you cannot report yourself"), 400)
        room = _optional_text(body, "room", 64)
        words = _optional_text(body, "text", TEXT_MAX)
    except _Refused as exc:
        return exc.answer
    store = _moderation(served).store
    filed = await asyncio.to_thread(store.report, reporter, reported, str(reason), room, words)
    if filed is None:
        said = refusal("You sent many reports this hour: wait before the next one.")
        return refused(said, 429, {"Retry-After": "3600"})
    return {"id": filed}


@router.get("/api/admin/reports", response_model=None)
async def reports(
    request: Request, served: App, status: str = "open"
) -> dict[str, Any] | JSONResponse:
    try:
        await _moderator(request, served)
    except _Refused as exc:
        return exc.answer
    if status not in ("open", "handled"):
        said = refusal("'status' is open or handled, not {status}", status=clipped(status))
        return refused(said, 400)
    return {"reports": await asyncio.to_thread(_moderation(served).store.reports, status)}


@router.post("/api/admin/reports/{report_id}/handled", response_model=None)
async def handled(request: Request, served: App, report_id: int) -> Response:
    try:
        moderator = await _moderator(request, served)
        await _body(request, served)
    except _Refused as exc:
        return exc.answer
    store = _moderation(served).store
    if await asyncio.to_thread(store.settle, report_id, moderator.name) is None:
        return refused(refusal("no open report {id}", id=report_id), 404)
    return Response(status_code=204)


async def _sanction(request: Request, served: App, kind: Kind) -> Response:
    # Mute or ban the body's account, for its hours or for good, with its reason.
    moderation = _moderation(served)
    try:
        moderator = await _moderator(request, served)
        body = await _body(request, served)
        account = await _named(served, body.get("name"))
        reason = _reason(body)
        until = _until(body, moderation.store.wall())
    except _Refused as exc:
        return exc.answer
    if account.id == moderator.id:  # (a moderator who banned himself could not undo it)
        return refused(refusal("you cannot mute or ban yourself"), 400)
    await moderation.sanction(account, kind, until, reason, moderator.name)
    if kind == "ban":
        await moderation.banned(served, served.hub, account)
    return Response(status_code=204)


async def _lift(request: Request, served: App, kind: Kind) -> Response:
    # Unmute or unban the body's account, with its reason.
    moderation = _moderation(served)
    try:
        moderator = await _moderator(request, served)
        body = await _body(request, served)
        account = await _named(served, body.get("name"))
        reason = _reason(body)
    except _Refused as exc:
        return exc.answer
    if not await moderation.lift(account, kind, reason, moderator.name):
        said = (
            refusal("{name} is not muted", name=account.name)
            if kind == "mute"
            else refusal("{name} is not banned", name=account.name)
        )
        return refused(said, 404)
    return Response(status_code=204)


@router.post("/api/admin/mute", response_model=None)
async def mute(request: Request, served: App) -> Response:
    return await _sanction(request, served, "mute")


@router.post("/api/admin/ban", response_model=None)
async def ban(request: Request, served: App) -> Response:
    return await _sanction(request, served, "ban")


@router.post("/api/admin/unmute", response_model=None)
async def unmute(request: Request, served: App) -> Response:
    return await _lift(request, served, "mute")


@router.post("/api/admin/unban", response_model=None)
async def unban(request: Request, served: App) -> Response:
    return await _lift(request, served, "ban")


@router.post("/api/admin/rooms/{room_id}/close", response_model=None)
async def close_room(request: Request, served: App, room_id: str) -> Response:
    moderation = _moderation(served)
    try:
        moderator = await _moderator(request, served)
        reason = _reason(await _body(request, served))
    except _Refused as exc:
        return exc.answer
    if len(room_id) > 64 or not await moderation.room_known(room_id):
        return refused(refusal("no room {room}", room=clipped(room_id)), 404)
    await asyncio.to_thread(moderation.store.note, moderator.name, "close", room_id, reason)
    await moderation.close_room(room_id, reason)
    return Response(status_code=204)


@router.get("/api/admin/sanctions", response_model=None)
async def sanctions(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    try:
        await _moderator(request, served)
    except _Refused as exc:
        return exc.answer
    found = await asyncio.to_thread(_moderation(served).store.sanctions)
    return {"sanctions": [sanction.to_json() for sanction in found]}


@router.get("/api/admin/audit", response_model=None)
async def audit(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    try:
        await _moderator(request, served)
    except _Refused as exc:
        return exc.answer
    return {"audit": await asyncio.to_thread(_moderation(served).store.audit)}
