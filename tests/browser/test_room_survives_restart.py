"""A player's page outlives the server's death: Ann plots her FTL turn in the browser, the
server is killed (SIGKILL) and started again on the same database and port, and her page
reconnects by itself, takes her seat back with the token it kept, shows her plot still in,
and plays the match to its end. The stored match replays exactly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.replays import replay_record
from spacetable.games.ftl import FtlMatch
from tests._server import free_port, seated
from tests.browser._frames import check_frames
from tests.browser.conftest import SCREENSHOTS, save_screenshot
from tests.browser.ftl.test_ftl_room import take_seat, wait_turn
from tests.server.durable._restart import kill, rejoined, servers, start, token_of

#: Each test starts two server processes (the one killed, the one after it): on a busy
#: machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page of its own (the session server is not this test's), failing the test on any
    console error but the reconnection's own (the socket's failed attempts while the
    server is down), and on any frame the protocol refuses (tests/browser/_frames.py)."""
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    opened.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "WebSocket connection" not in m.text
            else None
        ),
    )
    opened.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    opened.on("websocket", lambda socket: check_frames(socket, lambda: errors))
    yield opened
    context.close()
    assert not errors, f"browser console errors: {errors}"


def _shot(page: Page, name: str) -> None:
    save_screenshot(page, str(SCREENSHOTS / f"test_room_survives_restart-{name}.png"))


def _plot(page: Page, order: str) -> None:
    page.fill(".plot-row[data-piece='ann'] .plot-order", order)
    page.click("#submit-plot")
    page.wait_for_selector(".players li[data-player='ann'][data-plotted='true']")


def test_a_page_reconnects_after_a_server_restart_and_plays_on(page: Page, tmp_path: Path) -> None:
    db, port = f"sqlite:///{tmp_path / 'rooms.db'}", free_port()
    with servers() as started:
        first = start(db, port=port, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=2, plot_timer_s=600)
        page.goto(f"{first.http}/rooms/{room}")
        take_seat(page, "ann", 0)
        bob = seated(first, room, "bob", seat=1)
        token = token_of(bob)
        page.click("button#ready")
        bob.send(type="ready")
        wait_turn(page, 1)
        page.select_option("#turn-speed", "8")
        _plot(page, "S2")
        kill(first)
        page.wait_for_selector("#connection[data-status='reconnecting']")
        _shot(page, "reconnecting")
        page.set_viewport_size({"width": 390, "height": 844})
        _shot(page, "reconnecting-phone")
        page.set_viewport_size({"width": 1366, "height": 800})

        second = start(db, port=port)
        started.append(second)
        # The page comes back by itself, Ann in her seat, her plot still in and hers.
        page.wait_for_selector("#connection[data-status='open']", timeout=30_000)
        page.wait_for_selector("body[data-role='player'][data-player='ann']")
        page.wait_for_selector(".players li[data-player='ann'][data-plotted='true']")
        assert "you are ann" in page.inner_text("#identity")
        _shot(page, "back")
        bob = rejoined(second, room, token)
        bob.send(type="plot", orders=["bob:S1"])
        wait_turn(page, 2)
        _plot(page, "S1")
        bob.send(type="plot", orders=["bob:S1"])
        result = bob.wait_type("result")
        page.wait_for_selector("body[data-phase=over]", timeout=30_000)
        _shot(page, "over")
        page.set_viewport_size({"width": 390, "height": 844})
        _shot(page, "over-phone")
        stored = second.stored_match(result["match_id"])
        assert [a["player"] for a in stored["actions"]] == ["ann", "bob", "ann", "bob"]
        assert replay_record(stored, FtlMatch).exact
