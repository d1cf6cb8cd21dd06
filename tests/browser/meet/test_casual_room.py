"""A casual challenge's room says so (issue 69): its seats' panel reads "Casual match: not
rated" where a room of two accounts reads "Rated match", and its end card says why the
match was not rated. The room is made by an accepted challenge, both players seated in
it before their pages open it."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, Server
from tests.browser.meet._meet import PHONE, logged_in


def _call(base: str, path: str, page_cookies: list[Any], body: Any) -> Any:
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page_cookies)
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def test_a_casual_challenge_s_room_says_it_is_not_rated(
    open_page: OpenPage, server: Server
) -> None:
    ann = logged_in(open_page, server.base, "CasualAnn")
    bob = logged_in(open_page, server.base, "CasualBob", **PHONE)
    body = {"to": "CasualBob", "game": "lightspeed", "rated": False}
    sent = _call(server.base, "/api/challenges", ann.context.cookies(), body)["id"]
    room = _call(server.base, f"/api/challenges/{sent}/accept", bob.context.cookies(), {})["room"]
    for page in (ann, bob):
        page.goto(f"/rooms/{room}")
        page.wait_for_selector(".seat.mine")  # seated already: nobody joined
        expect(page.locator("#rated-note")).to_have_text(
            "Casual match: not rated, as its players chose."
        )
        page.click("#ready")
    ann.click("#resign")
    ann.locator("dialog[open] button").filter(has_text="Resign").first.click()
    for page in (ann, bob):
        expect(page.locator(".end-ratings")).to_have_text(
            "Not rated: a casual match, as its players chose."
        )
