"""A room's timers on a clock moved by hand (issue 18): the plot timer, the 3-2-1 run-up,
the deployment countdown and the freeze after it, the abandoned seat and the idle room
all run out exactly when they should, and a test waits for none of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spacetable.games.stellar import CREDITS, fleet_cost, race_ships
from spacetable.server.rooms.plots import playback_seconds
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.store.save_queue import SaveQueue
from tests._clock import FakeClock, Player, play_room

play = play_room


def two_players(room: Room) -> tuple[Player, Player]:
    """Ann and Bob take the two seats and get ready: the match begins."""
    ann, bob = Player(room), Player(room)
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        player.send(type="join", name=name)
        player.send(type="ready", ready=True)
    return ann, bob


def test_the_plot_timer_resolves_the_turn_at_its_second(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        await clock.advance(0, room)
        assert ann.last("state")["plot_seconds_left"] == 45.0
        ann.send(type="plot", orders=[])
        await clock.advance(44.999, room)
        assert not bob.of_type("turn"), "the turn resolved before its timer ran out"
        assert bob.last("state")["players"]["Ann"]["plotted"]
        await clock.advance(0.001, room)
        assert [m["turn"] for m in bob.of_type("turn")] == [1]
        after = bob.last("state")
        assert (after["turn"], after["t"], after["plot_seconds_left"]) == (2, 45.0, 45.0)
        # The second turn's timer runs from the end of the first, to the millisecond.
        await clock.advance(45.0, room)
        assert [m["turn"] for m in bob.of_type("turn")] == [1, 2]

    play(tmp_path, {"ruleset": "ftl", "plot_timer_s": 45}, Timing(runup_seconds=0), scenario)


def test_the_plot_timer_plots_the_drafts_and_waits_for_the_playback(tmp_path: Path) -> None:
    # Issue 20 item 7: Ann wrote an order but never sent it: at the deadline it is her plot.
    # Turn 2's timer starts once turn 1 has played out (its playback at normal speed).
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        await clock.advance(0, room)
        ann.send(type="draft", orders=["Ann:S2"])
        ann.send(type="draft", orders=["Ann:S4"])
        await clock.advance(45.0, room)
        [turn] = bob.of_type("turn")
        revealed = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
        assert revealed == {"Ann": ["Ann:S4"], "Bob": []}
        playback = playback_seconds(turn["events"])
        assert playback == pytest.approx(4 / 6 + 0.26 + 0.65, abs=0.001)  # the tape, the jump
        assert bob.last("state")["plot_seconds_left"] == pytest.approx(45.0 + playback)
        await clock.advance(45.0 + playback - 0.01, room)
        assert len(bob.of_type("turn")) == 1, "turn 2's timer counted during the playback"
        await clock.advance(0.02, room)
        assert [m["turn"] for m in bob.of_type("turn")] == [1, 2]

    play(tmp_path, {"ruleset": "ftl", "plot_timer_s": 45}, Timing(runup_seconds=0), scenario)


def test_no_card_lands_before_the_run_up_ends(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, _ = two_players(room)
        await clock.advance(0, room)
        assert ann.last("state")["runup"] == {"seconds": 3.0, "seconds_left": 3.0}
        await clock.advance(2.5, room)
        ann.send(type="place", x=0, y=-200, rotation=0)
        await clock.advance(0, room)
        refused = ann.last("refused")
        assert refused["reason"] == "the round starts in 0.5 s: wait for the count"
        await clock.advance(0.5, room)
        go = ann.last("state")  # the count is over: a state says so
        assert go["runup"] is None and go["t"] == 0.0
        ann.send(type="place", x=0, y=-200, rotation=0)
        await clock.advance(0, room)
        placed = ann.last("placed")
        # The match clock stood still through the count: the card lands at its first instant.
        assert placed["player"] == "Ann" and placed["t"] == 0.0

    play(tmp_path, {"ruleset": "lightspeed"}, Timing(runup_seconds=3.0), scenario)


def fleet(race: str, credits: int) -> list[str]:
    """The cheapest of ``race``'s warships that fit in ``credits`` together."""
    ships = [s for s in race_ships(race).values() if s.role not in ("cargo", "flag")]
    chosen: list[str] = []
    for ship in sorted(ships, key=lambda s: s.credits):
        if fleet_cost([*chosen, ship.key]) <= credits:
            chosen.append(ship.key)
    return chosen


def test_the_deployment_countdown_freezes_the_hands_then_the_battle_follows(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        credits = CREDITS["dispute"]
        ann.send(type="fleet", ships=fleet("vak", credits))
        bob.send(type="fleet", ships=fleet("wiss", credits))
        await clock.advance(0, room)
        countdown = ann.last("state")["countdown"]
        assert countdown is not None and countdown["seconds_left"] == 30.0
        await clock.advance(29.999, room)
        assert not ann.of_type("stop"), "the cards froze before the countdown ran out"
        await clock.advance(0.001, room)
        assert ann.last("stop") == {"type": "stop", "by": None, "timer": True, "seconds": 5.0}
        frozen = ann.last("state")
        assert frozen["phase"] == "stop" and frozen["t"] == 30.0
        # Nobody drops or discards: the five seconds after the freeze end the deployment.
        await clock.advance(4.999, room)
        assert not ann.of_type("battle")
        await clock.advance(0.001, room)
        assert ann.last("battle")["ruleset"] == "stellar"
        ends = [(a["type"], a["t"]) for a in room_actions(room, saves)][-2:]
        assert ends == [("timer-expired", 30.0), ("timeout", 35.0)]

    options = {"ruleset": "stellar", "battle_size": "dispute", "races": ["vak", "wiss"]}
    play(tmp_path, options, Timing(runup_seconds=0), scenario)


def room_actions(room: Room, saves: SaveQueue) -> list[dict[str, Any]]:
    """The actions of the room's last match, as stored."""
    saves.close()  # stores what waits
    assert room.match_id is not None
    stored = saves.storage.get(room.match_id)
    assert stored is not None
    return stored.actions


def test_a_seat_left_in_the_lobby_is_freed_when_its_abandon_timer_runs_out(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = Player(room), Player(room)
        ann.send(type="join", name="Ann")
        bob.send(type="watch")
        room.disconnect(ann.connection)
        await clock.advance(9.999, room)
        assert bob.last("room")["seats"][0]["name"] == "Ann"
        await clock.advance(0.001, room)
        await clock.advance(0.1, room)  # the room message's coalescing window
        assert bob.last("room")["seats"][0]["kind"] == "empty"

    play(tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0), scenario)


def test_a_room_everyone_left_leaves_the_lobby_list_when_its_abandon_time_is_up(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        await clock.advance(9.999, room)
        assert room.listed  # a room just created waits for its first player
        ann = Player(room)
        ann.send(type="join", name="Ann")
        await clock.advance(100.0, room)
        assert room.listed  # someone is in it
        room.disconnect(ann.connection)
        await clock.advance(9.999, room)
        assert room.listed
        await clock.advance(0.001, room)
        assert not room.listed

    play(tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0), scenario)


def test_a_player_back_before_the_abandon_delay_keeps_his_lobby_seat(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann = Player(room)
        ann.send(type="join", name="Ann")
        await clock.advance(0, room)
        token = ann.last("welcome")["token"]
        room.disconnect(ann.connection)
        await clock.advance(9.0, room)
        back = Player(room)
        back.send(type="rejoin", token=token)
        await clock.advance(0, room)
        assert back.last("welcome")["seat"] == 0
        # Long after the first socket's abandon timer would have run out: still his.
        await clock.advance(60.0, room)
        seat = back.last("room")["seats"][0]
        assert (seat["kind"], seat["name"], seat["connected"]) == ("human", "Ann", True)

    play(tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0), scenario)


def test_the_bot_standing_in_for_a_player_stops_when_he_takes_his_seat_back(
    tmp_path: Path,
) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        await clock.advance(0, room)
        token = bob.last("welcome")["token"]
        bob.send(type="watch")  # Bob stands up in the middle of the round
        await clock.advance(10.0, room)
        assert bob.last("room")["seats"][1]["stand_in"]  # a bot plays for him now
        await clock.advance(3.0, room)
        played = [m for m in ann.of_type("placed") if m["player"] == "Bob"]
        assert played, "the bot standing in never played"
        bob.send(type="rejoin", token=token)
        await clock.advance(0.1, room)
        back = bob.last("state")
        assert not bob.last("room")["seats"][1]["stand_in"]
        # Many of the bot's pauses later, Bob's deck is as he found it.
        await clock.advance(60.0, room)
        assert [m for m in ann.of_type("placed") if m["player"] == "Bob"] == played
        latest = bob.last("state")
        assert latest["players"]["Bob"]["cards_left"] == back["players"]["Bob"]["cards_left"]
        assert latest["hand"] == back["hand"] is not None

    play(
        tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0, runup_seconds=0), scenario
    )


def test_a_match_everyone_left_without_playing_is_not_stored(tmp_path: Path) -> None:
    """Ann and Bob leave right after the match began (as after "Play again"), before either
    played a card: the bots standing in finish it, and it is not stored as a finished match
    with scores nobody played."""

    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        await clock.advance(0, room)
        ann.send(type="watch")
        bob.send(type="watch")
        await clock.advance(600.0, room)
        assert ann.last("battle"), "the bots standing in never finished the match"
        assert room.phase == "over" and room.match_id is not None
        saves.close()  # stores what waits
        assert saves.storage.get(room.match_id) is None

    play(
        tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0, runup_seconds=0), scenario
    )


def test_a_match_a_person_played_in_is_stored_though_he_left(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = two_players(room)
        await clock.advance(0, room)
        ann.send(type="place", x=0, y=-200, rotation=0)
        await clock.advance(0.1, room)
        assert ann.of_type("placed")
        ann.send(type="watch")
        bob.send(type="watch")
        await clock.advance(600.0, room)
        assert room.phase == "over"
        assert room_actions(room, saves)[0]["player"] == "Ann"

    play(
        tmp_path, {"ruleset": "lightspeed"}, Timing(abandon_seconds=10.0, runup_seconds=0), scenario
    )


def test_a_seated_player_chooses_his_own_stellar_race(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann, bob = Player(room), Player(room)
        ann.send(type="join", name="Ann")
        bob.send(type="join", name="Bob")
        bob.send(type="race", race="wiss")  # Ann's
        bob.send(type="race", race="klingon")
        await clock.advance(0, room)
        errors = [m["message"] for m in bob.of_type("error")]
        assert errors == [
            "seat 1 plays wiss: every race's cards exist once",
            "there is no race 'klingon': wiss, vak, hexai, tetrakori",
        ]
        bob.send(type="race", race="hexai")
        await clock.advance(1.0, room)
        assert ann.last("room")["options"]["races"] == ["wiss", "hexai"]
        for player in (ann, bob):
            player.send(type="ready", ready=True)
        await clock.advance(0, room)
        assert bob.last("state")["players"]["Bob"]["race"] == "hexai"
        bob.send(type="race", race="vak")  # too late: the match began
        await clock.advance(0, room)
        assert bob.last("error")["message"] == (
            "only a seated player chooses his race, before the match"
        )

    play(tmp_path, {"ruleset": "stellar"}, Timing(runup_seconds=0), scenario)


def test_only_stellar_conflict_has_races(tmp_path: Path) -> None:
    async def scenario(room: Room, clock: FakeClock, saves: SaveQueue) -> None:
        ann = Player(room)
        ann.send(type="join", name="Ann")
        ann.send(type="race", race="vak")
        await clock.advance(0, room)
        assert ann.last("error")["message"] == "only Stellar Conflict has races"

    play(tmp_path, {"ruleset": "lightspeed"}, Timing(runup_seconds=0), scenario)
