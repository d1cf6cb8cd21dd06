"""Quick pairing over HTTP (``http/seeks.py``, ``meet/pool.py``, issue 69 item 2), in the
test's process on the test clock: two players who seek the same game are paired within a
round of the pool (2 s on the server's clock) and both are seated in one room; a guest
seeks casual real-time games only; one open seek a game; a real-time seek lapses once its
player has no lobby socket; bad seeks are refused naming the problem."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from spacetable.server.meet.identity import GUEST_COOKIE
from spacetable.server.meet.lobby_sockets import GONE_SECONDS
from spacetable.server.meet.pool import TICK_SECONDS
from spacetable.server.store.meetings import SEEK_LAPSE_SECONDS
from tests.server.durable._restart import db
from tests.server.http._client import advance, login, services, serving, until

__all__ = ["db"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "seeks.db") as running:  # the pool runs (its lifespan)
        yield running


def guest(n: int) -> dict[str, str]:
    return {"cookie": f"{GUEST_COOKIE}=guest-cookie-{n:04d}-abcdefghijkl"}


def own_rounds(client: TestClient) -> Any:
    """Stop the pool's own rounds (the test runs each one itself): the pool. The server's
    test clock keeps the loop's time, so its 2 s timer also fires on its own on a slow
    machine, and a round of its own would pair the seeks the test's round is counted on."""
    pool = client.app.state.pool  # type: ignore[attr-defined]
    client.portal.call(pool.close)  # type: ignore[union-attr]
    return pool


def round_now(client: TestClient) -> list[str]:
    """Run one round of the pool now (the pool's own rounds stopped): the rooms it
    opened."""
    rooms: list[str] = client.portal.call(own_rounds(client).round)  # type: ignore[union-attr]
    return rooms


def test_two_players_seeking_one_game_are_seated_together_in_one_room(
    client: TestClient,
) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    with (
        client.websocket_connect("/ws/lobby", headers=ann) as ann_page,
        client.websocket_connect("/ws/lobby", headers=bob) as bob_page,
    ):
        body = {"game": "lightspeed", "rated": True}
        first = client.post("/api/seeks", json=body, headers=ann)
        assert first.status_code == 201, first.text
        assert client.post("/api/seeks", json=body, headers=bob).status_code == 201
        waiting = client.get("/api/seeks", headers=ann).json()
        assert [s["id"] for s in waiting["mine"]] == [first.json()["id"]]
        assert waiting["waiting"] == [
            {"game": "lightspeed", "seats": 2, "turn_hours": None, "waiting": 2}
        ]
        advance(client, TICK_SECONDS)  # the pool's round, on the server's clock
        told_ann, told_bob = until(ann_page, "paired"), until(bob_page, "paired")
    assert told_ann["room"] == told_bob["room"]
    assert told_ann["game"] == "lightspeed"
    assert "token" not in told_ann  # an account's seat is his by his session
    room = services(client).directory.get(told_ann["room"])
    assert room is not None
    assert sorted((s.kind, s.account) for s in room.seats) == [("human", "ann"), ("human", "bob")]
    assert not room.options.casual
    assert client.get("/api/seeks", headers=ann).json() == {"mine": [], "waiting": []}


def test_guests_are_paired_casual_and_their_page_gets_the_seat_s_token(
    client: TestClient,
) -> None:
    with (
        client.websocket_connect("/ws/lobby", headers=guest(1)) as one,
        client.websocket_connect("/ws/lobby", headers=guest(2)) as two,
    ):
        body = {"game": "stellar", "seats": 2, "rated": False}
        for n in (1, 2):
            assert client.post("/api/seeks", json=body, headers=guest(n)).status_code == 201
        [room_id] = round_now(client)
        tokens = {until(page, "paired")["token"] for page in (one, two)}
    room = services(client).directory.get(room_id)
    assert room is not None and room.options.casual
    assert {s.token for s in room.seats} == tokens
    assert all(s.account is None for s in room.seats)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"game": "lightspeed", "rated": True}, "As a guest you seek casual real-time games"),
        ({"game": "ftl", "rated": False, "turn_hours": 24}, "As a guest you seek casual"),
    ],
)
def test_a_guest_seeks_casual_real_time_games_only(
    client: TestClient, body: dict[str, Any], said: str
) -> None:
    answer = client.post("/api/seeks", json=body, headers=guest(3))
    assert answer.status_code == 403
    assert said in answer.json()["detail"]


def test_one_open_seek_a_game_and_the_second_is_refused_naming_the_first(
    client: TestClient,
) -> None:
    ann = login(client, "Ann")
    body = {"game": "lightspeed", "rated": False}
    first = client.post("/api/seeks", json=body, headers=ann).json()["id"]
    again = client.post("/api/seeks", json=body | {"seats": 3}, headers=ann)
    assert again.status_code == 409
    assert first in again.json()["detail"]
    other = client.post("/api/seeks", json={"game": "stellar", "rated": False}, headers=ann)
    assert other.status_code == 201  # another game: another seek
    assert client.delete(f"/api/seeks/{first}", headers=ann).status_code == 204
    assert client.delete(f"/api/seeks/{first}", headers=ann).status_code == 404
    assert client.post("/api/seeks", json=body, headers=ann).status_code == 201


def test_a_seek_is_cancelled_only_by_its_player(client: TestClient) -> None:
    ann = login(client, "Ann")
    seek = client.post("/api/seeks", json={"game": "lightspeed", "rated": False}, headers=ann)
    assert client.delete(f"/api/seeks/{seek.json()['id']}", headers=guest(4)).status_code == 404
    assert len(client.get("/api/seeks", headers=ann).json()["mine"]) == 1


def test_a_real_time_seek_lapses_once_its_player_has_no_lobby_socket(
    client: TestClient,
) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    body = {"game": "lightspeed", "rated": False, "range": [50, None]}  # nobody fits yet
    with (
        client.websocket_connect("/ws/lobby", headers=ann),
        client.websocket_connect("/ws/lobby", headers=guest(5)),
    ):
        client.post("/api/seeks", json=body, headers=ann)
        client.post("/api/seeks", json=body | {"game": "stellar"}, headers=guest(5))
        advance(client, SEEK_LAPSE_SECONDS + 1)
        round_now(client)  # Ann and the guest are online: their seeks live on
        assert len(client.get("/api/seeks", headers=ann).json()["mine"]) == 1
        assert len(client.get("/api/seeks", headers=guest(5)).json()["mine"]) == 1
    # Bob seeks without a page open: nothing keeps his seek alive.
    client.post("/api/seeks", json=body, headers=bob)
    advance(client, SEEK_LAPSE_SECONDS + 1)
    round_now(client)
    assert client.get("/api/seeks", headers=bob).json()["mine"] == []


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"game": "chess", "rated": False}, 422, "game: must be one of"),
        ({"game": "lightspeed", "rated": False, "seats": 5}, 422, "seats"),
        ({"game": "lightspeed", "rated": False, "turn_hours": 24}, 422, "turn_hours"),
        ({"game": "lightspeed"}, 400, "rated: true"),
        ({"game": "lightspeed", "rated": False, "range": [30, 10]}, 400, "range: the lowest"),
        ({"game": "lightspeed", "rated": False, "range": "close"}, 400, "range: [lowest"),
        ([1, 2], 400, "the body must be a JSON object"),
    ],
)
def test_a_bad_seek_is_refused_naming_the_problem(
    client: TestClient, body: Any, status: int, said: str
) -> None:
    answer = client.post("/api/seeks", json=body, headers=login(client, "Ann"))
    assert answer.status_code == status, answer.text
    assert said in answer.json()["detail"]


def test_thirty_parallel_seeks_of_one_player_leave_one(db: str) -> None:
    with serving(db) as client:
        ann = login(client, "Ann")
        body = {"game": "lightspeed", "rated": False}

        def send(_: int) -> int:
            return int(client.post("/api/seeks", json=body, headers=ann).status_code)

        with concurrent.futures.ThreadPoolExecutor(30) as pool:
            answers = sorted(pool.map(send, range(30)))
        assert answers == [201] + [409] * 29
        assert len(client.get("/api/seeks", headers=ann).json()["mine"]) == 1


def test_rounds_run_at_once_never_pair_a_seek_twice(db: str) -> None:
    """Five rounds at once (as five processes' pools would be), over twelve seekers, then
    one more for what a round that lost a claim left: each is paired once, six rooms in
    all, every seat a different player. (Correspondence seeks: a real-time seek of a
    player with no page open lapses after a few seconds, which a slow machine reaches.)"""
    with serving(db) as client:
        pool = own_rounds(client)
        names = [f"p{n:02d}" for n in range(12)]
        for name in names:
            seek = {"game": "ftl", "rated": False, "turn_hours": 24}
            assert (
                client.post("/api/seeks", json=seek, headers=login(client, name)).status_code == 201
            )
        pool = client.app.state.pool  # type: ignore[attr-defined]

        async def rounds() -> list[list[str]]:
            at_once = list(await asyncio.gather(*(pool.round() for _ in range(5))))
            return [*at_once, await pool.round()]

        opened = [room for made in client.portal.call(rounds) for room in made]  # type: ignore[union-attr]
        assert len(opened) == 6
        directory = services(client).directory
        seated = [s.account for room in opened for s in directory.get(room).seats]  # type: ignore[union-attr]
        assert sorted(seated) == names  # type: ignore[type-var]


def test_a_correspondence_seek_waits_without_a_page_and_is_paired(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    body = {"game": "ftl", "rated": True, "turn_hours": 24}
    client.post("/api/seeks", json=body, headers=ann)
    advance(client, SEEK_LAPSE_SECONDS * 10)  # nobody's page open: it waits all the same
    assert round_now(client) == []
    client.post("/api/seeks", json=body | {"turn_hours": 48}, headers=bob)  # another pace
    assert round_now(client) == []
    client.delete(
        f"/api/seeks/{client.get('/api/seeks', headers=bob).json()['mine'][0]['id']}", headers=bob
    )
    client.post("/api/seeks", json=body, headers=bob)
    [room_id] = round_now(client)
    room = services(client).directory.get(room_id)
    assert room is not None and room.options.turn_hours == 24
    assert sorted(s.account or "" for s in room.seats) == ["ann", "bob"]


def test_a_player_paired_live_has_his_other_live_seeks_removed(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    client.post("/api/seeks", json={"game": "stellar", "rated": False}, headers=ann)
    client.post("/api/seeks", json={"game": "ftl", "rated": False, "turn_hours": 24}, headers=ann)
    for player in (ann, bob):
        client.post("/api/seeks", json={"game": "lightspeed", "rated": False}, headers=player)
    assert len(round_now(client)) == 1
    left = client.get("/api/seeks", headers=ann).json()["mine"]
    assert [(s["game"], s["turn_hours"]) for s in left] == [("ftl", 24)]


def test_seeks_claimed_for_a_room_the_server_cannot_open_wait_on(client: TestClient) -> None:
    ann, bob = login(client, "Ann"), login(client, "Bob")
    for player in (ann, bob):
        client.post("/api/seeks", json={"game": "lightspeed", "rated": False}, headers=player)
    directory = services(client).directory
    directory.max_rooms = 0  # as full as it may be
    assert round_now(client) == []
    assert len(client.get("/api/seeks", headers=ann).json()["mine"]) == 1
    directory.max_rooms = 10
    assert len(round_now(client)) == 1


def test_a_real_time_seek_ends_when_its_player_s_last_page_closes(client: TestClient) -> None:
    ann = login(client, "Ann")
    with client.websocket_connect("/ws/lobby", headers=ann):
        client.post("/api/seeks", json={"game": "lightspeed", "rated": False}, headers=ann)
        client.post(
            "/api/seeks", json={"game": "ftl", "rated": False, "turn_hours": 24}, headers=ann
        )
    since = min(s["since"] for s in client.get("/api/seeks", headers=ann).json()["mine"])
    advance(client, GONE_SECONDS + 1)  # gone from every process (the hub's on_gone)
    deadline = time.monotonic() + 30
    while len(client.get("/api/seeks", headers=ann).json()["mine"]) != 1:
        assert time.monotonic() < deadline, "the real-time seek outlived its page"
        time.sleep(0.02)
    # Removed as he left, not lapsed later (the server's clock says so).
    meetings = services(client).meetings
    assert meetings is not None and meetings.wall() - since < SEEK_LAPSE_SECONDS
    [left] = client.get("/api/seeks", headers=ann).json()["mine"]
    assert left["game"] == "ftl"  # a correspondence seek waits on


def test_an_idle_server_s_rounds_write_nothing(client: TestClient) -> None:
    """A round with no seek to lapse and no challenge to close only reads (SQLite has
    one writer: the rooms' own writes do not wait on every process's pool)."""
    written: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().split(" ", 1)[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            written.append(statement)

    engine = services(client).storage.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        round_now(client)
        round_now(client)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert [w for w in written if "seeks" in w or "challenges" in w] == []
