"""Accessible pages (issue 11, item 8): a card can be moved, turned and put down with the
keyboard alone, and axe-core finds no serious or critical violation on the lobby, a room
with a match in progress, a replay and the referee.

axe-core comes from npm (package.json at the repository's root; ``./dev.sh test`` runs
``npm ci`` when it is missing). Without it these checks skip, except under CI, where they
must run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests._server import running_server
from tests.browser._play import answer_name, hand_ship, store_fig1, take_seat
from tests.browser.conftest import ROOM_SEED, OpenPage, Server, Shot

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database holding one finished match to replay: the rulebook's Fig. 1 game."""
    db = tmp_path_factory.mktemp("accessibility") / "matches.db"
    return db, store_fig1(db)


@pytest.fixture(scope="module")
def server(stored: tuple[Path, str], compiled_kernels: None) -> Iterator[Server]:
    # Seeded like the session server: the pages' rooms take the test's seeds (RoomSeeds).
    with running_server(stored[0], room_seed=ROOM_SEED) as running:
        yield Server(running.http)


def _axe_path() -> Path:
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"axe-core is missing ({AXE}): .ci/run must install it with npm ci")
        pytest.skip("axe-core is not installed: run `npm ci` (./dev.sh test does when npm exists)")
    return AXE


def _serious_violations(page: Page) -> list[str]:
    """What axe-core finds serious or critical on ``page``, one line per rule."""
    page.add_script_tag(path=str(_axe_path()))
    violations: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(
            f"{n['target']} {n['any'][0].get('data') if n['any'] else ''}" for n in v["nodes"][:4]
        )
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def _start_room(open_page: OpenPage, server: Server) -> tuple[Page, Page]:
    room = server.api("/api/rooms", {"seats": 2})
    ann = open_page(f"/rooms/{room['id']}")
    take_seat(ann, "ann", 0)
    ben = open_page(ann.input_value("#share-link"))
    take_seat(ben, "ben", 1)
    ann.click("button#ready")
    ben.click("button#ready")
    for page in (ann, ben):
        page.wait_for_selector("body[data-phase=fast]")
    return ann, ben


def test_a_card_is_moved_turned_and_placed_with_the_keyboard_alone(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    ann, _ = _start_room(open_page, server)
    # Tab to the table: it says what it is and how to play it.
    for _ in range(30):
        ann.keyboard.press("Tab")
        if ann.evaluate("document.activeElement?.id") == "table":
            break
    assert ann.evaluate("document.activeElement?.id") == "table"
    assert ann.get_attribute("#table", "aria-label")
    described = ann.get_attribute("#table", "aria-describedby")
    assert described and "arrow keys" in (ann.text_content(f"#{described}") or "").lower()

    # The card starts at (0, -280): four Shift+Right and two Up move it, Q turns it.
    ship = hand_ship(ann)
    for key in ["Shift+ArrowRight"] * 4 + ["ArrowUp"] * 2 + ["q"]:
        ann.keyboard.press(key)
    assert ann.get_attribute("#hand", "data-x") == "100"
    assert ann.get_attribute("#hand", "data-y") == "-270"
    assert ann.get_attribute("#hand", "data-rotation") == "15"
    # The bar says the turn as the keys name it: Q left (anticlockwise), E right.
    assert "turned 15° left" in ann.inner_text("#hand-info")
    for key, said in (("e", "not turned"), ("e", "turned 15° right"), ("q", "not turned")):
        ann.keyboard.press(key)
        assert said in ann.inner_text("#hand-info")
    ann.keyboard.press("q")
    shot(ann, "keyboard-card")
    ann.keyboard.press("Enter")
    card = ann.locator(f'.table-card[data-card="ann-{ship}"]')
    card.wait_for()
    assert card.get_attribute("transform") == "translate(100 270) rotate(-15)"

    # The next card shows beside it at once, moves, and goes down with Space.
    second = hand_ship(ann)
    assert second and second != ship
    assert ann.get_attribute("#hand", "visibility") == "visible"
    for key in ["Shift+ArrowLeft"] * 8 + [" "]:
        ann.keyboard.press(key)
    ann.locator(f'.table-card[data-card="ann-{second}"]').wait_for()
    assert ann.locator(".table-card[data-owner=ann]").count() == 2

    # Plus zooms in, and the card moved by the arrows stays in sight; 0 shows the whole table.
    ann.keyboard.press("+")
    ann.keyboard.press("+")
    assert float(ann.get_attribute("#table", "data-zoom") or "1") > 2
    start = float(ann.get_attribute("#hand", "data-x") or "nan")
    for _ in range(16):
        ann.keyboard.press("Shift+ArrowLeft")
    x = float(ann.get_attribute("#hand", "data-x") or "nan")
    assert x == pytest.approx(start - 400)
    hand_box = ann.locator("#hand .hand-face").bounding_box()
    table_box = ann.locator("#table").bounding_box()
    assert hand_box is not None and table_box is not None
    assert (
        table_box["x"] <= hand_box["x"] <= table_box["x"] + table_box["width"] - hand_box["width"]
    )
    shot(ann, "keyboard-zoomed")
    ann.keyboard.press("0")
    assert ann.get_attribute("#table", "data-zoom") == "1"


def test_axe_finds_nothing_serious(
    server: Server, open_page: OpenPage, stored: tuple[Path, str]
) -> None:
    _axe_path()
    found: dict[str, list[str]] = {}
    lobby = open_page("/")
    lobby.wait_for_selector("#create")
    found["lobby"] = _serious_violations(lobby)

    # One tab goes from page to page (a new browser context costs Chromium more than a
    # page does); the room's two players have tabs of their own.
    tab = lobby
    room = server.api("/api/rooms", {"seats": 2})
    tab.goto(f"/rooms/{room['id']}")
    take_seat(tab, "cy", 0)
    found["room's seats"] = _serious_violations(tab)

    ann, _ = _start_room(open_page, server)
    ann.wait_for_selector("#hand-bar:not([hidden])")
    found["room"] = _serious_violations(ann)

    hexfleet = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2})
    hex_room = open_page(f"/rooms/{hexfleet['id']}?bots=1:easy")  # a newcomer: asked his name
    answer_name(hex_room, "Di")
    hex_room.click("button#ready")
    hex_room.wait_for_selector("#hex-controls:not([hidden]) #end-activation", timeout=30_000)
    found["hex fleet room"] = _serious_violations(hex_room)

    tab.goto(f"/replay/{stored[1]}")
    tab.wait_for_selector("body[data-phase=fast], body[data-phase=battle], #replay-battle")
    found["replay"] = _serious_violations(tab)

    tab.goto("/referee")
    tab.wait_for_selector(".add-ship")
    found["referee"] = _serious_violations(tab)

    assert found == {
        "lobby": [],
        "room's seats": [],
        "room": [],
        "hex fleet room": [],
        "replay": [],
        "referee": [],
    }


def test_axe_finds_nothing_serious_in_hex_fleet_referee_tutorial_and_rules(
    open_page: OpenPage,
) -> None:
    _axe_path()
    found: dict[str, list[str]] = {}
    referee = open_page("/referee?game=hexfleet")
    referee.wait_for_selector("#hex-table .hex-ship-card")
    example = Path(__file__).resolve().parents[2] / "examples" / "hexfleet-benellyn.json"
    referee.set_input_files("#hex-import-file", str(example))
    referee.wait_for_selector("#hex-steps [data-step='11']")
    referee.click("#hex-table .hex-ship-card[data-ship='benellyn'] .hex-setup summary")
    referee.click(".hex-drawing-box summary")
    referee.fill("#hex-draft-cards", "KS ZZ")
    found["hex fleet referee"] = _serious_violations(referee)

    tutorial = open_page("/tutorial?game=hexfleet")
    tutorial.wait_for_selector("#hex-draw")
    found["hex fleet tutorial's cup"] = _serious_violations(tutorial)
    while tutorial.get_attribute("body", "data-done") != "yes":
        tutorial.click("#hex-draw")
    tutorial.click("#next")
    tutorial.wait_for_selector(".hex.reachable")
    found["hex fleet tutorial's move"] = _serious_violations(tutorial)

    rules = open_page("/rules#hexfleet")
    rules.wait_for_function("[...document.images].every((img) => img.complete)")
    found["hex fleet rules"] = _serious_violations(rules)
    assert found == {
        "hex fleet referee": [],
        "hex fleet tutorial's cup": [],
        "hex fleet tutorial's move": [],
        "hex fleet rules": [],
    }
