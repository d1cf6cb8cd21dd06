"""A battle you can follow (issue 11, items 4 and 5): the battle told in words beside the
table, step by step with the animation, on the referee and replay pages; lasers in their
owner's colour and fading traces; the legend; a card seen large on hover or click; the
ships' own art; the mute button remembered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from spacetable.lasers.tables import load_table
from tests._paths import ROOT
from tests._server import running_server
from tests.browser._play import (
    FAST_ANIMATION,
    box_of,
    discard_if_offered,
    on_screen,
    place,
    shown_scores,
    store_fig1,
    take_seat,
    watch_battle,
)
from tests.browser.conftest import BOT_PACE, ROOM_SEED, OpenPage, Server, Shot

EXAMPLES = ROOT / "examples"
FIG1 = EXAMPLES / "fig1-sample-game.json"
RAID = EXAMPLES / "stellar-cargo-raid.json"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database holding one finished match: the rulebook's Fig. 1 game, as if played."""
    db = tmp_path_factory.mktemp("battle-log") / "matches.db"
    return db, store_fig1(db)


@pytest.fixture(scope="module")
def server(stored: tuple[Path, str], compiled_kernels: None) -> Iterator[Server]:
    # Seeded like the session server: the pages' rooms take the test's seeds (RoomSeeds).
    # Bots at the session server's pace: the room's test waits for one to play its deck.
    with running_server(stored[0], "--bot-pace", str(BOT_PACE), room_seed=ROOM_SEED) as running:
        yield Server(running.http)


def resolve_in_referee(page: Page, path: Path) -> None:
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector("#referee-note:not([hidden])")  # the table first, then Resolve
    page.click("#resolve")
    page.wait_for_selector("body[data-phase=battle]")
    page.wait_for_selector("#battle-step[data-speed]")


def table_fought_out(open_page: OpenPage, path: Path, table: dict[str, Any]) -> Page:
    """The referee's page with ``table`` (written to ``path``) resolved and its battle
    skipped to the end."""
    path.write_text(json.dumps(table))
    page = open_page("/referee")
    resolve_in_referee(page, path)
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    return page


def told(page: Page) -> list[str]:
    """The log's lines shown so far (steps whose lasers have landed)."""
    return [
        t.strip()
        for t in page.locator(
            ".log-beat:not([hidden]) .log-lines:not([hidden]) .log-line"
        ).all_inner_texts()
    ]


def test_the_referee_tells_the_battle_step_by_step(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, FIG1)
    page.click("#battle-play")  # pause, then step through by hand
    page.wait_for_selector("#battle-play:text('Play')")
    page.click("#battle-replay")
    page.click("#battle-play")
    steps = page.locator(".log-beat").count()
    speeds = json.loads(
        page.evaluate(
            "JSON.stringify([...document.querySelectorAll('.log-beat')].map(b => b.dataset.speed))"
        )
    )
    assert steps >= 3 and speeds == sorted(speeds, key=int)
    page.click("#battle-next")
    assert page.locator(".log-beat:not([hidden])").count() == 1
    first = told(page)
    assert first, "the first step is told once its lasers land"
    page.click("#battle-next")
    assert page.locator(".log-beat:not([hidden])").count() == 2
    assert page.locator(".log-beat.current").get_attribute("data-index") == "1"
    assert told(page)[: len(first)] == first
    shot(page, "stepping")

    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    lines = told(page)
    assert page.locator(".log-beat:not([hidden])").count() == steps
    # Fig. 1: red's Viper destroys blue's Ghost; the log says who hit whom and who takes it.
    assert any(
        line.startswith("red's")
        and "blue's Ghost for" in line
        and "destroyed; red takes it" in line
        for line in lines
    ), lines
    assert any("shield blocks it" in line for line in lines)
    assert shown_scores(page) == {"red": 4, "blue": 2}
    # Lasers have their owner's colour; earlier steps' traces are faint and fade.
    colours = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.battle-layer .laser')].map(
             g => [g.dataset.owner, g.dataset.colour]))"""
    )
    assert colours.get("red") and colours["red"] != colours.get("blue")
    opacities = {
        float(o)
        for o in page.eval_on_selector_all(
            ".laser.trace", "gs => gs.map(g => g.getAttribute('opacity'))"
        )
    }
    assert opacities and max(opacities) < 0.5 and len(opacities) >= 2
    # The legend says what colours and widths mean.
    legend = page.inner_text(".battle-legend")
    assert "owner's colour" in legend and "power 1, 2, 3" in legend
    shot(page, "over")


def test_the_fatal_shot_is_the_one_told_destroyed(
    open_page: OpenPage, tmp_path: Path, shot: Shot
) -> None:
    """A Moth's two lasers both hit a Sidewinder (health 2) in the same step: the first, for
    2, is the fatal one and says "destroyed"; the second says the ship was already done for
    (before, the first said "(2 of 2)" and only the second "destroyed")."""
    table = {
        "ruleset": "lightspeed",
        "players": ["red", "blue"],
        "cards": [
            {"id": "red-moth", "owner": "red", "ship": "moth", "x": 0, "y": -150, "rotation": 0},
            {
                "id": "blue-sw",
                "owner": "blue",
                "ship": "sidewinder",
                "x": 0,
                "y": 0,
                "rotation": 180,
            },
        ],
    }
    page = table_fought_out(open_page, tmp_path / "two-hits.json", table)
    lines = [line for line in told(page) if "blue's Sidewinder" in line and " hits " in line]
    assert len(lines) == 2, lines
    fatal, after = lines
    assert "for 2 (2 of 2)" in fatal and "destroyed; red takes it" in fatal, lines
    assert "(already 2 of 2)" in after and "destroyed" not in after, lines
    shot(page, "fatal-shot")


def test_an_ion_hit_too_late_for_a_delay_token_says_so(open_page: OpenPage, tmp_path: Path) -> None:
    """The raid table with red's Flagship as fast as the Ionizer that hits it: the ion hit
    lands in the step the Flagship fires, too late for a Delay token (ruling S3), and the
    log says so; blue's Ionizer's hit on red's slower Hauler gives its token."""
    table = json.loads(RAID.read_text())
    table["ships"]["flagship"]["speed"] = table["ships"]["ionizer"]["speed"]
    page = table_fought_out(open_page, tmp_path / "late-ion.json", table)
    ion = [line for line in told(page) if "ion laser hits" in line]
    late = [line for line in ion if "red's Flagship" in line.split("hits", 1)[1]]
    assert late and all(
        "too late for a Delay token: it has fired, or fires in this step" in line for line in late
    ), ion
    token = [line for line in ion if "red's Hauler" in line.split("hits", 1)[1]]
    assert token and all("Delay token: it fires later" in line for line in token), ion


def test_the_log_heading_jumps_to_its_step_and_names_point_at_ships(open_page: OpenPage) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, FIG1)
    page.click("#battle-skip")
    page.locator(".log-beat[data-index='1'] .log-step").click()
    assert page.locator(".log-beat.current").get_attribute("data-index") == "1"
    assert page.inner_text("#battle-play") == "Play"
    assert page.locator(".log-beat:not([hidden])").count() == 2
    # Pointing at a ship's name in the log shows that ship on the table.
    ref = page.locator(".log-beat[data-index='1'] .ship-ref[data-card]").first
    card = ref.get_attribute("data-card")
    ref.hover()
    page.wait_for_selector(f".table-card.spotlight[data-card='{card}']")
    assert page.locator(".table-card.spotlight").count() == 1


def test_the_table_does_not_move_while_the_battle_plays(open_page: OpenPage) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, RAID)
    page.click("#battle-play")
    page.click("#battle-replay")
    page.click("#battle-play")
    boxes = set()
    for _ in range(page.locator(".log-beat").count()):
        page.click("#battle-next")
        box = page.locator("#table").bounding_box()
        assert box is not None
        boxes.add((round(box["x"]), round(box["y"]), round(box["width"]), round(box["height"])))
    assert len(boxes) == 1, boxes
    lines = told(page)
    assert any("steals" in line or "picks up" in line or "vaporize" in line for line in lines), (
        lines
    )


def test_hovering_a_card_shows_it_large_and_a_click_keeps_it(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, FIG1)
    page.click("#battle-skip")
    # The end card lies over the table: a player who wants to look at the cards folds it.
    page.click("#score-panel .end-card-fold")
    table = load_table(FIG1)
    alive = table.resolve().ships
    card = next(c for c in table.cards if c.ship is not None and alive[c.id].alive)
    assert card.ship is not None
    x, y = on_screen(page, card.pose.x, card.pose.y)
    page.mouse.move(x, y)
    page.wait_for_selector("#inspector:not([hidden])")
    text = page.inner_text("#inspector")
    assert f"{card.owner}'s {card.ship.name}" in text
    assert f"Health {card.ship.health}" in text and "Lasers" in text
    # Whoever shot it, a destroyed ship goes to its owner's opponent (two players): the
    # card's worth says so (it said "to whoever destroys it").
    assert "to the player whose kill pile it goes to" in text
    assert page.locator("#inspector .inspector-lasers li").count() == len(card.ship.lasers)
    page.mouse.move(5, 5)
    page.wait_for_selector("#inspector", state="hidden")
    page.mouse.click(x, y)
    page.mouse.move(5, 5)
    assert page.is_visible("#inspector.pinned")
    shot(page, "inspector")
    page.keyboard.press("Escape")
    page.wait_for_selector("#inspector", state="hidden")


@pytest.mark.parametrize("example", ["four-player-melee", "stellar-wiss-vs-hexai"])
def test_every_ship_is_drawn_with_its_own_art(
    open_page: OpenPage, shot: Shot, example: str
) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, EXAMPLES / f"{example}.json")
    page.click("#battle-skip")
    drawings = page.eval_on_selector_all(
        ".table-card.ship", "cs => cs.map(c => [c.dataset.ship, c.querySelector('.art').innerHTML])"
    )
    by_ship = {ship: art for ship, art in drawings}
    assert all("<path" in art for art in by_ship.values())
    assert len(set(by_ship.values())) == len(by_ship)
    shot(page, example)


def test_the_mute_choice_is_remembered(open_page: OpenPage) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, FIG1)
    button = page.locator("#battle-controls .mute-button")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.reload()
    resolve_in_referee(page, FIG1)
    assert page.get_attribute("#battle-controls .mute-button", "aria-pressed") == "true"


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_replay_tells_its_battle(
    open_page: OpenPage, stored: tuple[Path, str], shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = open_page(f"/replay/{stored[1]}", viewport={"width": width, "height": height})
    page.wait_for_selector("#replay-battle")
    page.click("#replay-battle")
    page.wait_for_selector("#battle-step[data-speed]")
    page.select_option("#battle-speed", FAST_ANIMATION)
    page.wait_for_selector("body[data-phase=over]", timeout=60_000)
    lines = told(page)
    assert any("destroyed; red takes it" in line for line in lines), lines
    shot(page, f"{width}")


def test_the_referee_on_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/referee", viewport=PHONE)
    resolve_in_referee(page, FIG1)
    page.click("#battle-play")
    page.click("#battle-replay")
    page.click("#battle-play")
    tops = set()
    for _ in range(3):
        page.click("#battle-next")
        # the log is below the table: the step bar tells the step, and the table stays put
        caption = page.inner_text("#battle-step .step-told")
        current = page.locator(".log-beat.current .log-line").all_inner_texts()
        assert caption == " · ".join(line.strip() for line in current)
        box = page.locator("#table").bounding_box()
        assert box is not None
        tops.add((round(box["y"]), round(box["height"])))
    assert len(tops) == 1, tops
    shot(page, "stepping")
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    assert told(page)
    shot(page, "over")


#: Keeps every phase the page's body takes (``window.__phases``), from its first script on.
PHASES_SEEN = """
window.__phases = [];
new MutationObserver(() => {
  const phase = document.body?.dataset.phase;
  if (phase && window.__phases.at(-1) !== phase) window.__phases.push(phase);
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-phase"] });
"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_room_tells_its_battle_beside_the_table(
    server: Server, open_page: OpenPage, shot: Shot, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    room = server.api("/api/rooms", {"seats": 2, "asteroids": "two-small"})
    page = open_page(f"/rooms/{room['id']}", viewport={"width": width, "height": height})
    take_seat(page, "dora", 0)
    assert page.is_visible(".topbar .mute-button")
    page.select_option(".seat[data-seat='1'] .bot-level", "easy")
    page.click(".seat[data-seat='1'] .add-bot")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.click("button#ready")
    page.wait_for_selector("body[data-phase=fast]")
    place(page, 0, -300)
    # The bot plays the rest of its deck and calls stop; we let our card go.
    page.wait_for_selector("body[data-phase=stop], body[data-phase=battle]", timeout=90_000)
    discard_if_offered(page)
    page.wait_for_selector("body[data-phase=battle]")
    page.wait_for_selector(".log-beat:not([hidden])")
    shot(page, f"{width}-battle")
    watch_battle(page)
    lines = told(page)
    assert lines and any("dora's" in line or "easy bot" in line for line in lines), lines
    assert page.locator(".log-beat:not([hidden])").count() == page.locator(".log-beat").count()
    shot(page, f"{width}-over")
    # Seen to its end, the battle is not fought again when the page loads again (a reload,
    # a change of language): the page shows where it ended, its whole log told.
    page.add_init_script(PHASES_SEEN)
    page.reload()
    page.wait_for_selector("body[data-phase=over]")
    page.wait_for_selector("#score-panel #winner")
    assert "battle" not in page.evaluate("window.__phases"), "the battle was fought again"
    assert told(page) == lines
    page.wait_for_selector("#score-panel #rematch")  # her seat taken back: she may ask again
    shot(page, f"{width}-loaded-again")


def test_the_score_panel_explains_the_kill_pile_and_whose_cargo_ship(open_page: OpenPage) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, RAID)
    page.click("#battle-skip")
    page.wait_for_selector("#score-panel #winner")
    assert "Kill pile: the destroyed ships a player scores" in page.inner_text(
        "#score-panel .kill-pile-help"
    )
    assert page.inner_text(".score[data-player='red'] .cargo-cubes").startswith(
        "cubes on red's cargo ship"
    )
    # Seen by a player: their own panel says "your", the others' say "their".
    page.evaluate(
        """async (file) => {
          const { showScores } = await import('/static/js/games/lasers/scores.js');
          const answer = await (await fetch('/api/resolve', {
            method: 'POST', body: JSON.stringify(file),
            headers: { 'Content-Type': 'application/json' } })).json();
          showScores(document.querySelector('#score-panel'), {
            table: answer.table || file, result: answer.result,
            ships: {}, colourOf: () => '#888888', me: 'red' });
        }""",
        json.loads(RAID.read_text()),
    )
    assert page.inner_text(".score[data-player='red'] .cargo-cubes").startswith(
        "cubes on your cargo ship"
    )
    assert page.inner_text(".score[data-player='blue'] .cargo-cubes").startswith(
        "cubes on their cargo ship"
    )
    assert page.inner_text(".score[data-player='blue'] .stolen-cubes").startswith(
        "stolen cubes on their other"
    )


COUNT_TONES = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones += 1;
  return start.apply(this, args);
};
"""


def test_the_battle_sounds_and_the_mute_silences_it(open_page: OpenPage) -> None:
    page = open_page("/referee")
    page.add_init_script(COUNT_TONES)
    page.reload()
    resolve_in_referee(page, FIG1)
    page.click("#battle-replay")  # a gesture: the browser lets the page play sounds
    page.select_option("#battle-speed", FAST_ANIMATION)
    page.wait_for_selector("body[data-phase=over]", timeout=60_000)
    heard = page.evaluate("window.__tones")
    assert heard > 0
    page.click("#battle-controls .mute-button")
    page.click("#battle-replay")
    page.wait_for_selector("body[data-phase=over]", timeout=60_000)
    assert page.evaluate("window.__tones") == heard


def test_a_card_that_cannot_land_is_outlined_unlike_any_seat(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"seats": 2, "asteroids": "two-small"})
    page = open_page(f"/rooms/{room['id']}")
    take_seat(page, "eve", 0)
    page.select_option(".seat[data-seat='1'] .bot-level", "easy")
    page.click(".seat[data-seat='1'] .add-bot")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.click("button#ready")
    page.wait_for_selector("body[data-phase=fast]")
    asteroid = box_of(page, ".table-card.asteroid")
    page.mouse.move(
        asteroid["x"] + asteroid["width"] / 2, asteroid["y"] + asteroid["height"] / 2, steps=4
    )
    page.wait_for_selector("#hand.blocked")
    shot(page, "blocked")
    outline = page.evaluate(
        """() => {
          const s = getComputedStyle(document.querySelector('#hand .hand-outline'));
          return [s.stroke, s.strokeDasharray];
        }"""
    )
    seats = page.evaluate(
        """async () => {
          const { colourOf } = await import('/static/js/shell/colours.js');
          return [0, 1, 2, 3].map((i) => {
            const probe = document.createElement('span');
            probe.style.color = colourOf(i);
            document.body.append(probe);
            const rgb = getComputedStyle(probe).color;
            probe.remove();
            return rgb;
          });
        }"""
    )
    assert outline[0] not in seats
    assert outline[1] not in ("", "none")


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds serious or critical on ``page`` (skips without axe-core)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci`")
    page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:4]]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def test_the_log_legend_and_inspector_pass_axe(open_page: OpenPage) -> None:
    page = open_page("/referee")
    resolve_in_referee(page, RAID)
    page.click("#battle-skip")
    page.wait_for_selector("#score-panel #winner")
    # The scores lie on a card over the table (shell/endcard.js): fold it to see the ships.
    page.click("#score-panel .end-card-fold")
    ship = box_of(page, ".table-card.ship")
    page.mouse.click(ship["x"] + ship["width"] / 2, ship["y"] + ship["height"] / 2)
    page.wait_for_selector("#inspector.pinned")
    assert serious_violations(page) == []
