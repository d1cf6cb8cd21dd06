"""Identity at the table (issue 37 item 2): a socket opened with a session cookie sits as
its account (``welcome.player``, ``registered`` in the room's seats); a guest asking for a
registered name sits as ``name (guest)``; the seat follows the account to another device
(a socket with no token). The lobby alone with a fake room, then once through a real
server with cookies made over HTTP."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable.server.rooms.lobby import Arrived
from spacetable.server.rooms.lookups import VettedJoin
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.rooms.seats import Seat
from spacetable.server.sockets import protocol as msg
from spacetable.server.store.ratings import REPEATS_RATED
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import StorageUnavailable
from tests._accounts import session_cookie
from tests._clock import FakeClock, Player, play_room
from tests._laser_play import free_spot
from tests._server import Client, Server, running_server
from tests.server.rooms._fake_room import FakeTable, Socket
from tests.server.rooms.test_lobby_part import join, lobby_of, vetted


def logged_in(account: str) -> Socket:
    socket = Socket()
    socket.connection.account = account
    return socket


def test_a_logged_in_player_sits_under_his_account_whatever_name_he_gives() -> None:
    room = FakeTable([Seat(0), Seat(1)], accounts={"alice"})
    lobby = lobby_of(room)
    alice = logged_in("Alice")
    lobby.handlers()[VettedJoin](
        alice.connection, vetted(room, alice, msg.Join(type="join", name="someone"))
    )
    welcome = alice.of_type("welcome")[-1]
    assert welcome["player"] == "Alice"
    assert room.seats[0].to_json()["registered"] is True
    assert room.seats[0].snapshot()["account"] == "alice"  # a rebuilt room keeps it
    assert room.seats[0].to_json()["rating"] is None  # not rated yet


def test_a_registered_seat_shows_its_rating() -> None:
    shown = {"rating": 12.5, "provisional": False}
    room = FakeTable([Seat(0), Seat(1)], accounts={"alice"}, ratings={"alice": shown})
    lobby = lobby_of(room)
    alice = logged_in("Alice")
    lobby.handlers()[VettedJoin](
        alice.connection, vetted(room, alice, msg.Join(type="join", name="Alice"))
    )
    join(lobby, room, "bob")
    assert [s.to_json()["rating"] for s in room.seats] == [shown, None]
    rebuilt = Seat(0)
    rebuilt.restore(room.seats[0].snapshot())
    assert rebuilt.to_json()["rating"] == shown


def test_a_bot_account_s_seat_says_so_and_a_rebuilt_room_keeps_it() -> None:
    """Issue 72: a bot account that sits by its socket holds a seat marked
    ``bot_account`` (the page labels it BOT); a person's is not."""
    room = FakeTable([Seat(0), Seat(1)], accounts={"robo", "alice"})
    room.bots = frozenset({"robo"})
    lobby = lobby_of(room)
    for name in ("Robo", "Alice"):
        socket = logged_in(name)
        lobby.handlers()[VettedJoin](
            socket.connection, vetted(room, socket, msg.Join(type="join", name=name))
        )
    assert [s.to_json()["bot_account"] for s in room.seats] == [True, False]
    rebuilt = Seat(0)
    rebuilt.restore(room.seats[0].snapshot())
    assert rebuilt.to_json()["bot_account"] is True


def test_a_guest_asking_for_a_registered_name_sits_as_a_guest() -> None:
    room = FakeTable([Seat(0), Seat(1), Seat(2)], accounts={"alice"})
    lobby = lobby_of(room)
    join(lobby, room, "ALICE")
    assert (room.seats[0].name, room.seats[0].to_json()["registered"]) == ("ALICE (guest)", False)
    join(lobby, room, "bob")
    assert room.seats[1].name == "bob"


def test_a_guest_sits_as_a_guest_while_the_accounts_cannot_answer() -> None:
    """The database away: nobody takes a name unchecked, and the guest still plays."""
    room = FakeTable([Seat(0), Seat(1)])

    def away(name: str) -> bool:
        raise StorageUnavailable("the database is away")

    room.registered = away  # type: ignore[method-assign]
    lobby = lobby_of(room)
    join(lobby, room, "Alice")
    assert (room.seats[0].name, room.seats[0].kind) == ("Alice (guest)", "human")


def test_the_seat_follows_the_account_to_another_device() -> None:
    room = FakeTable([Seat(0), Seat(1)], accounts={"alice"})
    lobby = lobby_of(room)
    phone = logged_in("Alice")
    lobby.handlers()[VettedJoin](
        phone.connection, vetted(room, phone, msg.Join(type="join", name="Alice"))
    )
    token = phone.of_type("welcome")[-1]["token"]
    laptop = logged_in("alice")  # another device: no token, the same account
    lobby.handlers()[Arrived](laptop.connection, Arrived())
    welcome = laptop.of_type("welcome")[-1]
    assert (welcome["role"], welcome["seat"], welcome["token"]) == ("player", 0, token)
    # A guest's socket arriving watches; so does an account without a seat here.
    guest = Socket()
    lobby.handlers()[msg.Watch](guest.connection, msg.Watch(type="watch"))
    stranger = logged_in("carol")
    lobby.handlers()[Arrived](stranger.connection, Arrived())
    assert stranger.of_type("welcome")[-1]["role"] == "spectator"
    # Joining again from a third device is taking the same seat back, not a second one.
    tablet = logged_in("ALICE")
    lobby.handlers()[VettedJoin](
        tablet.connection, vetted(room, tablet, msg.Join(type="join", name="x"))
    )
    assert tablet.of_type("welcome")[-1]["seat"] == 0
    assert room.seats[1].kind == "empty"


def first_round(players: dict[str, Client]) -> None:
    """Each player places a card: a Light Speed match's first round is over (a match
    resigned before it is not rated: store/ratings.py)."""
    rng = random.Random(7)
    for name, client in players.items():
        state = client.wait(
            lambda m: m["type"] == "state" and m.get("phase") == "fast" and bool(m["hand"])
        )
        if state["runup"] is not None:  # the count: wait for the state that ends it
            state = client.wait(lambda m: m["type"] == "state" and m["runup"] is None)
        client.send(type="place", **free_spot(state, rng))

        def placed(message: dict[str, Any], name: str = name) -> bool:
            return bool(message["type"] == "placed" and message["player"] == name)

        client.wait(placed)


def seated_accounts(server: Server, room: str, cookies: dict[str, str]) -> dict[str, Client]:
    """A socket for each account (its name: its session cookie), seated in ``room``."""
    players = {}
    for name, cookie in cookies.items():
        client = Client(server, room, headers={"Cookie": cookie})
        client.send(type="join", name=name)
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        players[name] = client
    return players


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "accounts.db"
    with running_server(db) as running:
        yield running


def test_a_socket_with_a_session_cookie_sits_as_its_account_on_a_real_server(
    server: Server,
) -> None:
    cookie = session_cookie(server.http, "Zora")
    room = server.create_room()
    zora = Client(server, room, headers={"Cookie": cookie})
    zora.send(type="join", name="whatever")
    welcome = zora.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    assert welcome["player"] == "Zora"
    guest = Client(server, room)
    guest.send(type="join", name="zora")
    guest.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    seats = guest.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "human")
    assert [(s["name"], s["registered"]) for s in seats["seats"]] == [
        ("Zora", True),
        ("zora (guest)", False),
    ]
    # Another device: the same cookie, no token: the seat comes back on opening the room.
    zora.close()
    other = Client(server, room, headers={"Cookie": cookie})
    back = other.wait(lambda m: m["type"] == "welcome")
    assert (back["role"], back["seat"], back["player"]) == ("player", 0, "Zora")
    other.close()
    guest.close()


def test_two_accounts_play_one_resigns_and_both_are_rated_on_a_real_server(
    server: Server,
) -> None:
    """Issue 37's "done when": two accounts made over HTTP play a Light Speed room with
    their cookies; one resigns; both profiles show the match, the winner rated above the
    loser, and the leaderboard lists both."""
    room = server.create_room()
    players, cookies = {}, {}
    for name in ("Winona", "Lorne"):
        cookies[name] = session_cookie(server.http, name)
        client = Client(server, room, headers={"Cookie": cookies[name]})
        client.send(type="join", name=name)
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        players[name] = client
    for client in players.values():
        client.send(type="ready")
    first_round(players)  # a resignation before it is over is not rated (issue 67 item 7)
    players["Lorne"].send(type="resign")
    result = players["Winona"].wait_type("result")
    server.stored_match(result["match_id"])  # stored (with the ratings: one transaction)
    winner, loser = server.get("/api/players/winona"), server.get("/api/players/LORNE")
    for profile in (winner, loser):
        assert [m["id"] for m in profile["matches"]] == [result["match_id"]]
    assert winner["ratings"]["lightspeed"]["wins"] == 1
    assert loser["ratings"]["lightspeed"]["losses"] == 1
    assert winner["ratings"]["lightspeed"]["rating"] > loser["ratings"]["lightspeed"]["rating"]
    board = server.get("/api/leaderboard/lightspeed")["players"]
    assert [p["name"] for p in board if p["name"] in players] == ["Winona", "Lorne"]
    for client in players.values():
        client.close()
    # Sitting down again, each is shown with his rating beside his seat.
    again = server.create_room()
    winona = Client(server, again, headers={"Cookie": cookies["Winona"]})
    winona.send(type="join", name="Winona")
    seats = winona.wait(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "human")
    rating = winner["ratings"]["lightspeed"]["rating"]
    assert seats["seats"][0]["rating"] == {"rating": rating, "provisional": True}
    winona.close()


def test_the_room_seats_show_the_new_ratings_after_a_rated_match_on_a_real_server(
    server: Server,
) -> None:
    """After a rated match ends in a room, the ``room`` message that follows its result
    shows each account's new rating beside his seat (as his profile gives it), so that a
    rematch in the same room does not show the numbers of before."""
    room = server.create_room()
    players = {}
    for name in ("Rhea", "Tomas"):
        cookie = session_cookie(server.http, name)
        client = Client(server, room, headers={"Cookie": cookie})
        client.send(type="join", name=name)
        client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        players[name] = client
    rhea = players["Rhea"]
    before = rhea.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "human")
    assert [s["rating"] for s in before["seats"]] == [None, None]  # not rated yet
    for client in players.values():
        client.send(type="ready")
    first_round(players)
    players["Tomas"].send(type="resign")
    rhea.wait_type("result")
    after = rhea.wait_type("room")  # the next room message, the match over
    assert after["phase"] == "over"
    for seat, name in zip(after["seats"], ("rhea", "tomas"), strict=True):
        rated = server.get(f"/api/players/{name}")["ratings"]["lightspeed"]
        assert seat["rating"] == {"rating": rated["rating"], "provisional": True}
    assert after["seats"][0]["rating"]["rating"] > after["seats"][1]["rating"]["rating"]
    for client in players.values():
        client.close()


def test_a_join_asks_the_accounts_on_a_thread_not_on_the_rooms_loop(tmp_path: Path) -> None:
    """Whether a guest's name is registered, and a registered player's rating, are
    database queries: the room asks them on a thread (the event loop runs every room of
    the process meanwhile), and a guest still cannot take a registered name."""
    asked: list[tuple[str, bool]] = []

    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        loop_thread = threading.get_ident()

        def registered(name: str) -> bool:
            asked.append((name, threading.get_ident() != loop_thread))
            return name.casefold() in ("alice", "carol")

        def rating_of(account: str, game: str) -> dict[str, Any] | None:
            asked.append((f"rating of {account} in {game}", threading.get_ident() != loop_thread))
            return {"rating": 3.5, "provisional": True}

        room.registered, room.rating_of = registered, rating_of
        guest, other, carol = Player(room), Player(room), Player(room)
        guest.send(type="join", name="ALICE")
        other.send(type="join", name="bob")
        carol.connection.account = "Carol"
        carol.send(type="join", name="whatever")
        await room.drained()
        assert [(s.name, s.account) for s in room.seats] == [
            ("ALICE (guest)", None),
            ("bob", None),
            ("Carol", "carol"),
        ]
        assert room.seats[2].to_json()["rating"] == {"rating": 3.5, "provisional": True}

    play_room(tmp_path, {"ruleset": "lightspeed", "seats": 3}, Timing(), scenario)
    assert asked == [("ALICE", True), ("bob", True), ("rating of carol in lightspeed", True)]


def test_a_registered_seats_token_without_its_accounts_session_does_not_take_the_seat() -> None:
    """Issue 67 item 9: a browser logged out still held the seat's token, opened the room
    again and sat as the account, with its rating and the host's rights. A seat an account
    holds needs that account's session: its token alone (a guest's socket, or another
    account's) is refused, and the seat stays the account's."""
    room = FakeTable([Seat(0), Seat(1)], accounts={"alice"})
    lobby = lobby_of(room)
    alice = logged_in("Alice")
    lobby.handlers()[VettedJoin](
        alice.connection, vetted(room, alice, msg.Join(type="join", name="Alice"))
    )
    token = alice.of_type("welcome")[-1]["token"]
    for intruder in (Socket(), logged_in("carol")):  # logged out; another account
        lobby.handlers()[msg.Rejoin](intruder.connection, msg.Rejoin(type="rejoin", token=token))
        assert intruder.connection.seat is None
        assert intruder.of_type("welcome")[-1]["role"] == "spectator"
        assert "log in" in intruder.of_type("error")[-1]["message"].lower()
    assert alice.connection.seat == 0 and alice.connection in room.seats[0].connections
    assert (room.seats[0].name, room.seats[0].account) == ("Alice", "alice")
    # Her own session, with or without the token, still plays the seat.
    phone = logged_in("ALICE")
    lobby.handlers()[msg.Rejoin](phone.connection, msg.Rejoin(type="rejoin", token=token))
    assert phone.of_type("welcome")[-1]["role"] == "player"
    # A guest's seat is still taken back by its token alone.
    join(lobby, room, "bob")
    bob_token = room.seats[1].token
    assert bob_token is not None
    again = Socket()
    lobby.handlers()[msg.Rejoin](again.connection, msg.Rejoin(type="rejoin", token=bob_token))
    assert again.of_type("welcome")[-1]["seat"] == 1


def test_a_logged_out_token_does_not_take_an_accounts_seat_on_a_real_server(
    server: Server,
) -> None:
    """The same through a real server: Alice's seat token sent by a socket without her
    session cookie leaves it watching, and her own socket keeps playing."""
    cookie = session_cookie(server.http, "Ulla")
    room = server.create_room()
    ulla = Client(server, room, headers={"Cookie": cookie})
    ulla.send(type="join", name="Ulla")
    token = ulla.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")["token"]
    logged_out = Client(server, room)
    logged_out.send(type="rejoin", token=token)
    refused = logged_out.wait_type("error")
    assert "log in" in refused["message"].lower()
    welcome = logged_out.wait(lambda m: m["type"] == "welcome")
    assert (welcome["role"], welcome["seat"], welcome["token"]) == ("spectator", None, None)
    ulla.send(type="ping")
    ulla.wait_type("pong")
    last = [m for m in ulla.received if m["type"] == "welcome"][-1]
    assert (last["role"], last["seat"]) == ("player", 0)  # still hers, nobody pushed her out
    logged_out.close()
    ulla.close()


def test_instant_resignations_between_two_accounts_are_not_rated_on_a_real_server(
    server: Server,
) -> None:
    """Issue 67 item 7: a player beat his own second account by resigning at once, again
    and again, and climbed the leaderboard. A match resigned before its first round is over
    is stored and listed, but moves no rating, and the room says why; one resigned after
    the first round is rated."""
    cookies = {name: session_cookie(server.http, name) for name in ("Farmer", "Sheaf")}
    for _ in range(3):
        room = server.create_room()
        players = seated_accounts(server, room, cookies)
        for client in players.values():
            client.send(type="ready")
        players["Sheaf"].wait(lambda m: m["type"] == "state" and m.get("phase") == "fast")
        players["Sheaf"].send(type="resign")
        result = players["Farmer"].wait_type("result")
        over = players["Farmer"].wait(lambda m: m["type"] == "room" and m["phase"] == "over")
        assert over["unrated"] == "early"
        assert [s["rating"] for s in over["seats"]] == [None, None]
        server.stored_match(result["match_id"])
        for client in players.values():
            client.close()
    farmer = server.get("/api/players/farmer")
    assert len(farmer["matches"]) == 3 and farmer["ratings"] == {}
    assert "Farmer" not in [p["name"] for p in server.get("/api/leaderboard/lightspeed")["players"]]
    # After the first round, a resignation is rated.
    room = server.create_room()
    players = seated_accounts(server, room, cookies)
    for client in players.values():
        client.send(type="ready")
    first_round(players)
    players["Sheaf"].send(type="resign")
    players["Farmer"].wait_type("result")
    over = players["Farmer"].wait(lambda m: m["type"] == "room" and m["phase"] == "over")
    assert over.get("unrated") is None
    assert over["seats"][0]["rating"]["rating"] > over["seats"][1]["rating"]["rating"]
    record = server.get("/api/players/farmer")["ratings"]["lightspeed"]
    assert (record["matches"], record["wins"]) == (1, 1)
    for client in players.values():
        client.close()


def test_a_fourth_match_of_two_accounts_in_a_day_is_not_rated_on_a_real_server(
    server: Server,
) -> None:
    """Issue 67 item 7: of the matches of a game two accounts play together, three within
    24 hours are rated; the fourth moves no rating, and the room says why."""
    cookies = {name: session_cookie(server.http, name) for name in ("Reaper", "Binder")}
    for number in range(REPEATS_RATED + 1):
        room = server.create_room()
        players = seated_accounts(server, room, cookies)
        for client in players.values():
            client.send(type="ready")
        first_round(players)
        players["Binder"].send(type="resign")
        players["Reaper"].wait_type("result")
        over = players["Reaper"].wait(lambda m: m["type"] == "room" and m["phase"] == "over")
        for client in players.values():
            client.close()
        record = server.get("/api/players/reaper")["ratings"]["lightspeed"]
        if number < REPEATS_RATED:
            assert over["unrated"] is None
            assert record["matches"] == number + 1
    assert over["unrated"] == "repeated"
    assert record["matches"] == REPEATS_RATED
    assert len(server.get("/api/players/reaper")["matches"]) == REPEATS_RATED + 1
