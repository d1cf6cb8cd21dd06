"""Play now (issue 69 item 2) in real browsers: two players who never met press it for
Light Speed and are seated together in one room; four are paired into one four-seat
Stellar Conflict room; one who waits 30 s alone is offered a bot; and a logged-in player's
rated correspondence search waits across a reload until he cancels it. The server's pool
pairs on its test clock (``--test-clock``: the test moves it a tick), the page's 30 s on
Playwright's."""

from __future__ import annotations

from playwright.sync_api import expect

from spacetable.server.meet.pool import TICK_SECONDS
from tests.browser._pages import paused_clock
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import PHONE, logged_in, play_now, seated_room


def test_two_strangers_press_play_now_for_light_speed_and_sit_together(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann = open_page("/?lang=en", viewport={"width": 1366, "height": 800})
    bob = open_page("/?lang=fr", **PHONE)
    # Guests: casual real-time games only, said plainly; no rated box, no rating range.
    expect(bob.locator("#play-now-guest")).to_be_visible()
    expect(bob.locator("#play-now-guest")).to_contain_text("En invité")
    expect(bob.locator("#play-now-rated")).to_be_hidden()
    expect(bob.locator("#play-now-range")).to_be_hidden()
    play_now(ann, "lightspeed")
    # Alone in the pool: she waits, told for what and for how long, with Cancel.
    expect(ann.locator("#play-now-status")).to_contain_text("Looking for an opponent")
    expect(ann.locator("#play-now-what")).to_have_text(
        "Light Speed · 2 players · casual · real time"
    )
    expect(ann.locator("#play-now-cancel")).to_be_visible()
    shot(ann, "waiting")
    play_now(bob, "lightspeed")

    server.advance(TICK_SECONDS)  # the pool's next round, if its own did not come first
    room = seated_room(ann)
    assert seated_room(bob) == room
    seats = {page.get_attribute(".seat.mine", "data-seat") for page in (ann, bob)}
    assert seats == {"0", "1"}
    shot(bob, "paired-phone-fr")


def test_four_players_are_paired_into_one_four_seat_stellar_conflict_room(
    open_page: OpenPage, server: Server
) -> None:
    pages = [open_page("/?lang=en") for _ in range(4)]
    for page in pages:
        play_now(page, "stellar", seats=4)
    server.advance(TICK_SECONDS)
    rooms = {seated_room(page) for page in pages}
    assert len(rooms) == 1
    seats = sorted(page.get_attribute(".seat.mine", "data-seat") or "" for page in pages)
    assert seats == ["0", "1", "2", "3"]
    assert pages[0].locator(".seat").count() == 4


def test_alone_for_30_seconds_a_player_is_offered_a_bot(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/")
    paused_clock(page)
    page.goto("/?lang=en")
    page.fill("#name", "Dora")
    play_now(page, "lightspeed", seats=3)
    expect(page.locator("#play-now-status")).to_contain_text("0 seconds")
    page.clock.run_for(29_000)
    expect(page.locator("#play-now-status")).to_contain_text("29 seconds")
    assert page.locator("#play-now-offer").is_hidden()
    page.clock.run_for(1_000)
    expect(page.locator("#play-now-offer")).to_be_visible()
    shot(page, "bot-offer")
    page.clock.resume()  # the room's own timers run as they do
    page.click("#play-now-bot")
    page.wait_for_selector(".seat.mine")
    # The same game and seats, a bot in each seat but his.
    expect(page.locator(".seat[data-kind='bot']")).to_have_count(2)
    assert page.get_attribute(".seat.mine", "data-seat") == "0"


def test_a_correspondence_search_waits_across_a_reload_until_cancelled(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = logged_in(open_page, server.base, "Fay Patient", "/?lang=en", **PHONE)
    page.wait_for_selector("#play-now-start:not([disabled])")
    page.select_option("#play-now-game", "hexfleet")
    page.select_option("#play-now-pace", "correspondence")
    page.fill("#play-now-hours", "48")
    assert page.is_checked("#play-now-rated")
    # The range is of ratings like his own, which the form says (a newcomer's is 0).
    expect(page.locator("#play-now-mine")).to_have_text("Your rating in Hex fleet: 0")
    page.fill("#play-now-max", "40")
    with page.expect_request(lambda r: r.url.endswith("/api/seeks") and r.method == "POST") as sent:
        page.click("#play-now-start")
    assert sent.value.post_data_json == {
        "game": "hexfleet",
        "seats": 2,
        "rated": True,
        "turn_hours": 48,
        "range": [None, 40],
    }
    status = page.locator("#play-now-status")
    expect(status).to_have_text(
        "Looking for an opponent… You may leave this page: once one is found, "
        "the match waits for you in My games."
    )
    expect(page.locator("#play-now-what")).to_have_text(
        "Hex fleet · 2 players · rated · 48 hours a turn"
    )
    shot(page, "correspondence-waiting-phone")
    page.reload()
    expect(status).to_contain_text("the match waits for you in My games")
    page.click("#play-now-cancel")
    expect(page.locator("#play-now-start")).to_be_visible()
    assert page.request.get(server.base + "/api/seeks").json()["mine"] == []
