"""Manners in every game, as two people in two browsers live them (issue 19): Ann resigns
(after a confirm dialog) and Bob sees the result and why; in the rematch Ann offers a draw
and Bob accepts it; the match list and the replay tell how each match ended. And when Bob's
connection drops, Ann is told at once and, after the grace period, claims the win."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests._server import running_server
from tests.browser._play import answer_name, take_seat
from tests.browser.conftest import OpenPage, Server, Shot

#: A room of each game (``POST /api/rooms``'s body).
GAMES: dict[str, dict[str, Any]] = {
    "lightspeed": {"ruleset": "lightspeed", "seats": 2},
    "stellar": {
        "ruleset": "stellar",
        "seats": 2,
        "battle_size": "dispute",
        "races": ["vak", "wiss"],
    },
    "ftl": {"ruleset": "ftl", "seats": 2},
    "hexfleet": {"ruleset": "hexfleet", "seats": 2, "scenario": "duel", "turn_limit": 12},
}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
#: Each game's controls of a seated player (the hex fleet's only in his activation).
CONTROLS = {
    "lightspeed": "#hand-bar",
    "stellar": "#fleet-panel",
    "ftl": "#plot-panel",
    "hexfleet": "#hex-controls",
}


def seat_two(
    open_page: OpenPage,
    server: Any,
    options: dict[str, Any],
    *,
    ann_context: dict[str, Any] | None = None,
    **bob_context: Any,
) -> tuple[Page, Page]:
    """Ann and Bob, each in his own browser, take the room's seats and get ready (``server``:
    the browser tests' server, or one of ``running_server``)."""
    create = server.api if hasattr(server, "api") else server.post
    base = getattr(server, "base", None) or server.http
    room_id = create("/api/rooms", options)["id"]
    ann = open_page(f"{base}/rooms/{room_id}", **(ann_context or {}))
    take_seat(ann, "ann", 0)
    bob = open_page(f"{base}/rooms/{room_id}", **bob_context)
    take_seat(bob, "bob", 1)
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):
        expect(page.locator("#resign")).to_be_visible()
    return ann, bob


@pytest.mark.parametrize("game", list(GAMES))
def test_resign_then_a_draw_agreed_are_shown_listed_and_replayed(
    server: Server, open_page: OpenPage, shot: Shot, game: str
) -> None:
    ann, bob = seat_two(open_page, server, GAMES[game], **(PHONE if game == "ftl" else {}))

    # Ann resigns: the page asks first, and "Keep playing" changes nothing.
    ann.click("#resign")
    dialog = ann.locator("#resign-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("bob wins at once")
    assert ann.evaluate("document.activeElement.id") == "cancel-resign"
    shot(ann, "resign-confirm")
    ann.click("#cancel-resign")
    expect(dialog).to_be_hidden()
    assert ann.evaluate("document.activeElement.id") == "resign"
    if game != "hexfleet":
        expect(ann.locator(CONTROLS[game])).to_be_visible()
    ann.click("#resign")
    ann.click("#confirm-resign")
    expect(bob.locator("#winner")).to_have_text("You win")
    expect(bob.locator("#end-reason")).to_have_text("Ann resigned: bob wins.")
    expect(ann.locator("#winner")).to_have_text("bob wins")
    # The match is over as at its rules' end: the game's controls are put away.
    for page in (ann, bob):
        expect(page.locator(CONTROLS[game])).to_be_hidden()
    shot(bob, "resigned-result")
    resigned = bob.get_attribute("#replay-link", "href")

    # The rematch: Ann offers a draw, Bob is asked and accepts.
    for page in (ann, bob):
        page.click(".match-end #rematch")
    for page in (ann, bob):
        expect(page.locator(".match-end")).to_be_hidden()
        expect(page.locator("#offer-draw")).to_be_enabled()
    ann.click("#offer-draw")
    expect(ann.locator("#manners-note")).to_have_text("You offered a draw: waiting for bob.")
    expect(bob.locator("#draw-offer")).to_contain_text("ann offers a draw.")
    shot(bob, "draw-offer")
    bob.click("#accept-draw")
    for page in (ann, bob):
        expect(page.locator("#winner")).to_have_text("Draw")
        expect(page.locator("#end-reason")).to_have_text("Draw agreed by the players.")
    drawn = bob.get_attribute("#replay-link", "href")

    # The match list and the replays say how each ended.
    listing = open_page("/matches")
    # The rows of these two matches, found by their replay links (a room an earlier test
    # left to its bots may end meanwhile and be listed between them).
    assert resigned and drawn and resigned != drawn
    draw_row = listing.locator(f"tr.match:has(a.replay[href='{drawn}'])")
    resign_row = listing.locator(f"tr.match:has(a.replay[href='{resigned}'])")
    expect(draw_row.locator(".ending")).to_have_text(" (draw agreed by the players)")
    expect(resign_row.locator(".ending")).to_have_text(" (ann resigned)")
    # The result in words, and no empty cell where scores were never counted (issue 36
    # item 18: it read "winner: draw (draw agreed…)" beside an empty scores cell).
    expect(draw_row.locator("td.winner")).to_have_text("Draw (draw agreed by the players)")
    expect(resign_row.locator("td.winner")).to_have_text("bob won (ann resigned)")
    for row in (draw_row, resign_row):
        expect(row.locator("td.scores")).not_to_have_text("")
    resign_row.locator("a.replay").click()
    expect(listing.locator("#replay-ending")).to_have_text("Ann resigned: bob wins.")
    expect(listing.locator("#replay-error")).to_be_hidden()


def test_an_opponent_gone_is_told_at_once_and_the_win_claimed_after_the_grace(
    tmp_path: Path, open_page: OpenPage, shot: Shot
) -> None:
    with running_server(tmp_path / "matches.db", "--grace-seconds", "1", room_seed=3) as running:
        ann, bob = seat_two(open_page, running, GAMES["ftl"])
        bob.close()  # his connection drops
        absence = ann.locator("#absence")
        expect(absence).to_contain_text("bob lost the connection.")
        # In a live match his row says so in red (a correspondence room says "offline").
        expect(ann.locator("#players .player[data-player='bob'] .away")).to_have_text(
            "disconnected"
        )
        claim = absence.locator("button[data-choice='claim']")
        expect(claim).to_be_visible()
        expect(absence.locator("button[data-choice='wait']")).to_be_visible()
        shot(ann, "absence-choice")
        claim.click()
        expect(ann.locator("#winner")).to_have_text("You win")
        expect(ann.locator("#end-reason")).to_have_text(
            "Bob went away; the win was claimed: ann wins."
        )
        # Closed while its server runs: a room page whose server stops tries its socket
        # again, and the refused connection is a console error.
        ann.context.close()


def test_the_one_who_comes_back_is_not_asked_about_himself_and_a_wait_shows(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    """Issue 36: Bob closes his tab, Ann chooses to wait, and her dialog says she waits
    (the other answers still there); Bob opens the link again and is never asked what to do
    about his own absence."""
    desktop = {"viewport": {"width": 1366, "height": 800}}
    ann, bob = seat_two(open_page, server, GAMES["ftl"], ann_context=desktop, **PHONE)
    link = bob.url
    bob.goto("about:blank")  # his tab closes: its socket with it
    absence = ann.locator("#absence")
    expect(absence).to_contain_text("bob lost the connection.")
    server.advance(21)  # the grace period (20 s) is over
    absence.locator("button[data-choice='wait']").click()
    expect(absence.locator(".absence-text")).to_have_text("Waiting for bob… If he takes too long:")
    # Her own choice is said by the dialog, not told her again as news ("ann waits for bob.").
    assert "waits for" not in (ann.locator("#message").text_content() or "")
    expect(absence.locator("button[data-choice='wait']")).to_have_count(0)
    expect(absence.locator("button[data-choice='bot']")).to_be_visible()
    expect(absence.locator("button[data-choice='claim']")).to_be_visible()
    shot(ann, "waiting")

    bob.goto(link)  # the same browser: its stored token takes the seat back
    expect(bob.locator("#resign")).to_be_visible()
    expect(bob.locator("#absence")).to_be_hidden()
    assert "lost the connection" not in (bob.locator("#message").text_content() or "")
    expect(absence).to_be_hidden()  # Ann sees him back
    shot(bob, "back")


#: What a phone player must reach first in the side column: his orders (FTL's plot, the hex
#: fleet's activation), or the players (the laser games take their orders on the table).
ORDERS_IN_SIDE = {
    "lightspeed": "#players",
    "stellar": "#players",
    "ftl": "#plot-panel",
    "hexfleet": "#hex-controls",
}


@pytest.mark.parametrize("game", list(GAMES))
def test_on_a_phone_the_orders_come_before_resign_and_leave(
    server: Server, open_page: OpenPage, shot: Shot, game: str
) -> None:
    room_id = server.api("/api/rooms", GAMES[game])["id"]
    ann = open_page(f"/rooms/{room_id}?join=1&bots=1:easy", **PHONE)
    answer_name(ann, "Ann")
    ann.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    ann.click("button#ready")
    orders = ann.locator(ORDERS_IN_SIDE[game])
    expect(orders).to_be_visible(timeout=30_000)  # the hex fleet's: once the cup names Ann
    # The players' list shows from the lobby on: the match's buttons come with its start.
    expect(ann.locator("#offer-draw")).to_be_visible()
    shot(ann, "phone-side")
    # The top bar names her, whole: not "you …" (the words "you are" are for screen readers).
    assert ann.locator("#identity").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert ann.locator("#identity .identity-name").inner_text() == "Ann"
    above = orders.bounding_box()
    for button in ("#offer-draw", "#resign", "#leave-match"):
        box = ann.locator(button).bounding_box()
        assert above is not None and box is not None, f"{button} is not shown"
        assert box["y"] >= above["y"] + above["height"], (
            f"{button} comes before {ORDERS_IN_SIDE[game]} on the phone"
        )
