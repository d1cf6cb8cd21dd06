"""Rooms outlive their process (issue 21 items 2 and 3) in a real cluster: kill -9 of the
process that holds a match, and a rolling restart of every process, while players play
through HAProxy. Their sockets close (a relaying process closes its relayed ones with
1012 as soon as the owner's socket drops), they reconnect with their tokens as the page
does, and each match ends as a replay of its stored actions says: Light Speed in its
placing round (its socket straight to the owner, or relayed by the other process), FTL
with one plot in and still secret (and, with a draw offered, a draft and the chat, each
back), and the hex fleet mid-turn against a bot."""

from __future__ import annotations

import random
import time
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosed, InvalidHandshake, WebSocketException

from spacetable.core.replays import replay_record
from spacetable.games.ftl import FtlMatch
from spacetable.games.hexfleet import HexMatch
from spacetable.games.lightspeed import LightSpeedMatch
from spacetable.server.cluster.node import owner_key
from tests._laser_play import free_spot
from tests._server import Client, Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, Worker, move_clocks, running_cluster
from tests.cluster.test_two_processes import play_to_the_battle, seated, welcome
from tests.server.rooms.test_server_hexfleet import active_ship, simple_action

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.timeout(900),
]

#: What the relaying process closes a relayed socket with when the owner's drops.
RECONNECT = 1012


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(
        2,
        *("--stop-seconds", "30", "--abandon-seconds", "60", "--room-seed", "1"),
        *("--bot-pace", "0.05", "--message-rate", "0", "--test-clock"),
    ) as running:
        yield running


def rejoined(front: Server, room: str, token: str, timeout: float = 30.0) -> Client:
    """Reconnect to ``room`` through the balancer with the seat's token, as the page does
    after its socket closed, until the seat is ours again."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            client = Client(front, room)
            client.send(type="rejoin", token=token)
            answer = client.wait(lambda m: m["type"] == "error" or m.get("role") == "player")
            if answer["type"] == "welcome":
                return client
            client.close()
        except (OSError, TimeoutError, InvalidHandshake, WebSocketException):
            pass  # the balancer has not noticed yet, or the room is on its way back
        if time.monotonic() > deadline:
            raise TimeoutError(f"could not take the seat back in room {room}")
        time.sleep(0.2)  # the page's own reconnection waits too: nothing to await


def room_on(cluster: Cluster, owner: Worker, relayed: bool, **options: Any) -> str:
    """A room created on ``owner`` whose sockets the balancer sends to another process
    (``relayed``) or to ``owner`` itself."""
    for _ in range(60):
        room = owner.server.create_room(**options)
        lands = cluster.worker(cluster.balancer.serving(f"/ws/rooms/{room}"))
        if (lands is not owner) == relayed:
            return room
    pytest.fail("no room id drawn hashed the way the test needs")


def closed(client: Client) -> int | None:
    """Wait until the server closes the client's socket; its close code."""
    with pytest.raises(ConnectionClosed):
        client.wait_type("never", timeout=15)
    return client.socket.close_code


def served_by(client: Client) -> str:
    """The process the balancer sent ``client``'s socket to (its handshake's answer)."""
    response = client.socket.response
    assert response is not None, "the socket has no handshake answer"
    return str(response.headers["X-Served-By"])


def killed(
    cluster: Cluster, owner: Worker, room: str, players: dict[str, Client], relayed: bool
) -> float:
    """kill -9 of ``owner`` while the players' sockets are open: each is closed (a relayed
    one by the relaying process, with 1012: the page reconnects), then Ann takes her seat
    back through the balancer. The seconds from the kill to her seat taken back."""
    # Where each socket went is the balancer's answer to its handshake: a process it had
    # marked down a moment (a health check a saturated machine answered late) sends the
    # socket to the owner itself, and then no relay is there to close it with 1012.
    through = {name: served_by(client) for name, client in players.items()}
    start = time.monotonic()
    owner.kill()
    for name, client in players.items():
        code = closed(client)
        if relayed and through[name] != owner.name:
            assert code == RECONNECT, f"{name}'s socket, relayed by {through[name]}"
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    client = rejoined(cluster.balancer.server, room, tokens["Ann"])
    took = time.monotonic() - start
    client.close()
    print(f"kill -9 to the room playing again: {took:.2f} s")
    return took


def back_again(cluster: Cluster, owner: Worker) -> None:
    owner.restart()
    wait_until(cluster.balancer_sees_all, "the balancer to see it back", 10)


def owned(state: dict[str, Any], who: str) -> int:
    return sum(card.get("owner") == who for card in state["table"])


def stored_match(front: Server, match_id: str) -> dict[str, Any]:
    """The stored match, asked of any process through the balancer (an error names why)."""
    try:
        return front.stored_match(match_id)
    except urllib.error.HTTPError as refused:
        with refused:
            raise AssertionError(f"{refused.code}: {refused.read().decode()}") from None


def replays_exactly(stored: dict[str, Any], match_type: Any) -> None:
    """The stored result is what a replay of the stored actions from the seed reaches."""
    if stored["ruleset"] in ("lightspeed", "stellar"):
        stored = {**stored, "result": {**stored["result"], "events": stored["events"]}}
    replayed = replay_record(stored, match_type)
    assert replayed.exact, (replayed.result, stored["result"])


def started_lightspeed(cluster: Cluster, room: str) -> dict[str, Client]:
    """Ann and Bob seated through the balancer and ready; Ann's first card down."""
    front = cluster.balancer.server
    players = {name: seated(front, room, name) for name in ("Ann", "Bob")}
    for client in players.values():
        client.send(type="ready")
    first = players["Ann"].wait(lambda m: m["type"] == "state" and m["hand"] is not None)
    players["Ann"].send(type="place", **free_spot(first, random.Random(5)))
    players["Bob"].wait(lambda m: m["type"] == "state" and owned(m, "Ann") == 1)
    return players


def finish_lightspeed(cluster: Cluster, room: str, tokens: dict[str, str]) -> None:
    """Both players back through the balancer; the match played to its end; the stored
    match, checked against a replay of its actions."""
    front = cluster.balancer.server
    back = {name: rejoined(front, room, token) for name, token in tokens.items()}
    states = {name: client.wait_type("state") for name, client in back.items()}
    assert owned(states["Bob"], "Ann") == 1  # the match goes on where it was
    battles = play_to_the_battle(back, ready=False, first=states)
    assert battles["Ann"]["result"] == battles["Bob"]["result"]
    stored = stored_match(front, battles["Ann"]["match_id"])  # stored before announced
    assert stored["seed"] == 41
    replays_exactly(stored, LightSpeedMatch)
    assert stored["result"]["scores"] == battles["Ann"]["result"]["scores"]
    for client in back.values():
        client.close()


@pytest.mark.parametrize("relayed", [False, True], ids=["straight", "relayed"])
def test_kill_9_of_a_light_speed_rooms_process_the_players_reconnect_and_finish(
    cluster: Cluster, relayed: bool
) -> None:
    owner = cluster.workers[0]
    room = room_on(cluster, owner, relayed, seed=41)
    players = started_lightspeed(cluster, room)
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    killed(cluster, owner, room, players, relayed)
    finish_lightspeed(cluster, room, tokens)
    back_again(cluster, owner)


def test_kill_9_mid_plot_an_ftl_match_goes_on_with_the_plot_still_secret(
    cluster: Cluster,
) -> None:
    owner = cluster.workers[1]
    room = room_on(cluster, owner, True, ruleset="ftl", turn_limit=2, plot_timer_s=120, seed=12)
    front = cluster.balancer.server
    players = {name: seated(front, room, name) for name in ("Ann", "Bob")}
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    ann, bob = players["Ann"], players["Bob"]
    for client in players.values():
        client.send(type="ready")
    ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    ann.send(type="plot", orders=["Ann:R+45"])
    left = ann.wait(lambda m: m["type"] == "state" and m["plot"] == ["Ann:R+45"])
    bob.wait(lambda m: m["type"] == "state" and m["players"]["Ann"]["plotted"])
    killed(cluster, owner, room, players, relayed=True)

    ann, bob = rejoined(front, room, tokens["Ann"]), rejoined(front, room, tokens["Bob"])
    mine, theirs = ann.wait_type("state"), bob.wait_type("state")
    # Ann's plot is in, still hers alone; the plot timer resumes with what it had left.
    assert mine["plot"] == ["Ann:R+45"] and theirs["players"]["Ann"]["plotted"] is True
    assert theirs["plot"] is None
    assert not any("R+45" in str(m) for m in bob.received)
    assert theirs["plot_seconds_left"] <= left["plot_seconds_left"]
    bob.send(type="plot", orders=["Bob:S2"])
    turn = ann.wait_type("turn")
    revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
    assert revealed == {"Ann": ["Ann:R+45"], "Bob": ["Bob:S2"]}
    ann.wait(lambda m: m["type"] == "state" and m["turn"] == 2)
    ann.send(type="plot", orders=["Ann:S2"])
    bob.send(type="plot", orders=["Bob:S1"])
    result = ann.wait_type("result")
    assert bob.wait_type("result")["match_id"] == result["match_id"]
    stored = stored_match(front, result["match_id"])
    order = [a["player"] for a in stored["actions"]]
    assert order[:2] == ["Ann", "Bob"] and sorted(order[2:]) == ["Ann", "Bob"]
    replays_exactly(stored, FtlMatch)
    ann.close()
    bob.close()
    back_again(cluster, owner)


def test_kill_9_a_draw_offer_a_draft_and_the_chat_come_back(cluster: Cluster) -> None:
    """What the players had beyond the actions survives the kill too (rooms/extras.py):
    the draw offer still waits for Bob, the chat shows what was said, and Ann's draft,
    never sent as a plot, is plotted for her when the resumed timer runs out."""
    owner = cluster.workers[0]
    room = room_on(cluster, owner, False, ruleset="ftl", turn_limit=2, plot_timer_s=30, seed=12)
    front = cluster.balancer.server
    players = {name: seated(front, room, name) for name in ("Ann", "Bob")}
    tokens = {name: welcome(client)["token"] for name, client in players.items()}
    ann, bob = players["Ann"], players["Bob"]
    for client in players.values():
        client.send(type="ready")
    ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
    bob.send(type="chat", text="ready when you are")
    ann.wait(lambda m: m["type"] == "chat")
    ann.send(type="draft", orders=["Ann:R+45"])
    ann.send(type="offer_draw")
    assert bob.wait_type("draw_offer")["waiting"] == [1]
    killed(cluster, owner, room, players, relayed=False)

    bob = rejoined(front, room, tokens["Bob"])
    offer = bob.wait_type("draw_offer")
    assert offer["by"] == "Ann" and offer["waiting"] == [1]
    history = next(m for m in bob.received if m["type"] == "chat_history")["messages"]
    assert [(m["name"], m["text"]) for m in history] == [("Bob", "ready when you are")]
    bob.send(type="answer_draw", accept=False)
    ann = rejoined(front, room, tokens["Ann"])
    # The plot timer resumed with what it had left; the clock of the process that holds
    # the room now (the owner is dead) is moved past it: the timer runs out at once.
    move_clocks([w for w in cluster.workers if w is not owner], 30)
    turn = ann.wait_type("turn")  # the timer ran out: Ann's draft is her plot
    plots = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
    assert plots["Ann"] == ["Ann:R+45"]
    ann.close()
    bob.close()
    back_again(cluster, owner)


def test_kill_9_mid_turn_a_hex_battle_against_a_bot_goes_on(cluster: Cluster) -> None:
    owner = cluster.workers[0]
    room = room_on(cluster, owner, True, ruleset="hexfleet", scenario="duel", turn_limit=4, seed=5)
    front = cluster.balancer.server
    ann = seated(front, room, "Ann")
    ann.send(type="bot", seat=1, level="easy")
    ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
    ann.send(type="ready")
    acted = 0
    state = ann.wait(lambda m: m["type"] == "state" and m["phase"] in ("activation", "over"))
    while acted < 2:  # two of Ann's actions stored, mid-battle
        ship = active_ship(state)
        if ship is not None and ship["owner"] == "Ann":
            ann.send(type="act", action=simple_action(state))
            assert ann.wait(lambda m: m["type"] in ("acted", "refused"))["type"] == "acted"
            acted += 1
        state = ann.wait_type("state")
    assert state["phase"] != "over"
    version = state["version"]
    killed(cluster, owner, room, {"Ann": ann}, relayed=True)

    token = welcome(ann)["token"]
    ann = rejoined(front, room, token)
    state = ann.wait_type("state")
    assert state["version"] >= version  # the bot may act again as soon as it is back
    while state["phase"] != "over":
        ship = active_ship(state)
        if ship is not None and ship["owner"] == "Ann":
            ann.send(type="act", action=simple_action(state))
        state = ann.wait_type("state")
    result = ann.wait_type("result")
    stored = stored_match(front, result["match_id"])
    assert stored["seed"] == 5
    replays_exactly(stored, HexMatch)
    ann.close()
    back_again(cluster, owner)


def test_a_room_its_process_let_go_is_moving_its_sockets_are_never_told_it_is_gone(
    cluster: Cluster,
) -> None:
    """Issue 36 item 7: during a failover a room can leave a process while that process
    still holds its lock (another copy stored its actions first, ``journal.py``), until
    its next renewal. A socket that reaches it then was closed with 4404 "no such room",
    and the page gave the room up for good. Here the lock of a room of the first process
    is made the second's in Redis, as in that moment: the first hands the room over (its
    players' sockets close with 1012), a socket straight to the second waits for the lock
    and is told to reconnect (1012), and once the lock is free the room is rebuilt and
    the player takes his seat back."""
    first, second = cluster.workers
    room = first.server.create_room(seed=41)
    ann = seated(first.server, room, "Ann")
    token = welcome(ann)["token"]
    theirs = second.server.create_room()
    with redis.Redis(port=cluster.redis.port, single_connection_client=True) as client:
        holder = client.get(owner_key(theirs))
        assert holder is not None
        client.set(owner_key(room), holder, px=60_000)
        assert closed(ann) == RECONNECT  # the first process let the room go
        bob = Client(second.server, room)
        assert closed(bob) == RECONNECT  # before: 4404, "no such room"
        client.delete(owner_key(room))  # released, as the second's renewal would
    ann = rejoined(cluster.balancer.server, room, token)
    assert welcome(ann)["player"] == "Ann"
    ann.close()


def place_one(client: Client, name: str, rng: random.Random) -> tuple[float, float]:
    """The player puts his card in hand down at a free spot and waits until it is
    accepted (his cards on the table one more); where he put it."""
    state = client.state
    assert state is not None and state["hand"] is not None and state["phase"] == "fast"
    before = owned(state, name)
    while True:
        spot = free_spot(state, rng)
        client.send(type="place", **spot)
        answer = client.wait(
            lambda m: m["type"] == "refused" or (m["type"] == "state" and owned(m, name) > before)
        )
        if answer["type"] == "state":
            return spot["x"], spot["y"]
        state = client.state or state  # a spot taken meanwhile: another one


def test_a_rolling_restart_under_play_loses_no_match_and_no_accepted_action(
    cluster: Cluster,
) -> None:
    """Four rooms, two owned by each process, half of their sockets relayed; every player
    puts a card down, each process in turn is stopped with SIGTERM (a deploy) and started
    again, every player puts another card down between the restarts, and the matches are
    played to their ends: every placement a player saw accepted is in the stored match,
    which replays to its stored result."""
    front = cluster.balancer.server
    rooms = [
        room_on(cluster, cluster.workers[i % 2], relayed=i >= 2, seed=41 + i) for i in range(4)
    ]
    players = {room: {n: seated(front, room, n) for n in ("Ann", "Bob")} for room in rooms}
    tokens = {
        room: {name: welcome(client)["token"] for name, client in seated_here.items()}
        for room, seated_here in players.items()
    }
    for seated_here in players.values():
        for client in seated_here.values():
            client.send(type="ready")
    for seated_here in players.values():
        for client in seated_here.values():
            client.wait(lambda m: m["type"] == "state" and m["hand"] is not None)
    rng = random.Random(11)
    accepted: dict[tuple[str, str], list[tuple[float, float]]] = {}

    def everyone_places() -> None:
        for room, seated_here in players.items():
            for name, client in seated_here.items():
                accepted.setdefault((room, name), []).append(place_one(client, name, rng))

    everyone_places()
    for worker in cluster.workers:  # one at a time: SIGTERM (it drains), then a new process
        worker.restart()
        wait_until(cluster.balancer_sees_all, "the balancer to see it back", 10)
        for room, seated_here in players.items():  # the pages reconnect, as after 1012
            for name, client in seated_here.items():
                client.close()
                seated_here[name] = rejoined(front, room, tokens[room][name])
                seated_here[name].wait(lambda m: m["type"] == "state" and m["hand"] is not None)
        everyone_places()
    for room, seated_here in players.items():
        states = {name: client.state for name, client in seated_here.items()}
        assert all(state is not None for state in states.values())
        battles = play_to_the_battle(seated_here, ready=False, first=states)  # type: ignore[arg-type]
        stored = stored_match(front, battles["Ann"]["match_id"])
        replays_exactly(stored, LightSpeedMatch)
        for name in seated_here:
            placed = {
                (round(a["x"], 2), round(a["y"], 2))
                for a in stored["actions"]
                if a["type"] == "place" and a["player"] == name
            }
            for x, y in accepted[room, name]:
                assert (round(x, 2), round(y, 2)) in placed, (room, name, x, y)
        for client in seated_here.values():
            client.close()
