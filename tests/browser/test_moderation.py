"""A moderator bans an account from ``/admin`` (issue 69 item 5, its "Done when"): in real
browsers, Ann reports Bob from his seat's Report dialog; the moderator finds the report in
the queue, presses its Ban button and gives a reason; Bob's open page loses its session at
once (it reloads as a guest's and says a moderator banned him), his log-in is refused with
a sentence saying why, and the audit log shows the ban with who did it. A player who is
no moderator is told the page is not his. Axe-core finds nothing serious in the Report
dialog nor on /admin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore
from spacetable.server.store.moderation import ModerationStore
from spacetable.server.store.storage import Storage
from tests._accounts import session_cookie
from tests._server import running_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.test_accessibility import _serious_violations

PASSWORD = "12345678"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("moderation") / "matches.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[Server]:
    """A server of this module's own, whose database the test reaches (to grant the
    moderator's role as ``spacetable admin grant`` does)."""
    with running_server(db, "--test-clock", room_seed=69) as running:
        yield Server(running.http)


def grant(db: Path, name: str) -> None:
    storage = Storage(str(db))
    try:
        account = AccountStore(storage).find(name)
        assert account is not None
        ModerationStore(storage).grant(account)
    finally:
        storage.close()


def logged_in(open_page: OpenPage, server: Server, name: str, path: str, **options: object) -> Page:
    """A browser of its own, logged in as ``name`` (signed up first), at ``path``."""
    cookie = session_cookie(server.base, name, PASSWORD).split("=", 1)[1]
    page = open_page("/", **options)
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": cookie, "url": server.base}])
    page.goto(path)
    return page


def _refused_once(page: Page, status: int) -> None:
    """The page's one refused request is what the test asked for: the browser logs it as
    an error, which is not the page's."""
    errors: list[str] = page._spacetable_errors  # type: ignore[attr-defined]
    refused = [text for text in errors if f"status of {status}" in text]
    assert len(refused) == 1, errors
    errors.remove(refused[0])


def test_a_moderator_bans_a_reported_player_whose_page_loses_its_session_at_once(
    open_page: OpenPage, server: Server, db: Path, shot: Shot
) -> None:
    # Bob and Ann sit in one room; Ann reports Bob from his seat.
    room = server.api("/api/rooms", {"seats": 2})["id"]
    bob = logged_in(open_page, server, "Bob", f"/rooms/{room}")
    bob.click(".seat[data-seat='0'] .take-seat")
    expect(bob.locator(".seat.mine")).to_be_visible()
    ann = logged_in(open_page, server, "Ann", f"/rooms/{room}")
    report = ann.locator(".seat[data-seat='0'] .seat-report")
    expect(report).to_be_visible()
    report.click()
    dialog = ann.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Report Bob")
    dialog.locator("input[value='abuse']").check()
    dialog.locator("#report-text").fill("He insults everyone at the table.")
    assert _serious_violations(ann) == []
    shot(ann, "report-dialog")
    dialog.locator("#report-send").click()
    expect(dialog).to_have_count(0)

    # A player who is no moderator: the page says it is not his.
    refused = logged_in(open_page, server, "Cat", "/admin")
    expect(refused.locator("#admin-refused-why")).to_have_text(
        "This page is for moderators: your account is not one."
    )
    _refused_once(refused, 403)

    # The moderator finds the report in the queue and bans Bob from it.
    mira = logged_in(open_page, server, "Mira", "/")
    grant(db, "Mira")
    mira.goto("/admin")
    queued = mira.locator("#report-list .admin-report").first
    expect(queued).to_contain_text("Bob")
    expect(queued).to_contain_text("Abuse or insults")
    expect(queued).to_contain_text("He insults everyone at the table.")
    expect(queued.locator(f"a[href='/rooms/{room}']")).to_be_visible()
    assert _serious_violations(mira) == []
    queued.locator(".act-ban").click()
    expect(mira.locator("#act-kind")).to_have_value("ban")
    expect(mira.locator("#act-target")).to_have_value("Bob")
    mira.fill("#act-reason", "insults at the table")
    shot(mira, "ban-form")
    mira.click("#act-submit")
    expect(mira.locator("#act-done")).to_have_text("Bob is banned: logged out everywhere.")

    # Bob's open page loses its session at once: a guest's page, saying why.
    expect(bob.locator(".session-ended")).to_contain_text(
        "A moderator banned your account: you are logged out."
    )
    expect(bob.locator("#player-name")).to_be_visible()  # a guest's seat panel: no account
    assert bob.request.get(f"{server.base}/api/session").status == 401
    # His log-in is refused, saying why.
    bob.goto("/login")
    bob.fill("#account-name", "Bob")
    bob.fill("#account-password", PASSWORD)
    bob.click("#account-submit")
    expect(bob.locator("#account-error")).to_have_text(
        "This account is banned by a moderator: you cannot log in."
    )
    _refused_once(bob, 403)
    shot(bob, "login-refused")

    # The audit log shows the ban, who did it and why.
    row = mira.locator("#audit-rows tr[data-action='ban']")
    expect(row).to_have_count(1)
    assert row.locator("td").all_inner_texts()[1:] == [
        "Mira",
        "banned",
        "Bob",
        "insults at the table",
    ]
    expect(mira.locator("#sanction-list .admin-sanction[data-kind='ban']")).to_contain_text("Bob")
    shot(mira, "audit")
