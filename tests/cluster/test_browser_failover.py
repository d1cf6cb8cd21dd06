"""A room survives the death of its process, seen from a real Chromium page (issue 21,
Tests: "real Chromium"): Ann plays an FTL room in her browser through HAProxy, Bob over a
raw socket; the process that owns the room is killed with SIGKILL mid-turn. Ann's page says
it reconnects, then that it is connected again, in her seat, and the match goes on: her
plot, sent after the kill, resolves the turn with Bob's (sent before it), and her page
plots turn 2. Her page's socket names the room's process for the balancer (no relay); once
that process is dead, the balancer sends it to the live one, which rebuilds the room."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser._frames import check_frames
from tests.browser.conftest import SCREENSHOTS, save_screenshot
from tests.browser.ftl._duel import wait_turn
from tests.cluster._cluster import MISSING, Cluster, running_cluster
from tests.cluster.test_failover import back_again, rejoined, room_on
from tests.cluster.test_two_processes import seated, welcome

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.timeout(900),
]

#: Records every status the page's connection badge shows (shell/notices.js), in order, and
#: (``window.welcomedAfter``) every role a welcome gave the page once the badge had said
#: "reconnecting": a fresh socket is welcomed as a spectator, then as the player its token
#: takes the seat back for.
WATCH_BADGE = """() => {
  const badge = document.querySelector('#connection');
  window.badgeSeen = [badge.dataset.status];
  window.welcomedAfter = [];
  new MutationObserver(() => window.badgeSeen.push(badge.dataset.status))
    .observe(badge, { attributes: true });
  new MutationObserver(() => {
    const role = document.body.dataset.role;
    if (window.badgeSeen.includes('reconnecting')) window.welcomedAfter.push(role);
  }).observe(document.body, { attributes: true, attributeFilter: ['data-role'] });
}"""
#: The page is back in its seat: welcomed as a player on its new socket.
SEATED_AGAIN = "window.badgeSeen.at(-1) === 'open' && window.welcomedAfter.at(-1) === 'player'"


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--abandon-seconds", "60", "--room-seed", "1") as running:
        yield running


@pytest.mark.parametrize("relayed", [False, True], ids=["straight", "relayed"])
def test_a_page_reconnects_after_kill_9_and_its_match_goes_on(
    cluster: Cluster, browser: Browser, relayed: bool
) -> None:
    owner = cluster.workers[0]
    room = room_on(cluster, owner, relayed, ruleset="ftl", turn_limit=2, plot_timer_s=600)
    front = cluster.balancer.server
    context = browser.new_context(base_url=front.http, viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        # Every frame of both sockets, before the kill and after it, checked (_frames.py).
        page.on("websocket", lambda socket: check_frames(socket, lambda: errors))
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        page.goto(f"/rooms/{room}")
        page.wait_for_selector("#seat-panel .take-seat")
        page.fill("#player-name", "Ann")
        page.click(".seat[data-seat='0'] .take-seat")
        page.wait_for_selector("button#ready")
        # The page names the room's process: the balancer sends its socket straight there,
        # whatever the room's hash (which decides where Bob's raw socket goes).
        room_sockets = [url for url in sockets if "/ws/rooms/" in url]  # (not /ws/lobby)
        assert room_sockets[0].endswith(f"&node={owner.name}"), sockets
        bob = seated(front, room, "Bob")
        token = welcome(bob)["token"]
        page.click("button#ready")
        bob.send(type="ready")
        wait_turn(page, 1)
        bob.send(type="plot", orders=["Bob:S2"])
        bob.wait(lambda m: m["type"] == "state" and m["players"]["Bob"]["plotted"])
        page.evaluate(WATCH_BADGE)
        assert page.get_attribute("#connection", "data-status") == "open"

        owner.kill()
        # The page notices, says so, and is back in its seat through the other process.
        page.wait_for_function("window.badgeSeen.includes('reconnecting')")
        # Back in its seat: the seat and the Submit button drawn before the kill are on the
        # page all along, so they say nothing; the welcome on the new socket does (a plot
        # sent before it is a spectator's, and the turn would wait for Ann's forever).
        page.wait_for_function(SEATED_AGAIN)
        page.wait_for_selector(".seat.mine[data-seat='0']", state="attached")
        page.wait_for_selector("#submit-plot:visible")
        save_screenshot(page, str(SCREENSHOTS / f"cluster-failover-{relayed}-back.png"))
        bob = rejoined(front, room, token)
        # The match goes on: Ann's plot resolves turn 1 with Bob's, plotted before the kill.
        page.click("#submit-plot")
        wait_turn(page, 2, timeout=60_000)
        turn = bob.wait_type("turn")
        plots = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
        assert plots["Bob"] == ["Bob:S2"]
        bob.close()
    finally:
        context.close()
        back_again(cluster, owner)
    assert not errors, errors
