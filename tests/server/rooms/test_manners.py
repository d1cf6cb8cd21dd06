"""Manners in every game's room (issue 19): resigning, draws offered and answered (by
people, and by bots by the rule of docs/rulings.md), a player gone away and what the others
choose; refusals name why; a match they stop is stored with its ending and replays exactly
from its seed, its actions and that ending. On a clock moved by hand: no test sleeps."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from spacetable.core.replays import replay_record
from spacetable.registry import game_for_ruleset
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import StoredMatch
from tests._clock import FakeClock, Player, Scenario, play_room

TIMING = Timing(runup_seconds=0, abandon_seconds=60.0, grace_seconds=5.0)
#: A room of each game, by ruleset (``POST /api/rooms``'s body).
GAMES: dict[str, dict[str, Any]] = {
    "lightspeed": {"ruleset": "lightspeed"},
    "stellar": {"ruleset": "stellar", "battle_size": "dispute", "races": ["vak", "wiss"]},
    "ftl": {"ruleset": "ftl"},
    "hexfleet": {"ruleset": "hexfleet", "scenario": "duel", "turn_limit": 12},
}


def play(
    tmp_path: Path, options: dict[str, Any], scenario: Scenario, timing: Timing = TIMING
) -> None:
    play_room(tmp_path, options, timing, scenario)


def seat(room: Room, name: str, *, ready: bool = True) -> Player:
    player = Player(room)
    player.send(type="join", name=name)
    if ready:
        player.send(type="ready", ready=True)
    return player


def stored(room: Room, saves: SaveQueue) -> StoredMatch:
    saves.close()  # stores what waits
    assert room.match_id is not None
    match = saves.storage.get(room.match_id)
    assert match is not None
    return match


def assert_replays(match: StoredMatch) -> None:
    """The stored match replays from seed, actions and ending to the result stored."""
    match_type = game_for_ruleset(match.ruleset).rules.match
    assert match_type is not None
    replayed = replay_record(match.to_json(), match_type)
    assert replayed.exact, (replayed.result, replayed.stored)
    assert replayed.actions == len(match.actions)


def errors(player: Player) -> list[str]:
    return [m["message"] for m in player.of_type("error")]


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_a_resignation_ends_the_duel_and_the_match_replays_to_it(
    tmp_path: Path, ruleset: str
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(1.0, room)
        assert room.phase == "playing"
        ann.send(type="resign")
        await clock.advance(0, room)
        result = bob.last("result")["result"]
        assert (result["winner"], result["ending"], result["ending_by"]) == (
            "Bob",
            "resigned",
            ["Ann"],
        )
        assert result["reason"] == "Ann resigned"
        assert bob.last("room")["phase"] == "over"
        # Every page is told the match is over before the result, as at the rules' end:
        # no control stays live, no clock runs.
        for player in (ann, bob):
            state = player.last("state")
            assert state["phase"] == "over", state["phase"]
            kinds = [m["type"] for m in player.received]
            assert kinds.index("result") > max(i for i, k in enumerate(kinds) if k == "state")
            assert all(state.get(c) is None for c in ("plot_seconds_left", "countdown", "stop"))
        match = stored(room, saves)
        assert match.result["ending"] == "resigned" and match.result["winner"] == "Bob"
        assert match.summary()["ending"] == "resigned"
        assert_replays(match)

    play(tmp_path, GAMES[ruleset], scenario)


def test_a_draw_both_players_agree_is_stored_and_replays(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        ann.send(type="plot", orders=[])
        bob.send(type="plot", orders=[])  # a turn played: actions before the draw
        await clock.advance(0, room)
        ann.send(type="offer_draw")
        await clock.advance(0, room)
        offer = bob.last("draw_offer")
        assert (offer["by"], offer["waiting"]) == ("Ann", [1])
        ann.send(type="answer_draw", accept=True)
        await clock.advance(0, room)
        assert errors(ann)[-1] == "you offered this draw: the others answer it"
        bob.send(type="answer_draw", accept=True)
        await clock.advance(0, room)
        result = ann.last("result")["result"]
        assert (result["winner"], result["ending"]) == (None, "agreed_draw")
        match = stored(room, saves)
        assert len(match.actions) == 2 and match.result["ending"] == "agreed_draw"
        assert_replays(match)

    play(tmp_path, GAMES["ftl"], scenario)


def test_a_declined_draw_is_told_and_not_offered_again_before_a_move(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        ann.send(type="offer_draw")
        bob.send(type="answer_draw", accept=False)
        await clock.advance(0, room)
        declined = ann.last("draw_declined")
        assert (declined["by"], declined["offered_by"], declined["bot"]) == ("Bob", "Ann", False)
        ann.send(type="offer_draw")
        await clock.advance(0, room)
        assert errors(ann)[-1].startswith("your draw offer was declined")
        assert room.phase == "playing"

    play(tmp_path, GAMES["ftl"], scenario)


def test_a_bot_level_with_the_offerer_declines_his_draw(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann = seat(room, "Ann", ready=False)
        ann.send(type="bot", seat=1, level="random")
        ann.send(type="ready", ready=True)
        await clock.advance(0, room)
        ann.send(type="offer_draw")  # nobody has scored: the bot is not behind
        await clock.advance(0, room)
        declined = ann.last("draw_declined")
        assert declined["bot"] and declined["by"] == "random bot"
        assert room.phase == "playing"

    play(tmp_path, GAMES["ftl"], scenario)


def test_a_bot_behind_accepts_a_draw(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann = seat(room, "Ann", ready=False)
        ann.send(type="bot", seat=1, level="random")
        ann.send(type="ready", ready=True)
        await clock.advance(0, room)
        assert room.match is not None
        # The bot's ship has taken a hit (set by hand: the standing is what is tested).
        pieces = room.match.match.pieces
        pieces["random bot"] = dataclasses.replace(pieces["random bot"], hits=1)
        ann.send(type="offer_draw")
        await clock.advance(0, room)
        assert ann.last("result")["result"]["ending"] == "agreed_draw"

    play(tmp_path, GAMES["ftl"], scenario)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "resign"}, "spectators cannot resign: take a seat first"),
        ({"type": "offer_draw"}, "spectators cannot offer a draw: take a seat first"),
        (
            {"type": "answer_draw", "accept": True},
            "spectators cannot answer a draw offer: take a seat first",
        ),
        (
            {"type": "absence", "seat": 0, "choice": "claim"},
            "spectators cannot decide for an absent player: take a seat first",
        ),
    ],
)
def test_a_spectator_is_refused_every_manner_with_the_reason(
    tmp_path: Path, message: dict[str, Any], expected: str
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        seat(room, "Ann"), seat(room, "Bob")
        watcher = Player(room)
        await clock.advance(0, room)
        watcher.send(**message)
        await clock.advance(0, room)
        assert errors(watcher) == [expected]
        assert room.phase == "playing"

    play(tmp_path, GAMES["ftl"], scenario)


def test_manners_outside_a_match_are_refused(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann = seat(room, "Ann", ready=False)
        ann.send(type="resign")
        await clock.advance(0, room)
        assert errors(ann) == ["there is no match being played to resign"]

    play(tmp_path, GAMES["ftl"], scenario)


def test_an_absent_opponent_is_told_at_once_and_the_win_claimed_after_the_grace(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        room.disconnect(bob.connection)
        await clock.advance(0, room)
        absent = ann.last("absent")
        assert (absent["seat"], absent["player"], absent["choices"]) == (1, "Bob", [])
        assert absent["grace_left_s"] == 5.0
        ann.send(type="absence", seat=0, choice="claim")
        ann.send(type="absence", seat=1, choice="claim")
        await clock.advance(0, room)
        assert errors(ann) == [
            "that is your own seat: only the others decide about it",
            "the player of seat 1 may still come back: wait 5 s more",
        ]
        await clock.advance(3.0, room)
        late = Player(room)  # a page that opens mid-absence: told what is left of the grace
        await clock.advance(0, room)
        assert (late.last("absent")["grace_s"], late.last("absent")["grace_left_s"]) == (5.0, 2.0)
        await clock.advance(1.999, room)
        assert ann.last("absent")["choices"] == []
        await clock.advance(0.001, room)
        assert ann.last("absent")["choices"] == ["wait", "bot", "claim"]
        ann.send(type="absence", seat=1, choice="claim")
        await clock.advance(0, room)
        result = ann.last("result")["result"]
        assert (result["winner"], result["ending"], result["ending_by"]) == (
            "Ann",
            "claimed",
            ["Bob"],
        )
        assert_replays(stored(room, saves))

    play(tmp_path, GAMES["ftl"], scenario)


def test_waiting_for_an_absent_player_keeps_his_seat_from_the_bot(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        token = bob.last("welcome")["token"]
        room.disconnect(bob.connection)
        await clock.advance(5.0, room)
        ann.send(type="absence", seat=1, choice="wait")
        await clock.advance(120.0, room)  # twice the abandon delay
        assert ann.last("absence_choice")["choice"] == "wait"
        assert ann.last("room")["seats"][1]["kind"] == "human"
        assert not ann.last("absent")["waited"]  # told before the choice
        # A page that opens now (Ann's, reloaded) shows the wait chosen (issue 36).
        reloaded = Player(room)
        await clock.advance(0, room)
        assert reloaded.last("absent")["waited"]
        back = Player(room)
        back.send(type="rejoin", token=token)
        await clock.advance(0.1, room)
        assert back.last("welcome")["seat"] == 1
        assert ann.last("room")["seats"][1]["connected"]

    play(tmp_path, GAMES["ftl"], scenario)


def test_a_bot_chosen_for_an_absent_player_stands_in_until_he_is_back(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        room.disconnect(bob.connection)
        await clock.advance(5.0, room)
        ann.send(type="absence", seat=1, choice="bot")
        await clock.advance(0.1, room)
        bob_seat = ann.last("room")["seats"][1]
        assert (bob_seat["kind"], bob_seat["stand_in"]) == ("bot", True)

    play(tmp_path, GAMES["ftl"], scenario)


def test_a_player_who_leaves_a_match_can_take_his_seat_back(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = seat(room, "Ann"), seat(room, "Bob")
        await clock.advance(0, room)
        token = bob.last("welcome")["token"]
        bob.send(type="leave")
        await clock.advance(0.1, room)
        assert ann.last("room")["seats"][1]["stand_in"]
        bob.send(type="rejoin", token=token)
        await clock.advance(0.1, room)
        assert bob.last("welcome")["seat"] == 1
        assert ann.last("room")["seats"][1]["kind"] == "human"

    play(tmp_path, GAMES["ftl"], scenario)


def test_with_three_players_a_resigned_seat_is_played_on_by_a_bot(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, _bob, cid = seat(room, "Ann"), seat(room, "Bob"), seat(room, "Cid")
        await clock.advance(0, room)
        cid.send(type="resign")
        await clock.advance(0.1, room)
        assert ann.last("resigned")["player"] == "Cid"
        assert cid.last("welcome")["role"] == "spectator"
        cid_seat = ann.last("room")["seats"][2]
        assert (cid_seat["kind"], cid_seat["stand_in"]) == ("bot", False)
        assert room.phase == "playing"
        # The bot now in Cid's seat answers a draw as bots do (rulings M3).
        ann.send(type="offer_draw")
        await clock.advance(0, room)
        assert ann.last("draw_declined")["bot"]  # the bot in Cid's seat is not behind

    play(tmp_path, {"ruleset": "lightspeed", "seats": 3}, scenario)
