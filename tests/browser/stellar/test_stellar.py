"""Playing Stellar Conflict in the browser against a bot: the room's options in the lobby,
the fleet builder, cards dragged onto the table under the countdown, the freeze, the
battle and the score panel, then the match in the list and its replay; and the referee
sandbox animating a Stellar Conflict table with every kind of mark."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page

from spacetable.games.stellar import race_ships
from tests._paths import ROOT
from tests.browser._pages import paused_clock
from tests.browser._play import (
    drag_place,
    hand_ship,
    hold_at,
    shown_scores,
    shown_winner,
    skip_battle,
    take_seat,
    watch_battle,
)
from tests.browser.conftest import STELLAR_COUNTDOWN_S, OpenPage, Server, Shot

EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
#: Where the person drags cards, well away from the bot's half of the table and spread out
#: so that no two touch.
SPOTS = [(-500 + 110 * i, y) for y in (-300, -180) for i in range(10)]


def _seconds_left(page: Page) -> float:
    return float(page.get_attribute("#countdown", "data-seconds-left") or "nan")


def _pick_fleet(page: Page, credits: int) -> list[str]:
    """Click ship cards, cheapest first, while the credits last; return their keys."""
    cards = page.locator("button.fleet-card")
    costs = {
        cards.nth(i).get_attribute("data-ship") or "": int(
            cards.nth(i).get_attribute("data-credits") or 0
        )
        for i in range(cards.count())
    }
    picked: list[str] = []
    spent = 0
    for key, cost in sorted(costs.items(), key=lambda kv: kv[1]):
        if spent + cost > credits:
            # Cards the credits left cannot pay for cannot be picked.
            assert page.locator(f'button.fleet-card[data-ship="{key}"]').is_disabled()
            continue
        page.click(f'button.fleet-card[data-ship="{key}"]')
        spent += cost
        picked.append(key)
        assert page.get_attribute("#fleet-credits", "data-spent") == str(spent)
    return picked


def test_a_stellar_conflict_match_against_a_bot(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    # Erin sets up a Dispute, Vak against a Hexai bot, in the lobby.
    erin = open_page("/")
    erin.fill("#name", "erin")
    erin.select_option("#ruleset", "stellar")
    assert erin.is_hidden("#piracy") and erin.is_visible("#battle-size")
    erin.select_option("#battle-size", "dispute")
    erin.select_option("#race-0", "hexai")
    erin.select_option("#race-1", "hexai")
    erin.click("#create")
    assert "different race" in erin.inner_text("#create-error")
    erin.select_option("#race-0", "vak")
    erin.click("#create")
    erin.wait_for_url("**/rooms/*")
    erin.wait_for_function("document.querySelector('#game-name').textContent.includes('Stellar')")
    take_seat(erin, "erin", 0)
    assert "Vak vs Hexai" in erin.inner_text(".room-options")
    erin.select_option(".seat[data-seat='1'] .bot-level", "medium")
    erin.click(".seat[data-seat='1'] .add-bot")
    erin.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    erin.click("button#ready")

    # The fleet builder: Vak ships as cards, the Cargo and Flag ships always in the deck.
    erin.wait_for_selector("body[data-phase=preparation]")
    erin.wait_for_selector("#fleet-panel button.fleet-card")
    vak = race_ships("vak")
    always = erin.locator("#fleet-panel .fleet-card.always")
    assert sorted(always.nth(i).get_attribute("data-role") or "" for i in range(2)) == [
        "cargo",
        "flag",
    ]
    assert erin.locator("button.fleet-card").count() == len(vak) - 2
    assert erin.get_attribute("#fleet-credits", "data-credits") == "10"
    picked = _pick_fleet(erin, 10)
    assert picked and sum(vak[k].credits for k in picked) <= 10
    first = picked[0]
    erin.click(f'button.fleet-card[data-ship="{first}"]')  # changed her mind
    assert erin.get_attribute(f'button.fleet-card[data-ship="{first}"]', "aria-pressed") == "false"
    erin.click(f'button.fleet-card[data-ship="{first}"]')
    # A reload in the middle of choosing keeps the seat and the picks.
    erin.reload()
    erin.wait_for_selector("#fleet-panel button.fleet-card[aria-pressed=true]")
    kept = erin.locator("button.fleet-card[aria-pressed=true]")
    assert sorted(kept.nth(i).get_attribute("data-ship") or "" for i in range(kept.count())) == (
        sorted(picked)
    )
    spent = sum(vak[k].credits for k in picked)
    assert erin.get_attribute("#fleet-credits", "data-spent") == str(spent)
    shot(erin, "fleet-builder")
    erin.click("#send-fleet")

    # The deployment: the countdown runs on screen while Erin drags cards onto the table.
    erin.wait_for_selector("body[data-phase=deployment]", timeout=30_000)
    assert erin.is_hidden("#fleet-panel")
    erin.wait_for_selector("#countdown:not([hidden])")
    start = _seconds_left(erin)
    assert 0 < start <= STELLAR_COUNTDOWN_S
    cargo = hand_ship(erin)
    assert cargo is not None and vak[cargo].role == "cargo"
    placed: list[str] = []
    for x, y in SPOTS:
        if erin.get_attribute("body", "data-phase") != "deployment" or _seconds_left(erin) < 4:
            break
        ship = hand_ship(erin)
        if ship is None:
            break
        if drag_place(erin, x, y):
            placed.append(ship)
        if len(placed) == 2:
            shot(erin, "deployment")
        if len(placed) == 3:
            break
    assert placed and placed[0] == cargo
    cubes = erin.locator(f'.table-card[data-card="erin-{cargo}"] .cargo-cubes')
    assert cubes.get_attribute("data-count") == "8"
    assert _seconds_left(erin) < start  # it counts down

    # Time runs out with a card in hand: it freezes where it is, and Erin drops it there.
    holding = hand_ship(erin)
    if holding is not None:
        hold_at(erin, 380, -300)
    server.advance(STELLAR_COUNTDOWN_S)  # the test moves the server's clock past its end
    erin.wait_for_selector("body[data-phase=stop]")
    assert erin.inner_text("#stop-title") == "TIME!"
    assert "countdown ran out" in erin.inner_text("#stop-text")
    shot(erin, "time")
    if holding is not None and erin.is_visible("#drop-here"):
        erin.click("#drop-here")
        card = f"erin-{holding}"
        erin.wait_for_function(
            """(card) => document.querySelector(`.table-card[data-card="${card}"]`)
                || !document.querySelector('#refused').hidden""",
            arg=card,
        )
        if erin.locator(f'.table-card[data-card="{card}"]').count() == 0:
            # The bot took the spot first: keep the card out of the game.
            erin.click("#discard")

    # The battle plays out by initiative, then the score panel counts VP and cubes.
    watch_battle(erin)
    assert erin.inner_text("#battle-step strong").startswith("Initiative")
    shot(erin, "scores")
    scores = shown_scores(erin)
    assert set(scores) == {"erin", "medium bot"}
    assert erin.locator("#score-panel .score .cubes").count() == 4
    href = erin.get_attribute("#replay-link", "href")
    assert href is not None
    match_id = href.rsplit("/", 1)[-1]
    stored = server.api(f"/api/matches/{match_id}")
    assert stored["ruleset"] == "stellar"
    assert scores == stored["result"]["scores"]
    assert shown_winner(erin) == stored["result"]["winner"]
    fleets = {a["player"]: a["ships"] for a in stored["actions"] if a["type"] == "fleet"}
    assert sorted(fleets["erin"]) == sorted(picked)
    erin_cards = [c for c in stored["result"]["table"]["cards"] if c.get("owner") == "erin"]
    assert {c["ship"] for c in erin_cards} >= set(placed)

    # The match list says which game it was; the replay ends on the same scores.
    erin.goto("/matches")
    row = erin.locator(f'tr[data-match="{match_id}"]')
    assert row.locator("td.game").inner_text() == "Stellar Conflict"
    row.locator("a.replay").click()
    erin.wait_for_selector("#replay-log li")
    assert "chose a fleet" in erin.inner_text("#replay-log")
    erin.click("#replay-battle")
    skip_battle(erin)
    assert shown_scores(erin) == scores
    shot(erin, "replay")


def test_the_referee_animates_a_stellar_conflict_battle(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/referee")
    # The battle plays by itself as it begins: a machine that held the test long enough
    # would let it pass its first steps before the first Step (it did: the ion laser and
    # the delay were never seen). On a paused clock it stays at its start until a Step.
    paused_clock(page)
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(EXAMPLES / "stellar-cargo-raid.json"))
    page.wait_for_selector("#referee-note:not([hidden])")  # the table first, then Resolve
    page.click("#resolve")
    page.wait_for_selector("body[data-phase=battle]")
    assert page.input_value("#ruleset") == "stellar"
    golden = json.loads((GOLDEN / "stellar-cargo-raid.result.json").read_text())
    events = golden["events"]
    # Step through the battle: each step shows its marks once its lasers have fired.
    seen: set[str] = set()
    marks = {
        "ion laser": ".battle-layer .laser.live.kind-ion",
        "penetrating laser": ".battle-layer .laser.live.kind-penetrating",
        "pierce hit": ".battle-layer .hit.pierce",
        "delay": ".battle-layer .delay-mark",
        "delay token": ".battle-layer .tokens .delay",
        "cubes stolen": ".battle-layer .flying-cube",
        "cubes vaporized": ".battle-layer .vaporized",
        "cubes on a ship": ".battle-layer .tokens .cargo-cubes",
    }
    for step in range(sum(e["type"] == "step" for e in events)):
        page.click("#battle-next")
        assert page.inner_text("#battle-step strong").startswith("Initiative")
        seen.update(name for name, selector in marks.items() if page.locator(selector).count())
        if "delay" in seen and "delay shot" not in seen:
            seen.add("delay shot")
            shot(page, f"delay-step-{step + 1}")
    assert seen >= set(marks), set(marks) - seen
    page.click("#battle-skip")
    page.wait_for_selector("#score-panel #winner")
    shot(page, "scores")
    assert shown_scores(page) == golden["scores"]
    assert shown_winner(page) == golden["winner"]
    assert "VP" in page.inner_text("#score-panel .kill-pile")

    # The sandbox exports the table as a Stellar Conflict table file.
    with page.expect_download() as download:
        page.click("#export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["ruleset"] == "stellar" and exported["variant"] == {"stolen_goods": True}


#: Red's gun kills Blue's 2-VP ship; Blue keeps 2 cubes on his cargo ship: 2 VP each, and
#: Red wins the tie on enemy ships killed (ruling 11).
TIED_TABLE = {
    "ruleset": "stellar",
    "players": ["red", "blue"],
    "ships": {
        "gun": {
            "name": "Gun",
            "speed": 1,
            "health": 2,
            "vp": 2,
            "credits": 2,
            "lasers": [{"at": [0, 44], "angle": 0, "power": 1}],
        },
        "victim": {"name": "Victim", "speed": 9, "health": 1, "vp": 2, "credits": 2, "lasers": []},
        "hold": {
            "name": "Hold",
            "speed": 10,
            "health": 3,
            "vp": 2,
            "credits": 0,
            "role": "cargo",
            "lasers": [],
        },
    },
    "cards": [
        {"id": "red-gun", "owner": "red", "ship": "gun", "x": 0, "y": 0, "rotation": 0},
        {"id": "blue-victim", "owner": "blue", "ship": "victim", "x": 0, "y": 200, "rotation": 0},
        {
            "id": "blue-hold",
            "owner": "blue",
            "ship": "hold",
            "x": 300,
            "y": 0,
            "rotation": 0,
            "rocks": 2,
        },
    ],
}


def test_the_score_panel_explains_a_tie_broken_on_kills(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    table = tmp_path / "tied.json"
    table.write_text(json.dumps(TIED_TABLE))
    page = open_page("/referee")
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(table))
    page.wait_for_selector("#referee-note:not([hidden])")  # the table first, then Resolve
    page.click("#resolve")
    page.wait_for_selector("body[data-phase=battle]")
    page.click("#battle-skip")
    page.wait_for_selector("#score-panel #tie-break")
    shot(page, "tie-break")
    assert shown_scores(page) == {"red": 2, "blue": 2}
    assert shown_winner(page) == "red"
    line = page.inner_text("#tie-break")
    assert "Tied at 2 VP" in line and "red 1" in line and "blue 0" in line, line
