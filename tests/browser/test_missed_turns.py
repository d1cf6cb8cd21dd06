"""A correspondence player is warned on his own screens (issue 67 item 14): Bob let his
FTL turn 1 run out; back in the room, under the banner, and on My games, he reads which
turn ran out and how many more in a row lose the match. The banner says "Your move" alone
while the turn waits on both players (item 22: it read "Your move · Waiting for Ann"). On
a laptop in English and on a phone in French; the server's clock moved past the deadline
(the rules of timeouts are tested in process: tests/server/rooms/test_correspondence.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations
from tests.browser.test_my_games import _seated, _waiting_on

HOUR = 3600


@pytest.mark.parametrize(
    ("lang", "width", "height", "words"),
    [
        (
            "en",
            1366,
            800,
            {
                "warning": "Your turn 1 ran out: 2 more in a row lose the match.",
                "move": "Your move",
                "others": "Waiting for",
            },
        ),
        (
            "fr",
            390,
            844,
            {
                "warning": "Le temps de votre tour 1 s\u2019est écoulé\u00a0: encore 2 de suite et "
                "vous perdez la partie.",
                "move": "À vous de jouer",
                "others": "En attente de",
            },
        ),
    ],
    ids=["laptop-en", "phone-fr"],
)
def test_a_player_back_after_a_missed_turn_reads_it_in_the_room_and_in_my_games(
    open_page: OpenPage,
    server: Server,
    shot: Shot,
    lang: str,
    width: int,
    height: int,
    words: dict[str, str],
) -> None:
    ann, bob = f"Ann Late {lang}", f"Bob Late {lang}"
    cookies = {name: session_cookie(server.base, name) for name in (ann, bob)}
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_hours": 1})["id"]
    clients = {name: _seated(server, room, cookies[name]) for name in (ann, bob)}
    clients[ann].wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    clients[ann].send(type="plot", orders=[])
    clients[ann].wait(_waiting_on(bob))
    clients[bob].close()  # Bob goes away; his turn 1 runs out
    server.advance(HOUR + 1)
    clients[ann].wait(lambda m: m["type"] == "timed_out" and m["players"] == [bob])
    clients[ann].close()

    page = open_page(f"/?lang={lang}", viewport={"width": width, "height": height})
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookies[bob].split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/rooms/{room}?lang={lang}")
    warning = page.locator("#missed-turns")
    expect(warning).to_have_text(words["warning"])
    # Turn 2 waits on both: he reads that it is his move, and only that.
    banner = page.locator("#correspondence")
    expect(banner).to_contain_text(words["move"])
    assert words["others"] not in banner.inner_text()
    shot(page, "room-warned")

    page.goto(f"/me/games?lang={lang}")
    item = page.locator(f".my-game:has(a[href='/rooms/{room}'])")
    expect(item.locator(".my-game-missed")).to_have_text(words["warning"])
    assert _serious_violations(page) == []  # its red readable on the dark page, say
    shot(page, "my-games-warned")
