"""The settings' "What you are told" (issue 70 item 5, docs/notifications.md): a player
turns a kind's push off, or everything off, on /me/settings; the page saves it at once and
shows it again after a reload; in French, on a phone. And what "Push on this device" says
when the browser cannot subscribe with its push service."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Request, Route, expect

from spacetable.server.meet.push import make_vapid_key
from spacetable.server.store.accounts import SESSION_COOKIE
from tests._accounts import session_cookie
from tests.browser._frames import check_frames
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


def test_push_on_a_device_whose_browser_cannot_subscribe_says_so_plainly(
    browser: Browser, server: Server
) -> None:
    # Headless Chromium has no push service: its new contexts are off the record, where
    # Chrome refuses push ("Registration failed - permission denied"; a lasting profile's
    # subscribe waits on Google's service, unreachable here). The session server sends no
    # push, so its key is answered by a route: the page gets as far as subscribing.
    key = make_vapid_key()[1]
    context = browser.new_context(locale="fr-FR")
    try:
        context.add_cookies(
            [
                {
                    "name": SESSION_COOKIE,
                    "value": session_cookie(server.base, "Wanda").split("=", 1)[1],
                    "url": server.base,
                }
            ]
        )
        context.grant_permissions(["notifications"], origin=server.base)
        posted: list[str] = []

        def answer_key(route: Route) -> None:
            route.fulfill(content_type="application/json", body=json.dumps({"public_key": key}))

        def watch(request: Request) -> None:
            if "/api/push/subscriptions" in request.url:
                posted.append(request.method)

        context.route("**/api/push/key", answer_key)
        page = context.new_page()
        refused: list[str] = []
        page.on("websocket", lambda socket: check_frames(socket, lambda: refused))
        page.on("request", watch)
        page.goto(f"{server.base}/me/settings?lang=fr")
        toggle = page.locator("#push-toggle")
        expect(toggle).to_be_enabled()
        toggle.click()
        expect(page.locator("#push-error")).to_have_text(
            "Ce navigateur n\u2019a pas pu s\u2019abonner \u00e0 son service de push, donc le "
            "push reste d\u00e9sactiv\u00e9 sur cet appareil. Une fen\u00eatre de navigation "
            "priv\u00e9e ne peut pas recevoir de push\u00a0; sinon r\u00e9essayez plus tard, ou "
            "dans un autre navigateur."
        )
        expect(toggle).not_to_be_checked()
        expect(toggle).to_be_enabled()
        expect(page.locator("#push-state")).to_have_text(
            "D\u00e9sactiv\u00e9\u00a0: cet appareil n\u2019est pas pr\u00e9venu."
        )
        assert posted == []  # nothing told to the server
        assert not refused, f"frames the protocol refuses: {refused}"
    finally:
        context.close()
