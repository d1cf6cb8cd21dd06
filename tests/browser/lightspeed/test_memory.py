"""Ten Light Speed matches in one tab against a fast bot ("Play again" each time): the page
must not keep the earlier battles alive. Live DOM nodes and JS event listeners, counted by
Chromium (CDP Performance.getMetrics) after a forced garbage collection, stay flat. Its own
tab's frames are checked against the protocol like every browser test's
(tests/browser/_frames.py: a check keeps no frame, so it adds nothing to the page's memory)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests._server import Server
from tests.browser._frames import check_frames
from tests.browser._play import answer_name, discard_if_offered
from tests.browser._servers import quick_server_for

#: Matches played in the tab; the first two warm the page up (catalogs, caches, fonts).
MATCHES = 10
WARM_UP = 2
#: What the later matches may add over the warm tab, all matches together: a few nodes
#: of a longer log or a bigger score card, never a whole battle (~480 nodes) per match.
NODE_SLACK = 150
LISTENER_SLACK = 10


quick_server = quick_server_for("memory", room_seed=5)


def live_counts(page: Page) -> tuple[int, int]:
    """Live DOM nodes and JS event listeners after a full garbage collection."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable")
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("HeapProfiler.collectGarbage")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    finally:
        cdp.detach()
    return int(metrics["Nodes"]), int(metrics["JSEventListeners"])


def play_one(page: Page) -> None:
    """The bot empties its deck, "stop!" comes, our card is discarded, the battle is skipped
    to its end and the score card shows. Waits go through locators, never
    ``wait_for_selector``: the element handle that returns is held by the browser's devtools
    and would keep an old battle alive by itself."""
    page.locator("body[data-phase=stop], body[data-phase=battle], body[data-phase=over]").wait_for(
        timeout=60_000
    )
    discard_if_offered(page)  # the stop window is 2 s here (QUICK)
    page.locator("#battle-skip").wait_for(timeout=60_000)
    page.click("#battle-skip")
    page.locator("#rematch:enabled").wait_for(timeout=60_000)


def test_ten_matches_in_one_tab_keep_memory_flat(quick_server: Server, browser: Browser) -> None:
    context = browser.new_context(
        base_url=quick_server.http, viewport={"width": 1366, "height": 800}
    )
    refused: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("websocket", lambda socket: check_frames(socket, lambda: refused))
        room = quick_server.create_room(asteroids="single")
        page.goto(f"/rooms/{room}?join=1&bots=1:easy")
        answer_name(page, "Ann")  # no name saved: the room asks it before seating us
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.click("button#ready")
        counts = []
        for match in range(MATCHES):
            play_one(page)
            counts.append(live_counts(page))
            if match < MATCHES - 1:
                page.click("#rematch")  # "Play again": the bot accepts at once
                page.wait_for_function("document.body.dataset.phase !== 'over'")
        print("nodes, listeners after each match:", counts)
        warm_nodes, warm_listeners = counts[WARM_UP - 1]
        last_nodes, last_listeners = counts[-1]
        assert last_nodes - warm_nodes <= NODE_SLACK, counts
        assert last_listeners - warm_listeners <= LISTENER_SLACK, counts
        assert not refused, f"frames the protocol refuses: {refused}"
    finally:
        context.close()
