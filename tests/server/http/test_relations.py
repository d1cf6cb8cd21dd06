"""Follows and blocks over HTTP (``server/http/relations.py``, issue 69 item 4), in the
test's process through Starlette's TestClient: a player follows and unfollows, blocks and
unblocks, by name whatever its case; his following list says who is online and what he
is doing (the lobby sockets' presence), the online first; each refusal names its problem
(a guest 401, no such name 404, oneself 400, the cap 409, another site's page 403)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable.server.meet import presence
from spacetable.server.store import relations as relations_module
from tests._server import wait_until
from tests.server.http._client import login, services, serving


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "relations.db") as running:  # the hub runs (its lifespan)
        yield running


def test_a_player_follows_and_unfollows_by_name(client: TestClient) -> None:
    ann = login(client, "Ann")
    login(client, "Bob")
    login(client, "cid")
    assert client.put("/api/following/BOB", headers=ann).status_code == 204
    assert client.put("/api/following/bob", headers=ann).status_code == 204  # again: same
    assert client.put("/api/following/Cid", headers=ann).status_code == 204
    listed = client.get("/api/following", headers=ann).json()
    assert [entry["name"] for entry in listed] == ["Bob", "cid"]
    assert client.delete("/api/following/bob", headers=ann).status_code == 204
    assert [e["name"] for e in client.get("/api/following", headers=ann).json()] == ["cid"]


def test_the_following_list_says_who_is_online_and_where_online_first(
    client: TestClient,
) -> None:
    ann = login(client, "Ann")
    zed = login(client, "Zed")
    login(client, "Bob")
    for name in ("Bob", "Zed"):
        assert client.put(f"/api/following/{name}", headers=ann).status_code == 204
    offline = client.get("/api/following", headers=ann).json()
    assert offline == [
        {"name": "Bob", "online": False, "status": None, "game": None, "room": None},
        {"name": "Zed", "online": False, "status": None, "game": None, "room": None},
    ]
    with client.websocket_connect("/ws/lobby", headers=zed):
        hub = services(client).hub
        assert hub is not None
        wait_until(lambda: any(p.key == "zed" for p in hub.online()[0]), "Zed online")
        listed = client.get("/api/following", headers=ann).json()
    assert listed == [
        {"name": "Zed", "online": True, "status": "lobby", "game": None, "room": None},
        {"name": "Bob", "online": False, "status": None, "game": None, "room": None},
    ]


def test_a_player_blocks_and_unblocks_and_the_pool_keeps_them_apart(
    client: TestClient,
) -> None:
    ann = login(client, "Ann")
    login(client, "Bob")
    assert client.put("/api/blocking/bob", headers=ann).status_code == 204
    assert client.get("/api/blocking", headers=ann).json() == [{"name": "Bob"}]
    relations = services(client).relations
    assert relations is not None
    assert relations.is_blocked("ann", "bob") and relations.blocks_either("bob", "ann")
    assert relations.blocking_pairs(["ann", "bob"]) == {frozenset({"ann", "bob"})}
    assert client.delete("/api/blocking/Bob", headers=ann).status_code == 204
    assert client.get("/api/blocking", headers=ann).json() == []
    assert not relations.blocks_either("ann", "bob")


@pytest.mark.parametrize("route", ["following", "blocking"])
def test_each_refusal_names_its_problem(client: TestClient, route: str) -> None:
    ann = login(client, "Ann")
    login(client, "Bob")
    guest = client.put(f"/api/{route}/Bob")
    assert guest.status_code == 401 and "Log in" in guest.json()["detail"]
    assert client.get(f"/api/{route}").status_code == 401
    nobody = client.put(f"/api/{route}/Nobody", headers=ann)
    assert nobody.status_code == 404 and "Nobody" in nobody.json()["detail"]
    assert nobody.json()["says"]["message"]  # a phrase the page writes in its language
    assert client.delete(f"/api/{route}/Nobody", headers=ann).status_code == 404
    long = client.put(f"/api/{route}/{'x' * 5000}", headers=ann)
    assert long.status_code == 404 and len(long.json()["detail"]) < 200
    oneself = client.put(f"/api/{route}/ANN", headers=ann)
    assert oneself.status_code == 400 and "yourself" in oneself.json()["detail"]
    foreign = client.put(f"/api/{route}/Bob", headers=ann | {"origin": "https://evil.example"})
    assert foreign.status_code == 403 and "another site" in foreign.json()["detail"]
    assert client.get(f"/api/{route}", headers=ann).json() == []


def test_a_player_cannot_follow_or_block_past_the_cap(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relations_module, "FOLLOWS_MAX", 2)
    monkeypatch.setattr(relations_module, "BLOCKS_MAX", 1)
    ann = login(client, "Ann")
    for name in ("Bob", "Cid", "Dan"):
        login(client, name)
    assert client.put("/api/following/Bob", headers=ann).status_code == 204
    assert client.put("/api/following/Cid", headers=ann).status_code == 204
    over = client.put("/api/following/Dan", headers=ann)
    assert over.status_code == 409 and "unfollow one first" in over.json()["detail"]
    assert client.put("/api/blocking/Bob", headers=ann).status_code == 204
    over = client.put("/api/blocking/Cid", headers=ann)
    assert over.status_code == 409 and "unblock one first" in over.json()["detail"]


def test_a_deleted_account_leaves_no_follow_nor_block(client: TestClient) -> None:
    ann = login(client, "Ann")
    bob = login(client, "Bob")
    client.put("/api/following/Bob", headers=ann)
    client.put("/api/blocking/Bob", headers=ann)
    client.put("/api/following/Ann", headers=bob)
    gone = client.request("DELETE", "/api/accounts/me", headers=bob, json={"password": "12345678"})
    assert gone.status_code == 204, gone.text
    assert client.get("/api/following", headers=ann).json() == []
    assert client.get("/api/blocking", headers=ann).json() == []
    again = login(client, "Bob")  # a new account of the name inherits nothing
    assert client.get("/api/following", headers=again).json() == []
    relations = services(client).relations
    assert relations is not None and not relations.blocks_either("ann", "bob")


def test_a_followed_player_online_beyond_the_listed_few_hundred_is_online_all_the_same(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "MAX_LISTED", 0)  # the online list names nobody
    ann = login(client, "Ann")
    zed = login(client, "Zed")
    assert client.put("/api/following/Zed", headers=ann).status_code == 204
    with client.websocket_connect("/ws/lobby", headers=zed):
        hub = services(client).hub
        assert hub is not None
        wait_until(lambda: hub.is_online("zed"), "Zed online")
        assert hub.online()[0] == []
        listed = client.get("/api/following", headers=ann).json()
    assert listed == [{"name": "Zed", "online": True, "status": None, "game": None, "room": None}]
