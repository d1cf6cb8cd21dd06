"""Sign up, play a rated match, see it on the profile (issue 37 item 5): Ann signs up on a
laptop in English, Bob on a phone in French, each in his own browser; they sit in an FTL
room as their accounts, Bob resigns, and each profile shows the one rated match, the
winner's rating above the loser's, and the leaderboard lists both. (The rating's numbers
against openskill's own are tested in process: tests/server/store/test_ratings.py.)"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests._accounts import session_cookie
from tests._laser_play import play_to_the_battle
from tests.browser._pages import paused_clock
from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot, handled
from tests.browser.test_manners import PHONE
from tests.browser.test_my_games import _seated


def _sign_up(page: Page, name: str) -> None:
    page.fill("#account-name", name)
    page.fill("#account-password", "a long passphrase")
    page.click("#account-submit")
    page.wait_for_url("**/")


def _plot_nothing(page: Page, turn: int) -> None:
    page.wait_for_function(f"document.body.dataset.turn === '{turn}'")
    page.locator("#submit-plot").click()


def _rating(page: Page) -> float:
    """The FTL rating the profile shows (a number, "provisional" beside it)."""
    cell = page.locator("#ratings tbody tr").first.locator("td.rating")
    return float(cell.inner_text().split()[0].replace(",", "."))


def test_sign_up_play_a_rated_match_and_see_it_on_both_profiles(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann = open_page("/signup?lang=en", viewport={"width": 1366, "height": 800})
    _sign_up(ann, "Ann Rated")
    bob = open_page("/signup?lang=fr", **PHONE)
    _sign_up(bob, "Bob Rated")
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    ann.goto(f"{server.base}/rooms/{room}?lang=en")
    take_seat(ann, "someone else", 0)  # the account's name is taken, not the one typed
    bob.goto(f"{server.base}/rooms/{room}?lang=fr")
    take_seat(bob, "someone else", 1)
    expect(ann.locator("#players")).to_contain_text("Bob Rated")
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):  # the first turn played: a resignation before it is not rated
        _plot_nothing(page, 1)
    ann.wait_for_function("document.body.dataset.turn === '2'")
    expect(bob.locator("#resign")).to_be_visible()
    bob.click("#resign")
    bob.click("#confirm-resign")
    expect(ann.locator("#end-reason")).to_have_text("Bob Rated resigned: Ann Rated wins.")
    # The end card says the match was rated, each player's rating before and after.
    expect(ann.locator(".match-end .end-ratings")).to_contain_text("Rated match: Ann Rated 0 → ")
    expect(ann.locator(".match-end .end-ratings")).to_contain_text("Bob Rated 0 → -")
    expect(bob.locator(".match-end .end-ratings")).to_contain_text("Partie classée\u00a0: ")
    shot(ann, "won")
    shot(bob, "lost")
    ratings = {}
    for page, name, words in ((ann, "Ann Rated", "1"), (bob, "Bob Rated", "1")):
        page.goto(f"{server.base}/players/{name.replace(' ', '%20')}")
        page.wait_for_selector("#ratings tbody tr")
        assert page.locator("#player-name").inner_text() == name
        row = page.locator("#ratings tbody tr").first
        assert row.locator("td[data-label]").nth(1).inner_text() == words  # one match
        expect(page.locator("#matches tbody tr")).to_have_count(1)
        ratings[name] = _rating(page)
        shot(page, f"profile-{name.split()[0].lower()}")
    assert ratings["Ann Rated"] > ratings["Bob Rated"]
    ann.goto(f"{server.base}/leaderboard/ftl")
    ann.wait_for_selector("#board tbody tr")
    rows = ann.locator("#board tbody tr").all_inner_texts()
    # Best first (other tests' players may be listed too: the worker's server is shared).
    listed = [name for row in rows for name in ("Ann Rated", "Bob Rated") if name in row]
    assert listed == ["Ann Rated", "Bob Rated"], rows
    shot(ann, "leaderboard")


def _rated(message: dict[str, Any]) -> bool:
    """A ``room`` message of a match over whose seats' ratings moved."""
    return (
        message["type"] == "room"
        and message["phase"] == "over"
        and any((s.get("rating") or {}).get("rating") for s in message["seats"])
    )


def test_a_rated_laser_battle_s_end_card_says_it_was_rated(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 67 item 13: a laser match's end card opens after the battle's replay, later
    than the ``room`` message with the rated seats: the card says the match was rated all
    the same. Ann and Bob play a Light Speed battle over sockets as their accounts; a page
    watches the room, its clock paused: its replay stands still until the rated ``room``
    message has reached it, then the viewer jumps to the battle's end."""
    names = ("Ann Laser", "Bob Laser")
    cookies = {name: session_cookie(server.base, name) for name in names}
    room = server.api("/api/rooms", {"ruleset": "lightspeed", "seats": 2})["id"]
    page = open_page("/", viewport={"width": 1366, "height": 800})
    paused_clock(page)
    page.goto(f"/rooms/{room}?lang=en")
    clients = {name: _seated(server, room, cookies[name]) for name in names}
    first = {name: c.wait(lambda m: m["type"] == "state") for name, c in clients.items()}
    play_to_the_battle(clients, first)
    for client in clients.values():
        client.wait(_rated)
        client.close()
    page.locator("#battle-skip").wait_for(state="visible")
    handled(page)  # the rated room message is in, the replay still at its start
    assert page.locator(".match-end:not([hidden])").count() == 0
    page.click("#battle-skip")
    page.clock.resume()
    card = page.locator(".match-end:not([hidden])")
    expect(card.locator("#end-reason")).to_be_visible()
    expect(card.locator(".end-ratings")).to_contain_text("Rated match: Ann Laser 0 → ")
    expect(card.locator(".end-ratings")).to_contain_text("Bob Laser 0 → ")
    shot(page, "laser-rated")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone's card, a sheet
    expect(card.locator(".end-ratings")).to_be_in_viewport()
    shot(page, "laser-rated-phone")


def test_a_match_resigned_at_once_says_it_is_not_rated_and_why(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 67 item 7: a match resigned before its first turn is over is not rated (a
    player farmed a rating from his second account so). The end card and the seat panel
    say so and why, not "Rated match", in English and in French; no rating moved."""
    ann = open_page("/signup?lang=en", viewport={"width": 1366, "height": 800})
    _sign_up(ann, "Ann Early")
    bob = open_page("/signup?lang=fr", **PHONE)
    _sign_up(bob, "Bob Early")
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    ann.goto(f"{server.base}/rooms/{room}?lang=en")
    take_seat(ann, "someone else", 0)
    bob.goto(f"{server.base}/rooms/{room}?lang=fr")
    take_seat(bob, "someone else", 1)
    expect(ann.locator("#players")).to_contain_text("Bob Early")
    expect(ann.locator("#rated-note")).to_contain_text("Rated match")
    ann.click("button#ready")
    bob.click("button#ready")
    expect(bob.locator("#resign")).to_be_visible()
    bob.click("#resign")
    bob.click("#confirm-resign")
    expect(ann.locator("#end-reason")).to_have_text("Bob Early resigned: Ann Early wins.")
    why = "Not rated: the match ended before its first turn or round was over."
    expect(ann.locator(".match-end .end-ratings")).to_have_text(why)
    expect(bob.locator(".match-end .end-ratings")).to_contain_text("Partie non classée")
    expect(ann.locator("#rated-note")).to_be_hidden()  # the seat panel, put away
    assert "Rated match" not in ann.locator("body").inner_text()
    shot(ann, "not-rated")
    shot(bob, "not-rated-phone")
    for name in ("Ann%20Early", "Bob%20Early"):
        assert server.api(f"/api/players/{name}")["ratings"] == {}


def test_a_fourth_match_of_two_accounts_in_a_day_says_why_it_is_not_rated(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    """Issue 67 item 7: two accounts' matches of a game together are rated three times
    within 24 hours; the fourth's end card says why it is not, in English and in French."""
    ann = open_page("/signup?lang=en", viewport={"width": 1366, "height": 800})
    _sign_up(ann, "Ann Often")
    bob = open_page("/signup?lang=fr", **PHONE)
    _sign_up(bob, "Bob Often")
    cookies = [
        "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
        for page in (ann, bob)
    ]
    for _ in range(3):  # three matches played past their first turn, over sockets
        room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
        clients = [_seated(server, room, cookie) for cookie in cookies]
        for client in clients:
            client.wait(lambda m: m["type"] == "state" and m.get("turn") == 1)
            client.send(type="plot", orders=[])
        clients[1].wait(lambda m: m["type"] == "state" and m.get("turn") == 2)
        clients[1].send(type="resign")
        clients[0].wait(lambda m: m["type"] == "room" and m["phase"] == "over")
        for client in clients:
            client.close()
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2})["id"]
    ann.goto(f"{server.base}/rooms/{room}?lang=en")
    take_seat(ann, "someone else", 0)
    bob.goto(f"{server.base}/rooms/{room}?lang=fr")
    take_seat(bob, "someone else", 1)
    expect(ann.locator("#players")).to_contain_text("Bob Often")
    ann.click("button#ready")
    bob.click("button#ready")
    for page in (ann, bob):
        _plot_nothing(page, 1)
    ann.wait_for_function("document.body.dataset.turn === '2'")
    bob.click("#resign")
    bob.click("#confirm-resign")
    why = "Not rated: two of its players already played three matches of this game together"
    expect(ann.locator(".match-end .end-ratings")).to_contain_text(why)
    expect(bob.locator(".match-end .end-ratings")).to_contain_text("deux de ses joueurs")
    assert "Rated match" not in ann.locator("body").inner_text()
    shot(ann, "repeated")
    shot(bob, "repeated-phone")
    rating = server.api("/api/players/Ann%20Often")["ratings"]["ftl"]
    assert (rating["matches"], rating["wins"]) == (3, 3)
