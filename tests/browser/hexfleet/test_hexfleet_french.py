"""The hex fleet in French, as a French speaker plays it: a duel against the easy bot, from
the waiting room through several activations (moves, shields, the odds before a salvo, the
cards turned) to the end card, with no English word, raw message or overflowing text at
1366x800 and 390x844; a refusal is said in French; a battle stored by an English player
tells its ships' logs in French; the tutorial's hex fleet lesson in French; the hex fleet
referee, an example combat script stepped to its end card, its refusals in French."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from tests._paths import ROOT
from tests._server import Server
from tests.browser._pages import PagePool
from tests.browser._play import answer_name, end_in_sight
from tests.browser._replay import ann_against_a_bot, hex_ann_plays_once_then_leaves
from tests.browser._servers import quick_server_for
from tests.browser.conftest import Server as PageServer
from tests.browser.conftest import save_screenshot
from tests.browser.hexfleet.test_hexfleet_room import (
    NEAREST_TO_ENEMY,
    my_move_or_end,
    version,
    wait_for_next_action,
)
from tests.browser.test_tutorial import status, step_is, wait_done
from tests.i18n._french import assert_french, french_page

VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SCREENSHOTS_DIR = "artifacts/screenshots"
#: The duel's seed: its chits give us activations in range of the bot, and salvos.
SEED = 5

quick_server = quick_server_for("hexfleet-french", room_seed=SEED)


def _act(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).click()
    wait_for_next_action(page, before)


def _move_towards_enemy(page: Page) -> None:
    target = page.evaluate(NEAREST_TO_ENEMY)
    if target is None:
        return
    before = version(page)
    hex_ = page.locator(f".hex[data-hex='{target}'] polygon")
    if page.evaluate("matchMedia('(max-width: 820px)').matches"):
        hex_.tap()  # a phone: the move waits for its confirm
        page.locator("#confirm-move").tap()
    else:
        hex_.click()
    wait_for_next_action(page, before)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_hex_battle_against_a_bot_in_french(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    with french_page(page_pool, quick_server.http, VIEWPORTS[device]) as (page, errors):
        shot = f"{SCREENSHOTS_DIR}/french-hexfleet-{{}}-{device}.png"
        room = quick_server.create_room(
            ruleset="hexfleet", scenario="duel", turn_limit=3, seed=SEED
        )
        page.goto(f"/rooms/{room}?join=1&bots=1:easy")
        answer_name(page, "Ann")
        page.locator("#hex-fleets").wait_for()
        assert "Place 1\u00a0:" in page.inner_text("#hex-fleets")
        assert_french(page)
        save_screenshot(page, shot.format("waiting"))
        page.click("button#ready")
        activations = aimed = 0
        cards_seen = False
        while my_move_or_end(page):
            activations += 1
            assert page.inner_text("#hex-turn").startswith("À vous\u00a0:")
            assert_french(page)
            if activations == 1:
                save_screenshot(page, shot.format("activation"))
            if page.locator(".hex.reachable").count():
                _move_towards_enemy(page)
            if page.is_enabled("#raise-shields"):
                _act(page, "#raise-shields")
                page.locator("#hex-cards .hx-card.up").first.wait_for()
                cards_seen = True
                assert_french(page)
            if page.locator(".target-button:not(.out)").count() and page.is_enabled("#fire"):
                page.locator(".target-button:not(.out)").first.click()
                summary = page.inner_text("#odds-summary")
                assert "de toucher au moins une fois" in summary, summary
                assert_french(page)
                if not aimed:
                    save_screenshot(page, shot.format("aiming"))
                aimed += 1
                _act(page, "#confirm-fire")
                page.locator("#hex-cards .hx-salvo").wait_for()
                page.wait_for_selector("#hex-cards.hx-done")
                assert_french(page)
                save_screenshot(page, shot.format("salvo"))
            if page.get_attribute("body", "data-phase") == "over":
                break
            _act(page, "#end-activation")
        page.wait_for_selector("#winner")
        end_in_sight(page)
        assert activations >= 2 and cards_seen and aimed, (activations, cards_seen, aimed)
        end = page.inner_text("#end-panel")
        assert "Force restante" in end, end
        log = "\n".join(page.locator("#log-panel .hx-line").all_text_contents())
        assert "début du tour 1" in log and " tire " in log, log
        assert_french(page)
        save_screenshot(page, shot.format("end"))
        assert not errors, errors


def test_a_refusal_is_said_in_french(quick_server: Server, page_pool: PagePool) -> None:
    """An action the rules refuse comes back in French: End activation pressed twice at
    once sends a second "done" that reaches the server after the activation ended."""
    with french_page(page_pool, quick_server.http, VIEWPORTS["desktop"]) as (page, errors):
        room = quick_server.create_room(
            ruleset="hexfleet", scenario="duel", turn_limit=3, seed=SEED
        )
        page.goto(f"/rooms/{room}?join=1&bots=1:easy")
        answer_name(page, "Ann")
        page.click("button#ready")
        assert my_move_or_end(page)
        page.evaluate(
            "() => { const b = document.querySelector('#end-activation'); b.click(); b.click(); }"
        )
        page.wait_for_selector("#message:not([hidden])")
        said = page.inner_text("#message")
        assert "vaisseau" in said or "bataille" in said, said
        assert_french(page)
        assert not errors, errors


def test_a_battle_stored_by_an_english_player_tells_its_logs_in_french(
    quick_server: Server, page_pool: PagePool
) -> None:
    """The store keeps phrases, not sentences: a duel played through the socket (no page,
    no language) is read in French on the replay page (its ships' logs, its controls)."""
    room = {"ruleset": "hexfleet", "seats": 2, "scenario": "duel", "turn_limit": 3, "seed": SEED}
    with ann_against_a_bot(PageServer(quick_server.http), room, "easy") as ann:
        result = hex_ann_plays_once_then_leaves(ann)
    stored = quick_server.stored_match(result["match_id"])
    english = [line["text"] for frame in stored["events"] for line in frame["log"]]
    assert any(text.startswith("turn 1 begins") for text in english)
    with french_page(page_pool, quick_server.http, {}) as (page, errors):
        page.goto(f"/replay/{result['match_id']}")
        page.locator(".hx-line").first.wait_for(state="attached")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.hx-line')].some("
            "(l) => l.textContent.startsWith('début du tour 1'))"
        )
        lines = page.locator(".hx-line").all_text_contents()
        assert not any(line.startswith("turn ") for line in lines), lines
        # The replay's own parts (its controls, fleets, cards and logs; the page's frame is
        # the replay page's): French too, at the end of the battle.
        page.keyboard.press("End")
        page.wait_for_selector("#hx-result:not(:empty)")
        assert page.inner_text(".hx-position").startswith("Étape ")
        assert_french(page, ".hx-replay-panel, #players, .hx-replay-logs, .hx-tray")
        save_screenshot(page, f"{SCREENSHOTS_DIR}/french-hexfleet-replay-log.png")
        assert not errors, errors


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_hex_fleet_lesson_in_french(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    """The tutorial's hex fleet lesson, in French to its last step: the cup, a move and a
    turn, shields raised, a salvo and its damage cards, the ship's log."""
    with french_page(page_pool, quick_server.http, VIEWPORTS[device]) as (page, errors):
        shot = f"{SCREENSHOTS_DIR}/french-hexfleet-lesson-{{}}-{device}.png"
        page.goto("/tutorial?game=hexfleet")
        step_is(page, "hex-cup")
        assert page.locator("#hex-cup .hex-chit").all_inner_texts() == [
            "Dart (le vôtre)",
            "Warden (Bleu)",
            "blanc",
        ]
        for _ in range(3):
            page.click("#hex-draw")
        wait_done(page)
        assert page.inner_text("#hex-cup .hex-drawn") == "Tiré\u00a0: Dart (le vôtre)"
        assert_french(page)
        save_screenshot(page, shot.format("cup"))
        page.click("#next")
        step_is(page, "hex-move")
        assert page.inner_text("#hex-movement") == "Mouvement restant\u00a0: 16 sur 16 hexagones."
        page.locator(".hex.reachable[data-hex='2,5']").click()
        page.locator(".facing-arrow[data-facing='0']").click()
        wait_done(page)
        assert "dans l'arc avant du Dart" in status(page)
        assert_french(page)
        page.click("#next")
        step_is(page, "hex-shields")
        page.click("#hex-raise")
        wait_done(page)
        assert status(page).startswith("7♥ et 7♣\u00a0: c'est réussi")
        log = page.locator("#hex-lesson-log li").first.inner_text()
        assert log == "Dart lève ses boucliers\u00a0: 7♥ 7♣, une paire de sept — levés", log
        assert_french(page)
        page.click("#next")
        step_is(page, "hex-fire")
        page.locator(".ship[data-ship='warden']").click()
        wait_done(page)
        assert status(page).startswith("3 touches à travers les boucliers du Warden")
        page.wait_for_selector("#hex-lesson-cards.hx-done")
        # The cards as French cards print them: the queen of spades is D♠, the king of
        # hearts R♥, in the log and on the cards' corners (the codes stay in the data).
        lines = page.locator("#hex-lesson-log li").all_inner_texts()
        assert lines[1].endswith("9♦ 3♣ D♠ 5♥ — 3 touches"), lines
        assert lines[4].startswith("carte de dégâts R♥\u00a0: "), lines
        king = page.locator("#hex-lesson-cards .hx-card[data-card='KH'] .hx-corner.top b")
        assert king.inner_text() == "R"
        assert_french(page)
        save_screenshot(page, shot.format("fired"))
        page.click("#next")
        step_is(page, "hex-ready")
        assert_french(page)
        save_screenshot(page, shot.format("ready"))
        assert not errors, errors


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_hex_fleet_referee_in_french(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    """The referee at a real table, in French: the Benellyn example pasted without its last
    step (the ships' gauges and logs, the steps, the cards each needs), a card typed wrong
    and a step's cards cut short (the server's refusal, as a phrase) said in French and
    changing nothing, then Benellyn's jump recorded by hand: the end card, in French; started
    over, a card typed twice is warned of in French."""
    with french_page(page_pool, quick_server.http, VIEWPORTS[device]) as (page, errors):
        shot = f"{SCREENSHOTS_DIR}/french-hexfleet-referee-{{}}-{device}.png"
        script = json.loads((ROOT / "examples" / "hexfleet-benellyn.json").read_text("utf-8"))
        assert script["steps"][-1] == {"jump": "benellyn"}
        script["steps"].pop()
        last = len(script["steps"])
        page.goto("/referee?game=hexfleet")
        page.wait_for_selector("#hex-table .hex-ship-card[data-ship='warden']")
        assert_french(page)
        page.click("#hex-referee .hex-paste summary")
        page.fill("#hex-paste-text", json.dumps(script))
        page.click("#hex-paste-load")
        page.wait_for_selector(f"#hex-steps [data-step='{last}']")
        steps = page.locator("#hex-steps .hex-step h3").all_inner_texts()
        assert steps[0] == "1. Benellyn lève ses boucliers", steps
        assert steps[1] == "2. Kal Pol tire sur Benellyn", steps
        gauges = page.inner_text("#hex-table .hex-ship-card[data-ship='benellyn']")
        assert "Boucliers" in gauges and "levés" in gauges and "Journal de bord" in gauges
        assert "noir · lourd" in gauges, gauges
        assert_french(page)
        save_screenshot(page, shot.format("imported"), full_page=True)
        # A card typed wrong: flagged as it is typed, and the step cannot be recorded.
        page.select_option("#hex-draft-kind", "fire")
        page.fill("#hex-draft-cards", "KS ZZ")
        need = page.inner_text("#hex-draft-cards-need")
        assert need.startswith("«\u00a0ZZ\u00a0» n'est pas une carte"), need
        assert page.is_disabled("#hex-record")
        page.fill("#hex-draft-cards", "KS")
        need = page.inner_text("#hex-draft-cards-need")
        assert need.startswith("6 cartes de tir (salve de Benellyn ; seuls touchent"), need
        # The king of spades as a French player types it: roi de pique.
        page.fill("#hex-draft-cards", "rp")
        assert page.inner_text("#hex-draft-cards-need") == need
        page.fill("#hex-draft-cards", "RP ZZ")
        wrong = page.inner_text("#hex-draft-cards-need")
        assert "une valeur (A 2…10 V D R) puis une couleur (P C K T" in wrong, wrong
        page.fill("#hex-draft-cards", "KS")
        assert_french(page)
        save_screenshot(page.locator("#hex-draft"), shot.format("bad-card"))
        # The last step's cards cut short: the server runs out of cards there, and says so
        # in French at that step; the script stays as it was.
        field = page.locator(f"#hex-step-{last}-cards")
        typed = field.input_value().split()
        field.fill(" ".join(typed[:-1]))
        field.press("Tab")
        refused = page.locator(f"#hex-steps [data-step='{last}'] .hex-error:not([hidden])")
        refused.wait_for()
        said = refused.inner_text()
        assert said.startswith(f"plus de cartes à l'étape {last} (tir de kal-pol "), said
        assert page.locator(f"#hex-step-{last}-cards").input_value().split() == typed
        assert_french(page)
        save_screenshot(page.locator(f"#hex-steps [data-step='{last}']"), shot.format("refused"))
        # Benellyn jumps out: Kal Pol's side is the last in the battle.
        page.select_option("#hex-draft-ship", "benellyn")
        page.select_option("#hex-draft-kind", "jump")
        page.click("#hex-record")
        page.wait_for_selector("#winner")
        assert page.inner_text("#winner") == "rouge gagne"
        reason = page.inner_text("#hex-end-reason")
        assert reason.startswith("rouge est le seul camp"), reason
        assert page.inner_text("#hex-steps .hex-step h3 >> nth=-1") == (
            f"{last + 1}. Benellyn saute hors de la bataille"
        )
        assert_french(page)
        save_screenshot(page, shot.format("end"))
        # Started over: the same king typed at two steps is warned of, in French.
        page.click("#hex-end-new")
        page.wait_for_selector("#hex-table .hex-ship-card[data-ship='warden']")
        page.fill("#hex-draft-cards", "KS QS")
        page.click("#hex-record")
        page.wait_for_selector("#hex-steps [data-step='1']")
        page.select_option("#hex-draft-ship", "warden")
        page.fill("#hex-draft-cards", "KS 2S")
        page.click("#hex-record")
        warning = page.locator("#hex-steps [data-step='2'] .hex-warning")
        warning.wait_for()
        said = " ".join(warning.inner_text().split())
        assert said.startswith("Vérifiez les cartes : carte 3 du script, tirée à l'étape 2"), said
        assert "R♠ de nouveau" in said, said
        assert_french(page)
        save_screenshot(page.locator("#hex-steps [data-step='2']"), shot.format("warned"))
        assert not errors, errors


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_referees_combat_drawing_is_in_the_pages_language(
    quick_server: Server, page_pool: PagePool, device: str
) -> None:
    """The server draws the settled combat (the referee's "combat drawn card by card"): in
    the page's language, here French chosen by the link (?lang=fr) on an English browser."""
    shot = f"{SCREENSHOTS_DIR}/french-hexfleet-drawing-{{}}-{device}.png"
    english = {"locale": "en-GB", **VIEWPORTS[device]}
    with french_page(page_pool, quick_server.http, english) as (page, errors):
        page.goto("/referee?game=hexfleet&lang=fr")
        page.wait_for_selector("#hex-table .hex-ship-card[data-ship='warden']")
        page.click("#hex-referee .hex-paste summary")
        script = json.loads((ROOT / "examples" / "hexfleet-benellyn.json").read_text("utf-8"))
        script["steps"].pop()  # not to the end: the end card would stand over the page
        page.fill("#hex-paste-text", json.dumps(script))
        page.click("#hex-paste-load")
        page.wait_for_selector(f"#hex-steps [data-step='{len(script['steps'])}']")
        page.click(".hex-drawing-box summary")
        drawing = page.locator(".hex-drawing-box svg")
        words = drawing.locator("text").all_text_contents()
        assert words[0] == "Script de combat de la flotte hex, réglé", words[:3]
        assert "Hex fleet combat script, settled" not in words
        assert_french(page, ".hex-drawing-box")
        save_screenshot(drawing, shot.format("open"))
        assert not errors, errors
