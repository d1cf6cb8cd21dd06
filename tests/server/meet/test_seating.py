"""A room made for its players (``meet/seating.py``, issue 69): its seats are theirs before
anyone opens it: an account's page takes its seat back by its session, a guest's by the
token he was given, and a stranger finds no free seat; options are checked as
``POST /api/rooms`` checks them; a casual room's match is never rated. In-process rooms
on a clock moved by hand."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from spacetable.server.meet.hub import Player
from spacetable.server.meet.seating import open_room_seats, open_seated_room, seated_options
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.match import Timing
from spacetable.server.store.accounts import AccountStore, password_hasher
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.storage import Storage, StoredMatch
from tests._clock import FakeClock
from tests._loops import run_apart
from tests.server.rooms.test_correspondence import Member

TIMING = Timing(runup_seconds=0.0, abandon_seconds=30.0, room_idle_seconds=600.0)


class _Ratings:
    """The accounts' ratings, as a seat shows them: ``alice`` has one."""

    def shown(self, key: str, game: str) -> dict[str, Any] | None:
        return {"rating": 1612, "matches": 9} if key == "alice" else None

    @property
    def bots(self) -> _Ratings:
        """The bot accounts (issue 72): none here."""
        return self

    def bots_among(self, keys: list[str]) -> set[str]:
        return set()


@dataclass
class _Services:
    directory: RoomDirectory
    node: None = None
    ratings: Any = None


def test_the_players_seats_are_theirs_and_nobody_else_sits(tmp_path: Path) -> None:
    async def run() -> None:
        clock = FakeClock()
        storage = Storage(f"sqlite:///{tmp_path / 'rooms.db'}")
        directory = RoomDirectory(storage, TIMING, clock=clock, durable=False)
        services = _Services(directory, ratings=_Ratings())
        alice = Player("alice", "Alice", "alice")
        guest = Player("guest:0123456789abcdef0123456789abcdef", "guest", None)
        options = seated_options("lightspeed", None, 2, None)
        made = await open_room_seats(services, options, [alice, guest], rated=True)
        room = directory.get(made.id)
        assert room is not None
        try:
            assert list(made.tokens) == [guest.key]  # the account needs none
            assert [(s.kind, s.name, s.account) for s in room.seats] == [
                ("human", "Alice", "alice"),
                ("human", "guest", None),
            ]
            assert room.seats[0].rating == {"rating": 1612, "matches": 9}
            stranger = Member(room, None)
            stranger.send(type="join", name="mallory")
            her = Member(room, "Alice")  # her session: her seat
            his = Member(room, None)
            his.send(type="rejoin", token=made.tokens[guest.key])
            await clock.advance(0, room)
            assert stranger.last("error")["message"] == "no free seat"
            assert stranger.connection.seat is None
            assert her.last("welcome")["seat"] == 0
            assert his.last("welcome")["seat"] == 1
            assert not room.options.casual
        finally:
            await directory.close()
            storage.close()

    run_apart(run())


def test_a_player_who_never_comes_loses_his_seat_after_the_abandon_time(tmp_path: Path) -> None:
    async def run() -> None:
        clock = FakeClock()
        storage = Storage(f"sqlite:///{tmp_path / 'rooms.db'}")
        directory = RoomDirectory(storage, TIMING, clock=clock, durable=False)
        services = _Services(directory, ratings=_Ratings())
        players = [Player("alice", "Alice", "alice"), Player("bob", "bob", "bob")]
        room_id = await open_seated_room(
            services, "lightspeed", {}, players, rated=False, turn_hours=None
        )
        room = directory.get(room_id)
        assert room is not None
        try:
            assert room.options.casual
            Member(room, "Alice")
            await clock.advance(TIMING.abandon_seconds - 1, room)
            assert [s.kind for s in room.seats] == ["human", "human"]
            await clock.advance(2, room)
            assert [s.kind for s in room.seats] == ["human", "empty"]
        finally:
            await directory.close()
            storage.close()

    run_apart(run())


@pytest.mark.parametrize(
    ("game", "options", "seats", "hours", "said"),
    [
        ("chess", None, 2, None, "game: must be one of"),
        ("lightspeed", {"ruleset": "ftl"}, 2, None, "options.ruleset: must be one of lightspeed"),
        ("lightspeed", None, 5, None, "seats"),
        ("lightspeed", {"rocks": "many"}, 2, None, "rocks"),
        ("lightspeed", None, 2, 24, "turn_hours"),
    ],
)
def test_bad_options_are_refused_naming_the_problem(
    game: str, options: dict[str, Any] | None, seats: int, hours: float | None, said: str
) -> None:
    with pytest.raises(ValueError, match=said):
        seated_options(game, options, seats, hours)


def test_a_casual_match_is_noted_for_its_players_never_rated(tmp_path: Path) -> None:
    """A casual room's seats say so (``Room.end``): the match is in each account's list,
    their ratings do not move, and the room is told why (``unrated``: ``casual``)."""
    storage = Storage(f"sqlite:///{tmp_path / 'ratings.db'}")
    try:
        accounts = AccountStore(storage, password_hasher(cheap=True))
        book = RatingBook(storage, accounts)
        for name in ("ann", "bob"):
            accounts.create(name, "12345678")
        seats: list[dict[str, Any]] = [
            {"kind": "human", "player": n, "name": n, "account": n, "casual": True}
            for n in ("ann", "bob")
        ]
        result = {"scores": {"ann": 3, "bob": 1}, "winner": "ann"}
        storage.save(StoredMatch("m", "r", "lightspeed", {}, seats, 1, [], [], result, 1.0, 1.0))
        ann = accounts.find("ann")
        assert ann is not None
        assert book.ratings_of(ann) == []  # not rated
        assert book.unrated("m") == "casual"
        profile = book.profile("ann")
        assert profile is not None
        assert [m["id"] for m in profile["matches"]] == ["m"]  # but listed
    finally:
        storage.close()
