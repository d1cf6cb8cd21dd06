"""Hex fleet cards keep up with the board: bots that act faster than a reveal takes do not
queue reveals behind each other; the cards on screen are always the latest action's (the
older ones are in the log), and a rematch starts with no card of the last battle."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests._server import running_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet._battle import create_battle_with_bot

#: Bots act every 0.8 s times this: many times faster than a reveal (2-6 s).
BOT_PACE = "0.05"
ROOM_SEED = 3

#: Record every card-turning `acted` message as it arrives, in the same event dispatch as
#: the page's own handler (the socket is made before the page listens to it).
RECORD_ACTIONS = """(() => {
  window.cardActions = [];
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        const turned = (message.events || [])
          .filter((e) => ["fire", "shields", "hail", "damage"].includes(e.type));
        if (message.type === "acted" && turned.some((e) => e.type !== "damage")) {
          window.cardActions.push(turned.flatMap((e) => e.cards || (e.card ? [e.card] : [])));
        }
      });
    }
  };
})();"""

#: The cards on screen and the latest card-turning action's, read in one go.
CARDS_NOW = """() => ({
  shown: [...document.querySelectorAll('#hex-cards .hx-card[data-card]')]
    .map((c) => c.dataset.card),
  latest: window.cardActions.at(-1) || [],
  actions: window.cardActions.length,
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """Bots as fast as they go: a reveal takes longer than the time between two actions."""
    db: Path = tmp_path_factory.mktemp("hex-card-pace") / "matches.db"
    with running_server(db, "--bot-pace", BOT_PACE, room_seed=ROOM_SEED) as running:
        yield Server(running.http)


def cards_now(page: Page) -> tuple[list[str], list[str], int]:
    """The cards shown, the latest card-turning action's, and how many actions turned cards."""
    found = page.evaluate(CARDS_NOW)
    return list(found["shown"]), list(found["latest"]), int(found["actions"])


def test_the_cards_shown_are_the_latest_actions(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport={"width": 1366, "height": 800})
    page.add_init_script(RECORD_ACTIONS)
    create_battle_with_bot(page)  # a new page: the recorder is in place
    page.wait_for_selector("button#ready")
    page.click("button#ready")
    page.wait_for_selector("#leave-match")
    page.click("#leave-match")  # a bot stands in: bot against bot, watched
    checked = 0
    over = False
    while checked < 6 and not over:
        page.wait_for_function(
            f"() => window.cardActions.length > {checked} "
            "|| document.body.dataset.phase === 'over'",
            timeout=60_000,
        )
        over = page.get_attribute("body", "data-phase") == "over"
        shown, latest, actions = cards_now(page)  # at the end too: the last salvo's cards
        assert sorted(shown) == sorted(latest), (shown, latest)
        if not checked:
            shot(page, "cards-desktop")
        checked = actions
    assert checked >= 3, "too few salvos to check"
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#hex-cards").scroll_into_view_if_needed()
    shot(page, "cards-phone")
