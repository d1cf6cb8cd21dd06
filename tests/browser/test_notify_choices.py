"""The settings' "What you are told" (issue 70 item 5, docs/notifications.md): a player
turns a kind's push off, or everything off, on /me/settings; the page saves it at once and
shows it again after a reload; in French, on a phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import PHONE, logged_in


def test_a_player_turns_challenges_then_everything_off_and_it_stays_so(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = logged_in(open_page, server.base, "Vera", "/me/settings?lang=fr", **PHONE)
    section = page.locator("#notify")
    expect(section.locator("h2")).to_have_text("Ce qu\u2019on vous signale")
    challenges = page.locator("#notify-push-challenges")
    expect(challenges).to_be_checked()
    expect(challenges).to_be_enabled()
    expect(
        page.get_by_label("Le temps d\u2019un de vos tours s\u2019est \u00e9coul\u00e9")
    ).to_be_checked()
    page.get_by_label(
        "Les d\u00e9fis\u00a0: re\u00e7us, accept\u00e9s ou d\u00e9clin\u00e9s"
    ).uncheck()
    expect(page.locator("#notify-state")).to_have_text("Enregistr\u00e9.")
    kept = page.request.get(f"{server.base}/api/accounts/me/notify").json()
    assert kept["push"]["challenges"] is False and kept["push"]["your_move"] is True, kept

    page.locator("#notify-all-off").check()
    expect(page.locator("#notify-state")).to_have_text(
        "Enregistr\u00e9\u00a0: tout est coup\u00e9."
    )
    expect(page.locator("#notify-push-your_move")).to_be_disabled()
    shot(page, "everything-off-phone")

    page.reload()
    expect(page.locator("#notify-all-off")).to_be_checked()
    expect(page.locator("#notify-push-challenges")).not_to_be_checked()
    expect(page.locator("#notify-push-match_over")).to_be_checked()
    expect(page.locator("#notify-push-match_over")).to_be_disabled()
    page.locator("#notify-all-off").uncheck()
    expect(page.locator("#notify-push-match_over")).to_be_enabled()
    assert page.request.get(f"{server.base}/api/accounts/me/notify").json()["all_off"] is False
