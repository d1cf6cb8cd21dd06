"""E-mail addresses and password resets (``http/email_routes.py``, ``http/mailer.py``,
``store/email.py``; issue 70 items 3 and 4), in the test's process against a real SMTP
server (aiosmtpd, ``tests/_smtp.py``), on the server's test clock: the verification mail
arrives and its link verifies the address; a reset mail's link sets a new password and logs
every old session out; ``POST /api/password-reset`` answers alike for known and unknown
names, before any look-up; tokens are used once, run out on the test clock and are stored
only as digests; the hour's mails are limited even under 30 parallel requests; nothing a
player types reaches a header; without ``--smtp`` the routes say e-mail is off."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.app import MailSettings
from spacetable.server.http.email_routes import MailService
from spacetable.server.http.mailer import Mailer, SmtpUrl, mail
from spacetable.server.store.accounts import SESSION_COOKIE, AccountStore, password_hasher
from spacetable.server.store.email import MAILS_PER_HOUR, RESET, VERIFY, EmailStore
from spacetable.server.store.storage import Storage
from tests._smtp import Inbox, body_of, link_in, smtp_server
from tests.server.http._client import ORIGIN, advance, app_on, stored

PUBLIC = "https://play.example.org"
PASSWORD = "correct horse"


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    yield from stored(tmp_path / "email.db")


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, str]]:
    with smtp_server() as running:
        yield running


def make_app(storage: Storage, smtp: str | None) -> FastAPI:
    settings = None
    if smtp is not None:
        settings = MailSettings(SmtpUrl.parse(smtp), "spacetable <noreply@example.org>", PUBLIC)
    return app_on(storage, mail=settings)


@pytest.fixture
def client(storage: Storage, inbox: tuple[Inbox, str]) -> Iterator[TestClient]:
    with TestClient(make_app(storage, inbox[1]), base_url=ORIGIN) as running:  # mail thread on
        yield running


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """Headers carrying the session of a new account ``name``."""
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    session = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return {"cookie": f"{SESSION_COOKIE}={session}"}


def log_in(client: TestClient, name: str, password: str) -> dict[str, str] | int:
    """Headers carrying a new session of ``name``, or the login's status when refused."""
    answer = client.post("/api/session", json={"name": name, "password": password})
    client.cookies.clear()
    if answer.status_code != 200:
        return answer.status_code
    return {"cookie": f"{SESSION_COOKIE}={answer.cookies[SESSION_COOKIE]}"}


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


def verified(client: TestClient, inbox: Inbox, who: dict[str, str], address: str) -> None:
    """Give the account ``address`` and follow its verification link."""
    before = len(inbox.mails)
    assert (
        client.put("/api/accounts/me/email", json={"email": address}, headers=who).status_code
        == 202
    )
    link = link_in(inbox.wait_for(before + 1)[before])
    assert client.post("/api/email/verify", json={"token": token_of(link)}).status_code == 200


def test_the_verification_mail_arrives_and_its_link_verifies_the_address(
    client: TestClient, inbox: tuple[Inbox, str], storage: Storage
) -> None:
    ann = sign_up(client, "Ann")
    assert client.get("/api/accounts/me/email", headers=ann).json() == {
        "enabled": True,
        "address": None,
        "verified": False,
        "digest_hour": None,
        "digest_zone": None,
    }
    given = client.put("/api/accounts/me/email", json={"email": "Ann@Example.ORG"}, headers=ann)
    assert given.status_code == 202, given.text
    assert given.json() == {"address": "Ann@example.org", "verified": False}
    (sent,) = inbox[0].wait_for(1)
    assert sent["To"] == "Ann@example.org"
    assert sent["From"] == "spacetable <noreply@example.org>"
    assert sent["Subject"] == "Confirm your e-mail address — spacetable"
    assert "Hello Ann," in body_of(sent) and "Ann@example.org" in body_of(sent)
    link = link_in(sent)
    assert link.startswith(f"{PUBLIC}/email/verify?token=")  # never the request's Host
    token = token_of(link)
    # Only the token's digest is stored.
    with storage.engine.connect() as connection:
        rows = connection.execute(text("SELECT * FROM email_tokens")).all()
    assert len(rows) == 1 and token not in repr(rows)
    # The page the link opens, and the verification it posts.
    page = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    done = client.post("/api/email/verify", json={"token": token})
    assert done.status_code == 200 and done.json() == {"address": "Ann@example.org"}
    assert client.get("/api/accounts/me/email", headers=ann).json()["verified"] is True
    again = client.post("/api/email/verify", json={"token": token})
    assert again.status_code == 410 and "used already" in again.json()["detail"]
    unknown = client.post("/api/email/verify", json={"token": token[:-2] + "xx"})
    assert unknown.status_code == 400 and "not valid" in unknown.json()["detail"]
    # The same address again: verified already, no mail.
    same = client.put("/api/accounts/me/email", json={"email": "ann@example.org"}, headers=ann)
    assert same.status_code == 200 and same.json()["verified"] is True


def test_a_verification_link_runs_out_after_a_day_on_the_server_clock_and_a_new_one_is_sent(
    client: TestClient, inbox: tuple[Inbox, str]
) -> None:
    ann = sign_up(client, "Ann")
    assert (
        client.put(
            "/api/accounts/me/email", json={"email": "ann@example.org"}, headers=ann
        ).status_code
        == 202
    )
    first = token_of(link_in(inbox[0].wait_for(1)[0]))
    advance(client, 24 * 3600 + 1)
    late = client.post("/api/email/verify", json={"token": first})
    assert late.status_code == 410 and "run out" in late.json()["detail"]
    assert client.post("/api/accounts/me/email/resend", json={}, headers=ann).status_code == 202
    second = token_of(link_in(inbox[0].wait_for(2)[1]))
    assert second != first
    assert client.post("/api/email/verify", json={"token": second}).status_code == 200
    # A link to an address since replaced verifies nothing.
    assert (
        client.put(
            "/api/accounts/me/email", json={"email": "ann@other.example"}, headers=ann
        ).status_code
        == 202
    )
    old = token_of(link_in(inbox[0].wait_for(3)[2]))
    assert (
        client.put(
            "/api/accounts/me/email", json={"email": "ann2@other.example"}, headers=ann
        ).status_code
        == 202
    )
    changed = client.post("/api/email/verify", json={"token": old})
    assert changed.status_code == 409 and "changed" in changed.json()["detail"]
    assert client.get("/api/accounts/me/email", headers=ann).json() == {
        "enabled": True,
        "address": "ann2@other.example",
        "verified": False,
        "digest_hour": None,
        "digest_zone": None,
    }


def test_a_reset_link_sets_a_new_password_and_logs_every_old_session_out(
    client: TestClient, inbox: tuple[Inbox, str]
) -> None:
    ann = sign_up(client, "Ann")
    verified(client, inbox[0], ann, "ann@example.org")
    phone = log_in(client, "Ann", PASSWORD)
    assert isinstance(phone, dict)
    asked = client.post("/api/password-reset", json={"name_or_email": "ANN"})
    assert asked.status_code == 202 and asked.content == b""
    sent = inbox[0].wait_for(2)[1]
    assert sent["To"] == "ann@example.org"
    assert sent["Subject"] == "Reset your password — spacetable"
    link = link_in(sent)
    assert link.startswith(f"{PUBLIC}/password-reset?token=")
    page = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    token = token_of(link)
    short = client.post("/api/password-reset/confirm", json={"token": token, "password": "short"})
    assert short.status_code == 422 and "8 characters" in short.json()["detail"]
    done = client.post(
        "/api/password-reset/confirm", json={"token": token, "password": "new horse battery"}
    )
    assert done.status_code == 204, done.text
    for session in (ann, phone):  # every old session is logged out
        assert client.get("/api/session", headers=session).status_code == 401
    assert log_in(client, "Ann", PASSWORD) == 401
    assert isinstance(log_in(client, "Ann", "new horse battery"), dict)
    again = client.post(
        "/api/password-reset/confirm", json={"token": token, "password": "another one!"}
    )
    assert again.status_code == 410 and "used already" in again.json()["detail"]
    # By the address too; that link runs out after an hour on the server's clock.
    assert (
        client.post("/api/password-reset", json={"name_or_email": "Ann@Example.org"}).status_code
        == 202
    )
    late = token_of(link_in(inbox[0].wait_for(3)[2]))
    advance(client, 3600 + 1)
    expired = client.post(
        "/api/password-reset/confirm", json={"token": late, "password": "too late now"}
    )
    assert expired.status_code == 410 and "run out" in expired.json()["detail"]
    assert isinstance(log_in(client, "Ann", "new horse battery"), dict)


def test_a_reset_is_answered_alike_for_known_and_unknown_names_before_any_look_up(
    storage: Storage, inbox: tuple[Inbox, str]
) -> None:
    app = make_app(storage, inbox[1])
    client = TestClient(app, base_url=ORIGIN)  # no lifespan: the mail thread waits
    accounts = AccountStore(storage, password_hasher(cheap=True))
    ann = accounts.create("Ann", PASSWORD)
    emails = EmailStore(storage)
    token = emails.set_address(ann.id, "ann@example.org")
    assert token and emails.verify(token) == ann.id
    answers = [
        client.post("/api/password-reset", json={"name_or_email": given})
        for given in ("Nobody", "nobody@example.org", "Ann", "ann@example.org")
    ]
    assert {a.status_code for a in answers} == {202}
    shapes = {(a.content, tuple(sorted(k for k in a.headers if k != "date"))) for a in answers}
    assert len(shapes) == 1  # the same answer, byte for byte
    # Answered before any look-up: no reset token exists yet, the jobs wait for the thread.
    with storage.engine.connect() as connection:
        made = connection.execute(text("SELECT COUNT(*) FROM email_tokens WHERE purpose = 'reset'"))
        assert made.scalar_one() == 0
    service: MailService = app.state.mail
    assert service.mailer is not None
    service.mailer.start()
    try:
        sent = inbox[0].wait_for(2)
        assert [m["To"] for m in sent] == ["ann@example.org", "ann@example.org"]
    finally:
        service.mailer.close()


def test_thirty_parallel_reset_requests_mail_the_hour_s_three(
    client: TestClient, inbox: tuple[Inbox, str]
) -> None:
    ann = sign_up(client, "Ann")
    verified(client, inbox[0], ann, "ann@example.org")

    def ask(_: int) -> int:
        return client.post("/api/password-reset", json={"name_or_email": "Ann"}).status_code

    with ThreadPoolExecutor(30) as pool:
        assert set(pool.map(ask, range(30))) == {202}
    # A last mail, to another player, queued after the thirty: once it came, they were done.
    bob = sign_up(client, "Bob")
    assert (
        client.put(
            "/api/accounts/me/email", json={"email": "bob@example.org"}, headers=bob
        ).status_code
        == 202
    )
    inbox[0].wait_for(1 + MAILS_PER_HOUR[RESET] + 1)
    to_ann = [m for m in inbox[0].mails if m["Subject"].startswith("Reset")]
    assert len(to_ann) == MAILS_PER_HOUR[RESET] == 3
    assert inbox[0].mails[-1]["To"] == "bob@example.org"
    # The verification mails too, per account: the sixth in an hour is refused, saying so.
    for _ in range(MAILS_PER_HOUR[VERIFY] - 1):
        assert client.post("/api/accounts/me/email/resend", json={}, headers=bob).status_code == 202
    refused = client.post("/api/accounts/me/email/resend", json={}, headers=bob)
    assert refused.status_code == 429 and "try again in an hour" in refused.json()["detail"]
    advance(client, 3600 + 1)
    assert client.post("/api/accounts/me/email/resend", json={}, headers=bob).status_code == 202


def test_nothing_typed_reaches_a_mail_header(client: TestClient, inbox: tuple[Inbox, str]) -> None:
    ann = sign_up(client, "Ann")
    for typed in (
        "ann@example.org\r\nBcc: eve@example.org",
        "ann@example.org\nSubject: free money",
        "Ann <ann@example.org>",
        "ann@example.org, eve@example.org",
        "not an address",
        "",
        42,
    ):
        answer = client.put("/api/accounts/me/email", json={"email": typed}, headers=ann)
        assert answer.status_code == 422, (typed, answer.text)
        assert "e-mail address" in answer.json()["detail"]
    with pytest.raises(ValueError):  # the SMTP policy refuses a header with a line break
        mail("a@example.org", "b@example.org", "hello\r\nBcc: eve@example.org", "body")
    # An address beyond ASCII, in a French mail: the headers are the mail's own, no more.
    french = ann | {"cookie": ann["cookie"] + "; lang=fr"}
    given = client.put("/api/accounts/me/email", json={"email": "ann@exämple.org"}, headers=french)
    assert given.status_code == 202
    (sent,) = inbox[0].wait_for(1)
    head = inbox[0].raw[0].split(b"\r\n\r\n", 1)[0].decode()
    names = [line.split(":", 1)[0] for line in head.split("\r\n") if not line[:1].isspace()]
    assert sorted(names) == sorted(
        [
            "From",
            "To",
            "Subject",
            "Message-ID",
            "Content-Type",
            "Content-Transfer-Encoding",
            "MIME-Version",
        ]
    )
    assert sent["Subject"] == "Confirmez votre adresse e-mail — spacetable"
    assert sent["To"] == "ann@exämple.org"


def test_without_smtp_the_routes_say_that_e_mail_is_off(storage: Storage) -> None:
    client = TestClient(make_app(storage, None), base_url=ORIGIN)
    ann = sign_up(client, "Ann")
    assert client.get("/api/accounts/me/email", headers=ann).json()["enabled"] is False
    given = client.put("/api/accounts/me/email", json={"email": "ann@example.org"}, headers=ann)
    assert given.status_code == 409 and "E-mail is off on this server" in given.json()["detail"]
    reset = client.post("/api/password-reset", json={"name_or_email": "Ann"})
    assert reset.status_code == 409 and "E-mail is off on this server" in reset.json()["detail"]
    assert client.get("/api/accounts/me/email").status_code == 401


def test_a_mail_the_smtp_server_refuses_is_tried_again_and_its_password_never_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests._ports import free_port

    mailer = Mailer(SmtpUrl.parse(f"smtp://ann:s3cret-pw@127.0.0.1:{free_port()}"), backoff=0.0)
    mailer.start()
    with caplog.at_level(logging.WARNING):
        assert mailer.submit(lambda: mail("a@example.org", "b@example.org", "hi", "body"))
        mailer.close()  # (after the queued job: its three tries)
    assert mailer.failed == 1
    tries = [r for r in caplog.records if "could not be sent" in r.getMessage()]
    assert len(tries) == 3
    assert "s3cret-pw" not in caplog.text and "smtp://ann:***@127.0.0.1" in caplog.text
    assert "s3cret-pw" not in repr(mailer.smtp)
