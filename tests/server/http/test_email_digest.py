"""The daily digest (``http/digest.py``; issue 70 item 3) on a server run as ``spacetable
serve --test-clock --smtp ... --public-url ...`` runs it, against a real SMTP server
(aiosmtpd): a player whose correspondence game waits for his move gets, at the hour he
picked and no sooner (the server's test clock moved to it), one mail listing it with its
link and a one-click unsubscribe (``List-Unsubscribe`` and ``List-Unsubscribe-Post``),
whose POST, as a mail program sends it, stops the digest."""

from __future__ import annotations

import json
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests._accounts import session_cookie
from tests._server import Client, Server, running_server
from tests._smtp import body_of, link_in, smtp_server

PUBLIC = "http://play.example.org"


def call(server: Server, method: str, path: str, body: Any, cookie: str = "") -> Any:
    request = urllib.request.Request(
        server.http + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"content-type": "application/json", "cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
    return json.loads(text) if text else None


def waiting_on_ann(server: Server, cookies: dict[str, str]) -> str:
    """A correspondence FTL room of Ann and Bob where Bob plotted and the turn waits on
    Ann: its id."""
    room = server.create_room(ruleset="ftl", turn_hours=24)
    ann, bob = (Client(server, room, headers={"Cookie": cookies[n]}) for n in ("Ann", "Bob"))
    for client in (ann, bob):
        client.send(type="join", name="x")
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        client.send(type="ready")
    bob.wait(lambda m: m["type"] == "state" and m["phase"] == "plot" and m["turn"] == 1)
    bob.send(type="plot", orders=[])
    bob.wait(
        lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == ["Ann"]
    )
    ann.close()
    bob.close()
    return room


def test_the_digest_comes_at_its_hour_and_its_one_click_unsubscribe_stops_it(
    tmp_path: Path,
) -> None:
    with smtp_server() as (inbox, url):
        options = ("--test-clock", "--smtp", url, "--public-url", PUBLIC)
        with running_server(tmp_path / "digest.db", *options) as server:
            cookies = {name: session_cookie(server.http, name) for name in ("Ann", "Bob")}
            ann = cookies["Ann"]
            call(server, "PUT", "/api/accounts/me/email", {"email": "ann@example.org"}, ann)
            verification = link_in(inbox.wait_for(1)[0])
            token = parse_qs(urlsplit(verification).query)["token"][0]
            call(server, "POST", "/api/email/verify", {"token": token})
            # The hour two hours on (UTC), at the earliest one hour from now.
            now = datetime.now(UTC)
            hour = (now.hour + 2) % 24
            set_to = {"hour": hour, "zone": "UTC"}
            assert call(server, "PUT", "/api/accounts/me/email/digest", set_to, ann) == set_to
            room = waiting_on_ann(server, cookies)
            # To the hour and a minute on the server's clock: the digest goes.
            due = (now + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
            server.post("/api/test/clock", {"advance": due.timestamp() - time.time() + 60})
            digest = inbox.wait_for(2)[1]
            assert digest["To"] == "ann@example.org"
            assert digest["Subject"] == "1 game waits for your move — spacetable"
            text = body_of(digest)
            assert f"Faster Than Light with Bob: {PUBLIC}/rooms/{room}" in text
            assert f"{PUBLIC}/email/unsubscribe?token=" in text
            one_click = digest["List-Unsubscribe"].strip("<>")
            assert one_click.startswith(f"{PUBLIC}/api/email/unsubscribe?token=")
            assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            # The mail program's one click: a form's POST to the header's address.
            address = server.http + one_click.removeprefix(PUBLIC)
            request = urllib.request.Request(
                address,
                data=b"List-Unsubscribe=One-Click",
                headers={"content-type": "application/x-www-form-urlencoded"},
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 200
            mine = call(server, "GET", "/api/accounts/me/email", None, ann)
            assert mine["digest_hour"] is None and mine["verified"] is True
