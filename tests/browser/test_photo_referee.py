"""The photo referee in the browser (issue 22 item 4), as a newcomer uses it: choose a
photo of the printed cards (a synthetic one, fixed by its seed), see every card outlined
on the photo and laid on the table, the close calls listed and highlighted, drag a card
that came out wrong (the close calls are then measured again on the table as it stands),
resolve and watch
the battle to its end; a photo without cards says so."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import Page

from tests import _photo_shots as shots
from tests.browser.conftest import OpenPage, Shot
from tests.i18n._french import assert_french


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("photos") / "table.png"
    path.write_bytes(shots.photo_bytes(shots.CLOSE_CALL_SEED))
    return path


def _here(page: Page, path: str) -> str:
    """``path`` on the server of the page's document."""
    parts = urlsplit(page.url)
    return f"{parts.scheme}://{parts.netloc}{path}"


def _upload(page: Page, path: Path) -> dict[str, Any]:
    """Choose ``path`` in the photo input and wait for what it shows; the server's answer
    for that photo (asked again here: the same photo gives the same answer)."""
    with page.expect_response("**/api/referee/photo") as response:
        page.set_input_files("#photo-file", str(path))
    assert response.value.status == 200
    page.wait_for_selector("#close-calls:not([hidden])")
    again = page.request.post(
        _here(page, "/api/referee/photo"),
        data=path.read_bytes(),
        headers={"Content-Type": "image/png"},
    )
    assert again.ok, again.text()
    answer: dict[str, Any] = again.json()
    return answer


def _exported_table(page: Page) -> dict[str, Any]:
    """The sandbox's table as it now stands, as its Export button writes it."""
    with page.expect_download() as download:
        page.click("#export")
    table: dict[str, Any] = json.loads(Path(download.value.path()).read_text())
    return table


def _card_centre(page: Page, card_id: str) -> tuple[float, float]:
    box = page.locator(f"#table .table-card[data-card='{card_id}']").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_photo_is_read_corrected_by_a_drag_and_resolved_with_its_close_calls(
    open_page: OpenPage, shot: Shot, photo_file: Path, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = open_page("/referee?game=lightspeed", viewport={"width": width, "height": height})
    page.wait_for_selector(".add-ship")
    picker = page.locator("#photo-file")
    assert picker.get_attribute("accept") == "image/*"
    assert picker.get_attribute("capture") == "environment"  # the phone's camera
    page.locator("#photo-panel").scroll_into_view_if_needed()
    shot(page, "upload")

    answer = _upload(page, photo_file)
    truth = sorted(card.key.card_id for card in shots.shot().cards)
    # Every card of the photo outlined on it and named, and laid on the table.
    outlined = page.locator("#photo-figure .photo-card")
    assert sorted(outlined.evaluate_all("ns => ns.map(n => n.dataset.card)")) == truth
    # Each named as a player says it, as the close calls name it ("red's Ghost"), not by
    # its id ("red-ghost").
    said = {
        c["id"]: f"{c['owner']}'s {c['ship'].title()}" if "ship" in c else "asteroid"
        for c in answer["table"]["cards"]
    }
    labels = page.locator("#photo-figure .photo-card").evaluate_all(
        "ns => ns.map(n => [n.dataset.card, n.querySelector('text').textContent])"
    )
    assert {card: label for card, label in labels} == {card: said[card] for card in truth}
    on_table = page.locator("#table .table-card").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert sorted(on_table) == truth
    assert "6 cards found" in page.inner_text("#photo-status")

    # The close calls of the photo, in words with both outcomes, their cards highlighted.
    calls = answer["close_calls"]
    assert calls, "this layout has a close call (tests/_photo_shots.py)"
    items = page.locator("#close-calls li")
    assert items.count() == len(calls)
    first = items.first.inner_text()
    # Named as a player says a card ("red's Intruder"), not by its id ("red-intruder").
    card = next(c for c in answer["table"]["cards"] if c["id"] == calls[0]["ship"])
    assert f"{card['owner']}'s " in first and " or " in first, first
    assert calls[0]["ship"] not in first, first
    highlighted = page.locator("#table .table-card.close-call")
    involved = {calls[0]["ship"]} | {o["target"] for o in calls[0]["outcomes"] if o["target"]}
    lit = set(highlighted.evaluate_all("ns => ns.map(n => n.dataset.card)"))
    assert involved <= lit
    page.locator("#photo-figure").scroll_into_view_if_needed()
    shot(page, "detected")
    page.locator("#close-calls").scroll_into_view_if_needed()
    shot(page, "close-calls")

    # Drag one card that "came out wrong": it moves, the photo marks it, the calls go stale.
    # (the card farthest out, dragged farther out: it touches no other card after).
    free = [c for c in answer["table"]["cards"] if c["id"] not in involved]
    before = max(free, key=lambda c: math.hypot(c["x"], c["y"]))
    moved = before["id"]
    page.locator(f"#table .table-card[data-card='{moved}']").scroll_into_view_if_needed()
    x, y = _card_centre(page, moved)
    away = math.hypot(before["x"], before["y"])
    dx, dy = 40 * before["x"] / away, -40 * before["y"] / away  # the screen's y runs down
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2, steps=4)
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()
    page.wait_for_selector(f"#photo-figure .photo-card.moved[data-card='{moved}']")
    selected = page.inner_text("#selected")
    assert selected.startswith(f"{moved}:") and f"({before['x']}, " not in selected
    # The close calls are measured again on the table as it now stands, each card keeping
    # the photo's uncertainty: the list and the highlights are those the server gives for
    # this table (asked again here with the same uncertainty).
    page.wait_for_selector(".close-calls-again")
    assert "may no longer hold" not in page.inner_text("#close-calls")
    now = page.request.post(
        _here(page, "/api/referee/close-calls"),
        data={
            "table": _exported_table(page),
            "uncertainty": {
                c["id"]: {"sigma_mm": c["sigma_mm"], "sigma_deg": c["sigma_deg"]}
                for c in answer["cards"]
            },
        },
    )
    assert now.ok, now.text()
    again = now.json()["close_calls"]
    assert page.locator("#close-calls li").count() == len(again)
    involved_now = {c["ship"] for c in again} | {
        o["target"] for c in again for o in c["outcomes"] if o["target"]
    }
    lit = set(highlighted.evaluate_all("ns => ns.map(n => n.dataset.card)"))
    assert lit == involved_now
    shot(page, "moved")

    # Resolve: the battle of the table as it now stands plays to its end.
    assert page.locator("#table .table-card.touching").count() == 0
    page.click("#resolve")
    page.wait_for_selector("body[data-phase=battle]")
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]")
    assert page.is_visible("#score-panel")
    assert page.inner_text("#score-panel").strip()
    shot(page, "result")
    page.locator("#close-calls").scroll_into_view_if_needed()
    shot(page, "result-close-calls")


def test_the_photo_panel_is_cleared_when_the_game_changes(
    open_page: OpenPage, photo_file: Path
) -> None:
    """The Light Speed photo's result goes with its table when Stellar Conflict is chosen:
    no outlines or close calls of a table no longer shown (they were measured again on the
    new game's table, which the server refused: an HTTP 400)."""
    page = open_page("/referee?game=lightspeed", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(".add-ship")
    _upload(page, photo_file)
    page.select_option("#ruleset", "stellar")
    page.wait_for_selector(".race-heading")
    assert page.locator("#photo-figure").is_hidden()
    assert page.locator("#close-calls").is_hidden()
    assert page.inner_text("#photo-status").startswith("Photograph the printed cards")
    assert page.locator("#table .table-card.close-call").count() == 0


def test_a_photo_without_cards_says_so(open_page: OpenPage, shot: Shot, tmp_path: Path) -> None:
    empty = tmp_path / "cloth.png"
    empty.write_bytes(shots.no_markers_bytes())
    page = open_page("/referee?game=lightspeed", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(".add-ship")
    page.set_input_files("#photo-file", str(empty))
    page.wait_for_selector("#referee-error:not([hidden])")
    error = page.inner_text("#referee-error")
    assert "The photo gives no table" in error and "no card markers found" in error
    assert page.locator("#photo-figure").is_hidden()
    assert page.locator("#table .table-card").count() == 1  # the start asteroid, untouched
    shot(page, "no-markers")
    # In French: the server's reason written in the reader's language by the page.
    page = open_page("/referee?game=lightspeed&lang=fr", viewport={"width": 390, "height": 844})
    page.wait_for_selector(".add-ship")
    page.set_input_files("#photo-file", str(empty))
    page.wait_for_selector("#referee-error:not([hidden])")
    error = page.inner_text("#referee-error")
    assert "aucun marqueur de carte trouvé sur la photo" in error
    assert "no card markers" not in error
    page.locator("#referee-error").scroll_into_view_if_needed()
    shot(page, "no-markers-fr")


def test_a_stellar_conflict_photo_keeps_each_player_in_the_colour_of_their_cards(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    stellar = tmp_path / "stellar.jpg"
    stellar.write_bytes(shots.photo_bytes(shots.STELLAR_SEED, "JPEG"))
    page = open_page("/referee?game=lightspeed&lang=fr", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(".add-ship")
    page.set_input_files("#photo-file", str(stellar))
    page.wait_for_selector("#close-calls:not([hidden])")
    page.wait_for_selector(".race-heading")  # the Stellar Conflict sandbox, its races
    assert page.input_value("#ruleset") == "stellar"
    assert "cartes trouvées" in page.inner_text("#photo-status")  # in the reader's language
    players = page.locator("#player-names input").evaluate_all("ns => ns.map(n => n.value)")
    assert players == ["rouge", "vert", "violet"]  # named after their colour, in French
    swatches = page.locator("#player-names .swatch").evaluate_all(
        "ns => ns.map(n => getComputedStyle(n).backgroundColor)"
    )
    # Red, then Okabe and Ito's bluish green and reddish purple (shell/colours.js).
    assert swatches == ["rgb(255, 51, 15)", "rgb(0, 158, 115)", "rgb(204, 121, 167)"]
    shot(page, "stellar-fr")


@pytest.mark.parametrize("viewport", [(1366, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_file_that_is_no_photo_we_read_is_told_in_french(
    open_page: OpenPage, shot: Shot, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    """A GIF: the server's refusal is a phrase, which the French page writes in French."""
    width, height = viewport
    page = open_page(
        "/referee?game=lightspeed&lang=fr", viewport={"width": width, "height": height}
    )
    page.wait_for_selector(".add-ship")
    gif = tmp_path / "carte.gif"
    Image.new("L", (8, 8)).save(gif, format="GIF")
    page.set_input_files("#photo-file", str(gif))
    page.wait_for_selector("#referee-error:not([hidden])")
    error = page.inner_text("#referee-error")
    assert "une image GIF\u00a0: envoyez une photo en JPEG, PNG ou WebP" in error, error
    assert "send a photo" not in error
    assert_french(page)  # the whole referee page, the refusal included
    page.locator("#referee-error").scroll_into_view_if_needed()
    shot(page, "gif-fr")


def test_the_close_calls_name_the_cards_in_the_pages_language(
    open_page: OpenPage, shot: Shot, photo_file: Path
) -> None:
    """Found by the second newcomer run of issue 36: a French page's close call named its
    cards by their ids ("red-ghost"), in English. Now as the rest of the page names a card:
    "Ghost (red)", "l'astéroïde"."""
    page = open_page("/referee?game=lightspeed&lang=fr", viewport={"width": 390, "height": 844})
    answer = _upload(page, photo_file)
    call = answer["close_calls"][0]
    card = next(c for c in answer["table"]["cards"] if c["id"] == call["ship"])
    said = page.locator("#close-calls li").first.inner_text()
    # (the page says the default players' colours in French too: "Ghost (rouge)")
    assert f"de {card['ship'].capitalize()} (" in said, said
    ids = {c["id"] for c in answer["table"]["cards"]}
    assert not [word for word in said.replace(",", " ").split() if word in ids], said
    # And the labels on the photo too (they said "red-ghost" before).
    labels = page.locator("#photo-figure .photo-card text").all_text_contents()
    assert not ids & set(labels), labels
    assert f"{card['ship'].capitalize()} (" in " ".join(labels), labels
    page.locator("#close-calls").scroll_into_view_if_needed()
    shot(page, "close-calls-fr")
