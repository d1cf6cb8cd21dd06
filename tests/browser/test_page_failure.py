"""A page whose script fails where nothing catches it says so (shell/failures.js): the
rules page asks the server for the games and the answer never comes (the request is cut,
as on a weak connection); the page tells it at its top, in its language, and to reload,
instead of stopping half-built in silence. Laptop in English, phone in French."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Route, expect

from tests.browser._pages import PagePool, borrowed_page
from tests.browser.conftest import Server, Shot

#: Each size's context options, the page's language and what the notice says in it.
SIZES: dict[str, tuple[dict[str, Any], str, str]] = {
    "laptop-en": (
        {"viewport": {"width": 1366, "height": 800}},
        "en",
        "Something went wrong: the server could not be reached. Reload the page to try again.",
    ),
    "phone-fr": (
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
        "fr",
        "Quelque chose n'a pas marché : le serveur n'a pas répondu. Rechargez la page pour"
        " réessayer.",
    ),
}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_request_cut_short_is_told_at_the_top_of_the_page(
    server: Server, page_pool: PagePool, shot: Shot, size: str
) -> None:
    options, lang, said = SIZES[size]
    with borrowed_page(page_pool, server.base, options) as (page, errors):

        def cut(route: Route) -> None:
            route.abort("connectionreset")

        page.route("**/api/games", cut)  # (the page is not pooled again after its route)
        page.goto(f"/rules?lang={lang}")
        notice = page.locator(".page-failure[role=alert]")
        expect(notice).to_have_text(said)
        box = notice.bounding_box()
        assert box is not None and box["y"] == 0 and box["width"] <= options["viewport"]["width"]
        shot(page, "notice")
        # The failure is still the page's: its uncaught error is reported as before.
        assert "uncaught: Failed to fetch" in errors, errors
