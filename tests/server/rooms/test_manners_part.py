"""The manners as a part of a room, alone with a fake room: every way they stop a match
goes through the room's one ``end``, and what they hold survives a snapshot."""

from __future__ import annotations

from spacetable.server.rooms.manners import GraceOver, Manners
from spacetable.server.sockets import protocol as msg
from tests.server.rooms._fake_room import FakeTable, people


def test_a_resignation_with_one_opponent_ends_the_match_through_the_room() -> None:
    room = FakeTable(people("Ann", "Bob"))
    manners = Manners(room, room, room.watch)
    ann = room.socket(0)
    room.play()
    manners.on_message(ann.connection, msg.Resign(type="resign"))
    assert room.ended == [("resigned", ["Ann"])]


def test_with_more_players_a_resigner_watches_and_a_bot_plays_his_seat() -> None:
    room = FakeTable(people("Ann", "Bob", "Cid"))
    manners = Manners(room, room, room.watch)
    ann = room.socket(0)
    room.play()
    manners.on_message(ann.connection, msg.Resign(type="resign"))
    assert room.ended == [] and room.taken_over == [(0, False)]
    assert room.watching == [ann.connection]
    assert manners.ending({"winner": "Bob"})["ending_by"] == ["Ann"]


def test_a_draw_ends_once_every_other_person_accepted_it() -> None:
    room = FakeTable(people("Ann", "Bob", "Cid"))
    manners = Manners(room, room, room.watch)
    ann, bob, cid = room.socket(0), room.socket(1), room.socket(2)
    room.play()
    manners.on_message(ann.connection, msg.OfferDraw(type="offer_draw"))
    assert room.broadcasts[-1] == {"type": "draw_offer", "by": "Ann", "seat": 0, "waiting": [1, 2]}
    manners.on_message(bob.connection, msg.AnswerDraw(type="answer_draw", accept=True))
    assert room.ended == []
    manners.on_message(cid.connection, msg.AnswerDraw(type="answer_draw", accept=True))
    assert room.ended == [("agreed_draw", None)]


def test_the_win_is_claimed_over_an_absent_player_once_his_grace_is_over() -> None:
    room = FakeTable(people("Ann", "Bob"))
    manners = Manners(room, room, room.watch)
    ann = room.socket(0)
    room.play()
    bob = room.seats[1]
    bob.absences = 1
    manners.absence_began(bob)
    claim = msg.Absence(type="absence", seat=1, choice="claim")
    manners.on_message(ann.connection, claim)
    assert ann.of_type("error")[-1]["message"].startswith("the player of seat 1 may still come")
    assert room.submitted == []  # the grace runs on the room's clock, not yet over
    room.match_time = room.timing.grace_seconds
    manners.on_grace_over(None, GraceOver(1, 1, room.match_number))
    assert room.broadcasts[-1]["choices"] == ["wait", "bot", "claim"]
    manners.on_message(ann.connection, claim)
    assert room.ended == [("claimed", ["Bob"])]


def test_what_the_manners_hold_survives_a_snapshot() -> None:
    room = FakeTable(people("Ann", "Bob", "Cid"))
    manners = Manners(room, room, room.watch)
    ann = room.socket(0)
    room.play()
    manners.on_message(ann.connection, msg.OfferDraw(type="offer_draw"))
    room.match_time = 4.0
    manners.absence_began(room.seats[2])
    again = Manners(room, room, room.watch)
    room.match_time = 5.0
    again.restore(manners.snapshot(), t_resume=5.0)
    assert again.snapshot() == manners.snapshot()
    newcomer = room.socket(1)
    again.send_to(newcomer.connection)
    assert [m["type"] for m in newcomer.received] == ["draw_offer", "absent"]
    assert newcomer.received[1]["grace_left_s"] == room.timing.grace_seconds - 1.0
