"""A challenge that ends unanswered (issue 69 item 3), in real browsers: Eve challenges Dan
from the lobby's list of who is online and withdraws it (Dan's page, the rules, says so);
she challenges him again and nobody answers for two minutes on the server's clock (a
real-time challenge runs out): both pages say so."""

from __future__ import annotations

from playwright.sync_api import expect

from spacetable.server.store.meetings import REALTIME_CHALLENGE_SECONDS
from tests.browser.conftest import OpenPage, Server
from tests.browser.meet._meet import logged_in, send_challenge


def test_a_challenge_withdrawn_or_left_unanswered_says_so_on_both_pages(
    open_page: OpenPage, server: Server
) -> None:
    dan = logged_in(open_page, server.base, "Dan Waiting", "/rules?lang=en")
    eve = logged_in(open_page, server.base, "Eve Asking", "/?lang=en")
    online = ".online-player[data-name='Dan Waiting'] .challenge-button"
    eve.click(online)
    send_challenge(eve, "hexfleet")
    toast = dan.locator(".meet-toast.incoming")
    expect(toast).to_contain_text("Eve Asking challenges you")
    eve.click(".meet-toast.outgoing .challenge-cancel")
    expect(toast).to_contain_text("Eve Asking withdrew the challenge.")
    expect(eve.locator(".meet-toast")).to_have_count(0)

    eve.click(online)
    send_challenge(eve, "hexfleet")
    expect(dan.locator(".meet-toast.incoming .challenge-accept")).to_be_visible()
    server.advance(REALTIME_CHALLENGE_SECONDS + 1)  # two minutes: the pool's next round closes it
    expect(dan.locator(".meet-toast.incoming").last).to_contain_text(
        "The challenge from Eve Asking ran out."
    )
    expect(eve.locator(".meet-toast.outgoing")).to_contain_text(
        "Dan Waiting did not answer your challenge in time."
    )
