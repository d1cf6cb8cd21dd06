"""The daily digest by e-mail (issue 70 item 3; docs/notifications.md): once a day, at the
hour a player picked in his settings (in his own time zone), an account with a verified
address is mailed how many of his correspondence games wait for his move, each with its
link; never a mail per move, and none on a day when no game waits. Every digest carries a
one-click unsubscribe (RFC 8058: the ``List-Unsubscribe`` and ``List-Unsubscribe-Post``
headers, which a mail program's "Unsubscribe" button posts to).

* ``PUT /api/accounts/me/email/digest`` ``{"hour": 0-23 | null, "zone": "Europe/Paris"}``:
  200 ``{"hour", "zone"}``; 409 without a verified address (or without ``--smtp``); 422 for
  an hour or a time zone that is none.
* ``POST /api/email/unsubscribe?token=...``: no more digests (200, whatever its body: a mail
  program posts ``List-Unsubscribe=One-Click`` as a form); 400 for a token that is none or
  ran out (60 days). ``/email/unsubscribe?token=...`` is the page the mail's own link
  opens: a button that posts it (a link followed must not unsubscribe by itself: mail
  scanners follow links).

The pairing pool's rounds (every 2 s on the server's clock: ``meet/pool.py``) call
:func:`sweep`, which at most once a minute of that clock hands the mail thread a job: the
digests due (``store/email.py``'s ``due_digests``, each taken by one process alone), the
games waiting on each, the mails. So a test moves the server's clock to the hour and the
digest goes.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from email.message import EmailMessage
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n import N_, translator
from spacetable.i18n.phrase import refusal
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Accounts, Origins
from spacetable.server.http.email_routes import MailService, _mail, _mailing
from spacetable.server.http.mailer import mail
from spacetable.server.http.pages import reader_language
from spacetable.server.store.email import Digest
from spacetable.server.store.live_store import LiveRoom

#: Seconds of the server's clock between two looks for the digests due.
SWEEP_SECONDS = 60.0
#: The most games one digest lists (it says how many wait all the same).
LISTED = 20

DIGEST_BODY = N_("Hello {name},\n\nThese correspondence games wait for your move:\n")
DIGEST_LINE = N_("- {game} with {players}: {link}")
DIGEST_FOOT = N_(
    "\nYou get this mail once a day at most, at the hour you chose in your settings: "
    "{settings}\n\nNo more of these mails: {unsubscribe}\n"
)

#: The games waiting on an account (its key): each stored room's game, players and id.
Waiting = Callable[[str], list[LiveRoom]]

#: The digest's routes.
router = APIRouter()


def waiting_on(rooms: list[LiveRoom], key: str) -> list[LiveRoom]:
    """Those of ``rooms`` (the account's correspondence rooms) whose turn waits on the
    account ``key``."""
    found = []
    for room in rooms:
        about = (room.extras or {}).get("correspondence") or {}
        waiting = {str(p) for p in about.get("waiting") or ()} if room.phase == "playing" else set()
        mine = next((s for s in room.seats if s.get("account") == key), None)
        if mine is not None and str(mine.get("name")) in waiting:
            found.append(room)
    return found


def _digest_mail(service: MailService, digest: Digest, rooms: list[LiveRoom]) -> EmailMessage:
    """The digest of ``rooms`` (those waiting on the account), in its language."""
    tr = translator(digest.lang)
    lines = [tr.gettext(DIGEST_BODY, name=digest.name)]
    for room in rooms[:LISTED]:
        try:
            game = tr.gettext(game_for_ruleset(room.ruleset).rules.title)
        except UnknownGame:
            game = room.ruleset
        others = [str(s.get("name")) for s in room.seats if s.get("account") != digest.key]
        players = ", ".join(name for name in others if name and name != "None")
        link = f"{service.public_url}/rooms/{room.id}"
        lines.append(tr.gettext(DIGEST_LINE, game=game, players=players, link=link))
    settings = f"{service.public_url}/me/settings"
    page = service.link("/email/unsubscribe", digest.unsubscribe)
    lines.append(tr.gettext(DIGEST_FOOT, settings=settings, unsubscribe=page))
    subject = tr.ngettext(
        "{n} game waits for your move — spacetable",
        "{n} games wait for your move — spacetable",
        len(rooms),
        n=len(rooms),
    )
    one_click = service.link("/api/email/unsubscribe", digest.unsubscribe)
    headers = {
        "List-Unsubscribe": f"<{one_click}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    return mail(service.sender, digest.address, subject, "\n".join(lines), headers)


def _digests_job(service: MailService, rooms_of: Waiting) -> list[EmailMessage]:
    """The digests due now, for the accounts some game waits on (run on the mail thread)."""
    mails = []
    for digest in service.store.due_digests():
        rooms = waiting_on(rooms_of(digest.key), digest.key)
        if rooms:
            mails.append(_digest_mail(service, digest, rooms))
    return mails


class Sweeper:
    """Hands the mail thread the digests' job at most every :data:`SWEEP_SECONDS` of the
    server's clock (``wall``); ``rooms_of``: the account's correspondence rooms."""

    def __init__(self, service: MailService, rooms_of: Waiting, wall: Callable[[], float]) -> None:
        self._service = service
        self._rooms_of = rooms_of
        self._wall = wall
        self._last: float | None = None

    async def sweep(self) -> None:
        """A round of the pool: the job, if a minute went since the last."""
        mailer = self._service.mailer
        now = self._wall()
        if mailer is None or (self._last is not None and now - self._last < SWEEP_SECONDS):
            return
        self._last = now
        mailer.submit(functools.partial(_digests_job, self._service, self._rooms_of))


def _hour(value: object) -> int | str | None:
    """The hour asked for (``None``: no digest), or ``"bad"``."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 23:
        return value
    return "bad"


@router.put("/api/accounts/me/email/digest", response_model=None)
async def set_digest(request: Request, accounts: Accounts, origins: Origins) -> Response:
    # The daily digest's hour in the player's time zone, or none.
    asked = await _mailing(request, accounts, origins)
    if isinstance(asked, JSONResponse):
        return asked
    body, account, service, _mailer = asked
    hour = _hour(body.get("hour"))
    if hour == "bad":
        return refused(refusal("hour: a whole hour from 0 to 23, or null for no digest"), 422)
    zone = body.get("zone", "UTC")
    try:
        ZoneInfo(zone if isinstance(zone, str) and len(zone) <= 64 else "")
    except (ZoneInfoNotFoundError, ValueError):
        return refused(refusal("zone: a time zone, as Europe/Paris"), 422)
    lang = reader_language(request)
    assert not isinstance(hour, str)
    done = await asyncio.to_thread(service.store.set_digest, account.id, hour, zone, lang)
    if not done:
        said = refusal("Verify your e-mail address first: the digest goes only to it.")
        return refused(said, 409)
    return JSONResponse({"hour": hour, "zone": zone})


@router.post("/api/email/unsubscribe", response_model=None)
async def unsubscribe(request: Request, token: str = "") -> Response:
    # One click (a mail program's, or the page's button): no more digests.
    service = _mail(request)
    if not 8 <= len(token) <= 128 or not await asyncio.to_thread(service.store.unsubscribe, token):
        return refused(refusal("This link is not valid: copy the whole link from the mail."), 400)
    return JSONResponse({"unsubscribed": True})
