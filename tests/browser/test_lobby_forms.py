"""The lobby's Create a room form, built from what GET /api/games serves: it offers exactly
the playable games the server lists, each game's form keeps the bounds of its options
schema, and a room of every playable game opens from its form as it first shows."""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.registry import games
from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser.conftest import OpenPage, Server, Shot


def playable(server: Server) -> list[dict[str, Any]]:
    """The playable games GET /api/games lists, in its order."""
    return [game for game in server.api("/api/games") if game["playable"]]


def test_the_lobby_offers_exactly_the_games_the_server_lists(
    open_page: OpenPage, server: Server
) -> None:
    page = open_page("/")
    page.wait_for_selector("#create:not([disabled])")
    offered = page.locator("#ruleset option").evaluate_all(
        "options => options.map(o => [o.value, o.textContent])"
    )
    assert offered == [[game["key"], game["title"]] for game in playable(server)]


def test_a_turn_limit_past_the_schemas_bound_is_refused_before_a_room_opens(
    open_page: OpenPage, server: Server
) -> None:
    page = open_page("/")
    page.select_option("#ruleset", "ftl")
    page.fill("#turn-limit", "1000")  # the schema's maximum is 999
    page.click("#create")
    assert page.evaluate("document.querySelector('#turn-limit').validity.rangeOverflow")
    assert page.url.endswith("/")
    page.fill("#turn-limit", "999")
    assert page.evaluate("document.querySelector('#turn-limit').checkValidity()")


def test_the_hex_fleet_offers_two_to_four_sides(open_page: OpenPage) -> None:
    page = open_page("/")
    page.select_option("#ruleset", "hexfleet")
    sides = page.locator("#seats option").evaluate_all("options => options.map(o => o.value)")
    assert sides == ["2", "3", "4"]
    assert page.inner_text("[data-option='seats']").startswith("Sides")


@pytest.mark.parametrize("key", [game.rules.key for game in games() if game.rules.playable])
def test_a_room_opens_from_each_games_form_as_it_first_shows(
    open_page: OpenPage, server: Server, key: str
) -> None:
    page = open_page("/")
    page.fill("#name", "Ann")
    page.select_option("#ruleset", key)
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    # Issue 36: the other seat is a friend's at first, in every game (a bot is "Play a
    # bot"): the room's link seats us and no bot, so the friend who opens it can sit down.
    assert "bots=" not in page.url
    room_id = page.url.split("/rooms/")[1].split("?")[0]
    room = next(room for room in server.api("/api/rooms") if room["id"] == room_id)
    game = next(game for game in playable(server) if game["key"] == key)
    assert room["options"]["ruleset"] in game["rulesets"]
    assert room["options"]["seats"] == 2
    page.wait_for_selector(".seat[data-seat='0'][data-kind='human']")


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 800}, {"width": 390, "height": 844}],
    ids=["wide", "phone"],
)
def test_each_option_sits_on_its_labels_line(
    open_page: OpenPage, server: Server, shot: Shot, viewport: dict[str, int]
) -> None:
    """Every control of every game's form stands beside its label and inside the screen, on
    a phone too (FTL's plot timer once fell alone onto the next line, under a gap)."""
    page = open_page("/", viewport=viewport)
    for game in playable(server):
        page.select_option("#ruleset", game["key"])
        page.wait_for_selector(f"#{game['key']}-options")
        rows = page.locator("#create-room .option-field").evaluate_all(
            """fields => fields.map(field => {
                const [label, control] = field.children;
                const a = label.getBoundingClientRect(), b = control.getBoundingClientRect();
                const box = field.closest("fieldset").getBoundingClientRect();
                const card = field.closest(".panel").getBoundingClientRect();
                const inside = b.right <= box.right && box.right <= card.right
                    && card.right <= innerWidth;
                return [label.textContent, a.top < b.bottom && b.top < a.bottom, inside];
            })"""
        )
        page.locator("#create").scroll_into_view_if_needed()
        shot(page, game["key"])
        assert rows, f"{game['key']}: no option fields"
        apart = [title for title, beside, _ in rows if not beside]
        assert not apart, f"{game['key']}: controls on a line of their own: {apart}"
        outside = [title for title, _, inside in rows if not inside]
        assert not outside, f"{game['key']}: controls past their box or the screen: {outside}"


#: Each number box of the shown form with a placeholder: the placeholder, how wide its words
#: are in the box's font, and how wide the box's text area is.
PLACEHOLDERS = """() => {
  const context = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('#create-room input[placeholder]')]
    .filter((box) => box.getClientRects().length)
    .map((box) => {
      const style = getComputedStyle(box);
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // A number box keeps room for its spin buttons where they show (a laptop's).
      return [box.id, box.placeholder, context.measureText(box.placeholder).width, room];
    });
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 800}, {"width": 390, "height": 844}],
    ids=["1366x800", "390x844"],
)
def test_every_option_boxs_placeholder_shows_whole(
    open_page: OpenPage, server: Server, shot: Shot, viewport: dict[str, int], locale: str
) -> None:
    """Issue 36 item 18: FTL's plot timer said "sans min…" in French (its placeholder, "sans
    minuterie", wider than the box): every game's placeholders show whole, in both languages."""
    page = open_page("/", viewport=viewport, locale=locale)
    cut = []
    seen = 0
    for game in playable(server):
        page.select_option("#ruleset", game["key"])
        page.wait_for_selector(f"#{game['key']}-options")
        for box, words, width, room in page.evaluate(PLACEHOLDERS):
            seen += 1
            # The spin buttons take about 15 px of a number box on a laptop.
            if width > room - 16:
                cut.append((game["key"], box, words, round(width), round(room)))
        if game["key"] == "ftl":
            page.locator("#create").scroll_into_view_if_needed()
            shot(page, "ftl")
    assert seen, "no placeholder"
    assert not cut, cut


def test_a_correspondence_room_offers_no_bot_seat(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """A match by correspondence seats registered players only: the form takes its bot
    seats away once hours a turn are filled in (a room made with one refused the bot in a
    red banner), and the room's host is offered no "Add bot"."""
    page = open_page("/")
    page.select_option("#ruleset", "hexfleet")
    seat = page.locator("label.bot-seat[data-seat='1']")
    page.select_option("#hex-seat-1", "easy")
    assert seat.is_visible()
    page.fill("[name='turn_hours']", "24")
    assert seat.is_hidden()
    assert "no bots" in page.inner_text("#hex-seats")
    shot(page, "correspondence-form")
    page.fill("[name='turn_hours']", "")
    assert seat.is_visible() and page.input_value("#hex-seat-1") == "easy"

    cookie = session_cookie(server.base, "Host by post")
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_hours": 24})["id"]
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": cookie.split("=", 1)[1], "url": server.base}]
    )
    page.goto(f"/rooms/{room}?join=1")
    page.wait_for_selector(".seat.mine")
    assert page.get_attribute(".seat[data-seat='1']", "data-kind") == "empty"
    assert page.locator(".add-bot, .bot-level").count() == 0
