"""Every page fits a 390 px phone when the server is busy: rooms of every game listed in
the lobby (with their Join and Watch buttons), finished matches stored, and players with
the longest name a seat takes, in one word. A page wider than the phone scrolls sideways
under the player's thumb; the lobby did (450 px) as soon as a room was listed (issue 20,
item 30).

The server here is one of its own (``running_server``): its matches and rooms are this
test's, whatever other tests stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests._server import Client, Server, running_server, seated
from tests.browser._play import store_fig1, take_seat
from tests.browser.conftest import OpenPage, Shot

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: The longest names a seat takes (24 characters), without a space to break them at.
LONG_NAMES = ("Maximilian_Vandenberghe2", "Konstantinopolitanischer")
#: A room of each game, as the lobby's forms create them.
ROOMS = {
    "lightspeed": {"ruleset": "lightspeed", "seats": 2},
    "stellar": {"ruleset": "stellar", "seats": 2, "races": ["vak", "wiss"]},
    "ftl": {"ruleset": "ftl", "seats": 2},
    "hexfleet": {"ruleset": "hexfleet", "seats": 2, "scenario": "duel"},
}


@dataclass
class Busy:
    """The busy server: a waiting room of each game (a long name in its first seat, the
    second free), a finished match of each game (the long-named player resigned against
    the bot) and the rulebook's Fig. 1 game stored."""

    server: Server
    rooms: dict[str, str]
    hosts: dict[str, Client]
    matches: dict[str, str]


def resigned_match(server: Server, options: dict[str, object], level: str) -> str:
    """A match of ``options`` that the long-named player resigned against a bot: its id."""
    client = seated(server, server.create_room(**options), LONG_NAMES[0])
    try:
        client.send(type="bot", seat=1, level=level)
        client.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
        client.send(type="ready")
        client.wait(lambda m: m["type"] == "state")
        client.send(type="resign")
        match_id: str = client.wait(lambda m: m["type"] == "result")["match_id"]
    finally:
        client.close()
    server.stored_match(match_id)  # stored before the pages ask for it
    return match_id


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Busy]:
    db = Path(tmp_path_factory.mktemp("busy")) / "matches.db"
    fig1 = store_fig1(db)
    with running_server(db, "--bot-pace", "0.05", room_seed=3) as server:
        levels = {game["key"]: game["default_bot"] for game in server.get("/api/games")}
        matches = {"fig1": fig1}
        for game, options in ROOMS.items():
            matches[game] = resigned_match(server, options, levels[game])
        rooms = {game: server.create_room(**options) for game, options in ROOMS.items()}
        hosts = {game: seated(server, room, LONG_NAMES[0], seat=0) for game, room in rooms.items()}
        try:
            yield Busy(server, rooms, hosts, matches)
        finally:
            for host in hosts.values():
                host.close()


def width(page: Page) -> int:
    """How wide the page is, scrolled sideways as far as it goes (CSS px)."""
    scroll_width: int = page.evaluate("document.scrollingElement.scrollWidth")
    return scroll_width


def test_every_page_fits_a_phone_with_rooms_matches_and_long_names(
    busy: Busy, open_page: OpenPage, shot: Shot
) -> None:
    base = busy.server.http
    widths: dict[str, int] = {}

    lobby = open_page(f"{base}/", **PHONE)
    lobby.fill("#name", LONG_NAMES[1])
    lobby.wait_for_function("document.querySelectorAll('#rooms tbody tr.room').length === 4")
    lobby.wait_for_selector("#recent li a")
    assert lobby.locator("#rooms a.join").count() == 4  # each room has a free seat
    assert LONG_NAMES[0] in lobby.inner_text("#rooms")
    lobby.locator("#rooms").scroll_into_view_if_needed()
    shot(lobby, "lobby-rooms")
    widths["lobby"] = width(lobby)
    desktop = open_page(f"{base}/", viewport={"width": 1366, "height": 800})
    desktop.wait_for_function("document.querySelectorAll('#rooms tbody tr.room').length === 4")
    desktop.locator("#rooms").scroll_into_view_if_needed()
    shot(desktop, "lobby-rooms-desktop")
    assert width(desktop) <= 1366

    # One phone tab goes from page to page, as a player's does (a new browser context for
    # each page cost Chromium about half a CPU-second more each).
    phone = open_page(f"{base}/matches", **PHONE)
    phone.wait_for_function("document.querySelectorAll('tr[data-match]').length === 5")
    phone.locator("#matches").scroll_into_view_if_needed()
    shot(phone, "matches")
    widths["match list"] = width(phone)

    for game, room in busy.rooms.items():
        phone.goto(f"{base}/rooms/{room}")
        take_seat(phone, LONG_NAMES[1], 1)
        shot(phone, f"room-{game}-seats")
        widths[f"{game} room, seats"] = width(phone)
        busy.hosts[game].send(type="ready")
        phone.click("button#ready")
        phone.wait_for_selector("body:not([data-phase=lobby])")
        shot(phone, f"room-{game}-playing")
        widths[f"{game} room, playing"] = width(phone)

    for game, match_id in busy.matches.items():
        phone.goto(f"{base}/replay/{match_id}")
        phone.wait_for_function("document.querySelector('#match-title')?.textContent.length > 0")
        shot(phone, f"replay-{game}")
        widths[f"{game} replay"] = width(phone)

    phone.goto(f"{base}/rules")
    phone.wait_for_function("[...document.images].every((img) => img.complete)")
    widths["rules"] = width(phone)

    for game in ("", "?game=ftl", "?game=hexfleet"):
        phone.goto(f"{base}/tutorial{game}")
        phone.wait_for_function("(document.body?.dataset.step ?? '') !== ''")
        widths[f"tutorial{game}"] = width(phone)

    phone.goto(f"{base}/referee")
    phone.wait_for_selector(".add-ship")
    shot(phone, "referee")
    widths["referee"] = width(phone)

    too_wide = {page: px for page, px in widths.items() if px > 390}
    assert not too_wide, f"wider than a 390 px phone: {too_wide}"
