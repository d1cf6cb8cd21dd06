"""FTL's "what if": a player poses the orders he expects from the other on the other's
pieces (typed, or with the same ring as his own) and sees both tapes and the outcome
against them, resolved in the browser by the referee's port (web/js/games/ftl/
resolution.js), which is held here to the rules' table of turns (tests/golden/
ftl-turns.json). Nothing posed is ever sent to the server."""

from __future__ import annotations

import json
import math
from typing import Any

from playwright.sync_api import Page

from tests._golden import GOLDEN
from tests.browser._play import on_screen
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl.test_ftl_room import (
    LAPTOP,
    centre_of,
    order_of,
    ready_pair,
    seated_pair,
)
from tests.browser.test_rules_page import serious_violations

TURNS = json.loads((GOLDEN / "ftl-turns.json").read_text(encoding="utf-8"))


def _close(got: Any, want: Any, where: str) -> None:
    """Equal, numbers to within the 1e-9 in the events are rounded to."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: {got} != {want}"
        for key in want:
            _close(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got} != {want}"
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            _close(g, w, f"{where}[{k}]")
    elif isinstance(want, float | int) and not isinstance(want, bool):
        assert isinstance(got, float | int) and not isinstance(got, bool), f"{where}: {got!r}"
        assert math.isclose(got, want, abs_tol=1.5e-9), f"{where}: {got} != {want}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


def test_the_browser_resolves_every_turn_of_the_table_as_the_rules_do(
    open_page: OpenPage,
) -> None:
    page = open_page("/")
    results = page.evaluate(
        """async (turns) => {
          const { resolveTurn } = await import("/static/js/games/ftl/resolution.js");
          return turns.map(({ file }) => resolveTurn(file));
        }""",
        TURNS["turns"],
    )
    for turn, got in zip(TURNS["turns"], results, strict=True):
        _close(got, turn["result"], turn["name"])


def _count_sent(page: Page) -> None:
    """Count what the page sends on its websockets from now on (window.sentFrames)."""
    page.evaluate(
        """() => {
          window.sentFrames = [];
          const send = WebSocket.prototype.send;
          WebSocket.prototype.send = function (data) {
            window.sentFrames.push(String(data));
            return send.call(this, data);
          };
        }"""
    )


def _sent(page: Page) -> list[dict[str, Any]]:
    """What the page sent, but the drafts of its own plot (the plot timer's, issue 20 item
    7), which must hold only its own pieces' orders: nothing posed ever goes."""
    sent = [json.loads(f) for f in page.evaluate("window.sentFrames")]
    for message in sent:
        if message["type"] == "draft":
            assert all(entry.startswith("ann:") for entry in message["orders"]), message
    return [m for m in sent if m["type"] != "draft"]


def _outcome(page: Page) -> list[str]:
    return page.locator("#what-if-outcome li").all_inner_texts()


def test_a_player_poses_the_enemy_orders_and_sees_the_outcome_nothing_sent(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    # The smallest table: the ships start 9 in apart, face to face (ann below, bob above).
    ann, bob = seated_pair(server, open_page, {"table_size_in": [12, 12]}, viewport=LAPTOP)
    ready_pair(ann, bob)
    _count_sent(ann)

    # Ann sprints her ship 8 in straight at bob's, then asks: what if bob...
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "S8")
    assert ann.locator("#what-if-panel").is_hidden()
    ann.click("#what-if")
    ann.wait_for_selector("body[data-whatif='on']")
    assert ann.is_visible("#what-if-banner")
    assert "never sent" in ann.inner_text("#what-if-banner")
    assert "Nothing here is sent" in ann.inner_text("#what-if-panel")
    # ... does nothing: a piece that does nothing is not in normal space, never hit.
    assert _outcome(ann) == ["No tape meets anything: nobody is hit."]

    # ... launches: his new missile and his ship are in normal space, and ann's tape meets
    # the missile (a hit on her ship), then his ship: a collision, both ships out.
    ann.fill("#what-if-panel .plot-order[data-piece='bob']", "L")
    outcome = _outcome(ann)
    hit = "bob's missile bob-m1: the missile is removed and ann's ship takes a hit"
    assert any(hit in line for line in outcome), outcome
    assert any("the ships collide" in line for line in outcome), outcome
    assert outcome[-1] == "Game over: no ship is left on the table, a draw."
    assert ann.locator(".whatif-out[data-piece='ann'], .whatif-out[data-piece='bob']").count() == 2
    assert ann.locator(".whatif-marks .whatif-contact").count() == 2
    assert ann.locator(".whatif-ghost[data-ghost-of='bob']").count() == 1
    shot(ann, "launch-desktop")
    # The what-if's own parts (the zoom bar is the board's, checked with it).
    assert [v for v in serious_violations(ann) if "what-if" in v or "whatif" in v] == []

    # ... turns, posed with the same ring ann turns her own pieces with: a collision again.
    ann.fill("#what-if-panel .plot-order[data-piece='bob']", "")
    ann.wait_for_selector(".whatif-handles .plot-ring-mark")
    mx, my = centre_of(ann, ".whatif-handles .plot-ring-mark")
    cx, cy = on_screen(ann, 0, 4.5)
    radius = math.hypot(mx - cx, my - cy)
    start = math.atan2(mx - cx, -(my - cy))
    ann.mouse.move(mx, my)
    ann.mouse.down()
    for step in range(1, 7):
        a = start + math.radians(30) * step / 6
        ann.mouse.move(cx + radius * math.sin(a), cy - radius * math.cos(a))
    ann.mouse.up()
    posed = ann.get_attribute("#what-if-panel .plot-row[data-piece='bob']", "data-order") or ""
    assert posed.startswith("R"), posed
    assert any("the ships collide" in line for line in _outcome(ann))

    # ... sprints, and ann thinks better of her own order (the outcome follows her plot):
    # both in hyperspace, nobody is hit, and they end nose to nose for the next turn.
    ann.fill("#what-if-panel .plot-order[data-piece='bob']", "S2")
    ann.fill(".plot-row[data-piece='ann'] .plot-order", "S3")
    assert ann.locator(".whatif-tape[data-piece='bob']").count() == 1
    assert ann.locator(".plot-tape[data-piece='ann']").count() == 1  # her own, as plotted
    assert ann.locator(".whatif-marks .whatif-contact, .whatif-marks .whatif-out").count() == 0
    assert _outcome(ann) == ["No tape meets anything: nobody is hit."]
    in_line = ann.inner_text("#what-if-in-line")
    assert "Your ship has bob's ship in line, 2.5 in ahead" in in_line, in_line
    assert "Bob's ship has your ship in line, 2.5 in ahead" in in_line, in_line
    shot(ann, "sprint-desktop")
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.locator("#what-if-panel").scroll_into_view_if_needed()
    shot(ann, "sprint-phone")
    ann.locator("#table").scroll_into_view_if_needed()
    shot(ann, "sprint-phone-board")
    ann.set_viewport_size({"width": 1366, "height": 800})

    # Posing sent nothing at all.
    assert _sent(ann) == []
    # Closing forgets the posed orders and leaves ann's own plot; Submit sends only hers.
    ann.click("#what-if")
    assert ann.locator("#what-if-panel").is_hidden() and ann.is_hidden("#what-if-banner")
    assert ann.locator(".whatif-ghost, .whatif-tape").count() == 0
    assert order_of(ann, "ann") == "S3"
    ann.click("#submit-plot")
    ann.wait_for_selector("#unplot:not([hidden])")
    assert _sent(ann) == [{"type": "plot", "orders": ["ann:S3"]}]
