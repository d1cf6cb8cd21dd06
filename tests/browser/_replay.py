"""What the turn games' replay tests share: a room where Ann sits against a bot, driven over
its websocket; the stored match; and the replay's controls stepped on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Page

from tests._server import Client
from tests.browser.conftest import Server, Shot


@contextmanager
def ann_against_a_bot(server: Server, room: dict[str, Any], level: str) -> Iterator[Client]:
    """A room of ``room``'s options (the ``POST /api/rooms`` body), Ann seated in it over
    its websocket, a bot of ``level`` in the other seat, Ann ready: her client, closed
    after."""
    created = server.api("/api/rooms", room)
    # The websocket client of the server tests reads nothing of its server but the ws URL.
    urls = SimpleNamespace(ws=server.base.replace("http://", "ws://"))
    ann = Client(urls, created["id"])  # type: ignore[arg-type]
    try:
        ann.send(type="join", name="ann")
        ann.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        ann.send(type="bot", seat=1, level=level)
        ann.send(type="ready")
        yield ann
    finally:
        ann.close()


def hex_ann_plays_once_then_leaves(ann: Client) -> dict[str, Any]:
    """In a hex fleet room: Ann ends her first activation (a match nobody played is not
    stored), then leaves her seat to a bot, which plays it to the end; the result."""
    while True:
        state = ann.wait(lambda m: m["type"] in ("state", "result"), timeout=120)
        if state["type"] == "result":
            return state
        ships = {s["id"]: s for s in state["ships"]}
        active = ships.get((state.get("activation") or {}).get("ship") or "")
        if active and active["owner"] == "ann" and state["phase"] != "over":
            ann.send(type="act", action={"type": "done", "ship": active["id"]})
            ann.send(type="leave")
            return ann.wait(lambda m: m["type"] == "result", timeout=240)


def stored_match(server: Server, match_id: str) -> dict[str, Any]:
    """The stored match (the server's answer waits while it is on its way to the
    database)."""
    match: dict[str, Any] = server.api(f"/api/matches/{match_id}")
    return match


def pause_and_end_on_a_phone(page: Page, position: str, started: str, shot: Shot) -> None:
    """On a replay page open on a phone: its Play / Pause button is in the first screen,
    under the board, with nothing scrolled; once the ``position`` line starts with
    ``started`` (the replay has left the start), a screenshot; then pause (the button
    offers Play again) and go to the end (the page's phase is over)."""
    page.wait_for_selector("[data-step='play']")
    bottom = page.evaluate(
        "() => window.scrollY + document.querySelector(\"[data-step='play']\")"
        ".getBoundingClientRect().bottom"
    )
    viewport = page.viewport_size
    assert viewport is not None and bottom <= viewport["height"], f"Play ends at {bottom} px"
    page.wait_for_function(
        "([selector, prefix]) => document.querySelector(selector)?.textContent.startsWith(prefix)",
        arg=[position, started],
    )
    shot(page, "playing")
    page.click("[data-step='play']")  # pause
    assert page.inner_text("[data-step='play']") == "▶ Play"
    page.click("[data-step='last']")
    assert page.get_attribute("body", "data-phase") == "over"
