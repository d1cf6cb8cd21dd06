"""Sending what changed, the pages' half (issue 21 item 5): the room page's socket rebuilds
every ``state`` from the server's patches, in all four games, exactly as the whole states
the server would have sent; and a page that misses a patch asks for the whole state again
and goes on showing the battle as it is."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import ViewportSize, WebSocketRoute

from spacetable.server.lab.state_bytes import measure_game
from tests import _server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet._signs import with_signs

DESKTOP: ViewportSize = {"width": 1366, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

#: Short seeded bot matches of the four games (the bench plays longer ones). The hex
#: battle's first turn is 43 actions of states up to 190 KiB (its second turn is checked
#: by tests/server/sockets/test_state_patch.py, with the same patches).
BODIES: dict[str, dict[str, Any]] = {
    "lightspeed": {"ruleset": "lightspeed", "seats": 3},
    "stellar": {"ruleset": "stellar", "seats": 2, "battle_size": "dispute"},
    "ftl": {"ruleset": "ftl", "seats": 3, "turn_limit": 6},
    "hexfleet": {"ruleset": "hexfleet", "seats": 4, "scenario": "skirmish", "turn_limit": 1},
}

#: Feed a socket's messages, as they came, to the page's own StateKeeper: the states it
#: hands the game pages, and the resyncs it asked for.
REBUILD = """async (messages) => {
  const { StateKeeper } = await import('/static/js/shell/statepatch.js');
  let resyncs = 0;
  const keeper = new StateKeeper(() => { resyncs += 1; });
  const states = [];
  for (const text of messages) {
    const state = keeper.take(JSON.parse(text));
    if (state !== null) states.push(state);
  }
  return JSON.stringify({ states, resyncs });
}"""


@pytest.fixture(scope="module")
def running(
    tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
) -> Iterator[_server.Server]:
    db = tmp_path_factory.mktemp("state-patches") / "matches.db"
    with _server.running_server(db, "--bot-pace", "0.1", room_seed=21) as server:
        yield server


@pytest.fixture(scope="module")
def server(running: _server.Server) -> Server:
    return Server(running.http)


@pytest.mark.parametrize("game", list(BODIES))
def test_the_page_rebuilds_every_state_of_a_bot_match(open_page: OpenPage, game: str) -> None:
    # The match is played on a thread of its own: Playwright keeps this thread's loop.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        report = pool.submit(
            measure_game, game, body=BODIES[game], spectators=0, seed=5, check=True
        ).result()
    page = open_page("/")
    for whole, patched in zip(report["probes"]["whole"], report["probes"]["patched"], strict=True):
        messages = [json.dumps(m) for m in patched.raw]
        assert any(json.loads(m)["type"] == "state_patch" for m in messages)
        rebuilt = json.loads(page.evaluate(REBUILD, messages))
        assert rebuilt["resyncs"] == 0
        assert len(rebuilt["states"]) == len(whole.states) > 2
        for step, (ours, theirs) in enumerate(zip(rebuilt["states"], whole.states, strict=True)):
            assert ours == theirs, f"{game}: state {step} differs"
    # A patch that does not start from the state the page has asks for the whole state.
    first, later = report["probes"]["patched"][0].raw[0], report["probes"]["patched"][0].raw[2:]
    gap = [json.dumps(first), *(json.dumps(m) for m in later if m["type"] == "state_patch")]
    assert json.loads(page.evaluate(REBUILD, gap))["resyncs"] == 1


def test_a_page_that_missed_a_patch_asks_again_and_shows_the_battle_as_it_is(
    running: _server.Server, open_page: OpenPage, shot: Shot
) -> None:
    room = running.create_room(ruleset="hexfleet", scenario="duel", turn_limit=3)
    sent: list[dict[str, Any]] = []
    patches = [0]

    def route(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if json.loads(message)["type"] == "state_patch":
                patches[0] += 1
                if patches[0] == 3:
                    return  # lost on the way: the page must notice
            ws.send(message)

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            to_server.send(message)

        to_server.on_message(from_server)
        ws.on_message(from_page)

    page = open_page("/", viewport=DESKTOP)
    page.route_web_socket("**/ws/rooms/**", route)
    page.goto(f"/rooms/{room}?watch")
    # Open: the route reached the server, which counts the page among the room's sockets.
    page.wait_for_selector("#connection[data-status='open']")
    plain = _server.Client(running, room)
    host = _server.seated(running, room, "Host")
    host.send(type="bot", seat=1)
    host.send(type="ready", ready=True)
    host.wait_type("state")
    host.send(type="leave")  # a bot stands in: two bots play the duel out
    # Playwright hands the route the socket's messages while this thread waits on the page.
    page.wait_for_selector("body[data-phase='over']", timeout=120_000)
    plain.wait_type("result", timeout=30)
    final = plain.state
    assert final is not None and final["phase"] == "over"
    assert [m["type"] for m in sent].count("resync") == 1
    # What the page shows is the battle's end: every ship where it is, every log line.
    shown = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.ship[data-ship]')]
             .map((s) => [s.dataset.ship, s.dataset.hex ?? null]))"""
    )
    on_board = {
        s["id"]: ",".join(map(str, s["at"]))
        for s in final["ships"]
        if s["at"] and s["status"] == "table"
    }
    assert {k: v for k, v in shown.items() if k in on_board} == on_board
    body = page.locator("body")
    assert body.get_attribute("data-log-lines") == str(len(final["log"]))
    assert body.get_attribute("data-version") == str(final["version"])
    assert (
        page.locator(".hx-log-list")
        .inner_text()
        .strip()
        .endswith(
            with_signs(final["log"][-1]["text"])  # its cards with their suits' signs
        )
    )
    shot(page, "state-patches-resynced")
    page.set_viewport_size(PHONE)
    shot(page, "state-patches-resynced-phone")
    plain.close()
    host.close()
