"""Web Push (``meet/push.py``, issue 70 item 2): a real server process pushes to a real
local push service (``_push_service.py``: it checks the VAPID signature and decrypts the
aes128gcm payload with the subscription's private key). A plotted FTL correspondence turn
reaches the other player's endpoint, decrypted to the documented JSON; an endpoint
answering 410 loses its subscription; a restarted server signs with the same VAPID key;
the guard refuses an endpoint that is not https or whose host resolves to a private,
loopback or link-local address, and the hosts the operator trusts pass."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from spacetable.server.meet.push import RETRY_SECONDS, PushSender, endpoint_problem
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.store.accounts import AccountStore, password_hasher
from spacetable.server.store.notifications import NotificationStore, Subscription
from spacetable.server.store.storage import Storage
from tests._accounts import session_cookie
from tests._server import Client, Server, wait_until
from tests.server.durable._restart import kill, servers, start
from tests.server.meet._push_service import Browser, PushService, push_service


def call(server: Server, method: str, path: str, cookie: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        server.http + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Cookie": cookie, "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
    return json.loads(text) if text else None


def serve(db: str, service: PushService) -> Any:
    return start(
        db, "--test-clock", "--vapid-subject", "mailto:ops@example.org",
        "--push-allow-host", "127.0.0.1",
    )  # fmt: skip


def subscribed(db: str, endpoint: str) -> bool:
    storage = Storage(db)
    try:
        return NotificationStore(storage).is_subscribed(endpoint)
    finally:
        storage.close()


def test_a_plotted_turn_is_pushed_a_410_unsubscribes_a_restart_keeps_the_key(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'push.db'}"
    with push_service() as service, servers() as started:
        first = serve(db, service)
        started.append(first)
        key = first.get("/api/push/key")["public_key"]
        cookies = {name: session_cookie(first.http, name) for name in ("Ann", "Bob")}
        ann_phone = Browser(service.base + "/push/ann", seed=1)
        bob_phone = Browser(service.base + "/push/bob", seed=2)
        service.answers["/push/bob"] = 410  # Bob's browser unsubscribed at its service
        for cookie, phone in ((cookies["Ann"], ann_phone), (cookies["Bob"], bob_phone)):
            call(first, "POST", "/api/push/subscriptions", cookie, phone.subscription())
        assert subscribed(db, bob_phone.endpoint)

        room = first.create_room(ruleset="ftl", turn_hours=24)
        ann, bob = (Client(first, room, headers={"Cookie": cookies[n]}) for n in ("Ann", "Bob"))
        for client in (ann, bob):
            client.send(type="join", name="x")
            client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
            client.send(type="ready")
        # The match begins: both are told it is their move; Bob's service answers 410.
        wait_until(lambda: len(service.to("/push/ann")) == 1, "Ann's first push", 15)
        wait_until(lambda: not subscribed(db, bob_phone.endpoint), "Bob's subscription gone", 15)
        assert len(service.to("/push/bob")) == 1

        # Turn 1: Ann plots, then Bob: turn 2 begins and waits on Ann, who is told.
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot" and m["turn"] == 1)
        ann.send(type="plot", orders=[])
        ann.wait(
            lambda m: m["type"] == "room" and (m["correspondence"] or {}).get("waiting") == ["Bob"]
        )
        plotted = time.monotonic()
        bob.send(type="plot", orders=[])
        wait_until(lambda: len(service.to("/push/ann")) == 2, "Ann's push of turn 2", 15)
        took = time.monotonic() - plotted
        pushed = service.to("/push/ann")[-1]
        assert pushed.signed_by == key
        assert pushed.headers["content-encoding"] == "aes128gcm"
        assert int(pushed.headers["ttl"]) > 0 and pushed.headers["topic"]
        assert ann_phone.decrypt(pushed.body) == {
            "kind": "your_move",
            "title": "Your move",
            "body": "Faster Than Light: your move, 24 hours left.",
            "url": f"/rooms/{room}",
            "tag": f"room-{room}",
        }
        print(f"pushed {took:.3f} s after the plot")  # (docs/notifications.md)
        assert len(service.to("/push/bob")) == 1  # nothing more to a deleted subscription
        ann.close()
        bob.close()
        kill(first)

        # Restarted on the same database: the same key signs; Bob challenges Ann.
        second = serve(db, service)
        started.append(second)
        assert second.get("/api/push/key")["public_key"] == key
        body = {"to": "Ann", "game": "lightspeed", "rated": False}
        call(second, "POST", "/api/challenges", cookies["Bob"], body)
        wait_until(lambda: len(service.to("/push/ann")) == 3, "Ann's push of the challenge", 15)
        challenge = service.to("/push/ann")[-1]
        assert challenge.signed_by == key
        said = ann_phone.decrypt(challenge.body)
        assert (said["kind"], said["body"]) == (
            "challenge",
            "Bob challenges you to a game of Light Speed.",
        )


def _resolving(answers: dict[str, list[str]]) -> Any:
    def resolve(host: str, port: int) -> list[str]:
        if host not in answers:
            raise OSError("no such host")
        return answers[host]

    return resolve


@pytest.mark.parametrize(
    ("endpoint", "said"),
    [
        ("https://push.example.org/a", None),
        ("http://push.example.org/a", "must be an https URL"),
        ("https://inside.example.org/a", "private, loopback or link-local"),  # 10.0.0.7
        ("https://mixed.example.org/a", "private, loopback or link-local"),  # one of two
        ("https://meta.example.org/a", "private, loopback or link-local"),  # 169.254...
        ("https://six.example.org/a", "private, loopback or link-local"),  # fe80::1
        ("https://mapped.example.org/a", "private, loopback or link-local"),  # ::ffff:127...
        ("https://nowhere.example.org/a", "cannot be found"),
        ("https://127.0.0.1:8443/a", "private, loopback or link-local"),
        ("ftp://push.example.org/a", "must be an https URL"),
        ("http://localpush:9000/a", None),  # trusted by the operator, plain http too
    ],
)
def test_the_guard_refuses_what_the_server_must_not_call(endpoint: str, said: str | None) -> None:
    resolve = _resolving(
        {
            "push.example.org": ["142.250.74.110", "2a00:1450:4007:80c::200a"],
            "inside.example.org": ["10.0.0.7"],
            "mixed.example.org": ["142.250.74.110", "192.168.1.9"],
            "meta.example.org": ["169.254.169.254"],
            "six.example.org": ["fe80::1%eth0"],
            "mapped.example.org": ["::ffff:127.0.0.1"],
            "127.0.0.1": ["127.0.0.1"],
            "localpush": ["127.0.0.1"],
        }
    )
    problem = endpoint_problem(endpoint, ["localpush"], resolve)
    if said is None:
        assert problem is None
    else:
        assert problem is not None and said in problem, problem


async def _until(check: Any, what: str) -> None:
    """Poll ``check`` (another thread's doing) until it holds, 10 s at most."""
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.02)
    raise TimeoutError(what)


def test_a_push_answered_429_is_tried_again_after_its_backoff_on_the_server_s_clock(
    tmp_path: Path,
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'retry.db'}")
    accounts = AccountStore(storage, password_hasher(cheap=True))
    session = accounts.open_session(accounts.create("Ann", "12345678"))
    store = NotificationStore(storage)

    async def scenario(service: PushService) -> None:
        phone = Browser(service.base + "/push/ann", seed=3)
        keys = phone.subscription()["keys"]
        store.subscribe("ann", session, Subscription(phone.endpoint, keys["p256dh"], keys["auth"]))
        service.answers["/push/ann"] = 429
        clock = MovableClock()
        sender = PushSender(store, "mailto:ops@example.org", ["127.0.0.1"], clock)
        await sender.start()
        said = {"kind": "your_move", "title": "Your move", "body": "b", "url": "/", "tag": "t"}
        sender.push("ann", lambda lang: said)
        await _until(lambda: len(service.to("/push/ann")) == 1, "the first try")
        await _until(lambda: len(clock.pending) == 1, "the retry armed")
        service.answers["/push/ann"] = 201
        clock.advance(RETRY_SECONDS - 1)
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(service.to("/push/ann")) == 1 and len(clock.pending) == 1  # not yet
        clock.advance(1)
        await _until(lambda: sender.delivered == 1, "the retry")
        pushes = service.to("/push/ann")
        assert len(pushes) == 2 and phone.decrypt(pushes[-1].body) == said
        assert store.is_subscribed(phone.endpoint)  # a 429 keeps it
        await sender.close()

    try:
        with push_service() as service:
            asyncio.run(scenario(service))
    finally:
        storage.close()


def test_a_host_that_answers_a_private_address_as_the_push_connects_gets_nothing(
    tmp_path: Path,
) -> None:
    """DNS rebinding: the endpoint's host looked public when it was checked (the check's
    resolver says so), but the connection reaches this machine (``localhost``): the
    socket is closed before anything is sent on it (not even TLS's hello), nothing is
    delivered, and the push waits for its retry as for any unreachable service."""
    storage = Storage(f"sqlite:///{tmp_path / 'rebind.db'}")
    accounts = AccountStore(storage, password_hasher(cheap=True))
    session = accounts.open_session(accounts.create("Ann", "12345678"))
    store = NotificationStore(storage)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    async def scenario() -> None:
        phone = Browser(f"https://localhost:{port}/push/ann", seed=3)
        keys = phone.subscription()["keys"]
        store.subscribe("ann", session, Subscription(phone.endpoint, keys["p256dh"], keys["auth"]))
        clock = MovableClock()
        looked_up: list[str] = []

        def public_then(host: str, port: int) -> list[str]:
            looked_up.append(host)
            return ["93.184.216.34"]  # what the check heard; the connection hears otherwise

        sender = PushSender(store, "mailto:ops@example.org", (), clock, public_then)
        await sender.start()
        said = {"kind": "your_move", "title": "Your move", "body": "b", "url": "/", "tag": "t"}
        sender.push("ann", lambda lang: said)
        await _until(lambda: len(clock.pending) == 1, "the retry armed")
        assert looked_up == ["localhost"] and sender.delivered == 0
        await sender.close()

    try:
        asyncio.run(scenario())
        connection, _ = listener.accept()  # it connected...
        connection.settimeout(5)
        assert connection.recv(1024) == b""  # ...and closed with nothing sent
        connection.close()
    finally:
        listener.close()
        storage.close()
