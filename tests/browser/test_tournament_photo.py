"""Issue 71's "Done when": in real browsers, an over-the-board round's table is settled
from a photo of printed cards (the project's own synthetic photo fixture,
tests/_photo_shots.py). A Light Speed tournament of three players, two a table: round 1
pairs two of them, the third has a bye. The first seat's player opens his table's page and
gives it the photo; the referee reads it, resolves the battle and reports the result. The
other player's tournament page shows it at that table with the photo and a link to the
battle, waiting for him; he accepts it, and round 2 is paired (the page shows it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, ViewportSize, expect

from tests import _photo_shots as shots
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import logged_in

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 800}


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A photo of a Light Speed table of red and blue whose battle red wins (4-1)."""
    path = tmp_path_factory.mktemp("photos") / "table.png"
    path.write_bytes(shots.photo_bytes(shots.TWO_FLEETS_SEED))
    return path


def _post(page: Page, path: str, body: dict[str, Any] | None = None) -> Any:
    """POST ``body`` as JSON from the page (its account, its site): the answer's status
    and JSON."""
    return page.evaluate(
        """async ([path, body]) => {
          const r = await fetch(path, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
          return [r.status, await r.json().catch(() => null)];
        }""",
        [path, body or {}],
    )


def test_a_board_table_is_settled_from_a_photo_accepted_and_the_next_round_paired(
    open_page: OpenPage, server: Server, shot: Shot, photo_file: Path
) -> None:
    names = ("Ivo Photo", "Jun Photo", "Kai Photo")
    pages = {n: logged_in(open_page, server.base, n, "/tournaments?lang=en") for n in names}
    director = pages[names[0]]
    status, made = _post(
        director,
        "/api/tournaments",
        {"name": "Photo night", "game": "lightspeed", "seats": 2, "rounds": 2, "venue": "board"},
    )
    assert status == 201, made
    tid = made["id"]
    for page in pages.values():
        assert _post(page, f"/api/tournaments/{tid}/join")[0] == 200
    assert _post(director, f"/api/tournaments/{tid}/start")[0] == 200
    shown = director.evaluate(f"async () => (await fetch('/api/tournaments/{tid}')).json()")
    table = next(p for p in shown["pairings"] if not p["bye"])
    first, second = table["seats"]  # red is the first seat's colour

    reporter = pages[first]
    reporter.set_viewport_size(DESKTOP)
    reporter.goto(f"/tournaments/{tid}/tables/1/{table['table']}?lang=en")
    expect(reporter.locator("#photo-box")).to_be_visible()
    expect(reporter.locator("#photo-file")).to_have_attribute("capture", "environment")
    shot(reporter, "table-desktop")

    def sent(response: Response) -> bool:
        return response.url.endswith("/photo") and response.request.method == "POST"

    # (The photo is read in a worker of its own: seconds on a busy machine.)
    with reporter.expect_response(sent, timeout=60_000) as answer:
        reporter.set_input_files("#photo-file", str(photo_file))
    assert answer.value.status == 200, answer.value.text()
    expect(reporter.locator("#table-state")).to_have_text(
        f"{first} reported 1-0 from a photo: waiting for {second} to accept it.", timeout=30_000
    )
    expect(reporter.locator("#photo-shown")).to_be_visible()
    decoded = "img => img.decode().then(() => img.naturalWidth)"
    assert reporter.locator("#photo-thumb").evaluate(decoded) > 0
    expect(reporter.locator("#confirm-box")).to_be_hidden()  # not his to accept
    shot(reporter, "table-after-upload-desktop")
    reporter.set_viewport_size(PHONE)
    shot(reporter, "table-after-upload-phone")
    reporter.goto(f"/tournaments/{tid}/tables/1/{table['table']}?lang=fr")
    expect(reporter.locator("#table-state")).to_have_text(
        f"{first} a déclaré 1-0 d\u2019après une photo : en attente de l\u2019accord de {second}."
    )
    expect(reporter.locator("#photo-colours")).to_have_text(
        f"Couleurs sur la photo : {first} : rouge · {second} : bleu."
    )
    shot(reporter, "table-after-upload-phone-fr")

    other = pages[second]
    other.set_viewport_size(PHONE)
    # His table's page offers Accept too, with no code to type.
    other.goto(f"/tournaments/{tid}/tables/1/{table['table']}?lang=en")
    expect(other.locator("#confirm")).to_have_text("Accept")
    expect(other.locator("#code-box")).to_be_hidden()
    expect(other.locator("#photo-box")).to_be_hidden()  # the report is the other's
    shot(other, "table-to-accept-phone")
    other.goto(f"/tournaments/{tid}?lang=en")
    row = other.locator(f".pairings[data-round='1'] tr[data-table='{table['table']}']")
    expect(row).to_contain_text(f"1-0 from {first}'s photo, waiting for {second} to accept it")
    thumb = row.locator(".pairing-photo img")
    assert thumb.evaluate(decoded) > 0
    battle = row.locator("a.battle-link").get_attribute("href")
    assert battle is not None
    drawn = other.request.get(server.base + battle)
    assert drawn.ok and "<svg" in drawn.text()
    assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    row.scroll_into_view_if_needed()
    shot(other, "tournament-photo-phone")
    other.set_viewport_size(DESKTOP)
    row.scroll_into_view_if_needed()
    shot(other, "tournament-photo-desktop")
    row.locator("button.accept").click()
    expect(row).to_contain_text("1-0")
    expect(row).not_to_contain_text("waiting")
    expect(row.locator(".pairing-photo img")).to_be_visible()  # the photo stays with it
    expect(other.locator(".pairings[data-round='2']")).to_be_visible()
    expect(other.locator("#tournament-facts")).to_contain_text("round 2 of 2")
    row.scroll_into_view_if_needed()
    shot(other, "tournament-accepted-desktop")
    other.set_viewport_size(PHONE)
    row.scroll_into_view_if_needed()
    shot(other, "tournament-accepted-phone")
    other.goto(server.base + battle)  # the battle as the referee drew it
    shot(other, "battle-phone")
