"""The notification list and Web Push over HTTP (issue 70 items 1 and 2;
docs/notifications.md).

* ``GET /api/notifications``: ``{"unread": N, "items": [{"id", "kind", "text", "url",
  "at", "read"}]}``, the logged-in player's, newest first, in the reader's language;
  ``?before=<id>`` pages on (older ones), ``?limit=`` (1-50, 20 by default).
* ``POST /api/notifications/read``: ``{"ids": [...]}`` or ``{"all": true}`` marks them
  read; answers ``{"unread": N}``.
* ``GET /api/push/key``: ``{"public_key"}``, the server's VAPID key (base64url), what a
  page subscribes with; ``null`` when the server sends no push (started without
  ``--vapid-subject``).
* ``POST /api/push/subscriptions``: ``{"endpoint", "keys": {"p256dh", "auth"}, "lang"?}``
  keeps a browser's subscription, tied to the session (its pushes stop when the session
  ends); 201. The endpoint must be ``https`` and resolve to public addresses only
  (``meet/push.py``), else 400 naming the problem.
* ``DELETE /api/push/subscriptions``: ``{"endpoint"}``: that browser is sent no more; 204.
* ``GET /api/accounts/me/notify``: ``{"all_off": bool, "push": {"your_move", "ran_out",
  "challenges", "match_over": bool}}``, which kinds the player's devices are pushed, and
  the one switch that turns every push and the daily digest off; ``PUT`` the same keeps
  them (a kind left out is pushed; an unknown kind: 400). A kind not pushed is still in
  the list.
* ``GET /sw.js``: the service worker that shows a push (at the site's root: its scope is
  every page); ``GET /manifest.webmanifest``: the web app's manifest (iOS sends pushes to
  an installed web app only).

Refusals name the problem: 401 for a guest, 400 for a body that says nothing it should,
403 for a change asked by another site's page. The database is asked on threads.
"""

from __future__ import annotations

import asyncio
import re
from importlib import resources
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n import LANGUAGES, N_, translator
from spacetable.i18n.phrase import Reason, refusal
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.origins import same_origin
from spacetable.server.http.pages import reader_language
from spacetable.server.meet.notices import Notices, item
from spacetable.server.meet.push import PushSender
from spacetable.server.store.accounts import SESSION_COOKIE, Account
from spacetable.server.store.notifications import GROUPS, Choices, Subscription

router = APIRouter()

#: The largest body these routes read (bytes).
BODY_LIMIT = 4096
#: What a subscription's keys may hold (base64url, as browsers give them).
_KEY = re.compile(r"^[A-Za-z0-9_\-=]{8,200}$")
_WEB = resources.files("spacetable") / "web"


def _notices(request: Request) -> Notices:
    found: Notices = request.app.state.notices
    return found


def _push(request: Request) -> PushSender | None:
    found: PushSender | None = getattr(request.app.state, "push", None)
    return found


async def _account(request: Request, served: Services) -> tuple[Account | None, str]:
    """The account of the request's session and the session's id (None, "": a guest)."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if not session_id:
        return None, ""
    account = await asyncio.to_thread(served.accounts.session_account, session_id)
    return account, session_id if account is not None else ""


def _not_signed_in() -> JSONResponse:
    return refused(refusal("Log in to read your notifications."), 401)


def _other_site(request: Request, served: Services) -> JSONResponse | None:
    page = request.headers.get("origin")
    if page is not None and not same_origin(
        page, request.headers.get("host"), served.allowed_origins
    ):
        return refused(refusal("requests from another site's page are not allowed"), 403)
    return None


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    try:
        raw = await json_body(request, BODY_LIMIT)
        body = orjson.loads(raw)
    except BodyRefused as exc:
        return exc.response("detail")
    except orjson.JSONDecodeError:
        return refused(refusal("The body is not JSON."), 400)
    if not isinstance(body, dict):
        return refused(refusal("The body must be a JSON object."), 400)
    return body


async def _signed_in_body(
    request: Request, served: Services
) -> tuple[Account, dict[str, Any]] | JSONResponse:
    """The account and the JSON body of a request that changes the player's notifications;
    or the refusal (another site's page, nobody logged in, a bad body), in that order."""
    if (other := _other_site(request, served)) is not None:
        return other
    account, _ = await _account(request, served)
    if account is None:
        return _not_signed_in()
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    return account, body


@router.get("/api/notifications", response_model=None)
async def notifications(
    request: Request, served: App, before: int | None = None, limit: int = 20
) -> Any:
    """The logged-in player's notifications, newest first, and how many are unread."""
    account, _ = await _account(request, served)
    if account is None:
        return _not_signed_in()
    if not 1 <= limit <= 50:
        return refused(refusal("limit must be from 1 to 50."), 400)
    unread, notices = await asyncio.to_thread(
        _notices(request).store.page, account.key, before, limit
    )
    tr = translator(reader_language(request))
    return {"unread": unread, "items": [item(notice, tr) for notice in notices]}


@router.post("/api/notifications/read", response_model=None)
async def mark_read(request: Request, served: App) -> Any:
    """Mark notifications read: ``{"ids": [...]}`` or ``{"all": true}``."""
    asked = await _signed_in_body(request, served)
    if isinstance(asked, JSONResponse):
        return asked
    account, body = asked
    ids = body.get("ids")
    if body.get("all") is True:
        chosen: list[int] | None = None
    elif (
        isinstance(ids, list)
        and len(ids) <= 200
        and all(isinstance(i, int) and not isinstance(i, bool) for i in ids)
    ):
        chosen = ids
    else:
        return refused(
            refusal('Send {"ids": [...]} (at most 200 notification ids) or {"all": true}.'),
            400,
        )
    store = _notices(request).store
    await asyncio.to_thread(store.mark_read, account.key, chosen)
    unread, _ = await asyncio.to_thread(store.page, account.key, None, 1)
    return {"unread": unread}


def _choices_answer(choices: Choices) -> dict[str, Any]:
    push = {group: group not in choices.push_off for group in GROUPS}
    return {"all_off": choices.all_off, "push": push}


def _choices_of(body: dict[str, Any]) -> Choices | Reason:
    all_off, push = body.get("all_off"), body.get("push")
    if not isinstance(all_off, bool):
        return refusal("all_off must be true or false.")
    if not isinstance(push, dict):
        return refusal("push must be an object: each kind, true or false.")
    for group, on in push.items():
        if group not in GROUPS:
            return refusal("push has no kind {kind}.", kind=str(group)[:40])
        if not isinstance(on, bool):
            return refusal("push.{kind} must be true or false.", kind=group)
    return Choices(frozenset(g for g in GROUPS if push.get(g) is False), all_off)


@router.get("/api/accounts/me/notify", response_model=None)
async def my_choices(request: Request, served: App) -> Any:
    """Which kinds of notification the player's devices are pushed, and whether every
    push and the daily digest are off."""
    account, _ = await _account(request, served)
    if account is None:
        return _not_signed_in()
    choices = await asyncio.to_thread(_notices(request).store.choices, account.key)
    return _choices_answer(choices)


@router.put("/api/accounts/me/notify", response_model=None)
async def set_my_choices(request: Request, served: App) -> Any:
    """Keep ``{"all_off": bool, "push": {kind: bool}}`` (a kind left out is pushed)."""
    asked = await _signed_in_body(request, served)
    if isinstance(asked, JSONResponse):
        return asked
    account, body = asked
    choices = _choices_of(body)
    if isinstance(choices, Reason):
        return refused(choices, 400)
    if not await asyncio.to_thread(_notices(request).store.set_choices, account.key, choices):
        return _not_signed_in()
    return _choices_answer(choices)


def _push_off() -> JSONResponse:
    return refused(refusal("This server sends no push notifications."), 404)


@router.get("/api/push/key", response_model=None)
async def push_key(request: Request) -> Any:
    """The server's VAPID public key, to subscribe with (``null``: it sends no push)."""
    push = _push(request)
    if push is None:
        return {"public_key": None}
    return {"public_key": await push.key()}


def _subscription(body: dict[str, Any]) -> Subscription | Reason:
    endpoint = body.get("endpoint")
    keys = body.get("keys")
    if not isinstance(endpoint, str) or not 8 <= len(endpoint) <= 1000:
        return refusal("endpoint must be the push service's URL (at most 1000 characters).")
    if not isinstance(keys, dict):
        return refusal("keys must be the subscription's keys: {p256dh, auth}.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not _KEY.match(p256dh):
        return refusal("keys.p256dh must be the subscription's key, in base64url.")
    if not isinstance(auth, str) or not _KEY.match(auth):
        return refusal("keys.auth must be the subscription's secret, in base64url.")
    return Subscription(endpoint, p256dh, auth)


@router.post("/api/push/subscriptions", status_code=201, response_model=None)
async def subscribe(request: Request, served: App) -> Any:
    """Send this browser the player's notifications (while this session lasts)."""
    if (other := _other_site(request, served)) is not None:
        return other
    push = _push(request)
    if push is None:
        return _push_off()
    account, session_id = await _account(request, served)
    if account is None:
        return refused(refusal("Log in to receive push notifications."), 401)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    found = _subscription(body)
    if isinstance(found, Reason):
        return refused(found, 400)
    problem = await asyncio.to_thread(push.problem, found.endpoint)
    if problem is not None:
        return refused(problem, 400)
    lang = body.get("lang")
    stored = await asyncio.to_thread(
        _notices(request).store.subscribe,
        account.key,
        session_id,
        found,
        lang if lang in LANGUAGES else reader_language(request),
    )
    if not stored:
        return _not_signed_in()
    return JSONResponse({"endpoint": found.endpoint}, status_code=201)


@router.delete("/api/push/subscriptions", status_code=204, response_model=None)
async def unsubscribe(request: Request, served: App) -> Response:
    """Send this browser no more pushes."""
    asked = await _signed_in_body(request, served)
    if isinstance(asked, JSONResponse):
        return asked
    account, body = asked
    endpoint = body.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        return refused(refusal("endpoint must be the push service's URL."), 400)
    await asyncio.to_thread(_notices(request).store.unsubscribe, account.key, endpoint)
    return Response(status_code=204)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker: it shows a push as a notification and opens its page on a tap
    (served at the root, so that its scope is the whole site)."""
    script = (_WEB / "sw.js").read_bytes()
    return Response(
        script,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


#: What the installed web app says of itself (the manifest's ``description``).
ABOUT = N_(
    "Tabletop space combat in the browser: Light Speed, Stellar Conflict, Faster Than Light "
    "and the hex fleet."
)


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    """The web app's manifest (a phone may install the site; iOS pushes only to one), its
    description in the reader's language."""
    tr = translator(reader_language(request))
    made = orjson.loads((_WEB / "manifest.webmanifest").read_bytes())
    made["description"] = tr.gettext(ABOUT)
    made["lang"] = tr.lang
    return Response(
        orjson.dumps(made),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
