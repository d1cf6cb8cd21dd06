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
from spacetable.games.hexfleet.combat import RANGE, fire
from spacetable.games.hexfleet.hexes import Hex, distance, in_forward_arc
from spacetable.games.hexfleet.narrate import narrate
from spacetable.games.hexfleet.ships import CLASSES, Ship
from tests._server import Client, running_server
from tests.browser._play import box_of
from tests.browser._replay import hex_ann_plays_once_then_leaves
from tests.browser.conftest import BOT_PACE, OpenPage, Server, Shot

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"1366x800": DESKTOP, "390x844": PHONE}
#: This module's server's first room's seed: the same chits and cards on every run.
ROOM_SEED = 11
#: The skirmish's board, in columns and rows (games/hexfleet/fleets.py).
SKIRMISH = (22, 14)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """A server of this module's own: its rooms' seeds do not depend on other modules'
    (its bots at the session server's pace)."""
    db = tmp_path_factory.mktemp("hexfleet-newcomer") / "matches.db"
    with running_server(db, "--bot-pace", str(BOT_PACE), room_seed=ROOM_SEED) as running:
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


def seat_both_at_one_screen(page: Page, server: Server, scenario: str, **options: object) -> None:
    """Hot seat: Red and Blue at this screen, ready, in a new room of ``scenario`` (and room
    ``options``); returns once one of the ships is activated."""
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "scenario": scenario, **options})
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


# -- item 16: aiming, the legend, words on the board, a phone's move ---------------------------


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or 0)


def activate_a_light_ship(page: Page) -> None:
    """End activations (hot seat: every ship is ours) until a light ship is activated."""
    for _ in range(30):
        page.wait_for_selector("#hex-controls:not([hidden]) #controls-title", timeout=60_000)
        if page.locator(".ship.active.ship-light").count():
            return
        before = version(page)
        page.click("#end-activation")
        page.wait_for_function(f"() => Number(document.body.dataset.version || 0) > {before}")
    raise AssertionError("no light ship was activated in 30 activations")


def test_aiming_lists_only_enemies_and_shows_a_light_ships_arc(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    seat_both_at_one_screen(page, server, "skirmish")
    activate_a_light_ship(page)
    active = page.locator(".ship.active")
    owner = active.get_attribute("data-owner")
    q, r = (int(n) for n in (active.get_attribute("data-hex") or "").split(","))
    facing = int(active.get_attribute("data-facing") or 0)
    owners = dict(
        page.locator(".hex-ships .ship").evaluate_all(
            "ss => ss.map(s => [s.dataset.ship, s.dataset.owner])"
        )
    )
    listed = page.locator(".target-button").evaluate_all("bs => bs.map(b => b.dataset.ship)")
    enemies = {ship for ship, who in owners.items() if who != owner}
    assert listed and set(listed) == enemies  # never your own ships
    assert page.locator(".hex.in-arc").count() == 0  # no arc until you aim

    page.click(".target-button")
    page.wait_for_selector("#aim-panel")
    assert "fires only ahead" in page.inner_text("#aim-arc")
    # The hexes lit are those the rules let it fire at: in range and ahead of it.
    lit = set(page.locator(".hex.in-arc").evaluate_all("hs => hs.map(h => h.dataset.hex)"))
    ship_at = Hex(q, r)
    expected = set()
    for key in page.locator(".hex-hexes .hex").evaluate_all("hs => hs.map(h => h.dataset.hex)"):
        hq, hr = (int(n) for n in key.split(","))
        there = Hex(hq, hr)
        if 0 < distance(ship_at, there) <= RANGE and in_forward_arc(ship_at, facing, there):
            expected.add(key)
    assert lit == expected
    assert page.locator(".arc-edge").count() == 1  # the edge of its forward arc
    shot(page, "aiming-with-arc")
    page.click("#cancel-aim")
    page.wait_for_function("document.querySelectorAll('.hex.in-arc').length === 0")


def test_the_legend_explains_the_gauges(open_page: OpenPage, server: Server, shot: Shot) -> None:
    page = open_page("/", viewport=PHONE)
    seat_both_at_one_screen(page, server, "duel")
    legend = page.locator("#hex-legend")
    legend.scroll_into_view_if_needed()
    assert legend.is_visible()
    text = legend.inner_text()
    for word in ("shields", "weapons", "propulsion"):
        assert word in text
    # Each swatch is its gauge's colour on the board, in the board's order.
    swatches = legend.locator(".gauge-swatch").evaluate_all(
        "ss => ss.map(s => getComputedStyle(s).backgroundColor)"
    )
    gauges = page.locator(".ship.active .gauge").evaluate_all(
        "gs => gs.map(g => { const d = document.createElement('i');"
        " d.style.color = g.getAttribute('fill'); document.body.append(d);"
        " const c = getComputedStyle(d).color; d.remove(); return c; })"
    )
    assert swatches == gauges
    shot(page, "legend")


@pytest.mark.parametrize("scenario", ["skirmish", "fleet"])
def test_hex_numbers_and_names_are_readable_on_the_whole_board(
    open_page: OpenPage, server: Server, scenario: str
) -> None:
    page = open_page("/", viewport=DESKTOP)
    seat_both_at_one_screen(page, server, scenario)
    heights = page.evaluate(
        """() => ['.hex:not(.occupied) .hex-label', '.ship-name'].map((sel) =>
          Math.min(...[...document.querySelectorAll(sel)]
            .map((t) => t.getBoundingClientRect().height)))"""
    )
    assert heights[0] >= 10 and heights[1] >= 10, heights


def test_a_phone_sees_the_path_and_cost_before_the_move(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    seat_both_at_one_screen(page, server, "duel")
    # The battle opens with both fleets in sight (test_hexfleet_turns.py); the activations
    # after it are framed for a finger: a hex 40 px across, the active ship in sight.
    before = version(page)
    page.tap("#end-activation")
    page.wait_for_function(f"() => Number(document.body.dataset.version || 0) > {before}")
    page.wait_for_selector("#hex-controls:not([hidden]) #controls-title")
    before = version(page)
    assert page.evaluate(HEX_WIDTH_ON_SCREEN) >= 39
    assert page.inner_text("#hail-why") == "tap a ship"  # a finger taps, a mouse clicks
    assert page.locator(".ship.active .ship-hit").evaluate(IN_THE_BOARD)
    # The highest lit hex in sight: the move waiting for its confirm must not hide it.
    hexes = page.locator(".hex.reachable").evaluate_all(
        f"""hs => hs.filter((h) => ({IN_THE_BOARD})(h))
          .map((h) => [h.dataset.hex, Number(h.dataset.cost), h.getBoundingClientRect().top])"""
    )
    key, cost, _ = min(hexes, key=lambda h: h[2])
    page.locator(f".hex[data-hex='{key}'] polygon").tap()
    page.wait_for_selector(".pending-move:not([hidden]) #confirm-move")
    assert f": {cost} of " in page.inner_text(".pending-move")
    assert page.locator(".move-path").count() == 1 and page.locator(".path-cost").count() == 1
    hexbox = box_of(page, f".hex[data-hex='{key}'] polygon")
    bar = page.locator(".pending-move").bounding_box()
    assert bar
    assert bar["y"] >= hexbox["y"] + hexbox["height"] or bar["y"] + bar["height"] <= hexbox["y"], (
        f"the move to confirm {bar} hides the hex tapped {hexbox}"
    )
    assert version(page) == before  # not moved yet
    shot(page, "move-preview")
    page.tap("#confirm-move")
    page.wait_for_function(f"() => Number(document.body.dataset.version || 0) > {before}")


#: The width on screen of a hex of the board (px).
HEX_WIDTH_ON_SCREEN = "() => document.querySelector('.hex polygon').getBoundingClientRect().width"
#: Whether an element is wholly inside the board's box.
IN_THE_BOARD = """(e) => { const b = e.getBoundingClientRect();
  const t = document.querySelector('#table').getBoundingClientRect();
  return b.top >= t.top && b.bottom <= t.bottom && b.left >= t.left && b.right <= t.right; }"""


# -- item 12: the reveal, where the player looks ---------------------------------------------

#: Where the beam's two ends and the ships' centres are on the screen, and the tray's box.
SALVO_ON_SCREEN = """() => {
  const beam = document.querySelector('.hex-fx .beam');
  const m = beam.getScreenCTM();
  const end = (x, y) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; };
  const centre = (id) => {
    const b = document.querySelector(`.hex-ships .ship[data-ship="${id}"] .ship-hit`)
      .getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const tray = document.querySelector('.hx-tray').getBoundingClientRect();
  const table = document.querySelector('#table').getBoundingClientRect();
  return { from: end(beam.x1.baseVal.value, beam.y1.baseVal.value),
    to: end(beam.x2.baseVal.value, beam.y2.baseVal.value),
    ship: centre(beam.dataset.ship), target: centre(beam.dataset.target),
    shipId: beam.dataset.ship, targetId: beam.dataset.target,
    tray: [tray.top, tray.bottom], table: [table.left, table.top, table.right, table.bottom],
    height: innerHeight };
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_salvo_shows_on_the_board_and_its_cards_in_view(
    open_page: OpenPage, server: Server, shot: Shot, size: str
) -> None:
    phone = size == "390x844"
    page = open_page("/", viewport=SIZES[size], has_touch=phone, is_mobile=phone)
    # Two heavies 7 hexes apart on a small board: the first ship activated can fire at once.
    seat_both_at_one_screen(page, server, "duel", board=[10, 8])
    shooter = page.get_attribute(".ship.active", "data-ship")
    page.click(".target-button")
    page.click("#confirm-fire")
    page.wait_for_selector(".hex-fx .beam")
    page.wait_for_selector(".hex-fx .flash")
    where = page.evaluate(SALVO_ON_SCREEN)
    # The beam runs from the firing ship to its target; the flash is on the target.
    assert where["shipId"] == shooter and where["targetId"] != shooter
    for a, b in ((where["from"], where["ship"]), (where["to"], where["target"])):
        assert abs(a[0] - b[0]) < 3 and abs(a[1] - b[1]) < 3, where
    assert page.get_attribute(".hex-fx .flash", "data-ship") == where["targetId"]
    # Both ships on the visible board, the cards large in the tray at its bottom edge, all in
    # the window (no scrolling to find them).
    left, top, right, bottom = where["table"]
    for x, y in (where["ship"], where["target"]):
        assert left <= x <= right and max(top, 0) <= y <= min(bottom, where["height"]), where
    assert where["tray"][0] >= 0 and where["tray"][1] <= where["height"] + 1, where
    page.wait_for_selector(".hx-tray #hex-cards.hx-done")
    fired = page.locator(".hx-tray .hx-fire-cards .hx-card.up")
    assert fired.count() == 8  # a heavy ship's full salvo
    width = box_of(page, ".hx-tray .hx-fire-cards .hx-card.up")
    assert width["width"] >= (36 if phone else 50)
    shot(page, "reveal")
