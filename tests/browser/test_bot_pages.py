"""A bot account on the pages (issue 72 item 2): its profile labels its name BOT, and the
leaderboard's Bots tab lists the bot accounts apart from the people, saying what they are,
in French on a phone (the API's rules are tested in process:
tests/server/http/test_bot_accounts.py)."""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import quote

from playwright.sync_api import expect

from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot


def _bot_account(server: Server, name: str) -> None:
    """Sign ``name`` up, make it a token and, with it, a bot account."""
    cookie = session_cookie(server.base, name)
    body = json.dumps({"description": "bot", "scopes": ["bot:play"]}).encode()
    made = urllib.request.Request(
        server.base + "/api/tokens",
        data=body,
        headers={"content-type": "application/json", "cookie": cookie},
    )
    with urllib.request.urlopen(made, timeout=10) as answer:
        token = json.load(answer)["token"]
    upgrade = urllib.request.Request(
        server.base + "/api/bot/account/upgrade",
        data=b"",
        headers={"authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(upgrade, timeout=10) as answer:
        assert json.load(answer)["bot"] is True


def test_a_bot_account_is_labelled_bot_and_ranked_apart(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    name = "Robo Pages"
    _bot_account(server, name)
    phone = {"width": 390, "height": 844}
    page = open_page(f"/players/{quote(name)}?lang=fr", viewport=phone)
    label = page.locator("#player-name .bot-tag")
    expect(label).to_have_text("BOT")
    assert label.get_attribute("title") == "un compte de bot : un programme joue pour lui"
    shot(page, "bot-profile")
    page.goto("/leaderboard/lightspeed?bots=1&lang=fr")
    expect(page.locator("#board-bots")).to_have_attribute("aria-current", "page")
    expect(page.locator("#board-people")).to_have_attribute("href", "/leaderboard/lightspeed")
    expect(page.locator("#bots-about")).to_be_visible()
    assert page.locator("#bots-about").inner_text().startswith("Les comptes de bot sont")
    expect(page.locator("#no-players")).to_have_text(
        "Aucun compte de bot n\u2019est encore classé dans ce jeu."
    )
    shot(page, "bots-board")
    page.locator("#board-people").click()
    page.wait_for_url("**/leaderboard/lightspeed")
    expect(page.locator("#bots-about")).to_be_hidden()
