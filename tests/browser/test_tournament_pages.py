"""The tournament pages (issue 71 item 4) in real browsers: Dora makes an over-the-board
FTL tournament with the form of ``/tournaments`` and lands on its page; she and Eli join
there; she starts it: the first round's table shows both names, the standings both players
with Buchholz and Sonneborn-Berger, and Eli's page learns of the round by itself (it asks
again while open). The list links the tournament under "Running"; the page reads in French
and fits a phone."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Dialog, Page, expect

from tests.browser._pages import paused_clock
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.meet._meet import PHONE, logged_in

SHOTS = Path("/tmp/shots/TPAGES")


def _look(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_tournament_is_made_joined_and_started_from_its_pages(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    dora = logged_in(open_page, server.base, "Dora Director", "/tournaments?lang=en")
    dora.set_viewport_size({"width": 1366, "height": 800})
    expect(dora.locator("#create-form")).to_be_visible()
    dora.fill("#t-name", "Thursday club night")
    dora.select_option("#t-game", "ftl")
    dora.fill("#t-rounds", "3")
    dora.select_option("#t-venue", "board")
    _look(dora, "tournaments-desktop")
    dora.click("#create-form button[type=submit]")
    dora.wait_for_url("**/tournaments/*")
    expect(dora.locator("#tournament-name")).to_have_text("Thursday club night")
    expect(dora.locator("#tournament-facts")).to_contain_text("over the board")
    expect(dora.locator("#no-players")).to_be_visible()
    dora.click("#join")
    expect(dora.locator("#standings tbody tr[data-name='Dora Director']")).to_be_visible()
    expect(dora.locator("#withdraw")).to_be_visible()

    eli = logged_in(open_page, server.base, "Eli Entrant", dora.url.split("?")[0] + "?lang=en")
    paused_clock(eli)  # his page's timers move when the test moves them
    eli.reload()
    expect(eli.locator("#start")).to_be_hidden()  # not his to start
    eli.click("#join")
    expect(eli.locator("#standings tbody tr:not(.parts)")).to_have_count(2)

    dora.reload()
    dora.once("dialog", lambda dialog: dialog.accept())  # "Start the tournament? ..."
    dora.click("#start")
    table = dora.locator(".pairings[data-round='1'] tr[data-table='1']")
    expect(table).to_contain_text("Dora Director")
    expect(table).to_contain_text("Eli Entrant")
    expect(dora.locator("#standings thead abbr")).to_have_attribute("title", "Sonneborn-Berger")
    expect(dora.locator("#start")).to_be_hidden()
    _look(dora, "tournament-desktop")
    shot(dora, "tournament")
    # Eli's open page learns of the round by itself (it asks again every 15 s).
    eli.clock.run_for(15_000)
    expect(eli.locator(".pairings[data-round='1'] tr[data-table='1']")).to_contain_text(
        "Dora Director"
    )

    dora.goto("/tournaments?lang=en")
    expect(dora.locator("#running a", has_text="Thursday club night")).to_be_visible()

    phone = logged_in(
        open_page, server.base, "Fern Phone", eli.url.split("?")[0] + "?lang=fr", **PHONE
    )
    expect(phone.locator("#standings-heading")).to_have_text("Classement")
    expect(phone.locator(".pairings[data-round='1']")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _look(phone, "tournament-phone-fr")
    phone.goto("/tournaments?lang=fr")
    expect(phone.locator("#create-heading")).to_have_text("Créer un tournoi")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _look(phone, "tournaments-phone-fr")


def test_an_over_the_board_table_is_reported_disputed_and_confirmed_from_its_page(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    gil = logged_in(open_page, server.base, "Gil Board", "/tournaments?lang=en")
    made = gil.evaluate(
        """async () => (await (await fetch('/api/tournaments', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Board night', game: 'ftl', rounds: 2,
          venue: 'board'})})).json())"""
    )
    tid = made["id"]
    gil.goto(f"/tournaments/{tid}?lang=en")
    gil.click("#join")
    expect(gil.locator("#withdraw")).to_be_visible()
    hana = logged_in(open_page, server.base, "Hana Board", f"/tournaments/{tid}?lang=en")
    hana.click("#join")
    expect(hana.locator("#withdraw")).to_be_visible()
    gil.reload()
    gil.once("dialog", lambda dialog: dialog.accept())
    gil.click("#start")
    link = gil.locator(".pairings[data-round='1'] tr[data-table='1'] a.table-link")
    expect(link).to_be_visible()
    codes = gil.evaluate(
        f"async () => (await (await fetch('/api/tournaments/{tid}/codes')).json())"
    )
    code = codes["tables"][0]["code"]
    # The director's page shows each table's code, to print with the pairings.
    expect(gil.locator(".pairings[data-round='1'] tr[data-table='1'] .table-code")).to_have_text(
        f"code {code}"
    )
    expect(gil.locator("#print")).to_be_visible()
    expect(hana.locator("#print")).to_be_hidden()
    # The director's tools and the printed pairings (a PDF) are his alone.
    expect(gil.locator("#pairings-pdf")).to_be_visible()
    printed = gil.request.get(
        server.base + (gil.locator("#pairings-pdf").get_attribute("href") or "")
    )
    assert printed.ok and printed.headers["content-type"] == "application/pdf"
    expect(hana.locator("#director-tools")).to_be_hidden()
    first = gil.locator(".pairings[data-round='1'] tr[data-table='1'] td").nth(1).inner_text()
    white = first.split(" \u2013 ")[0]  # (the names are joined by an en dash)

    link.click()
    gil.wait_for_url(f"**/tournaments/{tid}/tables/1/1*")
    expect(gil.locator("#table-state")).to_have_text("No result yet.")
    gil.fill("#table-code", code)
    gil.select_option("#table-result", "1-0")
    gil.click("#report")
    expect(gil.locator("#table-state")).to_contain_text("Gil Board reported")
    _look(gil, "table-desktop")

    hana.set_viewport_size({"width": 390, "height": 844})
    hana.goto(f"/tournaments/{tid}/tables/1/1?lang=en")
    expect(hana.locator("#confirm-box")).to_be_visible()
    hana.fill("#table-code", code)
    hana.click("#dispute")
    expect(hana.locator("#table-state")).to_contain_text("Hana Board disputes the result")
    _look(hana, "table-phone-disputed")
    gil.goto(f"/tournaments/{tid}?lang=en")
    row = gil.locator(".pairings[data-round='1'] tr[data-table='1']")
    expect(row).to_contain_text("disputed: for the director")
    # Gil reports again (a draw); Hana confirms it with the table's Confirm button.
    gil.goto(f"/tournaments/{tid}/tables/1/1?lang=en")
    gil.fill("#table-code", code)
    gil.select_option("#table-result", "1/2-1/2")
    gil.click("#report")
    expect(gil.locator("#table-state")).to_contain_text("Gil Board reported")
    hana.reload()
    hana.fill("#table-code", code)
    hana.click("#confirm")
    expect(hana.locator("#table-state")).to_have_text("Result recorded: 1/2-1/2")
    # The director corrects it from his page's tools, asked first.
    gil.goto(f"/tournaments/{tid}?lang=en")
    gil.select_option("#correct-table", "1/1")
    gil.select_option("#correct-result", "1-0")
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    gil.once("dialog", accept)
    gil.click("#correct-form button[type=submit]")
    expect(row).to_contain_text("1-0")
    assert asked == ["Record 1-0 at table 1 of round 1?"]
    expect(gil.locator(f"#standings tbody tr[data-name='{white}'] td").nth(2)).to_have_text("1")
    # The crosstable: round 1, the opponent's number, the seat, the points.
    cross = gil.locator(f"#crosstable tr[data-name='{white}'] td.round[data-round='1']")
    expect(cross).to_have_text(re.compile(r"^\d · 1 · 1$"))
    _look(gil, "tournament-director-desktop")
    # He removes Hana, asked first: her line says withdrawn.
    gil.select_option("#remove-player", "Hana Board")
    gil.once("dialog", accept)
    gil.click("#remove-form button[type=submit]")
    expect(gil.locator("#standings tbody tr[data-name='Hana Board']")).to_contain_text("withdrawn")
    assert asked[-1].startswith("Remove Hana Board from the tournament?")
    gil.set_viewport_size({"width": 390, "height": 844})
    assert gil.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _look(gil, "tournament-director-phone")
    gil.set_viewport_size({"width": 1366, "height": 800})
    # The printout: no top bar nor buttons, the pairings with their codes.
    gil.emulate_media(media="print")
    expect(gil.locator("#print")).to_be_hidden()
    expect(gil.locator(".pairings[data-round='1'] .table-code")).to_be_visible()
    _look(gil, "tournament-print")
