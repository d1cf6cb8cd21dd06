"""Faster Than Light in French (issue 23), as a French speaker's browser shows it
(Accept-Language: fr): a duel against a bot from the first plot to the end card, its
replay and the tutorial's lesson, at 1366 x 800 and on a 390 x 844 phone, with no English
word but the allowed names, no message id shown raw and no text wider than its box
(tests/i18n/_french.py); and the referee resolving a turn file in French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests._paths import ROOT
from tests.browser._play import answer_name, end_in_sight
from tests.browser._servers import seeded_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._duel import wait_turn
from tests.browser.test_tutorial import step_is, wait_done
from tests.i18n._french import assert_french

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DEVICES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

server = seeded_server("ftl-french", room_seed=5)


def _duel(server: Server, open_page: OpenPage, device: dict[str, object]) -> Page:
    """Ann against the easy bot in a two-turn duel, ready and plotting turn 1."""
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_limit": 2})["id"]
    page = open_page(f"/rooms/{room}?join=1&bots=1:easy", locale="fr-FR", **device)
    answer_name(page, "Ann")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.locator("#connection[data-status='open']").wait_for(state="attached")
    assert_french(page)
    page.click("button#ready")
    wait_turn(page, 1)
    page.select_option("#turn-speed", "8")
    return page


@pytest.mark.parametrize("device", DEVICES)
def test_an_ftl_duel_against_a_bot_in_french(
    server: Server, open_page: OpenPage, shot: Shot, device: dict[str, object]
) -> None:
    page = _duel(server, open_page, device)
    assert page.inner_text("#plot-title") == "Vos ordres pour le tour 1"
    assert page.inner_text("#submit-plot") == "Envoyer\u00a0: ne rien faire"
    # The board's buttons on one row in French too (a phone's Mesurer had a row of its own).
    tops = page.eval_on_selector_all(".ftl-zoom button", "bs => bs.map((b) => b.offsetTop)")
    assert len(tops) >= 5 and len(set(tops)) == 1, tops
    assert_french(page)
    shot(page, "plotting")
    # A typo is told in French, the text as typed.
    field = ".plot-row[data-piece='Ann'] .plot-order"
    page.fill(field, "S3x")
    assert "«\u00a0S3x\u00a0» n'est pas un ordre" in page.inner_text("#plot-message")
    assert_french(page)
    # The order, its words and the crossings in French; the what-if too.
    page.fill(field, "S3")
    assert page.inner_text(".plot-row[data-piece='Ann'] .plot-note") == "S3\u00a0: foncer de 3 po"
    assert page.inner_text("#submit-plot") == "Envoyer les ordres (1 ordre)"
    page.click("#what-if")
    page.wait_for_selector("#what-if-panel:not([hidden])")
    assert_french(page)
    shot(page, "what-if")
    page.click("#what-if")
    page.click("#submit-plot")
    wait_turn(page, 2)
    log = page.inner_text("#turn-log")
    assert "Ann a écrit\u00a0: S3." in log
    assert "Course\u00a0: le vaisseau de Ann fonce de 3 po" in log
    assert page.inner_text("#log-title") == "Tour 1, déroulé"
    assert_french(page)
    shot(page, "turn-2")
    page.click(".plot-row[data-piece='Ann'] .plot-launch")
    page.click("#submit-plot")
    page.wait_for_selector("#end-panel #winner", timeout=30_000)
    end_in_sight(page)
    assert page.inner_text("#rematch") == "Revanche"
    assert_french(page)
    shot(page, "end")
    # The history of the match, read only: its banner and its stepper in French.
    page.click("[data-step='first']")
    page.wait_for_selector("#history-banner:not([hidden])")
    assert page.inner_text("#history-banner-text") == (
        "Le départ, avant le tour 1 — historique, lecture seule"
    )
    assert_french(page)
    shot(page, "history")


@pytest.mark.parametrize("device", DEVICES)
def test_the_ftl_replay_in_french(
    server: Server, open_page: OpenPage, shot: Shot, device: dict[str, object]
) -> None:
    page = _duel(server, open_page, device)
    page.click("#submit-plot")
    wait_turn(page, 2)
    page.click("#submit-plot")
    page.wait_for_selector("#replay-link", timeout=30_000)
    href = page.get_attribute("#replay-link", "href")
    assert href
    replay = open_page(href, locale="fr-FR", reduced_motion="reduce", **device)
    replay.wait_for_selector("body[data-phase=over]", timeout=30_000)
    assert "Ce qui s'est passé au tour 2" in replay.inner_text("body")
    assert "Départ" not in replay.inner_text(".ftl-position")
    assert " contre " in replay.inner_text("#match-title")  # as the match list says it
    assert_french(replay)
    shot(replay, "replay")


@pytest.mark.parametrize("device", DEVICES)
def test_the_ftl_tutorial_lesson_in_french(
    open_page: OpenPage, shot: Shot, device: dict[str, object]
) -> None:
    page = open_page("/tutorial?game=ftl", locale="fr-FR", **device)
    step_is(page, "ftl-launch")
    page.wait_for_selector(".plot-row[data-piece='red'] .plot-launch")
    assert_french(page)
    shot(page, "1-launch")
    page.click(".plot-row[data-piece='red'] .plot-launch")
    assert page.inner_text("#step-status") == "L\u00a0: prêt. Appuyez sur Jouer le tour."
    page.click("#play-turn")
    wait_done(page, 60_000)
    assert "Votre missile rouge-m1 est sur la table" in page.inner_text("#step-status")
    assert "Lancement\u00a0:" in page.inner_text("#turn-log")
    assert_french(page)
    for step, order in (("ftl-turn", "R-45"), ("ftl-sprint", "S7.5")):
        page.click("#next")
        step_is(page, step)
        page.locator(".plot-order[data-piece='red-m1']").fill(order)
        page.click("#play-turn")
        wait_done(page, 60_000)
        assert_french(page)
    assert page.inner_text("#step-status").startswith("Touché\u00a0!")
    shot(page, "3-sprint")
    page.click("#next")
    step_is(page, "ftl-dodge")
    page.locator(".plot-order[data-piece='red']").fill("R+15")
    assert "serait dans l'espace normal" in page.inner_text("#step-status")
    page.locator(".plot-order[data-piece='red']").fill("S4")
    page.click("#play-turn")
    wait_done(page, 60_000)
    assert_french(page)
    shot(page, "4-dodged")
    page.click("#next")
    step_is(page, "ftl-ready")
    assert page.inner_text("#step-status") == "Vous avez les bases de Faster Than Light."
    assert_french(page)
    shot(page, "5-ready")


@pytest.mark.parametrize("device", DEVICES)
def test_the_ftl_referee_in_french(
    open_page: OpenPage, shot: Shot, device: dict[str, object]
) -> None:
    page = open_page("/referee", locale="fr-FR", **device)
    page.wait_for_selector(".add-ship")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("#ftl-piece-list [data-piece='red'] .order-input")
    assert_french(page)
    page.set_input_files("#ftl-import-file", str(ROOT / "examples" / "ftl-collision.json"))
    page.wait_for_selector("#ftl-piece-list [data-piece='blue-m1']")
    # A bad order is told in French, naming the piece as the file names it.
    order = "#ftl-piece-list [data-piece='red'] .order-input"
    kept = page.input_value(order)
    page.fill(order, "R+10")
    problem = page.inner_text("#ftl-piece-list [data-piece='red'] .order-problem")
    assert problem == (
        "pièce «\u00a0rouge\u00a0»\u00a0: «\u00a0R+10\u00a0»\u00a0: une rotation est un multiple"
        " de 15 degrés, de -180 à +180"
    )
    assert_french(page)
    shot(page, "bad-order")
    page.fill(order, kept)
    page.click("#ftl-resolve")
    page.wait_for_selector("body[data-phase=over]", timeout=30_000)
    lines = page.locator("#ftl-account li").all_inner_texts()
    assert lines[-1] == "Fin de partie\u00a0: plus aucun vaisseau sur la table, match nul."
    assert page.inner_text("#ftl-status") == "Tour 1 résolu. La partie est finie."
    assert_french(page)
    shot(page, "resolved")


@pytest.mark.parametrize("device", DEVICES)
def test_a_turn_file_the_server_refuses_is_told_in_french(
    open_page: OpenPage, shot: Shot, device: dict[str, object], tmp_path: Path
) -> None:
    page = open_page("/referee", locale="fr-FR", **device)
    page.wait_for_selector(".add-ship")
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("#ftl-piece-list [data-piece='red'] .order-input")
    # A file with an order the rules forbid: the page sends it to the server, which refuses
    # it; the refusal is the server's phrase, written in French, the piece named in French.
    bad = json.loads((ROOT / "examples" / "ftl-launch-and-turn.json").read_text(encoding="utf-8"))
    bad["orders"][1]["order"] = "R+10"
    path = tmp_path / "ordres.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#ftl-import-file", str(path))
    page.wait_for_selector("#ftl-error:not([hidden])")
    assert page.inner_text("#ftl-error") == (
        "ordres.json\u00a0: pièce «\u00a0bleu\u00a0»\u00a0: «\u00a0R+10\u00a0»\u00a0: une "
        "rotation est un multiple de 15 degrés, de -180 à +180"
    )
    # One the server alone can judge: a second piece of the same name.
    bad = json.loads((ROOT / "examples" / "ftl-collision.json").read_text(encoding="utf-8"))
    bad["pieces"].append(dict(bad["pieces"][0]))
    twice = tmp_path / "noms.json"
    twice.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#ftl-import-file", str(twice))
    page.wait_for_function(
        "() => document.querySelector('#ftl-error').textContent.includes('deux pièces')"
    )
    assert page.inner_text("#ftl-error") == (
        "noms.json\u00a0: deux pièces s'appellent «\u00a0rouge\u00a0»"
    )
    assert_french(page)
    shot(page, "refused-file")
