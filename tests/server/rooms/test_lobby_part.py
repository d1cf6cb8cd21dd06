"""The lobby as a part of a room, alone with a fake room (and the room's real chat,
manners and bots): seats taken under unique names, the match begun once everyone is
ready, a seat given up when its player never comes back, a room nobody uses closed."""

from __future__ import annotations

from typing import Any

from spacetable.registry import game_for_ruleset
from spacetable.server.rooms.bots import BotPlayers
from spacetable.server.rooms.chat import Chat
from spacetable.server.rooms.lobby import Disconnected, Lobby
from spacetable.server.rooms.lookups import Lookups, VettedJoin
from spacetable.server.rooms.manners import Manners
from spacetable.server.rooms.seats import Abandoned, Seat
from spacetable.server.sockets import protocol as msg
from tests._loops import run_apart
from tests.server.rooms._fake_room import FakeTable, Socket


def lobby_of(room: FakeTable) -> Lobby:
    kinds = game_for_ruleset("hexfleet").bots
    assert kinds is not None
    bots = BotPlayers(room, kinds, room)
    manners = Manners(room, bots, room.watch)
    return Lobby(room, Chat(room, lambda seq, entry: None), manners, bots)


def deliver(lobby: Lobby, room: FakeTable) -> None:
    """Hand the lobby what its timers posted into the room's queue."""
    handlers = lobby.handlers()
    posted, room.submitted = room.submitted, []
    for connection, message in posted:
        handlers[type(message)](connection, message)


def vetted(room: FakeTable, socket: Socket, join: msg.Join) -> VettedJoin:
    """``join`` as the room hands it to its lobby: with what the (fake) accounts said of
    it, asked on a thread as a room asks (``rooms/lookups.py``)."""
    return run_apart(Lookups(room).vet(socket.connection, join))


def join(lobby: Lobby, room: FakeTable, name: str) -> Socket:
    socket = Socket()
    message = vetted(room, socket, msg.Join(type="join", name=name))
    lobby.handlers()[VettedJoin](socket.connection, message)
    return socket


def test_two_people_of_one_name_are_told_apart_and_the_first_is_host() -> None:
    room = FakeTable([Seat(0), Seat(1)])
    lobby = lobby_of(room)
    ann, other = join(lobby, room, "Ann"), join(lobby, room, "Ann")
    assert [(s.name, s.host) for s in room.seats] == [("Ann", True), ("Ann (2)", False)]
    welcome = other.of_type("welcome")[-1]
    assert (welcome["seat"], welcome["player"]) == (1, "Ann (2)")
    assert ann.connection in room.connections and room.states_sent  # each got the state


def test_the_match_begins_once_every_person_is_ready() -> None:
    room = FakeTable([Seat(0), Seat(1)])
    lobby = lobby_of(room)
    ready = lobby.handlers()[msg.Ready]
    ann, bob = join(lobby, room, "Ann"), join(lobby, room, "Bob")
    ready(ann.connection, msg.Ready(type="ready", ready=True))
    assert room.started == 0
    ready(bob.connection, msg.Ready(type="ready", ready=True))
    assert room.started == 1


async def _seat_left_alone(room: FakeTable, lobby: Lobby) -> None:
    ann = join(lobby, room, "Ann")
    lobby.handlers()[Disconnected](ann.connection, Disconnected())
    await room.clock.advance(room.timing.abandon_seconds)
    deliver(lobby, room)


def test_a_seat_left_in_the_lobby_is_emptied_once_its_player_stays_away() -> None:
    room = FakeTable([Seat(0), Seat(1)])
    lobby = lobby_of(room)
    run_apart(_seat_left_alone(room, lobby))
    assert room.seats[0].kind == "empty" and not room.expired


def test_a_room_nobody_is_connected_to_closes() -> None:
    async def scenario() -> Any:
        room = FakeTable([Seat(0), Seat(1)])
        lobby = lobby_of(room)
        await _seat_left_alone(room, lobby)
        await room.clock.advance(room.timing.room_idle_seconds)
        deliver(lobby, room)
        return room

    room = run_apart(scenario())
    assert room.expired


def test_a_seat_is_stored_without_its_token_and_comes_back_whole() -> None:
    seat = Seat(0)
    seat.take("human", "Ann", [])
    seat.token, seat.host, seat.ready = "secret", True, True
    stored = seat.snapshot()
    assert "secret" not in str(stored)
    again = Seat(0)
    again.restore(stored)
    assert again.snapshot() == stored and again.token is None


def test_a_rebuilt_room_gives_a_player_who_does_not_come_back_to_a_bot() -> None:
    async def scenario() -> FakeTable:
        room = FakeTable([Seat(0), Seat(1)])
        room.seats[0].take("human", "Ann", [])
        room.phase = "playing"
        lobby = lobby_of(room)
        lobby.restore()  # nobody is connected to a room just rebuilt
        await room.clock.advance(room.timing.abandon_seconds)
        deliver(lobby, room)
        return room

    room = run_apart(scenario())
    assert (room.seats[0].kind, room.seats[0].stand_in) == ("bot", True)


def test_a_seat_armed_again_is_abandoned_once_at_its_latest_time() -> None:
    """The lobby (a player went), its restore and the manners' restore (the time a
    stored absence had left) all arm the seat's one abandon timer: arming it again
    replaces it, so the room hears the absence ran out once, when the last one said."""

    async def scenario() -> tuple[FakeTable, list[Any]]:
        room = FakeTable([Seat(0), Seat(1)])
        seat = room.seats[0]
        seat.take("human", "Ann", [])
        seat.absences = 1
        seat.start_abandon(room.clock, room.submit, 30.0)
        seat.start_abandon(room.clock, room.submit, 12.0)  # a restore: 12 s were left
        await room.clock.advance(12.0)
        at_twelve = list(room.submitted)
        await room.clock.advance(30.0)
        return room, at_twelve

    room, at_twelve = run_apart(scenario())
    assert at_twelve == room.submitted == [(None, Abandoned(0, 1))]
