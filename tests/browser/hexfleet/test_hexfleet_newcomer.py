"""What a newcomer to the hex fleet tripped over (issue 20, items 12 to 16), each as the
player meets it: the salvo's caption says what the log says of the target's shields; the
word "null" never shows on an end card or in the lesson's cup; a finished room and the
waiting room show the battle's real board; the turning arrows around an activated ship
point the way they turn it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Page

from spacetable.games.hexfleet.cards import ScriptedCards, parse_card
from spacetable.games.hexfleet.combat import fire
from spacetable.games.hexfleet.narrate import narrate
from spacetable.games.hexfleet.ships import CLASSES, Ship
from tests._server import Client, running_server
from tests.browser._replay import hex_ann_plays_once_then_leaves
from tests.browser.conftest import OpenPage, Server, Shot

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"1366x800": DESKTOP, "390x844": PHONE}
#: This module's server's first room's seed: the same chits and cards on every run.
ROOM_SEED = 11
#: The skirmish's board, in columns and rows (games/hexfleet/fleets.py).
SKIRMISH = (22, 14)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """A server of this module's own: its rooms' seeds do not depend on other modules'."""
    db = tmp_path_factory.mktemp("hexfleet-newcomer") / "matches.db"
    with running_server(db, room_seed=ROOM_SEED) as running:
        yield Server(running.http)


@pytest.fixture(scope="module")
def finished_skirmish(server: Server) -> str:
    """A skirmish room whose battle is over (Ann ends one activation, then leaves her seat
    to a bot): its id."""
    created = server.api(
        "/api/rooms", {"ruleset": "hexfleet", "scenario": "skirmish", "turn_limit": 2}
    )
    ann = Client(SimpleNamespace(ws=server.base.replace("http://", "ws://")), created["id"])  # type: ignore[arg-type]
    try:
        ann.send(type="join", name="ann")
        ann.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        ann.send(type="bot", seat=1, level="easy")
        ann.send(type="ready")
        hex_ann_plays_once_then_leaves(ann)
    finally:
        ann.close()
    return str(created["id"])


def board_hexes(page: Page) -> int:
    return page.locator(".hex-hexes .hex").count()


# -- item 13: the salvo's caption and the log say the same -----------------------------------


def low_shields_salvo() -> tuple[dict[str, Any], str]:
    """A salvo at a heavy ship whose shields are up with 2 of 16 points (every suit gets
    through) and whose first damage card, a heart, takes one: the frame as the room sends
    it (the ships after the cards) and the log's line for it."""
    heavy = CLASSES["heavy"]
    attacker = replace(Ship.new("1", "Benellyn", "ann", heavy, heavy.weapon_choices[0]), at=None)
    target = replace(
        Ship.new("2", "Kal Pol", "bob", heavy, heavy.weapon_choices[0]),
        shields_up=True,
        shields_left=2,
    )
    names = ["AS", "2H", "3D", "4S", "5S", "6H", "7D", "8S", "KH", "QH", "JD", "10S"]
    names += ["9S", "8D", "7S", "6S"]
    after, events = fire(attacker, target, ScriptedCards([parse_card(n) for n in names]))
    line = next(
        line.text
        for line in narrate(events, {"1": "Benellyn", "2": "Kal Pol"}, {"1": attacker, "2": target})
        if "fires" in line.text
    )
    frame = {
        "events": [e.to_json() for e in events],
        "ships": [attacker.to_json(), after.to_json()],
        "deck": {"pile": 30, "discards": [], "reshuffles": 0},
    }
    return frame, line


def test_the_salvo_caption_tells_the_shields_as_the_log_does(open_page: OpenPage) -> None:
    frame, line = low_shields_salvo()
    # The salvo took the target's last shield points: its shields are down after it, but
    # they were up as the cards were turned, and the log says so.
    assert next(s for s in frame["ships"] if s["id"] == "2")["shields_up"] is False
    assert "(shields up, 2/16: every card hits)" in line
    page = open_page("/matches")
    page.evaluate(
        """async (frame) => {
          const { showCards } = await import("/static/js/games/hexfleet/salvo.js");
          const box = document.createElement("section");
          box.id = "cards";
          document.body.prepend(box);
          await showCards(box, frame, { speed: Infinity, sound: false });
        }""",
        frame,
    )
    caption = page.inner_text("#cards .hx-salvo .hx-caption")
    assert "shields up 2/16: every card hits" in caption, caption
    assert "down" not in caption


# -- item 13 and 14: a finished room, to a spectator -----------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_spectator_of_a_finished_room_sees_the_battle_board_and_no_null(
    open_page: OpenPage, server: Server, finished_skirmish: str, shot: Shot, size: str
) -> None:
    page = open_page(f"/rooms/{finished_skirmish}", viewport=SIZES[size])
    page.wait_for_selector("body[data-phase=over] #winner")
    # The ships as the battle ended, on the skirmish's board (not an empty default one).
    page.wait_for_function("document.querySelectorAll('.hex-ships .ship').length > 0")
    assert board_hexes(page) == SKIRMISH[0] * SKIRMISH[1]
    match_id = page.get_attribute("#replay-link", "href")
    assert match_id is not None
    stored = server.api(f"/api/matches/{match_id.rsplit('/', 1)[-1]}")
    ended = [s for s in stored["events"][-1]["ships"] if s["status"] == "table"]
    assert page.locator(".hex-ships .ship").count() == len(ended)
    end_card = page.inner_text("#end-panel")
    assert "null" not in end_card and "undefined" not in end_card, end_card
    assert page.locator("#rematch").count() == 0  # a spectator has no rematch to ask
    shot(page, "spectator-finished")


def test_the_waiting_room_shows_the_scenario_board(open_page: OpenPage, server: Server) -> None:
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "scenario": "skirmish"})
    page = open_page(f"/rooms/{room['id']}", viewport=DESKTOP)
    page.wait_for_selector("#hex-fleets li")  # the scenarios are read
    page.wait_for_function(
        f"document.querySelectorAll('.hex-hexes .hex').length === {SKIRMISH[0] * SKIRMISH[1]}"
    )
    labels = page.locator(".hex-hexes .hex").evaluate_all("hs => hs.map(h => h.dataset.label)")
    assert "2214" in labels  # the skirmish's far corner: column 22, row 14


def test_the_lessons_cup_never_says_null(open_page: OpenPage) -> None:
    page = open_page("/tutorial?game=hexfleet", viewport=PHONE)
    page.wait_for_selector("#hex-draw")
    for _ in range(3):
        if not page.locator("#hex-draw").count():
            break
        page.click("#hex-draw")
        page.wait_for_selector("#hex-cup .hex-drawn")
        text = page.inner_text("#hex-cup")
        assert "null" not in text and "Drawn:" in text, text


# -- item 15: the turning arrows -------------------------------------------------------------

#: Each turning arrow's glyph as the screen shows it: its outline sampled, the centre of its
#: button, and the active ship's centre (CSS pixels).
ARROW_SHAPES = """() => {
  const ship = document.querySelector('.ship.active .ship-hit').getBoundingClientRect();
  const centre = { x: ship.x + ship.width / 2, y: ship.y + ship.height / 2 };
  return [...document.querySelectorAll('.facing-arrow')].map((arrow) => {
    const glyph = arrow.querySelector('path');
    const m = glyph.getScreenCTM();
    const length = glyph.getTotalLength();
    const points = [];
    for (let i = 0; i < 120; i += 1) {
      const p = glyph.getPointAtLength((length * i) / 120);
      const s = new DOMPoint(p.x, p.y).matrixTransform(m);
      points.push([s.x, s.y]);
    }
    const ring = arrow.querySelector('circle').getBoundingClientRect();
    return { facing: Number(arrow.dataset.facing), points,
      button: [ring.x + ring.width / 2, ring.y + ring.height / 2], ship: [centre.x, centre.y] };
  });
}"""


def seat_both_at_one_screen(page: Page, server: Server, scenario: str) -> None:
    """Hot seat: Red and Blue at this screen, ready; returns once one of the ships is
    activated."""
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "scenario": scenario})
    page.goto(f"{server.base}/")
    page.evaluate("localStorage.setItem('spacetable.name', 'Red')")
    page.goto(f"{server.base}/rooms/{room['id']}?hotseat=Red,Blue")
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    page.click("button#ready")
    page.wait_for_selector("#hex-controls:not([hidden]) #controls-title", timeout=60_000)


def test_the_turning_arrows_point_the_way_they_turn_the_ship(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    seat_both_at_one_screen(page, server, "duel")
    page.wait_for_selector(".facing-arrow")
    shapes = page.evaluate(ARROW_SHAPES)
    assert len(shapes) >= 4
    for shape in shapes:
        out = (shape["button"][0] - shape["ship"][0], shape["button"][1] - shape["ship"][1])
        norm = (out[0] ** 2 + out[1] ** 2) ** 0.5
        ux, uy = out[0] / norm, out[1] / norm
        along = [
            (x - shape["button"][0]) * ux + (y - shape["button"][1]) * uy
            for x, y in shape["points"]
        ]
        across = [
            -(x - shape["button"][0]) * uy + (y - shape["button"][1]) * ux
            for x, y in shape["points"]
        ]
        length, width = max(along) - min(along), max(across) - min(across)
        # One clear point: the glyph is longer along the way it points than it is wide (a
        # near-equilateral triangle turned 60° reads as pointing back), its tip outward.
        assert length > 1.2 * width, (shape["facing"], length, width)
        tip = shape["points"][along.index(max(along))]
        tip_across = -(tip[0] - shape["button"][0]) * uy + (tip[1] - shape["button"][1]) * ux
        assert abs(tip_across) < 0.15 * length, shape["facing"]
        assert max(along) > -min(along), shape["facing"]  # the tip is on the outer side
    shot(page, "turning-arrows")
