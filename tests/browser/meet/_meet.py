"""What the meeting tests share (issue 69): players logged in in their own browsers,
Play now pressed in the lobby, and the room a pairing or a challenge seats them in."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage

#: Playwright's wait for a pairing to show: the issue's "seated together within 10 s".
SEATED_WITHIN_MS = 10_000
#: A phone's screen (the tests look at the meeting pages on one too).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}


def logged_in(open_page: OpenPage, base: str, name: str, path: str = "/", **options: Any) -> Page:
    """A browser of its own where ``name`` signed up (on the server at ``base``) and is
    logged in, at ``path``."""
    cookie = session_cookie(base, name)
    page = open_page("/login", **options)  # (a page without the account: its cookie first)
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": base}]
    )
    page.goto(path)
    return page


def play_now(page: Page, game: str, seats: int | None = None) -> None:
    """Press Play now in the lobby for ``game`` (``seats`` players when given); return once
    the server holds the seek (the pool may pair it at once: its rounds run every
    :data:`~spacetable.server.meet.pool.TICK_SECONDS` of real time too, the test clock
    only moving them sooner)."""
    page.wait_for_selector("#play-now-start:not([disabled])")
    page.select_option("#play-now-game", game)
    if seats is not None:
        page.select_option("#play-now-seats", str(seats))
    with page.expect_response(lambda r: r.url.endswith("/api/seeks") and r.status == 201):
        page.click("#play-now-start")


def seated_room(page: Page) -> str:
    """The room the page was sent to, once the player is seated in it (within
    :data:`SEATED_WITHIN_MS`)."""
    page.wait_for_url(re.compile(r"/rooms/[^/?]+"), timeout=SEATED_WITHIN_MS)
    page.wait_for_selector(".seat.mine", timeout=SEATED_WITHIN_MS)
    found = re.search(r"/rooms/([^/?#]+)", page.url)
    assert found is not None
    return found.group(1)


def send_challenge(page: Page, game: str) -> None:
    """Send the challenge of the dialog just opened, to ``game``."""
    page.wait_for_selector("#challenge-dialog[open]")
    page.select_option("#challenge-game", game)
    page.click("#challenge-send")
    page.wait_for_selector("#challenge-dialog", state="detached")
