"""Password guesses and floods against a real server process (issue 67 items 2, 3 and 6),
with argon2's real cost: 30 wrong logins for one name sent at once get ten tries, the
rest 429; so do 30 wrong passwords for a deletion; a flood of logins that fills the
password threads is refused 503 while rooms are still created, opened and joined and
sessions read; an address makes five accounts an hour; the owner of a name guessed from
rotating addresses still logs in from where he logged in before.

The addresses are varied as a balancer would: the server believes this machine's
``X-Forwarded-For`` (the default ``--trusted-proxy``)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from spacetable.server.http import password_work
from spacetable.server.http.login_limits import DEVICE_COOKIE, FAILURES, NAME_FAILURES
from spacetable.server.store.accounts import SESSION_COOKIE
from tests._server import Client, ProcessServer, server_process

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with server_process(db) as running:
        yield running


def send(
    server: ProcessServer,
    method: str,
    path: str,
    body: Any = None,
    *,
    address: str | None = None,
    cookies: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """One request, from ``address`` (told in ``X-Forwarded-For``) with ``cookies``: its
    status, headers (lower case) and JSON answer (``{}`` if none)."""
    headers = {"content-type": "application/json"}
    if address is not None:
        headers["x-forwarded-for"] = address
    if cookies:
        headers["cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.http + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, got, text = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as refused:
        with refused:
            status, got, text = refused.code, refused.headers, refused.read()
    cookies_set = {
        line.split("=", 1)[0]: line.split("=", 1)[1].split(";", 1)[0]
        for line in got.get_all("set-cookie") or []
    }
    lowered = {k.lower(): v for k, v in got.items()} | {"cookies": json.dumps(cookies_set)}
    return status, lowered, json.loads(text) if text else {}


def cookies_of(headers: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] = json.loads(headers["cookies"])
    return found


def sign_up(server: ProcessServer, name: str, address: str | None = None) -> dict[str, str]:
    """Sign ``name`` up (from this machine, or ``address``); the cookies it was given."""
    status, headers, said = send(
        server, "POST", "/api/accounts", {"name": name, "password": PASSWORD}, address=address
    )
    assert status == 201, said
    return cookies_of(headers)


def at_once(count: int, call: Callable[[int], tuple[int, dict[str, str], Any]]) -> list[int]:
    """``call(0)`` ... ``call(count - 1)`` sent together (each thread waits for the others
    before sending); their statuses."""
    barrier = threading.Barrier(count)

    def sent(number: int) -> tuple[int, dict[str, str], Any]:
        barrier.wait()
        return call(number)

    with ThreadPoolExecutor(count) as pool:
        answers = list(pool.map(sent, range(count)))
    for status, headers, _ in answers:
        if status == 429:
            assert int(headers["retry-after"]) >= 1
    return [status for status, _, _ in answers]


def test_thirty_wrong_logins_sent_at_once_for_one_name_get_ten_tries(
    server: ProcessServer,
) -> None:
    sign_up(server, "target1")
    wrong = {"name": "target1", "password": "guessing"}
    statuses = at_once(
        30, lambda _: send(server, "POST", "/api/session", wrong, address="198.51.100.7")
    )
    assert statuses.count(401) <= FAILURES, statuses
    assert statuses.count(401) + statuses.count(429) == 30, statuses
    # The owner, from where he signed up, is not locked out by them.
    status, _, _ = send(server, "POST", "/api/session", {"name": "target1", "password": PASSWORD})
    assert status == 200


def test_thirty_wrong_passwords_for_a_deletion_sent_at_once_get_ten_tries(
    server: ProcessServer,
) -> None:
    session = {SESSION_COOKIE: sign_up(server, "target2")[SESSION_COOKIE]}
    wrong = {"password": "guessing"}
    statuses = at_once(
        30, lambda _: send(server, "DELETE", "/api/accounts/me", wrong, cookies=session)
    )
    assert statuses.count(401) <= FAILURES, statuses
    assert statuses.count(401) + statuses.count(429) == 30, statuses


def test_a_login_flood_is_refused_503_while_rooms_are_made_and_joined(
    server: ProcessServer,
) -> None:
    session = {SESSION_COOKIE: sign_up(server, "flooder")[SESSION_COOKIE]}
    answered = threading.Condition()
    busy: list[dict[str, Any]] = []  # the 503s' Retry-After and sentence
    counts = {"answers": 0, "sent": 0}
    stop = threading.Event()

    def flood() -> None:
        # Each guess a name of its own from an address of its own, as from a botnet: no
        # failure limit refuses them, only the password threads' bound.
        while not stop.is_set():
            with answered:
                counts["sent"] += 1
                k = counts["sent"]
            guess = {"name": f"nobody{k}", "password": "guessing"}
            address = f"10.{k >> 16 & 255}.{k >> 8 & 255}.{k & 255}"
            status, headers, said = send(server, "POST", "/api/session", guess, address=address)
            with answered:
                counts["answers"] += 1
                if status == 503:
                    busy.append({"retry": headers.get("retry-after"), **said})
                else:
                    assert status == 401, said
                answered.notify_all()

    def refused_busy(after: int) -> bool:
        return len(busy) > after or counts["answers"] > 400 + after

    # More guesses at once than the password threads, their waiting places and the
    # guesses held for a place can hold: some are refused whatever argon2's speed.
    places = 2 + password_work.WAITING + password_work.HELD
    floods = [threading.Thread(target=flood) for _ in range(places + 16)]
    for thread in floods:
        thread.start()
    try:
        with answered:
            answered.wait_for(lambda: refused_busy(0), 120)
            seen = len(busy)
        assert seen, f"no 503 in {counts['answers']} logins"
        # While the password threads are full: a room is made, opened and joined, and a
        # session is read.
        room = server.create_room()
        client = Client(server, room)
        client.send(type="join", name="Ann")
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        client.close()
        status, _, who = send(server, "GET", "/api/session", cookies=session)
        assert (status, who) == (200, {"name": "flooder"})
        with answered:
            answered.wait_for(lambda: refused_busy(seen), 120)  # and they still are
            assert len(busy) > seen
    finally:
        stop.set()
        with answered:
            answered.notify_all()
        for thread in floods:
            thread.join()
    refusal = busy[0]
    assert int(refusal["retry"]) >= 1
    assert "says" in refusal and refusal["says"]["message"].startswith("The server is busy")


def test_an_address_makes_five_accounts_an_hour(server: ProcessServer) -> None:
    for number in range(5):
        sign_up(server, f"many{number}", address="192.0.2.50")
    body = {"name": "many5", "password": PASSWORD}
    status, headers, said = send(server, "POST", "/api/accounts", body, address="192.0.2.50")
    assert status == 429, said
    assert 1 <= int(headers["retry-after"]) <= 12 * 60
    assert "says" in said
    # Another address, and this machine, still may.
    sign_up(server, "many5", address="192.0.2.51")
    sign_up(server, "many6")


def test_the_owner_logs_in_while_his_name_is_guessed_from_rotating_addresses(
    server: ProcessServer,
) -> None:
    home = "198.51.100.20"
    device = sign_up(server, "owner1", address=home).get(DEVICE_COOKIE, "")
    wrong = {"name": "owner1", "password": "guessing"}
    guesses = NAME_FAILURES + 10
    statuses = [
        send(server, "POST", "/api/session", wrong, address=f"203.0.113.{n}")[0]
        for n in range(guesses)
    ]
    # The name is locked for strangers once guessed NAME_FAILURES times...
    assert statuses == [401] * NAME_FAILURES + [429] * 10, statuses
    right = {"name": "owner1", "password": PASSWORD}
    status, _, _ = send(server, "POST", "/api/session", right, address="203.0.113.200")
    assert status == 429
    # ... but not for the owner: from his address, or from his browser elsewhere.
    assert send(server, "POST", "/api/session", right, address=home)[0] == 200
    travelling = {DEVICE_COOKIE: device}
    status, _, _ = send(
        server, "POST", "/api/session", right, address="192.0.2.99", cookies=travelling
    )
    assert status == 200
