"""Sign up, play a rated match, see it on the profile (issue 37 item 5): Ann signs up on a
laptop in English, Bob on a phone in French, each in his own browser; they sit in an FTL
room as their accounts, Bob resigns, and each profile shows the one rated match, the
winner's rating above the loser's, and the leaderboard lists both. (The rating's numbers
against openskill's own are tested in process: tests/server/test_ratings.py.)"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser._play import take_seat
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_manners import PHONE


def _sign_up(page: Page, name: str) -> None:
    page.fill("#account-name", name)
    page.fill("#account-password", "a long passphrase")
    page.click("#account-submit")
    page.wait_for_url("**/")


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
