"""A hex fleet turn as a player lives it: a move taken back (Undo move, Ctrl+Z) until a
card is turned; a turn that the blank ends before anyone acts is said, and stays said
through the next activation, and a run of them is said as one; a phone opens with both
fleets in sight; a turn that comes while the tab is hidden calls the player back; a
player's second device draws each fleet in its seat's colour from the first. Every room
names its seed: the chits and cards are the same on every run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests._server import running_server
from tests.browser._play import answer_name, box_of
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet.test_hexfleet_room import (
    move_towards_enemy,
    my_move_or_end,
    version,
    wait_for_next_action,
)
from tests.browser.test_invitations import HIDE, SHOW, chimes

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
#: A duel whose first chit is seat 1's ship (turn 1).
SHIP_FIRST = 1
#: A duel whose turn 1 ends at once: the blank is its first chit; turn 2 opens with seat
#: 1's ship (see HexMatch's opening events for this seed).
BLANK_FIRST = 6
#: A duel whose turns 1 to 5 all end at once (the blank out first each time); turn 6 opens
#: with seat 1's ship (HexMatch's opening events for this seed).
BLANK_RUN = 236


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """A server of this module's own that takes each room's seed."""
    db = tmp_path_factory.mktemp("hexfleet-turns") / "matches.db"
    with running_server(db, room_seed=1) as running:
        yield Server(running.http)


def open_duel(
    open_page: OpenPage, server: Server, seed: int, query: str, **context: object
) -> Page:
    """A duel of ``seed`` opened at ``/rooms/<id>?<query>`` as Ann, ready and started."""
    room = server.api(
        "/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 8, "seed": seed}
    )
    page = open_page(f"/rooms/{room['id']}?{query}", **context)
    if "hotseat" not in query:  # hot seat names both seats in the link
        answer_name(page, "Ann")
    page.wait_for_selector("button#ready")
    if "hotseat" in query:
        page.wait_for_function(
            "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
        )
    page.click("button#ready")
    page.wait_for_selector("body[data-phase=activation]")
    return page


def where(page: Page, ship: str) -> tuple[str | None, str | None]:
    locator = page.locator(f".ship[data-ship='{ship}']")
    return locator.get_attribute("data-hex"), locator.get_attribute("data-facing")


def test_a_move_is_taken_back_by_button_and_ctrl_z_until_a_card_is_turned(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_duel(open_page, server, SHIP_FIRST, "hotseat=Ann,Ben", viewport=DESKTOP)
    assert my_move_or_end(page)
    ship = page.get_attribute("body", "data-active") or ""
    start = where(page, ship)
    assert page.is_disabled("#undo-move")
    assert page.inner_text("#undo-move-why") == "no move yet"
    # A mis-click: the ship moves, and Undo move puts it back with its movement.
    moved_to = move_towards_enemy(page)
    assert moved_to is not None and where(page, ship) != start
    assert page.is_enabled("#undo-move")
    shot(page, "moved")
    before = version(page)
    page.click("#undo-move")
    wait_for_next_action(page, before)
    assert where(page, ship) == start
    assert "takes back its move" in page.inner_text("#log-panel")
    assert page.inner_text("#move-info").startswith("Movement: 8 of 8")
    # Ctrl+Z does the same, wherever the focus is but a text field.
    move_towards_enemy(page)
    before = version(page)
    page.locator("#players").click()
    page.keyboard.press("Control+z")
    wait_for_next_action(page, before)
    assert where(page, ship) == start
    shot(page, "taken-back")
    # Cards turned make the move final: the button says why, Ctrl+Z says so too.
    move_towards_enemy(page)
    before = version(page)
    page.click("#raise-shields")
    wait_for_next_action(page, before)
    assert page.is_disabled("#undo-move")
    assert page.inner_text("#undo-move-why") == "cards turned since the move"
    page.keyboard.press("Control+z")
    page.wait_for_selector("#action-message:has-text('Nothing to undo')")
    assert where(page, ship)[0] == moved_to
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#undo-move").scroll_into_view_if_needed()
    shot(page, "final-phone")


def test_a_turn_the_blank_ends_first_is_said_until_the_next_activation(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_duel(open_page, server, BLANK_FIRST, "bots=1:easy", viewport=DESKTOP)
    note = page.locator("#hex-blank-first")
    assert my_move_or_end(page)
    assert page.get_attribute("body", "data-turn") == "2"
    assert note.inner_text() == "Turn 1: the blank came out first — nobody acts."
    assert note.is_visible()
    shot(page, "said")
    # Still there however long Ann takes; gone once the next activation shows.
    mine = page.get_attribute("body", "data-active")
    page.click("#end-activation")
    page.wait_for_function(f"() => document.body.dataset.active !== '{mine}'")
    assert note.is_hidden()


@pytest.mark.parametrize(
    ("lang", "said", "screen"),
    [
        (
            "en",
            "Turns 1\u20135: the blank came out first 5 times in a row — nobody acted.",
            {"viewport": DESKTOP},
        ),
        (
            "fr",
            "Tours 1 à 5\u00a0: le blanc est sorti en premier 5 fois de suite"
            " — personne n\u2019a agi.",
            {"viewport": PHONE, "has_touch": True, "is_mobile": True},
        ),
    ],
    ids=["en-laptop", "fr-phone"],
)
def test_a_run_of_turns_the_blank_ends_first_is_said_as_one(
    open_page: OpenPage, server: Server, shot: Shot, lang: str, said: str, screen: dict[str, Any]
) -> None:
    """Issue 67 item 18: turns 1 to 4 went by unsaid (only the turn just before was)."""
    page = open_duel(open_page, server, BLANK_RUN, f"bots=1:easy&lang={lang}", **screen)
    assert my_move_or_end(page)
    assert page.get_attribute("body", "data-turn") == "6"
    note = page.locator("#hex-blank-first")
    assert note.inner_text() == said
    box = note.bounding_box()  # in sight as the activation opens, on a phone too
    assert box is not None and box["y"] >= 0 and note.is_visible()
    shot(page, f"run-{lang}")


def test_a_phone_opens_with_both_fleets_in_sight(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_duel(
        open_page,
        server,
        BLANK_FIRST,
        "bots=1:easy",
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
    )
    assert my_move_or_end(page)
    assert page.locator("#hex-blank-first").is_visible()
    board = page.locator("#table").bounding_box()
    zoom = page.locator(".hex-zoom").bounding_box()
    assert board is not None and zoom is not None
    ships = page.locator(".ship")
    assert ships.count() == 2
    for i in range(2):
        ship = ships.nth(i).get_attribute("data-ship")
        box = box_of(page, f".ship[data-ship='{ship}'] :is(circle, path, polygon)")
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        inside = board["x"] <= centre[0] <= board["x"] + board["width"]
        inside = inside and board["y"] <= centre[1] <= zoom["y"]  # above the zoom buttons
        assert inside, (ship, centre, board, zoom)
    shot(page, "opening")


def test_a_turn_that_comes_while_the_tab_is_hidden_calls_the_player_back(
    open_page: OpenPage, server: Server
) -> None:
    # Seed BLANK_FIRST: Ann's ship on turn 2, then the bot's, then Ann's again on turn 3.
    page = open_duel(open_page, server, BLANK_FIRST, "bots=1:easy", viewport=DESKTOP)
    assert my_move_or_end(page)
    title = page.title()
    assert not title.startswith("▶")  # the activation came while she looked
    mine = page.get_attribute("body", "data-active")
    page.evaluate(HIDE)  # Ann ends her activation and looks at another tab
    page.click("#end-activation")
    page.wait_for_function(f"() => document.body.dataset.active !== '{mine}'")
    assert not page.title().startswith("▶")  # the bot's activation: nothing to call
    page.wait_for_function("() => document.title.startsWith('▶ Your turn')", timeout=60_000)
    assert page.get_attribute("body", "data-turn") == "3"
    assert page.title() == f"▶ Your turn · {title}"
    assert (page.get_attribute("link[rel~='icon']", "href") or "").startswith("data:image/svg")
    assert chimes(page) == 1
    assert page.get_attribute("body", "data-active") == mine
    page.evaluate(SHOW)
    assert page.title() == title
    assert page.get_attribute("link[rel~='icon']", "href") == "/static/favicon.svg"


#: The hull colour of each owner's ships, and the colour of his row in the players' list.
FLEET_COLOURS = """() => {
  const hulls = {};
  for (const ship of document.querySelectorAll('.ship')) {
    hulls[ship.dataset.owner] = ship.querySelector('.hull').getAttribute('fill');
  }
  const rows = {};
  for (const row of document.querySelectorAll('#players .player')) {
    rows[row.dataset.player] = row.style.getPropertyValue('--team').trim();
  }
  return { hulls, rows };
}"""


def log_in(page: Page, server: Server, cookie: str) -> None:
    """The page's browser holds the session ``cookie`` (:func:`session_cookie`)."""
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": server.base}]
    )


def test_a_second_device_draws_each_fleet_in_its_seat_colour_at_once(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 67 item 17: an account's seat taken back on another device (the state came
    before the room's seats) drew the opponent's ship in the player's own colour until
    "Turn board" redrew the board."""
    cookie = session_cookie(server.base, "Ann Colours")
    room = server.api(
        "/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 8, "seed": SHIP_FIRST}
    )
    laptop = open_page("/", viewport=DESKTOP)
    log_in(laptop, server, cookie)
    laptop.goto(f"/rooms/{room['id']}?bots=1:easy")
    laptop.wait_for_selector("button#ready")
    laptop.click("button#ready")
    laptop.wait_for_selector("body[data-phase=activation]")
    assert my_move_or_end(laptop)
    seen = laptop.evaluate(FLEET_COLOURS)
    assert seen["hulls"] == seen["rows"] and len(set(seen["hulls"].values())) == 2
    laptop.close()  # Ann goes on on her phone
    phone = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    log_in(phone, server, cookie)
    phone.goto(f"/rooms/{room['id']}")
    phone.wait_for_selector("body[data-role=player][data-phase=activation]")
    phone.wait_for_function("() => document.querySelectorAll('.ship').length === 2")
    phone.wait_for_function("() => document.querySelectorAll('#players .player').length === 2")
    shot(phone, "second-device")
    assert phone.evaluate(FLEET_COLOURS) == seen  # "Turn board" never pressed
