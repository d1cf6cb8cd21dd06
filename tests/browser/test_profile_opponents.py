"""A player's profile leads on to his opponents' (issue 67 item 22): in his latest matches a
registered opponent's name is a link to that player's own page; a guest's name, a bot's
and the player's own are not (a guest has no page). Matches played over sockets opened
with the accounts' cookies on the worker's server; each player resigns at once (what a
match is and how it is rated is tested in process: tests/server/store/test_ratings.py)."""

from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import expect

from tests._accounts import session_cookie
from tests._server import Client
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_my_games import _Sockets


def _play_and_resign(server: Server, cookies: list[str | None], names: list[str]) -> None:
    """A Light Speed duel between these players (``None``: a guest, sitting as his name);
    the second resigns, and the match is stored."""
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    clients = []
    for cookie, name in zip(cookies, names, strict=True):
        headers = {"Cookie": cookie} if cookie else {}
        client = Client(_Sockets(server.base), room, headers=headers)  # type: ignore[arg-type]
        client.send(type="join", name=name)
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        clients.append(client)
    for client in clients:
        client.send(type="ready")
    clients[1].wait(lambda m: m["type"] == "state" and m.get("phase") == "fast")
    clients[1].send(type="resign")
    result = clients[0].wait_type("result")
    assert result["match_id"]
    for client in clients:
        client.close()


def test_a_profile_links_its_registered_opponents_not_guests(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann, ben = "Ann Linked", "Ben Linked"
    cookies = {name: session_cookie(server.base, name) for name in (ann, ben)}
    _play_and_resign(server, [cookies[ann], None], [ann, "Gus Guest"])
    _play_and_resign(server, [cookies[ann], cookies[ben]], [ann, ben])
    for width, height in ((1366, 800), (390, 844)):
        page = open_page(f"/players/{quote(ann)}", viewport={"width": width, "height": height})
        rows = page.locator("#matches tbody tr")
        expect(rows).to_have_count(2)
        links = page.locator("#matches .match-players a")
        expect(links).to_have_count(1)  # Ben; not Gus (a guest), not Ann herself
        assert links.inner_text() == ben
        assert links.get_attribute("href") == f"/players/{quote(ben)}"
        assert "Gus Guest" in rows.nth(1).inner_text()
        shot(page, f"profile-{width}")
    links.click()
    page.wait_for_url(f"**/players/{quote(ben)}")
    expect(page.locator("#player-name")).to_have_text(ben)
    back = page.locator("#matches .match-players a")
    expect(back).to_have_text(ann)  # his page leads back to hers
