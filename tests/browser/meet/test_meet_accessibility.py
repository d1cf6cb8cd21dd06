"""The meeting screens are accessible (issue 69 item 6, as issue 11 holds the other pages):
axe-core finds no serious or critical violation on the lobby's Play now waiting for an
opponent, a profile's buttons with the challenge dialog open, and a challenge's toast with
its reasons to decline."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, Server
from tests.browser.meet._meet import logged_in, play_now, send_challenge
from tests.browser.test_accessibility import _serious_violations


def test_play_now_the_challenge_dialog_and_its_toast_have_no_serious_violation(
    open_page: OpenPage, server: Server
) -> None:
    gus = logged_in(open_page, server.base, "Gus Axe", "/?lang=en")
    play_now(gus, "ftl")
    expect(gus.locator("#play-now-waiting")).to_be_visible()
    assert _serious_violations(gus) == []
    gus.click("#play-now-cancel")

    hal = logged_in(open_page, server.base, "Hal Axe", "/players/Gus%20Axe?lang=fr")
    hal.click("#challenge")
    hal.wait_for_selector("#challenge-dialog[open]")
    assert _serious_violations(hal) == []
    send_challenge(hal, "ftl")
    toast = gus.locator(".meet-toast.incoming")
    toast.locator(".challenge-decline").click()
    expect(toast.locator(".decline-reason")).to_be_visible()
    assert _serious_violations(gus) == []
