"""The failed-login and sign-up limits over HTTP, in process on the server's test clock
(``server/http/login_limits.py``, issue 67 items 3 and 6; the real server's concurrency is
tests/server/hostile/test_logins.py): an address's sixth account within the hour is
refused until its allowance refills; a name guessed from rotating addresses is locked for
strangers but not for the owner's browser, wherever it is; the device cookie."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from spacetable.server.http.login_limits import (
    DEVICE_COOKIE,
    FAILURE_WINDOW_S,
    NAME_FAILURES,
    SIGN_UPS_PER_HOUR,
)
from spacetable.server.store.storage import Storage
from tests.server.http.test_accounts import PEER, client_of

PASSWORD = "correct horse"


def sign_up(client: TestClient, name: str, address: str) -> int:
    answer = client.post(
        "/api/accounts",
        json={"name": name, "password": PASSWORD},
        headers={"x-forwarded-for": address},
    )
    return answer.status_code


def test_an_address_makes_five_accounts_an_hour_then_one_every_twelve_minutes(
    tmp_path: Path,
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'a.db'}")
    client = client_of(storage)
    made = [sign_up(client, f"made{n}", "192.0.2.5") for n in range(6)]
    assert made == [201] * int(SIGN_UPS_PER_HOUR) + [429]
    refused = client.post(
        "/api/accounts",
        json={"name": "made9", "password": PASSWORD},
        headers={"x-forwarded-for": "192.0.2.5"},
    )
    assert 700 <= int(refused.headers["retry-after"]) <= 720
    assert refused.json()["says"]["message"].startswith("Too many accounts were made")
    # A refused sign-up takes nothing: a taken name from another address, twice.
    assert [sign_up(client, "made0", "192.0.2.6") for _ in range(6)] == [409] * 6
    assert sign_up(client, "other", "192.0.2.6") == 201
    # This machine is not limited; 12 minutes on, the address makes one more.
    assert [sign_up(client, f"local{n}", PEER[0]) for n in range(7)] == [201] * 7
    client.post("/api/test/clock", json={"advance": 12 * 60})
    assert [sign_up(client, f"later{n}", "192.0.2.5") for n in range(2)] == [201, 429]
    storage.close()


def test_the_owners_browser_passes_a_name_locked_for_strangers(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'a.db'}")
    owner = client_of(storage)
    assert sign_up(owner, "alice", "198.51.100.2") == 201
    cookie = owner.cookies[DEVICE_COOKIE]
    stranger = TestClient(owner.app, base_url=str(owner.base_url), client=PEER)
    guesses = [
        stranger.post(
            "/api/session",
            json={"name": "Alice", "password": "guessing"},
            headers={"x-forwarded-for": f"203.0.113.{n}"},
        ).status_code
        for n in range(NAME_FAILURES + 1)
    ]
    assert guesses == [401] * NAME_FAILURES + [429]
    right = {"name": "alice", "password": PASSWORD}
    elsewhere = {"x-forwarded-for": "192.0.2.44"}
    assert stranger.post("/api/session", json=right, headers=elsewhere).status_code == 429
    # The owner's browser, from an address it never used: in.
    owner.cookies.clear()
    owner.cookies.set(DEVICE_COOKIE, cookie)
    answer = owner.post("/api/session", json=right, headers=elsewhere)
    assert answer.status_code == 200
    set_cookie = [h for h in answer.headers.get_list("set-cookie") if h.startswith(DEVICE_COOKIE)]
    assert set_cookie and "HttpOnly" in set_cookie[0] and "Path=/api" in set_cookie[0]
    # The guesses age out for strangers too.
    stranger.post("/api/test/clock", json={"advance": FAILURE_WINDOW_S + 1})
    assert stranger.post("/api/session", json=right, headers=elsewhere).status_code == 200
    storage.close()
