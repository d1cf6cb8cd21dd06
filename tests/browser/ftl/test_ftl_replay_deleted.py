"""The replay of an FTL match whose player deleted his account (issue 67 item 19): his
name is nowhere on the page (title, seats, orders, log), his ship and missile read
"anonymous" and are drawn in his seat's colour, red, as before (they turned grey: the
ship's owner, from the match's options, no longer matched the renamed seat)."""

from __future__ import annotations

import json
import urllib.request
from types import SimpleNamespace

from playwright.sync_api import Page

from tests._accounts import session_cookie
from tests._server import Client
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl.test_ftl_replay import shown_pieces

NAME = "Zora Leaving"
#: Seat 0's colour (shell/colours.js), and the grey of no seat.
RED, GREY = "#ff330f", "#8891a8"


def _fill(page: Page, piece: str) -> str:
    fill: str = page.locator(f".ftl-pieces .ftl-piece[data-piece='{piece}'] .silhouette").evaluate(
        "e => e.getAttribute('fill')"
    )
    return fill


def test_a_deleted_player_reads_anonymous_in_his_seat_colour(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    cookie = session_cookie(server.base, NAME)
    created = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_limit": 2})
    urls = SimpleNamespace(ws=server.base.replace("http://", "ws://"))
    zora = Client(urls, created["id"], headers={"Cookie": cookie})  # type: ignore[arg-type]
    orders = {1: [f"{NAME}:L"], 2: [f"{NAME}-m1:S3"]}
    try:
        zora.send(type="join", name="x")
        zora.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        zora.send(type="bot", seat=1, level="random")
        zora.send(type="ready")
        while True:
            message = zora.wait(lambda m: m["type"] in ("state", "result"), timeout=30)
            if message["type"] == "result":
                break
            if message["phase"] == "plot" and not message["players"][NAME]["plotted"]:
                zora.send(type="plot", orders=orders[message["turn"]])
    finally:
        zora.close()
    request = urllib.request.Request(
        server.base + "/api/accounts/me",
        data=json.dumps({"password": "12345678"}).encode(),
        headers={"Cookie": cookie, "content-type": "application/json"},
        method="DELETE",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 204

    page = open_page(f"/replay/{message['match_id']}", reduced_motion="reduce")
    page.wait_for_selector("body[data-phase=over]", timeout=30_000)
    page.click("[data-step='first']")
    page.click("[data-step='next']")
    page.wait_for_function("document.querySelector('#replay-log').textContent.includes('L')")
    assert "anonymous-m1" in shown_pieces(page)
    assert _fill(page, "anonymous") == RED
    assert _fill(page, "anonymous-m1") == RED
    shot(page, "turn-1")
    page.click("[data-step='last']")
    page.wait_for_selector("body[data-phase=over]")
    assert "Zora" not in page.locator("body").inner_text()
    assert "anonymous" in page.inner_text(".ftl-turns > li[data-turn='1']")
