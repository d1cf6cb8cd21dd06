"""The laser games' other screens in French (issue 23), as a French speaker's browser shows
them (Accept-Language: fr): the referee sandbox of Light Speed and of Stellar Conflict,
from an imported table to its battle's end; a stored Light Speed match replayed from its
first card to its scores; a Stellar Conflict match against a bot, from the fleet builder
to the end card. Each screen has no English word but the allowed names, no message id
shown raw and no text wider than its box (tests/i18n/_french.py), at 1366 x 800 and on a
390 x 844 phone."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests import _server
from tests._paths import ROOT
from tests.browser._pages import PagePool
from tests.browser._play import answer_name, end_in_sight, store_fig1
from tests.browser._servers import QUICK
from tests.browser.conftest import save_screenshot
from tests.i18n._french import assert_french

VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SCREENSHOTS_DIR = ROOT / "artifacts" / "screenshots"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def french_server(
    tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
) -> Iterator[tuple[_server.Server, str]]:
    """A quick server of this module's own, with the rulebook's Fig. 1 match stored (its
    id beside it)."""
    db = tmp_path_factory.mktemp("french-lasers") / "matches.db"
    match_id = store_fig1(db)
    with _server.running_server(db, *QUICK, room_seed=11) as running:
        yield running, match_id


@pytest.fixture
def french_page(
    page_pool: PagePool,
    french_server: tuple[_server.Server, str],
    request: pytest.FixtureRequest,
) -> Iterator[Page]:
    """A French browser's page on the module's server, in the test's device (from the
    worker's pool of pages: tests/browser/_pages.py); an uncaught error fails the test."""
    device = request.node.callspec.params["device"]
    server, _ = french_server
    errors: list[str] = []
    page = page_pool.take(server.http, {"locale": "fr-FR", **VIEWPORTS[device]}, errors)
    page.set_default_timeout(30_000)
    yield page
    page_pool.give_back(page)
    uncaught = [error for error in errors if error.startswith("uncaught: ")]
    assert not uncaught, uncaught


def _shot(page: Page, name: str, device: str) -> None:
    save_screenshot(page, str(SCREENSHOTS_DIR / f"french-{name}-{device}.png"))


def _battle_to_the_end(page: Page) -> None:
    page.wait_for_selector("body[data-phase=battle]")
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    page.wait_for_selector("#score-panel #winner")


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
@pytest.mark.parametrize(
    ("game", "example"),
    [("lightspeed", "fig1-sample-game.json"), ("stellar", "stellar-wiss-vs-hexai.json")],
)
def test_the_laser_referee_in_french(
    french_page: Page, device: str, game: str, example: str
) -> None:
    page = french_page
    page.goto(f"/referee?game={game}")
    page.wait_for_selector(".add-ship")
    assert page.locator("h1").inner_text() == "Arbitrage"
    assert page.locator("#resolve").inner_text() == "Résoudre"
    assert_french(page)
    _shot(page, f"referee-{game}-empty", device)
    page.set_input_files("#import-file", str(EXAMPLES / example))
    page.wait_for_selector("#referee-note:not([hidden])")
    assert "Appuyez sur Résoudre" in page.inner_text("#referee-note")
    page.locator(".table-card[data-card]").last.click()  # the selected card, in words
    assert " mm, tourné de " in page.inner_text("#selected")
    assert_french(page)
    _shot(page, f"referee-{game}-imported", device)
    page.click("#resolve")
    _battle_to_the_end(page)
    assert_french(page)
    _shot(page, f"referee-{game}-end", device)
    page.click("#edit")
    page.wait_for_selector("body[data-phase=lobby]")
    assert page.locator("#edit").is_hidden()


def _bad_table(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None]) -> Path:
    """The rulebook's Fig. 1 table, changed by ``change``, written to ``name``."""
    data = json.loads((EXAMPLES / "fig1-sample-game.json").read_text("utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data), "utf-8")
    return path


def _overlapping(data: dict[str, Any]) -> None:
    """Two cards (renamed m1 and m2) laid on the same spot."""
    data["cards"][1] |= {"id": "m1", "x": 60, "y": 250}
    data["cards"][4] |= {"id": "m2"}


def _moth_of_1000(data: dict[str, Any]) -> None:
    """The file brings its own Moth, of a health past the bound."""
    data["ships"] = {"moth": {"name": "Moth", "speed": 1, "health": 1000, "lasers": []}}


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_refused_table_file_is_told_in_french(
    french_page: Page, device: str, tmp_path: Path
) -> None:
    """The server's refusal of an imported table file, and of a ship the file brings, is
    written in French: the cards and the ship named « carte », « vaisseau »."""
    nbsp = "\u00a0"
    page = french_page
    page.goto("/referee?game=lightspeed")
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(_bad_table(tmp_path, "touch.json", _overlapping)))
    error = page.locator("#referee-error")
    # The server's first upload waits for the referee's workers to start (they import the
    # resolvers and OpenCV: a second on a quiet machine, more than expect's 5 s on a busy
    # one), so the first answer is awaited with the page's longer default, as elsewhere.
    page.wait_for_selector("#referee-error:not([hidden])")
    expect(error).to_have_text("les cartes 'm1' et 'm2' se touchent ou se chevauchent")
    assert_french(page)
    _shot(page, "referee-refused-table", device)
    page.set_input_files("#import-file", str(_bad_table(tmp_path, "moth.json", _moth_of_1000)))
    # The file's own key ('health') stays as the file spells it; the rest is French.
    expect(error).to_have_text(
        f"vaisseau 'moth'{nbsp}: «{nbsp}health{nbsp}» doit valoir au plus 100, pas 1000"
    )
    _shot(page, "referee-refused-ship", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_laser_replay_in_french(
    french_page: Page, french_server: tuple[_server.Server, str], device: str
) -> None:
    page = french_page
    _, match_id = french_server
    page.goto(f"/replay/{match_id}")
    page.wait_for_selector("#replay-log li")
    assert page.locator("#round-name").inner_text() == "Round rapide"
    assert "rouge a posé le Moth" in page.inner_text("#replay-log")
    page.click("#replay-play")  # pause where it is
    page.locator("#replay-log li button").nth(2).click()
    page.wait_for_function("document.querySelector('#replay-time').textContent.includes(',')")
    assert_french(page)
    _shot(page, "replay-round", device)
    page.click("#replay-battle")
    _battle_to_the_end(page)
    assert page.inner_text("#winner") == "rouge gagne\u00a0!"
    assert_french(page)
    _shot(page, "replay-end", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_stellar_conflict_match_against_a_bot_in_french(
    french_page: Page, french_server: tuple[_server.Server, str], device: str
) -> None:
    page = french_page
    server, _ = french_server
    room = server.create_room(
        ruleset="stellar", battle_size="dispute", races=["vak", "wiss"], deployment="stop"
    )
    page.goto(f"/rooms/{room}?join=1&bots=1:easy")
    answer_name(page, "Ann")
    page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
    page.locator("#connection[data-status='open']").wait_for(state="attached")
    assert_french(page)
    page.click("button#ready")
    page.wait_for_selector("#fleet-panel button.fleet-card")
    assert page.inner_text("#send-fleet") == "Choisissez vos vaisseaux"
    assert_french(page)
    _shot(page, "stellar-fleet-empty", device)
    page.click("#suggest-fleet")
    picked = page.locator("button.fleet-card[aria-pressed=true]").count()
    assert page.inner_text("#send-fleet") == f"Prendre ces {picked} vaisseaux"
    assert "vaisseaux choisis" in page.inner_text("#fleet-credits")
    assert_french(page)
    _shot(page, "stellar-fleet-picked", device)
    page.click("#send-fleet")
    page.wait_for_selector("body[data-phase=deployment]", timeout=60_000)
    if device == "desktop":  # a laptop's top bar holds on one row in French
        middles = page.eval_on_selector_all(
            ".topbar > :not([hidden])",
            "els => els.filter((e) => e.offsetWidth).map((e) => {"
            " const box = e.getBoundingClientRect(); return box.top + box.height / 2; })",
        )
        assert max(middles) - min(middles) < 12, middles
    else:  # a phone's bar under the table says the card in hand's turn whole, in French
        page.locator("#hand-info .turned").wait_for()  # a card in hand: the keys turn it
        page.focus("#table")
        page.keyboard.press("e")
        page.keyboard.press("e")
        page.wait_for_function(
            "() => document.querySelector('#hand-info .turned')?.textContent"
            " === 'tourné de 30° à droite'"
        )
        cut = page.eval_on_selector_all(
            "#hand-info > span",
            "spans => spans.filter((s) => s.scrollWidth > s.clientWidth + 1)"
            ".map((s) => s.textContent)",
        )
        assert not cut, cut
    assert_french(page)
    _shot(page, "stellar-deployment", device)
    page.locator("#battle-skip").wait_for(timeout=120_000)
    assert_french(page)
    _shot(page, "stellar-battle", device)
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    end_in_sight(page)
    assert_french(page)
    _shot(page, "stellar-end", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_rules_page_frame_and_the_laser_fleets_in_french(
    french_page: Page, device: str
) -> None:
    """The rules page's own words (its top bar, contents, links) and the laser games' fleets
    drawn under their texts; the texts are checked in test_french_rules.py."""
    page = french_page
    page.goto("/rules")
    page.wait_for_function("document.querySelectorAll('.fleet-card').length > 0")
    assert page.locator("h1").inner_text() == "Comment jouer"
    assert "posez vos vaisseaux" in page.inner_text("#rules-contents")
    assert "boucliers\u00a0: avant" in page.inner_text(".fleet-card[data-ship='intruder']")
    assert_french(page, "header, .rules-toc, .rules-end, .fleet")
    _shot(page, "rules-frame", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_bot_seats_in_the_lobby_and_the_match_list_in_french(
    french_page: Page, french_server: tuple[_server.Server, str], device: str
) -> None:
    """A bot's seat is named in the reader's language wherever the lists show it: the
    lobby's open rooms, and the finished matches with their scores."""
    page = french_page
    server, _ = french_server
    waiting = server.create_room()
    ann = _server.seated(server, waiting, "Ann")
    try:
        ann.send(type="bot", seat=1, level="easy")
        ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
        # A match against a medium bot, played to its end on the page.
        played = server.create_room(asteroids="single")
        page.goto(f"/rooms/{played}?join=1&bots=1:medium")
        name = {"desktop": "Bea", "phone": "Cid"}[device]  # one match of each in the list
        answer_name(page, name)
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.click("button#ready")
        page.locator("#battle-skip").wait_for(timeout=120_000)
        page.click("#battle-skip")
        page.locator("body[data-phase=over]").wait_for()
        page.goto("/")
        row = page.locator(f"#rooms tr[data-room='{waiting}']")
        row.wait_for()
        assert row.inner_text().count("bot facile") == 1
    finally:
        ann.close()
    page.goto("/matches")
    match = page.locator("#matches tbody tr", has_text=name)
    match.wait_for()
    assert "bot moyen" in match.inner_text() and "medium" not in match.inner_text()
    # The phone's list names each cell in a label drawn by CSS (data-label): French too.
    labels = match.locator("[data-label]").evaluate_all("cs => cs.map(c => c.dataset.label)")
    assert "résultat" in labels and "result" not in labels
    assert_french(page)
    _shot(page, "matches-bots", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
@pytest.mark.parametrize("ruleset", ["lightspeed", "stellar"])
def test_a_room_nobody_sits_in_yet_is_french_to_a_spectator(
    french_page: Page, french_server: tuple[_server.Server, str], device: str, ruleset: str
) -> None:
    # Before anyone sits, the side panel names the free seats ("place 1"), not "seat 1".
    page = french_page
    server, _ = french_server
    room = server.create_room(ruleset=ruleset)
    page.goto(f"/rooms/{room}")
    page.locator("#connection[data-status='open']").wait_for(state="attached")
    page.get_by_text("place 1", exact=True).first.wait_for()
    assert_french(page)
    _shot(page, f"{ruleset}-empty-room", device)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_file_that_is_not_json_is_told_in_french_at_every_referee(
    french_page: Page, device: str, tmp_path: Path
) -> None:
    """A file that is not JSON, imported at the laser, FTL and hex fleet referees: the
    page says in French what is wrong and where (the server's parser's words, as a phrase;
    the browser's own JSON.parse words are English whatever the page's language)."""
    nbsp = "\u00a0"
    cut = tmp_path / "coupé.json"
    cut.write_text('{"ruleset": "lightspeed",\n  "players": ["red", "blue"', "utf-8")
    where = f"JSON mal formé ligne 2, colonne 28{nbsp}: fin des données inattendue"
    page = french_page
    page.goto("/referee?game=lightspeed")
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(cut))
    expect(page.locator("#referee-error")).to_have_text(f"coupé.json{nbsp}: {where}")
    assert_french(page)
    _shot(page, "referee-not-json", device)
    page.select_option("#ruleset", "ftl")
    page.wait_for_selector("#ftl-piece-list [data-piece='red'] .order-input")
    page.set_input_files("#ftl-import-file", str(cut))
    expect(page.locator("#ftl-error")).to_have_text(f"coupé.json{nbsp}: {where}")
    assert_french(page)
    page.goto("/referee?game=hexfleet")
    page.wait_for_selector("#hex-table .hex-ship-card[data-ship='warden']")
    page.click("#hex-referee .hex-paste summary")
    page.fill("#hex-paste-text", '{"ruleset": "hexfleet", "steps": [01]}')
    page.click("#hex-paste-load")
    error = page.locator(".hex-error:not([hidden])")
    expect(error).to_have_text(
        f"le script collé{nbsp}: JSON mal formé ligne 1, colonne 35{nbsp}: un nombre ne peut "
        "pas commencer par un zéro"
    )
    assert_french(page)
    _shot(page, "referee-hex-not-json", device)
