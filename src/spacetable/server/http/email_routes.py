"""E-mail addresses and password resets over HTTP (issue 70 items 3 and 4;
docs/notifications.md, docs/accounts.md):

* ``GET /api/accounts/me/email``: ``{"enabled", "address", "verified", "digest_hour",
  "digest_zone"}`` (401 for a guest): ``enabled`` is false on a server started without
  ``--smtp``; the daily digest's hour and time zone (``digest.py``), ``null`` without.
* ``PUT /api/accounts/me/email`` ``{"email"}``: the address is kept, unverified, and a
  verification link (valid 24 hours) is mailed to it: 202; 200 when it is the address
  verified already; 422 for what is not an address; 429 after
  :data:`~spacetable.server.store.email.MAILS_PER_HOUR` such mails an hour to the account
  or to the address. ``DELETE``: the address is forgotten (204).
  ``POST /api/accounts/me/email/resend``: the link again (202; 404 without an address).
* ``POST /api/email/verify`` ``{"token"}``: 200 ``{"address"}``; 400 for a token that is
  none, 410 for one used or run out, 409 when the account's address changed since.
* ``POST /api/password-reset`` ``{"name_or_email"}``: always 202, at once, whether such an
  account exists or not: the look-up and the mail happen after the answer, on the mail
  thread (``mailer.py``). An account with a verified address is mailed a link valid an hour
  (at most 3 such mails an hour to an account or an address).
* ``POST /api/password-reset/confirm`` ``{"token", "password"}``: 204; the new password is
  hashed on the password threads, then set, the token used and every session of the
  account ended in one transaction, and its open pages told (``hub.end_sessions``); 422 for
  a password refused, 400, 410 as for a verification.

Without ``--smtp`` the routes that would mail answer 409, saying that e-mail is off on this
server (a link mailed before still works). Tokens are only ever stored as digests and never
logged; a link's address starts with the server's public address (``--public-url``), never
with a request's ``Host``, which a stranger's request sets.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n import N_, translator
from spacetable.i18n.phrase import refusal
from spacetable.server.http.accounts import _body_of, _current, _not_signed_in, _signed_out
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Accounts, App, Gate, Origins
from spacetable.server.http.mailer import AddressRefused, Mailer, checked_address, mail
from spacetable.server.http.pages import reader_language
from spacetable.server.http.password_gate import passwords_busy
from spacetable.server.http.password_work import PasswordsBusy
from spacetable.server.store.accounts import Account, AccountRefused, AccountStore, check_password
from spacetable.server.store.email import EmailStore, Reset, Spent

#: The mails' words (translated into the reader's language when the mail is written).
VERIFY_SUBJECT = N_("Confirm your e-mail address — spacetable")
VERIFY_BODY = N_(
    "Hello {name},\n\nTo confirm that {address} is your address on spacetable, open this "
    "link within 24 hours:\n\n{link}\n\nIf you did not ask for it, ignore this mail: "
    "nothing changes.\n"
)
RESET_SUBJECT = N_("Reset your password — spacetable")
RESET_BODY = N_(
    "Hello {name},\n\nSomeone, you we hope, asked to reset the password of your spacetable "
    "account. To choose a new password, open this link within an hour:\n\n{link}\n\nIf you "
    "did not ask for it, ignore this mail: your password stays as it is.\n"
)


@dataclass(slots=True)
class MailService:
    """The server's e-mail: the addresses and tokens (``store``), the ``mailer``
    (``None``: e-mail is off on this server), the mails' ``sender`` and the address the
    links start with (``public_url``)."""

    store: EmailStore
    mailer: Mailer | None
    sender: str
    public_url: str

    def link(self, path: str, token: str) -> str:
        """The link to ``path`` carrying ``token``."""
        return f"{self.public_url.rstrip('/')}{path}?token={quote(token, safe='')}"


#: The e-mail and password reset routes.
router = APIRouter()


def _mail(request: Request) -> MailService:
    found: MailService = request.app.state.mail
    return found


def _off() -> JSONResponse:
    said = refusal("E-mail is off on this server: it sends no mail. Ask its operator.")
    return refused(said, 409)


async def _mailing(
    request: Request, accounts: AccountStore, origins: frozenset[str]
) -> tuple[dict[str, Any], Account, MailService, Mailer] | JSONResponse:
    """What a request that mails needs: its body, the logged-in account, the mail service
    and its mailer; or the answer that refuses it (another site or a bad body, nobody
    logged in, e-mail off on this server), checked in that order."""
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    account = await _current(request, accounts)
    if account is None:
        return _not_signed_in()
    service = _mail(request)
    if service.mailer is None:
        return _off()
    return body, account, service, service.mailer


def _token_refused(spent: Spent) -> JSONResponse:
    """The answer to a link's token that cannot be used, saying why."""
    if spent == "used":
        return refused(refusal("This link was used already: ask for a new one."), 410)
    if spent == "expired":
        return refused(refusal("This link has run out: ask for a new one."), 410)
    if spent == "changed":
        said = refusal("Your e-mail address changed since this link was sent: use the newest.")
        return refused(said, 409)
    return refused(refusal("This link is not valid: copy the whole link from the mail."), 400)


def _token_of(body: dict[str, Any]) -> str | None:
    token = body.get("token")
    return token if isinstance(token, str) and 8 <= len(token) <= 128 else None


def _verification(
    service: MailService, name: str, address: str, token: str, lang: str
) -> EmailMessage:
    tr = translator(lang)
    link = service.link("/email/verify", token)
    body = tr.gettext(VERIFY_BODY, name=name, address=address, link=link)
    return mail(service.sender, address, tr.gettext(VERIFY_SUBJECT), body)


def _reset_job(service: MailService, given: str, lang: str) -> EmailMessage | None:
    """The reset mail for ``given`` (a name or an address), if it names an account with a
    verified address (run on the mail thread, after the request was answered)."""
    mailing = service.store.reset_mailing(given)
    if mailing is None:
        return None
    tr = translator(lang)
    link = service.link("/password-reset", mailing.token)
    body = tr.gettext(RESET_BODY, name=mailing.name, link=link)
    return mail(service.sender, mailing.address, tr.gettext(RESET_SUBJECT), body)


@router.get("/api/accounts/me/email", response_model=None)
async def my_email(request: Request, accounts: Accounts) -> Response:
    # The account's address and whether it is verified; whether this server sends mail.
    account = await _current(request, accounts)
    if account is None:
        return _not_signed_in()
    service = _mail(request)
    found = await asyncio.to_thread(service.store.address_of, account.id)
    return JSONResponse(
        {
            "enabled": service.mailer is not None,
            "address": None if found is None else found.address,
            "verified": found is not None and found.verified,
            "digest_hour": None if found is None else found.digest_hour,
            "digest_zone": None if found is None else found.digest_zone,
        }
    )


@router.put("/api/accounts/me/email", response_model=None)
async def set_email(request: Request, accounts: Accounts, origins: Origins) -> Response:
    # Give the account an address: a verification link is mailed to it.
    asked = await _mailing(request, accounts, origins)
    if isinstance(asked, JSONResponse):
        return asked
    body, account, service, mailer = asked
    try:
        address = checked_address(body.get("email"))
    except AddressRefused as exc:
        return refused(exc.args[0], 422)
    token = await asyncio.to_thread(service.store.set_address, account.id, address)
    if token == "":
        return JSONResponse({"address": address, "verified": True})
    if token is None:
        return _too_many()
    lang = reader_language(request)
    mailer.submit(functools.partial(_verification, service, account.name, address, token, lang))
    return JSONResponse({"address": address, "verified": False}, status_code=202)


def _too_many() -> JSONResponse:
    said = refusal("Too many mails were sent to this account or address: try again in an hour.")
    return refused(said, 429, {"Retry-After": "3600"})


@router.post("/api/accounts/me/email/resend", response_model=None)
async def resend(request: Request, accounts: Accounts, origins: Origins) -> Response:
    # The verification link again, to the account's unverified address.
    asked = await _mailing(request, accounts, origins)
    if isinstance(asked, JSONResponse):
        return asked
    _body, account, service, mailer = asked
    found = await asyncio.to_thread(service.store.address_of, account.id)
    if found is None:
        return refused(refusal("Your account has no e-mail address."), 404)
    if found.verified:
        return JSONResponse({"address": found.address, "verified": True})
    token = await asyncio.to_thread(service.store.resend, account.id)
    if not token:
        return _too_many()
    lang = reader_language(request)
    mailer.submit(
        functools.partial(_verification, service, account.name, found.address, token, lang)
    )
    return JSONResponse({"address": found.address, "verified": False}, status_code=202)


@router.delete("/api/accounts/me/email", response_model=None)
async def remove_email(request: Request, accounts: Accounts, origins: Origins) -> Response:
    # Forget the account's address.
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    account = await _current(request, accounts)
    if account is None:
        return _not_signed_in()
    await asyncio.to_thread(_mail(request).store.remove_address, account.id)
    return Response(status_code=204)


@router.post("/api/email/verify", response_model=None)
async def verify(request: Request, origins: Origins) -> Response:
    # Follow a verification link: the account's address is verified.
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    token = _token_of(body)
    if token is None:
        return _token_refused("unknown")
    store = _mail(request).store
    done = await asyncio.to_thread(store.verify, token)
    if isinstance(done, str):
        return _token_refused(done)
    found = await asyncio.to_thread(store.address_of, done)
    return JSONResponse({"address": None if found is None else found.address})


@router.post("/api/password-reset", response_model=None)
async def ask_reset(request: Request, origins: Origins) -> Response:
    # Ask for a reset link: 202 at once, whoever is named; the look-up comes after.
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    given = body.get("name_or_email")
    if not isinstance(given, str) or not given.strip() or len(given) > 254:
        return refused(refusal("Type your name or your e-mail address."), 422)
    service = _mail(request)
    if service.mailer is None:
        return _off()
    lang = reader_language(request)
    service.mailer.submit(functools.partial(_reset_job, service, given, lang))
    return Response(status_code=202)


@router.post("/api/password-reset/confirm", response_model=None)
async def confirm_reset(
    request: Request, accounts: Accounts, passwords: Gate, origins: Origins, served: App
) -> Response:
    # Follow a reset link with a new password: set, and every session of the account ended.
    body = await _body_of(request, origins)
    if isinstance(body, JSONResponse):
        return body
    token = _token_of(body)
    if token is None:
        return _token_refused("unknown")
    try:
        password = check_password(body.get("password"))
    except AccountRefused as exc:
        return refused(exc.args[0], 422)
    store = _mail(request).store
    before = await asyncio.to_thread(store.reset_account, token)
    if isinstance(before, str):
        return _token_refused(before)
    try:  # (hashed on the password threads, never on the rooms')
        hashed = await passwords.work.run(accounts.hash_password, password)
    except PasswordsBusy as busy:
        return passwords_busy(busy)
    done = await asyncio.to_thread(store.reset_password, token, hashed)
    if not isinstance(done, Reset):
        return _token_refused(done)
    if served.hub is not None:  # its pages open anywhere are told at once
        await served.hub.end_sessions(done.key, "ended")
    return _signed_out()
