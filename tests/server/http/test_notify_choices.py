"""Which kinds of notification are pushed, and the one switch that turns every push and
the daily digest off (issue 70 item 5; ``GET/PUT /api/accounts/me/notify``,
docs/notifications.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.app import PushSettings
from spacetable.server.meet.push import PushSender
from spacetable.server.store.email import EmailStore
from spacetable.server.store.notifications import GROUPS, Choices, Subscription
from spacetable.server.store.storage import Storage
from tests.server.durable._restart import db
from tests.server.http._client import login, serving

__all__ = ["db"]

PUSH_ALL = {
    "your_move": True,
    "ran_out": True,
    "challenges": True,
    "match_over": True,
    "tournament_round": True,
}
ALL_ON: dict[str, Any] = {"all_off": False, "push": PUSH_ALL}


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with serving(db, push=PushSettings("mailto:ops@example.org", ("push.test",))) as running:
        yield running


def choose(client: TestClient, who: dict[str, str], body: dict[str, Any]) -> Any:
    answer = client.put("/api/accounts/me/notify", json=body, headers=who)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_choices_are_kept_per_account_and_bad_ones_refused(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    assert client.get("/api/accounts/me/notify", headers=ann).json() == ALL_ON
    off = {"all_off": False, "push": {"challenges": False}}
    assert choose(client, ann, off)["push"] == PUSH_ALL | {"challenges": False}
    assert client.get("/api/accounts/me/notify", headers=ann).json()["push"]["challenges"] is False
    assert client.get("/api/accounts/me/notify", headers=bob).json() == ALL_ON
    assert choose(client, ann, {"all_off": True, "push": {}}) == ALL_ON | {"all_off": True}

    assert client.get("/api/accounts/me/notify").status_code == 401
    refused = {
        "all_off must be true or false.": {"push": {}},
        "push has no kind sms.": {"all_off": False, "push": {"sms": False}},
        "push.ran_out must be true or false.": {"all_off": False, "push": {"ran_out": "no"}},
        "push must be an object: each kind, true or false.": {"all_off": False, "push": []},
    }
    for said, body in refused.items():
        answer = client.put("/api/accounts/me/notify", json=body, headers=ann)
        assert (answer.status_code, answer.json()["detail"]) == (400, said), answer.text
    other_site = client.put(
        "/api/accounts/me/notify", json=ALL_ON, headers=ann | {"origin": "https://evil.example"}
    )
    assert other_site.status_code == 403
    assert client.get("/api/accounts/me/notify", headers=ann).json()["all_off"] is True


def test_a_kind_turned_off_is_listed_but_not_pushed_and_all_off_stops_every_push(
    client: TestClient,
) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    keys = {"p256dh": "B" * 87, "auth": "A" * 22}
    body = {"endpoint": "http://push.test/bob-phone", "keys": keys}
    assert client.post("/api/push/subscriptions", json=body, headers=bob).status_code == 201
    app: Any = client.app
    sender: PushSender = app.state.push
    pushed: list[str] = []

    def post(subscription: Subscription, payload: bytes, topic: str) -> tuple[int, float]:
        pushed.append(subscription.endpoint)
        return 201, 0.0

    sender._post = post  # type: ignore[method-assign, assignment]

    async def settled() -> None:
        await app.state.notices.settled()
        while sender._pending:
            await asyncio.wait(set(sender._pending))

    def challenged() -> int:
        game = {"to": "Bob", "game": "lightspeed", "rated": False}
        made = client.post("/api/challenges", json=game, headers=ann)
        assert made.status_code in (200, 201), made.text
        client.portal.call(settled)  # type: ignore[union-attr]
        number = len(pushed)
        declined = client.post(
            f"/api/challenges/{made.json()['id']}/decline", json={"reason": "later"}, headers=bob
        )
        assert declined.status_code in (200, 204), declined.text
        client.portal.call(settled)  # type: ignore[union-attr]
        return number

    assert challenged() == 1  # pushed, as every kind is by default
    choose(client, bob, {"all_off": False, "push": {"challenges": False}})
    assert challenged() == 1  # not pushed...
    items = client.get("/api/notifications", headers=bob).json()["items"]
    assert [i["kind"] for i in items] == ["challenge", "challenge"]  # ...but listed
    choose(client, bob, ALL_ON)
    assert challenged() == 2
    choose(client, bob, ALL_ON | {"all_off": True})
    assert challenged() == 2
    assert len(client.get("/api/notifications", headers=bob).json()["items"]) == 4


def test_all_off_stops_the_daily_digest(client: TestClient) -> None:
    ann = login(client, "Ann")
    app: Any = client.app
    account_id = app.state.services.accounts.find("Ann").id
    storage: Storage = app.state.services.storage
    now = [1_800_000_000.0]
    store = EmailStore(storage, lambda: now[0])
    token = store.set_address(account_id, "ann@example.org")
    assert token is not None and store.verify(token) == account_id
    hour = int(now[0] // 3600 + 1) % 24  # the first goes at the next such hour
    assert store.set_digest(account_id, hour, "UTC", "en")
    now[0] += 3600
    choose(client, ann, ALL_ON | {"all_off": True})
    assert store.due_digests() == []
    choose(client, ann, ALL_ON)
    assert [digest.address for digest in store.due_digests()] == ["ann@example.org"]


def test_thirty_changes_at_once_leave_one_whole_choice(client: TestClient) -> None:
    login(client, "Ann")
    app: Any = client.app
    store = app.state.notices.store
    key = app.state.services.accounts.find("Ann").key
    wanted = [Choices(frozenset(GROUPS[: n % len(GROUPS)]), all_off=n % 2 == 1) for n in range(30)]
    with ThreadPoolExecutor(30) as threads:
        done = list(threads.map(lambda choices: store.set_choices(key, choices), wanted))
    assert all(done)
    kept = store.choices(key)
    assert kept in wanted  # one of them, whole
    storage: Storage = app.state.services.storage
    with storage.engine.connect() as connection:
        rows = connection.execute(text("SELECT COUNT(*) FROM notify_choices")).scalar_one()
    assert rows == 1
