"""The "My games" page (issue 37 item 4): a logged-in player's correspondence matches,
the one waiting on him first, the lobby's top bar counting it, and the room it links to;
on a laptop in English and on a phone in French. Two FTL rooms with ``turn_hours`` on the
worker's server, played over sockets opened with the accounts' cookies (the rules and
timeouts are tested in process: tests/server/rooms/test_correspondence.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests._server import Client
from tests.browser._pages import paused_clock
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations


class _Sockets:
    """The worker's server as tests/_server.Client reaches it."""

    def __init__(self, base: str) -> None:
        self.ws = base.replace("http://", "ws://", 1)


def _seated(server: Server, room: str, cookie: str) -> Client:
    client = Client(_Sockets(server.base), room, headers={"Cookie": cookie})  # type: ignore[arg-type]
    client.send(type="join", name="x")
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    client.send(type="ready")
    return client


def _waiting_on(name: str) -> Callable[[dict[str, Any]], bool]:
    """A ``room`` message saying the match waits on ``name`` alone."""
    return lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == [name]


@pytest.mark.parametrize(
    ("lang", "width", "height", "words"),
    [
        (
            "en",
            1366,
            800,
            {
                "title": "My games",
                "mine": "Your move",
                "link": "My games (1",
                "left": "24 hours",
                "back": "Back to your seat",
                "post": "by correspondence, 24 h a turn",
            },
        ),
        (
            "fr",
            390,
            844,
            {
                "title": "Mes parties",
                "mine": "À vous de jouer",
                "link": "Mes parties (1",
                "left": "24 heures",
                "back": "Retour à votre place",
                "post": "par correspondance, 24 h par tour",
            },
        ),
    ],
    ids=["laptop-en", "phone-fr"],
)
def test_my_games_lists_the_match_waiting_on_me_first(
    open_page: OpenPage,
    server: Server,
    shot: Shot,
    lang: str,
    width: int,
    height: int,
    words: dict[str, str],
) -> None:
    ann, bob = f"Ann {lang}", f"Bob {lang}"
    cookies = {ann: session_cookie(server.base, ann), bob: session_cookie(server.base, bob)}
    rooms = []
    for plots_first in (ann, bob):  # the first waits on Bob, the second on Ann
        room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 24})["id"]
        clients = {name: _seated(server, room, cookies[name]) for name in (ann, bob)}
        clients[ann].wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        clients[plots_first].send(type="plot", orders=[])
        clients[plots_first].wait(_waiting_on(bob if plots_first == ann else ann))
        for client in clients.values():
            client.close()
        rooms.append(room)

    page = open_page(f"/?lang={lang}", viewport={"width": width, "height": height})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookies[bob].split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/?lang={lang}")
    link = page.locator(".topbar .my-games-link")
    link.wait_for()
    page.wait_for_function(
        "(w) => document.querySelector('.topbar .my-games-link').textContent.startsWith(w)",
        arg=words["link"],
    )
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # The lobby's list of rooms leads him back to his seats (it offered "Watch" alone).
    back = page.locator(f"#rooms tr[data-room='{rooms[0]}'] a.return")
    back.wait_for()
    assert back.inner_text() == words["back"] and back.get_attribute("href") == f"/rooms/{rooms[0]}"
    assert page.locator(f"#rooms tr[data-room='{rooms[0]}'] a.watch").count() == 0
    # (in the reader's language: Babel's extraction missed the message, French read English)
    assert words["post"] in page.inner_text(f"#rooms tr[data-room='{rooms[0]}'] .room-game")
    shot(page, "lobby")
    page.select_option("#ruleset", "ftl")  # the option to create such a room
    hours = page.locator("[name='turn_hours']")
    hours.scroll_into_view_if_needed()
    shot(page, "lobby-ftl-form")
    link.click()
    page.wait_for_url("**/me/games")
    page.wait_for_selector(".my-game")
    assert page.locator("h1").inner_text() == words["title"]
    # The language menu on the title's row, as on the other account pages (a phone's had a
    # row of its own, under the links).
    title = page.locator(".topbar h1").bounding_box()
    menu = page.locator(".topbar #lang-switch").bounding_box()
    assert title and menu
    middles = (title["y"] + title["height"] / 2, menu["y"] + menu["height"] / 2)
    assert abs(middles[0] - middles[1]) < 12, (title, menu)
    games = page.locator(".my-game")
    assert games.count() == 2
    first = games.nth(0)
    assert "mine" in (first.get_attribute("class") or "")
    assert first.locator(".my-game-status").inner_text() == words["mine"]
    # The turn began moments ago: 24 hours left of its 24 (the count read 23 by then).
    assert first.locator(".my-game-left").inner_text().startswith(words["left"])
    assert first.locator("a").get_attribute("href") == f"/rooms/{rooms[0]}"
    assert ann in games.nth(1).locator(".my-game-status").inner_text()
    for index in range(2):
        item = games.nth(index).bounding_box()
        assert item is not None and item["x"] >= 0 and item["x"] + item["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert _serious_violations(page) == []
    shot(page, "my-games")
    # The room it links to seats him by his account and says whom the turn waits on.
    first.locator("a").click()
    post = page.locator("#correspondence")
    post.wait_for(state="visible")
    assert words["mine"] in post.inner_text() and bob not in post.inner_text()
    box = post.bounding_box()  # in the banner, in sight (a laptop had it below the fold)
    assert box is not None and box["y"] + box["height"] <= height, box
    post.scroll_into_view_if_needed()
    shot(page, "room")


def test_my_games_sees_a_move_within_a_minute(open_page: OpenPage, server: Server) -> None:
    """The page asks again every minute (the page's clock is Playwright's, moved a minute
    on instead of waited): Ann plots while Bob looks at his list, and a minute later it
    says it is his move, without a reload."""
    ann, bob = "Ann poll", "Bob poll"
    cookies = {name: session_cookie(server.base, name) for name in (ann, bob)}
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 24})["id"]
    clients = {name: _seated(server, room, cookies[name]) for name in (ann, bob)}
    clients[bob].wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    clients[bob].send(type="plot", orders=[])
    clients[bob].wait(_waiting_on(ann))
    clients[bob].close()

    page = open_page("/")
    paused_clock(page)
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookies[bob].split("=", 1)[1], "url": server.base}]
    )
    page.goto("/me/games")
    status = page.locator(".my-game .my-game-status")
    page.wait_for_function(
        "(a) => document.querySelector('.my-game .my-game-status')?.textContent"
        " === `Waiting for ${a}`",
        arg=ann,
    )
    clients[ann].send(type="plot", orders=[])
    clients[ann].wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    clients[ann].close()
    page.clock.run_for(59_000)
    assert status.inner_text() == f"Waiting for {ann}"  # not asked again yet
    page.clock.run_for(1_000)
    page.wait_for_function(
        "document.querySelector('.my-game .my-game-status')?.textContent === 'Your move'"
    )
