"""Seats and names that behave, in the browser: creating a room seats you, two players of
one name both play, a closed tab gets its seat back from the bot that stood in, a second
tab on the same seat watches and is told so, long names are cut with an ellipsis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests._server import Client, Server, running_server
from tests.browser._play import answer_name, hand_ship, place, player, take_seat
from tests.browser.conftest import OpenPage, Shot
from tests.browser.conftest import Server as PageServer

#: Seconds a seat waits for its player before a bot stands in (the server's option).
ABANDON_S = 2.0
LONG_NAME = "Bartholomew Maximilianus"  # 24 characters, the most a name may have


@pytest.fixture(scope="module")
def seat_server(
    tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
) -> Iterator[Server]:
    """A server whose seats wait 2 s for their players, and whose bots play slowly (so
    that a match outlives a player's absence)."""
    db = tmp_path_factory.mktemp("seats") / "matches.db"
    with running_server(
        Path(db), "--abandon-seconds", str(ABANDON_S), "--bot-pace", "3", "--stop-seconds", "15"
    ) as running:
        yield running


def watch_errors(page: Page, errors: list[str]) -> Page:
    """Fail the test on ``page``'s console errors too (a page the fixture did not open)."""
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    return page


def free_spot(index: int) -> tuple[float, float]:
    """A spot for a card well away from the middle: one per index."""
    return (-420.0 + 140.0 * (index % 7), -250.0 if index < 7 else 230.0)


def test_two_players_of_one_name_both_place_cards(
    seat_server: Server, open_page: OpenPage, shot: Shot
) -> None:
    first = open_page(f"{seat_server.http}/")
    first.fill("#name", "Sam")
    first.click("#create")
    first.wait_for_url("**/rooms/*")
    first.wait_for_selector(".seat.mine")  # creating a room seats you
    assert player(first) == "Sam"
    second = open_page(first.input_value("#share-link"))
    take_seat(second, "Sam", 1)
    assert player(second) == "Sam (2)"
    assert "you are Sam (2)" in second.inner_text("#identity")
    shot(second, "seats")
    first.click("button#ready")
    second.click("button#ready")
    for page in (first, second):
        page.wait_for_selector("body[data-phase=fast]")
    # Each sees the other's card in hand from the start, on the other's side, before it moves.
    first.wait_for_selector('.other-hand[data-player="Sam (2)"]')
    second.wait_for_selector('.other-hand[data-player="Sam"]')
    assert float(second.get_attribute('.other-hand[data-player="Sam"]', "data-y") or 0) < 0
    spots = iter(range(14))
    for _ in range(2):  # the second card too: nobody is stuck after his first
        for page in (first, second):
            assert hand_ship(page) is not None
            while not place(page, *free_spot(next(spots))):
                pass
    shot(second, "placing")
    for page in (first, second):
        assert page.locator(f'.table-card[data-card^="{player(page)}-"]').count() == 2
    # Each sees the other's cards under the other's own name.
    assert first.locator('.table-card[data-card^="Sam (2)-"]').count() == 2


def test_a_closed_tab_gets_its_seat_back_from_the_bot(
    seat_server: Server, open_page: OpenPage, shot: Shot
) -> None:
    errors: list[str] = []
    ann = open_page(f"{seat_server.http}/")
    ann.fill("#name", "Ann")
    ann.click("#play-bot")
    ann.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    room = ann.inner_text("#room-id")
    room_url = f"{seat_server.http}/rooms/{room}"
    watcher = Client(seat_server, room)  # someone watching: the room stays listed
    ann.click("button#ready")
    ann.wait_for_selector("body[data-phase=fast]")
    assert place(ann, *free_spot(0))
    context = ann.context
    ann.close()

    # A bot stands in for her once the seat has waited for her.
    watcher.wait(
        lambda m: m["type"] == "room" and m["seats"][0]["stand_in"], timeout=ABANDON_S + 10
    )
    back = watch_errors(context.new_page(), errors)
    back.goto(room_url)
    back.wait_for_selector("body[data-role=player]")
    assert player(back) == "Ann"
    back.wait_for_selector("body[data-phase=fast]")
    shot(back, "back")
    # Her seat is hers again: the players list no longer calls it a bot, and she plays.
    back.wait_for_function("!document.querySelector('.player[data-player=\"Ann\"] .bot')")
    if hand_ship(back) is not None:
        assert place(back, *free_spot(1))
    watcher.close()
    assert not errors, errors


def test_a_second_tab_on_the_same_seat_watches(
    seat_server: Server, open_page: OpenPage, shot: Shot
) -> None:
    errors: list[str] = []
    ann = open_page(f"{seat_server.http}/")
    ann.fill("#name", "Ann")
    ann.click("#create")
    ann.wait_for_selector(".seat.mine")
    second = watch_errors(ann.context.new_page(), errors)
    second.goto(ann.input_value("#share-link"))
    second.wait_for_selector("body[data-role=spectator]")
    second.wait_for_function(
        "document.querySelector('#message').textContent.includes('another tab')"
    )
    shot(second, "told")
    # The first tab plays on.
    assert ann.get_attribute("body", "data-role") == "player"
    assert ann.locator("button#ready").count() == 1
    assert not errors, errors


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_long_names_are_cut_with_an_ellipsis(
    seat_server: Server, open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = open_page(f"{seat_server.http}/", viewport={"width": width, "height": height})
    page.fill("#name", LONG_NAME)
    page.click("#play-bot")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    name = page.locator(".seat.mine .seat-name")
    assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
    box = name.bounding_box()
    panel = page.locator("#seat-panel").bounding_box()
    assert box is not None and panel is not None
    assert box["x"] + box["width"] <= panel["x"] + panel["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"seats-{width}")


def test_creating_an_ftl_room_for_a_friend_seats_you(
    seat_server: Server, open_page: OpenPage
) -> None:
    page = open_page(f"{seat_server.http}/")
    page.fill("#name", "Ann")
    page.select_option("#ruleset", "ftl")
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(".seat.mine")
    assert page.get_attribute(".seat.mine", "data-seat") == "0"
    assert page.locator(".seat[data-seat='1'][data-kind=empty]").count() == 1


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 800}, {"width": 390, "height": 844}],
    ids=["wide", "phone"],
)
def test_a_visitor_of_a_full_room_is_told_every_seat_is_taken(
    server: PageServer, open_page: OpenPage, shot: Shot, viewport: dict[str, int]
) -> None:
    """Issue 36: Ann plays a bot; her friend opens the link mid-match and only watches:
    the room page says why."""
    room_id = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    ann = open_page(f"/rooms/{room_id}?join=1&bots=1:random")
    answer_name(ann, "Ann")
    ann.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    ann.click("button#ready")
    ann.locator("#plot-panel").wait_for()
    expect(ann.locator("#watch-note")).to_be_hidden()
    friend = open_page(f"/rooms/{room_id}", viewport=viewport)
    note = friend.locator("#watch-note")
    expect(note).to_have_text("You are watching: every seat is taken.")
    expect(note).to_be_in_viewport()
    shot(friend, "watching")


def test_the_seat_panel_redrawn_under_a_press_or_a_name_being_typed_keeps_them(
    server: PageServer, open_page: OpenPage
) -> None:
    """The seat panel is drawn again on every change of the room. Carol, who watches, has
    typed half her name when Bob sits down: her text stays. Bob presses Ready just as Ann
    gets ready (the panel is redrawn between his press and his release): his press counts,
    and the match starts. (Drawn from scratch, the button under his finger was replaced:
    a press and a release on two elements make no click, and a Ready was lost.)"""
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "plot_timer_s": 600})["id"]
    ann = open_page(f"/rooms/{room}")
    take_seat(ann, "ann", 0)
    carol = open_page(f"/rooms/{room}")
    carol.wait_for_selector("#player-name")
    carol.fill("#player-name", "Car")  # no `change` yet: nothing saved, only typed
    bob = open_page(ann.input_value("#share-link"))
    take_seat(bob, "bob", 1)
    carol.wait_for_selector(".seat[data-seat='1'][data-kind=human]")
    assert carol.input_value("#player-name") == "Car"

    ready = bob.locator("button#ready").bounding_box()
    assert ready is not None
    bob.mouse.move(ready["x"] + ready["width"] / 2, ready["y"] + ready["height"] / 2)
    bob.mouse.down()
    ann.click("button#ready")
    bob.wait_for_selector(".seat[data-seat='0'][data-ready=true]")  # redrawn under the press
    bob.mouse.up()
    for page in (ann, bob, carol):
        page.wait_for_selector("body[data-phase=plot][data-turn='1']")
