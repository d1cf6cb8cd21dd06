"""Two ``spacetable serve --redis`` processes, real Redis, real HAProxy with the shipped
configuration: players who reached different processes play one match; the lobby and the
room pages are the same from either process; Redis restarted mid-match."""

from __future__ import annotations

import random
import signal
import urllib.error
from collections.abc import Iterator
from typing import Any

import jsonpatch
import pytest
from websockets.exceptions import ConnectionClosed

from tests._laser_play import free_spot
from tests._laser_play import play_to_the_battle as play_laser_round
from tests._server import Client, Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--stop-seconds", "1.5") as running:
        yield running


#: A socket closed with this code was told "try again later" (the room directory, Redis,
#: did not answer in time: a busy machine): the page opens another at once
#: (web/js/shell/socket.js reconnects on every close but 4404 and 4410), and so do these.
TRY_AGAIN = 1013


def seated(server: Server, room: str, name: str) -> Client:
    """A client seated as ``name``, reconnecting as the page does when told to try again."""
    for _ in range(5):
        client = Client(server, room)
        client.send(type="join", name=name)
        try:
            client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        except ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code != TRY_AGAIN:
                raise
            continue
        return client
    raise AssertionError(f"{name} was told to try again five times")


def play_to_the_battle(
    players: dict[str, Client],
    between: Any = None,
    ready: bool = True,
    first: dict[str, dict[str, Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Both players ready (unless ``ready`` is False: the match is on), then each plays
    his cards until both see the battle (tests/_laser_play.py)."""
    if ready:
        for client in players.values():
            client.send(type="ready")
    return play_laser_round(players, first, between)


def listed(server: Server) -> set[str]:
    return {room["id"] for room in server.get("/api/rooms")}


def test_players_on_different_processes_play_one_match_to_the_end(cluster: Cluster) -> None:
    first, second = (w.server for w in cluster.workers)
    room = first.create_room()
    ann = seated(first, room, "Ann")  # on the room's own process
    bob = seated(second, room, "Bob")  # relayed by the other one
    watcher = Client(second, room)
    watcher.send(type="watch")
    # A page's socket takes patches (?patches=1): the relay asks the owner for them too.
    patched = Client(second, room, patches=jsonpatch.apply_patch)
    # Its relay reaches the owner before the match is played: on a saturated machine the
    # round was once over before it had, and the socket saw only whole states.
    patched.wait_type("room")  # (from the owner: the relay has reached it)
    seats = watcher.wait(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
    assert [s["name"] for s in seats["seats"]] == ["Ann", "Bob"]
    battles = play_to_the_battle({"Ann": ann, "Bob": bob})
    assert battles["Ann"]["result"] == battles["Bob"]["result"]
    seen = watcher.wait_type("battle")
    assert seen["result"] == battles["Ann"]["result"]
    patched.wait_type("battle")
    assert any(m["type"] == "state_patch" for m in patched.received)
    assert patched._base is not None and watcher.state is not None
    last = [m for m in watcher.received if m["type"] == "state"][-1]
    assert patched._base == last  # the same last state, rebuilt from patches
    # The match is stored once (its owner's answer waits for it), and either process
    # finds it.
    assert first.stored_match(battles["Ann"]["match_id"])
    stored = second.stored_match(battles["Ann"]["match_id"])
    assert [seat["player"] for seat in stored["seats"]] == ["Ann", "Bob"]
    assert stored["result"]["scores"] == battles["Ann"]["result"]["scores"]
    for client in (ann, bob, watcher, patched):
        client.close()


def test_through_the_balancer_a_room_socket_reaches_its_room_wherever_it_lands(
    cluster: Cluster,
) -> None:
    front = cluster.balancer.server
    # Rooms are created round robin; their sockets go by the hash of their id: some
    # land on the room's own process, some are relayed. Both kinds play here.
    landings = set()
    for _ in range(2):
        room = front.create_room()
        served = cluster.balancer.serving(f"/ws/rooms/{room}")
        landings.add(cluster.worker(served) is cluster.owner(room))
        ann = seated(front, room, "Ann")
        bob = seated(front, room, "Bob")
        battles = play_to_the_battle({"Ann": ann, "Bob": bob})
        assert battles["Ann"]["result"] == battles["Bob"]["result"]
        stored = cluster.owner(room).server.stored_match(battles["Ann"]["match_id"])
        assert stored["id"] == battles["Ann"]["match_id"]
        ann.close()
        bob.close()
    assert landings  # at least one kind was seen (which depends on the ids drawn)


def test_a_rooms_page_names_its_process_and_the_balancer_sends_its_sockets_there(
    cluster: Cluster,
) -> None:
    # Rooms are created round robin; some ids hash to the other process. Whichever
    # process serves the page, it names the room's owner, and a socket that names it
    # (as the page's does) is sent there: no relay.
    hashed_elsewhere = 0
    for _ in range(40):
        room = cluster.balancer.server.create_room()
        owner = cluster.owner(room)
        for worker in cluster.workers:
            assert f'data-node="{owner.name}"' in urllib_text(worker.server, f"/rooms/{room}")
        path = f"/ws/rooms/{room}"
        assert cluster.balancer.serving(f"{path}?patches=1&node={owner.name}") == owner.name
        hashed_elsewhere += cluster.worker(cluster.balancer.serving(path)) is not owner
        if hashed_elsewhere >= 2:
            break
    assert hashed_elsewhere >= 2, "no room id drawn hashed to the other process"
    # The socket that names its process plays there.
    direct = Client(cluster.balancer.server, room, query=f"node={owner.name}")
    assert direct.socket.response is not None
    assert direct.socket.response.headers["X-Served-By"] == owner.name
    direct.send(type="join", name="Ann")
    direct.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    direct.close()


def test_the_lobby_and_the_room_pages_are_the_same_from_either_process(
    cluster: Cluster,
) -> None:
    first, second = (w.server for w in cluster.workers)
    rooms = [first.create_room(), second.create_room(ruleset="ftl")]
    for server in (first, second, cluster.balancer.server):

        def both_listed(server: Server = server) -> bool:
            return set(rooms) <= listed(server)

        wait_until(both_listed, "both rooms in every lobby", 5)
    # Presence: a seat taken on one process shows in the other's lobby.
    ann = seated(second, rooms[0], "Ann")

    def ann_listed() -> bool:
        entry = next(r for r in second.get("/api/rooms") if r["id"] == rooms[0])
        return any(seat["name"] == "Ann" for seat in entry["seats"])

    wait_until(ann_listed, "Ann's seat in the other process's lobby", 5)
    for server in (first, second):
        for room in rooms:
            page = urllib_text(server, f"/rooms/{room}")
            assert "<html" in page.lower()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib_text(second, "/rooms/nosuchroom")
    assert missing.value.code == 404
    missing.value.close()
    ann.close()


def test_redis_restarted_mid_match_the_match_goes_on_and_the_lobby_recovers(
    cluster: Cluster,
) -> None:
    first, second = (w.server for w in cluster.workers)
    room, waiting = first.create_room(), first.create_room()
    ann = seated(first, room, "Ann")
    bob = seated(second, room, "Bob")  # relayed: the relay holds without Redis
    wait_until(lambda: waiting in listed(second), "the room in the other lobby", 5)
    battles = play_to_the_battle({"Ann": ann, "Bob": bob}, between=cluster.redis.stop)
    assert battles["Ann"]["result"] == battles["Bob"]["result"]
    # Without Redis each lobby still answers, with its own rooms (the others' go as
    # soon as its last reading of them is stale).
    assert waiting in listed(first)
    wait_until(lambda: waiting not in listed(second), "the lobby without Redis", 5)
    cluster.redis.start()  # empty: every process registers its rooms again
    other = second.create_room()
    wait_until(lambda: waiting in listed(second), "the lobby with the other's rooms again", 10)
    wait_until(lambda: other in listed(first), "the lobby with the other's rooms again", 10)
    ann.close()
    bob.close()


def test_a_relaying_process_restarted_mid_match_the_players_reconnect_and_finish(
    cluster: Cluster,
) -> None:
    front = cluster.balancer.server
    # A room whose sockets the balancer sends to the process that does not own it.
    owner = cluster.workers[0]
    for _ in range(40):
        room = owner.server.create_room()
        relaying = cluster.worker(cluster.balancer.serving(f"/ws/rooms/{room}"))
        if relaying is not owner:
            break
    assert relaying is not owner, "every room id drawn hashed to its owner"
    players = {name: seated(front, room, name) for name in ("Ann", "Bob")}
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    for client in players.values():
        client.send(type="ready")
    first = players["Ann"].wait(lambda m: m["type"] == "state" and m["hand"] is not None)
    players["Ann"].send(type="place", **free_spot(first, random.Random(3)))
    placed = players["Bob"].wait(lambda m: m["type"] == "state" and ann_cards(m) == 1)

    relaying.server.process.send_signal(signal.SIGTERM)  # a deploy restarts it
    wait_until(lambda: relaying.health() == 503, "the stopping process to fail /healthz", 5)
    for client in players.values():  # told to reconnect
        with pytest.raises(ConnectionClosed):
            client.wait_type("never", timeout=15)
        assert client.socket.close_code == 1012
    relaying.exited(30)
    back = {}
    for name in players:  # the page reconnects through the balancer with its token
        client = Client(front, room)
        client.send(type="rejoin", token=tokens[name])
        seat = client.wait(lambda m: m["type"] == "error" or m.get("role") == "player")
        assert seat["type"] == "welcome" and seat["player"] == name, seat
        back[name] = client
    state = back["Bob"].wait_type("state")
    assert state["table"] == placed["table"]  # the match goes on where it was
    battles = play_to_the_battle(back, ready=False, first={"Bob": state})
    assert battles["Ann"]["result"] == battles["Bob"]["result"]
    for client in back.values():
        client.close()
    relaying.restart()
    wait_until(lambda: cluster.balancer_sees_all(), "the balancer to see it back", 10)


def ann_cards(state: dict[str, Any]) -> int:
    return sum(card.get("owner") == "Ann" for card in state["table"])


def welcome(client: Client) -> dict[str, Any]:
    return next(m for m in client.received if m["type"] == "welcome" and m["role"] == "player")


def urllib_text(server: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.http + path, timeout=10) as answer:
        return str(answer.read().decode())
