"""The rules page, as a newcomer reads it: the three games, pictures the server draws, the
fleet, the way to the tutorial; on a laptop and on a phone."""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Server, Shot

PHONE = {"width": 390, "height": 844}
#: The card-in-hand bar's elements, as axe names them.
HAND_BAR = ("#hand-bar", "#place-card", "#turn-left", "#turn-right", "#hand-info")
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def _pictures_drawn(page: Page) -> None:
    """Wait until every picture on the page has loaded, and check none is broken."""
    page.wait_for_function(
        "[...document.images].every((img) => img.complete)"
        " && document.querySelectorAll('.fleet-card').length > 0"
    )
    broken = page.evaluate(
        "[...document.images].filter((img) => !img.naturalWidth).map((img) => img.src)"
    )
    assert broken == []


def test_the_rules_page_tells_each_game_with_pictures(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/rules")
    _pictures_drawn(page)
    headings = page.locator(".rules-game h2").all_inner_texts()
    assert headings == ["Light Speed", "Stellar Conflict", "Faster Than Light", "Hex fleet"]
    # Every picture is an SVG the server drew, described for those who cannot see it.
    sources = page.evaluate("[...document.images].map((img) => img.getAttribute('src'))")
    assert sorted(sources) == sorted(
        f"/rules/figures/{name}.svg"
        for name in [
            "lightspeed-card",
            "lightspeed-before",
            "lightspeed-after",
            "stellar-card",
            "ftl-before",
            "ftl-after",
            "hexfleet-move",
            "hexfleet-arc",
            "hexfleet-combat",
        ]
    )
    assert all(page.evaluate("[...document.images].map((img) => img.alt.length > 20)"))
    # The fleet: ten ships from speed 1 to 10, each with what it does in words.
    fleet = page.locator(".fleet-card")
    assert fleet.count() == 10
    assert fleet.first.locator("b").inner_text() == "Moth"
    assert "speed 1" in fleet.first.inner_text()
    assert "shields: front" in page.locator(".fleet-card[data-ship='intruder']").inner_text()
    shot(page, "laptop")
    page.locator("#ftl").scroll_into_view_if_needed()
    shot(page, "laptop-ftl")
    page.click("text=Try it in the tutorial")
    page.wait_for_url("**/tutorial")


def test_the_hex_fleet_rules_give_the_charts_and_the_endings(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/rules#hexfleet", viewport={"width": 1366, "height": 800})
    _pictures_drawn(page)
    section = page.locator("#hexfleet")
    page.locator("#hexfleet img[src$='hexfleet-move.svg']").scroll_into_view_if_needed()
    shot(page, "hexfleet-moving")
    # The classes as the game plays them (the server's own table of them).
    classes = server.api("/api/games/hexfleet/scenarios")["classes"]
    rows = [row.split("\t") for row in section.locator("#hex-classes tbody tr").all_inner_texts()]
    assert [(name.lower(), int(shields), int(cells)) for name, shields, _, cells, _ in rows] == [
        (name, c["shields"], c["propulsion"]) for name, c in classes.items()
    ]
    assert ["all round" in row[4] for row in rows] == [c["all_round"] for c in classes.values()]
    # The salvo shrinks as weapons are lost; the suits that hit, by the shields left.
    salvo = section.locator("#hex-salvo tbody tr").all_inner_texts()
    assert salvo[0].split("\t") == ["Heavy weapons", "8", "6", "4", "2", "1", "cannot fire"]
    hits = section.locator("#hex-hits tbody tr").all_inner_texts()
    assert hits[1].split("\t") == [
        "up, more than three quarters of their points left",
        "♠ spades only",
    ]
    text = section.inner_text()
    for words in ("blank", "same colour", "club", "wreck", "turn limit", "12 hexes"):
        assert words in text
    section.locator("img[src$='hexfleet-combat.svg']").scroll_into_view_if_needed()
    shot(page, "hexfleet")
    phone = open_page("/rules#hexfleet", viewport=PHONE, is_mobile=True, has_touch=True)
    _pictures_drawn(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.locator("#hex-salvo").scroll_into_view_if_needed()
    shot(phone, "hexfleet-phone")
    section.locator("a[href='/referee?game=hexfleet']").click()
    page.wait_for_selector("#hex-table .hex-ship-card")


#: In the page: each FTL figure's smallest label as shown (its font size in the picture,
#: scaled as the picture is), and the key's font size, in CSS px.
_FTL_TEXT_SIZES = """async () => {
  const labels = [];
  for (const img of document.querySelectorAll("#ftl img")) {
    const text = await (await fetch(img.src)).text();
    const svg = new DOMParser().parseFromString(text, "image/svg+xml");
    const width = Number(svg.documentElement.getAttribute("viewBox").split(" ")[2]);
    const sizes = [...svg.querySelectorAll("text")]
      .map((t) => Number(t.getAttribute("font-size")));
    labels.push(Math.min(...sizes) * img.getBoundingClientRect().width / width);
  }
  const key = [...document.querySelectorAll("#ftl .rules-key li")]
    .map((li) => parseFloat(getComputedStyle(li).fontSize));
  return { labels, key };
}"""


@pytest.mark.parametrize("size", [{"width": 1366, "height": 800}, PHONE], ids=["laptop", "phone"])
def test_the_ftl_figures_read_at_12_px_or_more(
    open_page: OpenPage, shot: Shot, size: dict[str, int]
) -> None:
    """Issue 20 item 10: the FTL figures' key was drawn in the picture, about 6 px tall
    once the picture fit the page. The key is the page's text now, and every word left in
    the pictures (the pieces' names and notes, the distances) shows at 12 px or more."""
    page = open_page("/rules#ftl", viewport=size)
    _pictures_drawn(page)
    found = page.evaluate(_FTL_TEXT_SIZES)
    assert len(found["labels"]) == 2 and min(found["labels"]) >= 12, found
    assert len(found["key"]) >= 5 and min(found["key"]) >= 12, found
    page.locator("#ftl .rules-key").scroll_into_view_if_needed()
    shot(page, "ftl-key")


#: The smallest of some words of a figure as shown, in CSS px: the font size of the
#: ``texts`` (a selector inside the SVG) scaled as the picture ``img`` is shown.
_SMALLEST_SHOWN = """async ([img, texts]) => {
  const shown = document.querySelector(img);
  const text = await (await fetch(shown.src)).text();
  const svg = new DOMParser().parseFromString(text, "image/svg+xml");
  const width = Number(svg.documentElement.getAttribute("viewBox").split(" ")[2]);
  const sizes = [...svg.querySelectorAll(texts)].map((t) => Number(t.getAttribute("font-size")));
  return sizes.length ? Math.min(...sizes) * shown.getBoundingClientRect().width / width : null;
}"""


@pytest.mark.parametrize(
    ("size", "notes_px"),
    [({"width": 1366, "height": 800}, 10), (PHONE, 7)],
    ids=["laptop", "phone"],
)
def test_the_light_speed_notes_and_the_hex_combat_are_not_specks(
    open_page: OpenPage, shot: Shot, size: dict[str, int], notes_px: float
) -> None:
    """The Light Speed battle figure's notes under the cards were 5 px on a laptop and 3 on
    a phone; the hex fleet's combat figure, 920 px wide, shrank to 343 px on a phone and
    its smallest words to 3 px. The notes are drawn larger; the combat figure keeps a
    readable width on a phone and scrolls sideways in its own box (the page does not)."""
    page = open_page("/rules", viewport=size)
    _pictures_drawn(page)
    notes = page.evaluate(
        _SMALLEST_SHOWN, ["img[src^='/rules/figures/lightspeed-after.svg']", "g.note text"]
    )
    assert notes is not None and notes >= notes_px, notes
    combat = page.evaluate(
        _SMALLEST_SHOWN, ["img[src^='/rules/figures/hexfleet-combat.svg']", "text"]
    )
    assert combat is not None and combat >= 8.5, combat
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.locator("img[src^='/rules/figures/hexfleet-combat.svg']").scroll_into_view_if_needed()
    shot(page, "hex-combat")


def test_a_figure_the_rules_do_not_have_is_not_found(server: Server) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.base}/rules/figures/chess.svg", timeout=10)
    refused.value.close()
    assert refused.value.code == 404
    with urllib.request.urlopen(f"{server.base}/rules/figures/ftl-after.svg", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("image/svg+xml")


def test_the_rules_fit_a_phone(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/rules", viewport=PHONE, is_mobile=True, has_touch=True)
    _pictures_drawn(page)
    # Nothing is wider than the screen: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone")
    page.locator(".rules-game#lightspeed .rules-row.pair").scroll_into_view_if_needed()
    shot(page, "phone-battle")


def test_the_lobby_and_the_room_lead_to_the_tutorial_and_the_rules(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    page = open_page("/")
    learn = page.locator("#learn a.learn-start")
    assert learn.inner_text() == "New here? Learn by playing"
    assert page.locator("#learn a[href='/rules']").count() == 1
    shot(page, "lobby")
    phone = open_page("/", viewport=PHONE)
    assert phone.locator("#learn a.learn-start").is_visible()
    shot(phone, "lobby-phone")
    learn.click()
    page.wait_for_url("**/tutorial")
    room = server.api("/api/rooms", {"seats": 2})
    page = open_page(f"/rooms/{room['id']}")
    link = page.locator("header a[href='/rules']")
    assert link.is_visible()
    assert link.get_attribute("target") == "_blank"  # the match stays open
    shot(page, "room")


def serious_violations(page: Page) -> list[str]:
    """What axe-core (from npm) finds serious or critical on ``page``, one line per rule.
    Skips without axe-core, except under CI."""
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"axe-core is missing ({AXE}): .ci/run must install it with npm ci")
        pytest.skip("axe-core is not installed: run `npm ci`")
    page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    found = []
    for v in violations:
        # The bar under the table is the room's, checked there (test_accessibility.py).
        nodes = [n for n in v["nodes"] if not str(n["target"][0]).startswith(HAND_BAR)]
        if v["impact"] in ("serious", "critical") and nodes:
            targets = "; ".join(str(n["target"]) for n in nodes[:6])
            found.append(f"{v['id']} ({v['impact']}): {v['help']} — {targets}")
    return found


def test_the_rules_page_has_no_serious_accessibility_problem(open_page: OpenPage) -> None:
    page = open_page("/rules")
    _pictures_drawn(page)
    assert serious_violations(page) == []
