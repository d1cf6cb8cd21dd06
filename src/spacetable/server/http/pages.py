"""The browser's pages: every page is the one head (``web/head.html``: its title, the
shell's stylesheet, the page's script) followed by the page's own body
(``web/<name>.html``), composed when served; most bodies show the common top bar
(``web/topbar.html``: :data:`TOPBARS`). A room page also names the game its room
plays (``<html data-game="...">``), so that it loads only that game's module. A page is
written in the reader's language (``<html lang="fr">``, its words from the catalogs:
:mod:`spacetable.i18n.html`); the languages the switch offers are on ``<html>`` too.
Its :data:`router` serves the pages but a room's (``http/rooms.py``), the catalogs'
messages for the browser and the rules' figures; :func:`not_found` answers a link to
nothing with a page.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from html import escape
from importlib import resources
from string import Template

import orjson
from fastapi import APIRouter, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from spacetable import i18n
from spacetable._userinput import clipped
from spacetable.i18n import N_, choose, client_catalog, language_names, translator
from spacetable.i18n.html import translate_html
from spacetable.i18n.phrase import Reason, phrase, refusal
from spacetable.registry import listings
from spacetable.server.http.deps import Accounts, Cache, services
from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore
from spacetable.server.store.storage import StorageUnavailable

WEB = resources.files("spacetable") / "web"


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its body's file under ``web/``, its title and its script under ``web/js/``."""

    body: str
    title: str
    script: str


#: Every page by name.
PAGES: dict[str, Page] = {
    "lobby": Page("index.html", N_("spacetable — space battles at one table"), "pages/lobby.js"),
    "room": Page("room.html", N_("Room — spacetable"), "pages/room.js"),
    "matches": Page("matches.html", N_("Finished matches — spacetable"), "pages/matches.js"),
    "replay": Page("replay.html", N_("Replay — spacetable"), "pages/replay.js"),
    "referee": Page("referee.html", N_("Referee sandbox — spacetable"), "pages/referee.js"),
    "tutorial": Page("tutorial.html", N_("Learn by playing — spacetable"), "pages/tutorial.js"),
    "rules": Page("rules.html", N_("How to play — spacetable"), "pages/rules.js"),
    "login": Page("login.html", N_("Log in — spacetable"), "pages/account.js"),
    "signup": Page("signup.html", N_("Sign up — spacetable"), "pages/account.js"),
    "profile": Page("profile.html", N_("Player — spacetable"), "pages/profile.js"),
    "leaderboard": Page("leaderboard.html", N_("Leaderboard — spacetable"), "pages/leaderboard.js"),
    "mygames": Page("mygames.html", N_("My games — spacetable"), "pages/mygames.js"),
    # Whom a player follows, with their presence, and whom he blocks (http/relations.py).
    "friends": Page("friends.html", N_("Friends — spacetable"), "pages/friends.js"),
    # Swiss tournaments: the list and a tournament's page (http/tournaments.py).
    "tournaments": Page("tournaments.html", N_("Tournaments — spacetable"), "pages/tournaments.js"),
    "tournament": Page("tournament.html", N_("Tournament — spacetable"), "pages/tournaments.js"),
    # An over-the-board table: its result reported with the table's code and confirmed.
    "tournamenttable": Page(
        "tournamenttable.html", N_("Tournament table — spacetable"), "pages/tournaments.js"
    ),
    "deleteaccount": Page(
        "deleteaccount.html", N_("Delete your account — spacetable"), "pages/deleteaccount.js"
    ),
    # A player's settings: his e-mail address (http/email_routes.py); the password reset.
    "settings": Page("settings.html", N_("Settings — spacetable"), "pages/settings.js"),
    "verifyemail": Page(
        "verifyemail.html", N_("Your e-mail address — spacetable"), "pages/email.js"
    ),
    "resetpassword": Page(
        "resetpassword.html", N_("Reset your password — spacetable"), "pages/email.js"
    ),
    "unsubscribe": Page("unsubscribe.html", N_("Daily digest — spacetable"), "pages/email.js"),
    # The moderators' page (its routes answer only a moderator: http/moderation.py).
    "admin": Page("admin.html", N_("Moderation — spacetable"), "pages/admin.js"),
    # An address that leads nowhere: the server writes why (:func:`missing_page`); the
    # page's only script is the shell's language switch.
    "missing": Page("missing.html", N_("Cannot open this page — spacetable"), "shell/i18n.js"),
    # A player's page for a name no account has (:func:`no_player_page`).
    "noplayer": Page("noplayer.html", N_("No player called {name} — spacetable"), "shell/i18n.js"),
}


@dataclass(frozen=True, slots=True)
class TopBar:
    """A page's top bar (``web/topbar.html``): its heading and its links, by path (keys of
    :data:`LINKS`)."""

    heading: str
    links: tuple[str, ...]


#: The pages a top bar links to, by path, with the link's words.
LINKS: dict[str, str] = {
    "/": N_("Lobby"),
    "/matches": N_("Finished matches"),
    "/referee": N_("Referee sandbox"),
    "/tournaments": N_("Tournaments"),
    "/tutorial": N_("Tutorial"),
    "/rules": N_("Rules"),
}

_BACK = ("/", "/matches")  # the accounts' and players' pages lead back to these

#: The pages that show the common top bar, in place of their body's :data:`TOPBAR_PLACE`
#: (a room's and a replay's write their own: they show the room and the match).
TOPBARS: dict[str, TopBar] = {
    "lobby": TopBar(N_("Lobby"), ("/matches", "/tournaments", "/referee")),
    "matches": TopBar(N_("Finished matches"), ("/", "/referee")),
    "referee": TopBar(N_("Referee sandbox"), _BACK),
    "tutorial": TopBar(N_("Learn by playing"), ("/", "/rules")),
    "rules": TopBar(N_("How to play"), ("/", "/tutorial", "/referee")),
    "login": TopBar(N_("Log in"), _BACK),
    "signup": TopBar(N_("Sign up"), _BACK),
    "profile": TopBar(N_("Player"), _BACK),
    "leaderboard": TopBar(N_("Leaderboard"), _BACK),
    "mygames": TopBar(N_("My games"), _BACK),
    "friends": TopBar(N_("Friends"), _BACK),
    "tournaments": TopBar(N_("Tournaments"), _BACK),
    "tournament": TopBar(N_("Tournament"), ("/", "/tournaments")),
    "tournamenttable": TopBar(N_("Tournament table"), ("/", "/tournaments")),
    "deleteaccount": TopBar(N_("Delete your account"), _BACK),
    "admin": TopBar(N_("Moderation"), _BACK),
    "settings": TopBar(N_("Settings"), _BACK),
    "verifyemail": TopBar(N_("Your e-mail address"), _BACK),
    "resetpassword": TopBar(N_("Reset your password"), _BACK),
    "unsubscribe": TopBar(N_("Daily digest"), _BACK),
    "missing": TopBar(N_("Cannot open this page"), _BACK),
    "noplayer": TopBar(N_("Player"), _BACK),
}

#: Where the missing page's body says why (:func:`missing_page`).
REASON_PLACE = "<!-- reason -->"

#: Where a body shows the common top bar.
TOPBAR_PLACE = "<!-- topbar -->"


@functools.cache
def _read(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def _topbar(bar: TopBar) -> str:
    """The common top bar, in English (translated with the body it stands in)."""
    links = " · ".join(f'<a href="{path}">{escape(LINKS[path])}</a>' for path in bar.links)
    return Template(_read("topbar.html")).substitute(heading=escape(bar.heading), links=links)


@functools.cache
def _body(name: str, lang: str) -> str:
    """The body of page ``name`` in language ``lang``, with its top bar if it shows the
    common one."""
    body = _read(PAGES[name].body)
    if name in TOPBARS:
        body = body.replace(TOPBAR_PLACE, _topbar(TOPBARS[name]).strip(), 1)
    return translate_html(body, translator(lang).messages)


@functools.cache
def _languages(languages: tuple[str, ...]) -> str:
    """The switch's languages, each with its own name, as the page's ``data-languages``."""
    return escape(orjson.dumps(language_names(languages)).decode())


def compose(
    name: str,
    *,
    game: str | None = None,
    lang: str = "en",
    node: str | None = None,
    account: str | None = None,
    static: str = "/static",
    title: str | None = None,
) -> str:
    """The HTML of page ``name`` (a key of :data:`PAGES`) in language ``lang``; ``game``
    is the key of the game the page shows, if it is known before the page loads;
    ``node``, the balancer's name for the server process that holds the page's room;
    ``account``, the name of the reader's account if he is logged in (the page's header
    shows it: ``web/js/shell/account.js``); ``static``, where the page finds the scripts
    and stylesheets (the application's versioned address: ``http/assets.py``); ``title``,
    the page's title written already (else its own, translated)."""
    page = PAGES[name]
    attrs = f' data-game="{escape(game)}"' if game else ""
    attrs += f' data-node="{escape(node)}"' if node else ""
    attrs += f' data-account="{escape(account)}"' if account else ""
    attrs += f' data-languages="{_languages(i18n.LANGUAGES)}"'
    head = Template(_read("head.html")).substitute(
        lang=escape(lang),
        html_attrs=attrs,
        title=escape(translator(lang).gettext(page.title) if title is None else title),
        script=escape(page.script),
        static=escape(static),
    )
    return head + _body(name, lang)


def reader_language(connection: HTTPConnection) -> str:
    """The language of a request or socket: ``?lang=`` in its link, else the one the
    reader picked on the page's switch (the ``lang`` cookie), else ``Accept-Language``."""
    return choose(
        connection.query_params.get("lang"),
        connection.cookies.get("lang"),
        connection.headers.get("accept-language"),
    )


async def account_name(connection: HTTPConnection) -> str | None:
    """The name of the account whose session the request's cookie carries, if any (the
    accounts are the application's: ``app.state.accounts``)."""
    session_id = connection.cookies.get(SESSION_COOKIE)
    accounts: AccountStore | None = getattr(connection.app.state, "accounts", None)
    if session_id is None or accounts is None:
        return None
    try:
        account = await asyncio.to_thread(accounts.session_account, session_id)
    except StorageUnavailable:
        return None  # the database is away: the page shows the reader as a guest
    return None if account is None else account.name


async def missing_page(request: Request, reason: Reason, status: int) -> HTMLResponse:
    """The page for an address that leads nowhere (a room that closed, a mistyped link, a
    room that could not come back), saying ``reason`` in the reader's language, with the
    ways on from there; its status is ``status`` (404, 410, 503)."""
    lang = reader_language(request)
    html = compose(
        "missing",
        lang=lang,
        account=await account_name(request),
        static=request.app.state.assets.prefix,
    )
    said = escape(reason.phrase.text(translator(lang)))
    return HTMLResponse(html.replace(REASON_PLACE, said, 1), status_code=status)


async def no_player_page(request: Request, name: str) -> HTMLResponse:
    """The page of a player ``name`` that no account has (a misspelled name, a deleted
    account): it says so in the reader's language and leads to the leaderboards (404)."""
    lang = reader_language(request)
    tr = translator(lang)
    shown = name if len(name) <= 40 else name[:39] + "…"
    html = compose(
        "noplayer",
        lang=lang,
        account=await account_name(request),
        static=request.app.state.assets.prefix,
        title=phrase("No player called {name} — spacetable", name=shown).text(tr),
    )
    heading = escape(phrase("No player called {name}", name=shown).text(tr))
    return HTMLResponse(html.replace(REASON_PLACE, heading, 1), status_code=404)


def wants_page(request: Request) -> bool:
    """Whether ``request`` is a browser's asking for a page (a link followed, an address
    typed), not a script's for data or a file: such a request that finds nothing gets
    :func:`missing_page` instead of JSON."""
    return (
        request.method == "GET"
        and "text/html" in request.headers.get("accept", "")
        and not request.url.path.startswith(_NOT_PAGES)
    )


#: Addresses under which nothing is a page (data, files, sockets).
_NOT_PAGES = ("/api/", "/static/", "/i18n/", "/rules/figures/", "/ws/")


#: The pages served as they are, in the reader's language, by path (a replay's page finds
#: its match from its own address).
_PAGES = {
    "/": "lobby",
    "/matches": "matches",
    "/replay/{match_id}": "replay",
    "/referee": "referee",
    "/tutorial": "tutorial",
    "/rules": "rules",
    "/login": "login",
    "/signup": "signup",
    "/leaderboard/{game}": "leaderboard",
    "/me/games": "mygames",
    "/me/friends": "friends",
    "/tournaments": "tournaments",
    "/tournaments/{tournament_id}": "tournament",
    "/tournaments/{tournament_id}/tables/{round_}/{table}": "tournamenttable",
    "/me/delete": "deleteaccount",
    "/admin": "admin",
    "/me/settings": "settings",
    "/email/verify": "verifyemail",
    "/password-reset": "resetpassword",
    "/email/unsubscribe": "unsubscribe",
}


#: The pages from which a reader uploads tables or photos to the referee: serving one
#: starts the referee's workers (:meth:`~spacetable.server.http.referee_pool.RefereePool.warm`),
#: so that the first upload does not wait seconds for them.
_UPLOAD_PAGES = frozenset({"referee", "tournamenttable"})


async def _serve(request: Request, page: str) -> HTMLResponse:
    """``page`` in the reader's language (a page that uploads warms the referee first)."""
    if page in _UPLOAD_PAGES:
        services(request).referee.warm()
    account = await account_name(request)
    lang = reader_language(request)
    static = request.app.state.assets.prefix
    return HTMLResponse(compose(page, lang=lang, account=account, static=static))


async def serve_page(request: Request) -> HTMLResponse:
    """The route of every page of :data:`_PAGES`: the one its route names (``<page>_page``)."""
    route: APIRoute = request.scope["route"]
    return await _serve(request, route.name.removesuffix("_page"))


def _rules_figure(name: str, lang: str) -> str | None:
    """The rules page's picture ``name`` drawn in ``lang`` (``None``: no such figure), on
    a thread. The drawing code (every game's renderer) is imported on the first one, not
    when the server starts."""
    from spacetable.render.rules_figures import FIGURES, figure_svg

    return figure_svg(name, translator(lang)) if name in FIGURES else None


#: The pages but a room's, the browser's catalogs (``/i18n/{lang}.json``) and the rules'
#: figures (``/rules/figures/{name}.svg``).
router = APIRouter()

for _path, _page in _PAGES.items():
    router.get(_path, include_in_schema=False, name=f"{_page}_page")(serve_page)


@router.get("/players/{name}", include_in_schema=False, name="profile_page")
async def profile_page(request: Request, name: str, accounts: Accounts) -> HTMLResponse:
    # A name no account has (misspelled, or its account deleted): a page that says so,
    # not the profile's empty tables under the API's refusal.
    try:
        missing = await asyncio.to_thread(accounts.find, name[:80]) is None
    except StorageUnavailable:
        missing = False  # the database is away: the profile's script says so
    if missing:
        return await no_player_page(request, name)
    return await _serve(request, "profile")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboards() -> RedirectResponse:
    # The account menu's "Leaderboard": the first game's, whose page leads to the others'.
    first = next(listing.key for listing in listings() if listing.playable)
    return RedirectResponse(f"/leaderboard/{first}")


async def not_found(request: Request, exc: Exception) -> Response:
    """The application's answer to an HTTP error (its exception handler for Starlette's
    ``HTTPException``): a link followed to an address that is nothing here gets a page that
    says so, in the reader's language, not FastAPI's JSON; everything else is answered as
    FastAPI answers it."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and wants_page(request):
        there = refusal("There is no page at {path}.", path=clipped(request.url.path))
        return await missing_page(request, there, 404)
    return await http_exception_handler(request, exc)


@router.get("/i18n/{lang}.json", include_in_schema=False)
async def messages(lang: str) -> Response:
    if lang not in i18n.LANGUAGES:
        raise HTTPException(404, f"no language {clipped(lang)}")
    body = orjson.dumps(client_catalog(translator(lang)))
    headers = {"Cache-Control": "no-cache"}
    return Response(body, media_type="application/json", headers=headers)


@router.get("/rules/figures/{name}.svg", include_in_schema=False)
async def rules_figure(drawn: Cache, name: str, lang: str = i18n.SOURCE) -> Response:
    # The language is the link's (?lang=fr), never the reader's cookie: one address,
    # one picture, however it is cached. Each is drawn once (``drawn.figures``).
    if lang not in i18n.LANGUAGES:
        raise HTTPException(404, f"no language {clipped(lang)}")
    figures = drawn.figures
    if (name, lang) not in figures:
        drawn_now = await asyncio.to_thread(_rules_figure, name, lang)
        if drawn_now is None:
            raise HTTPException(404, f"the rules have no figure {clipped(name)}")
        figures[name, lang] = drawn_now
    headers = {"Cache-Control": "public, max-age=3600"}
    return Response(figures[name, lang], media_type="image/svg+xml", headers=headers)
