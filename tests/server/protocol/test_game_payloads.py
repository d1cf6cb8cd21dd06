"""Each game's ``state`` is typed by the game (issue 68: the schema types the game
payloads): its registration declares its view (``Game.payloads``), the protocol joins it
with its pacing's clocks (``protocol/payloads.py``), and ``spacetable protocol schema``
refuses a state with a renamed, a missing or an undeclared field of the game's, or the
clocks of another pacing; a ``result``'s result and the hex fleet's ``acted`` frame are
typed by their games too. Each game's first state and the last one of a match its players
stopped, for a player and a spectator, are states the schema accepts (whole matches of
each game: test_frames_schema.py)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from spacetable.registry import games
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.schema import protocol_schema
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.match import RoomOptions, Timing
from spacetable.server.rooms.room import PACINGS

KEYS = [entry.rules.key for entry in games()]


@pytest.fixture(scope="module")
def server() -> Draft202012Validator:
    schema = protocol_schema()
    return Draft202012Validator({**schema, "$ref": "#/$defs/server"})


def states(key: str) -> list[dict[str, Any]]:
    """A new match's states of game ``key``: a player's, a spectator's, and the last of a
    match its players stopped."""
    entry = next(e for e in games() if e.rules.key == key)
    options = RoomOptions(ruleset=entry.rules.rulesets[0], seats=2, game={})
    match = PACINGS[entry.rules.pacing](options, ("Ann", "Bob"), Timing(), 0.0, 7)
    runup = {"seconds": 3.0, "seconds_left": 1.5}
    return [
        match.state("Ann", 0.0, None),
        match.state(None, 0.0, runup),  # type: ignore[arg-type]
        match.stopped_state("Bob", 1.0, None),
    ]


@pytest.mark.parametrize("key", KEYS)
def test_each_game_s_states_are_ones_the_schema_accepts(
    server: Draft202012Validator, key: str
) -> None:
    for state in states(key):
        assert [e.message for e in server.iter_errors(state)] == []


@pytest.mark.parametrize("key", KEYS)
def test_a_state_with_a_game_field_renamed_missing_or_undeclared_is_refused(
    server: Draft202012Validator, key: str
) -> None:
    state = states(key)[0]
    envelope = {"type", "t", "version", "runup"}
    for field in [k for k in state if k not in envelope]:
        renamed = {(f"{field}_" if k == field else k): v for k, v in state.items()}
        assert not server.is_valid(renamed), f"{key}: {field} renamed"
        assert not server.is_valid({k: v for k, v in state.items() if k != field}), field
    assert not server.is_valid({**state, "hands": None}), f"{key}: an undeclared field"
    others = [e.rules.rulesets[0] for e in games() if e.rules.key != key]
    assert not any(server.is_valid({**state, "ruleset": other}) for other in others), key


def test_a_game_no_registration_here_declares_is_taken_as_it_comes(
    server: Draft202012Validator,
) -> None:
    """A game added to a server alone (SPACETABLE_GAMES: tests/browser/test_added_game.py)
    is unknown to the schema of another process: its state and result, told by a ruleset
    none of the declaring games plays, go unchecked; without a ruleset, a state is none."""
    state = {"type": "state", "ruleset": "highest", "top": 5, "t": 0.0, "version": 0}
    assert server.is_valid({**state, "runup": None})
    assert not server.is_valid({k: v for k, v in state.items() if k != "ruleset"} | {"runup": None})
    result = {"type": "result", "match_id": "m", "ruleset": "highest", "result": {"top": 1}}
    assert server.is_valid(result)


def test_a_state_with_the_clocks_of_another_pacing_is_refused(
    server: Draft202012Validator,
) -> None:
    by_pacing = {e.rules.pacing: states(e.rules.key)[0] for e in games()}
    realtime, plots = by_pacing["realtime"], by_pacing["plots"]
    assert server.is_valid(realtime) and server.is_valid(plots)
    assert not server.is_valid({**plots, "stop": None, "countdown": None})
    clockless = {k: v for k, v in realtime.items() if k not in ("stop", "countdown")}
    assert not server.is_valid({**clockless, "plot_seconds_left": None})


def test_a_laser_state_s_stop_is_typed_to_its_fields(server: Draft202012Validator) -> None:
    key = next(e.rules.key for e in games() if e.rules.pacing == "realtime")
    state = states(key)[0]
    stop = {"by": "Ann", "timer": False, "seconds": 5.0, "seconds_left": 4.2}
    assert server.is_valid({**state, "stop": stop})
    assert not server.is_valid({**state, "stop": {**stop, "secs": 5.0}})
    assert not server.is_valid({**state, "runup": {"seconds": 3.0}})


def test_a_result_is_typed_by_its_game_and_refused_with_a_renamed_field(
    server: Draft202012Validator,
) -> None:
    stopped = {
        "winner": "Bob",
        "reason": "Ann resigned",
        "ending": "resigned",
        "ending_by": ["Ann"],
    }
    by_key = {e.rules.key: e for e in games()}
    for key, entry in by_key.items():
        ruleset = entry.rules.rulesets[0]
        result = stopped | ({"events": []} if entry.rules.pacing == "realtime" else {})
        message = {"type": "result", "match_id": "m", "ruleset": ruleset, "result": result}
        assert server.is_valid(message), key
        renamed = {("ending_for" if k == "ending_by" else k): v for k, v in result.items()}
        assert not server.is_valid({**message, "result": renamed}), key
        assert not server.is_valid({**message, "result": {**result, "extra": 1}}), key
    plotted = next(e for e in by_key.values() if e.rules.pacing == "plots")
    ended = {
        **{"winner": None, "reason": "turn-limit", "ending": "turn_limit", "ending_by": None},
        **{"turns": 3, "hits_scored": {"Ann": 1}, "pieces_left": {"Ann": 1}},
    }
    message = {"type": "result", "match_id": "m", "ruleset": plotted.rules.rulesets[0]}
    assert server.is_valid({**message, "result": ended})
    assert not server.is_valid({**message, "result": {**ended, "hits": ended["hits_scored"]}})
    laser = next(e for e in by_key.values() if e.rules.pacing == "realtime")
    assert not server.is_valid({**message, "ruleset": laser.rules.rulesets[0], "result": ended})


def test_an_acted_frame_is_typed_by_its_game(server: Draft202012Validator) -> None:
    """The hex fleet's ``acted`` frame (its registration declares it): the opening frame a
    match begins with is one; renamed, dropped or added keys are refused."""
    entry = next(e for e in games() if any(tag == "acted" for tag, _ in e.payloads))
    options = RoomOptions(ruleset=entry.rules.rulesets[0], seats=2, game={})
    match = PACINGS[entry.rules.pacing](options, ("Ann", "Bob"), Timing(), 0.0, 7)
    acted = wire(to_page.Acted(match.frames[0]))  # type: ignore[attr-defined]
    assert [e.message for e in server.iter_errors(acted)] == []
    for field in [k for k in acted if k != "type"]:
        renamed = {(f"{field}s" if k == field else k): v for k, v in acted.items()}
        assert not server.is_valid(renamed), field
    assert not server.is_valid({**acted, "winner": None})


#: A player's card as ``lasers/tables.py``'s ``card_json`` writes it (DESIGN section 3).
CARD = {"id": "c7", "owner": "Ann", "ship": "ls-fighter", "x": 120.0, "y": 80.5}
CARD |= {"rotation": 90.0, "rocks": 0}


def test_a_placed_card_is_typed_and_refused_with_a_renamed_missing_or_extra_key(
    server: Draft202012Validator,
) -> None:
    placed = wire(to_page.Placed("Ann", dict(CARD), 1.5))  # type: ignore[arg-type]
    assert [e.message for e in server.iter_errors(placed)] == []
    sized = {**CARD, "size": [63.0, 88.0]}
    assert server.is_valid({**placed, "card": sized})
    for key in CARD:
        renamed = {(f"{key}_" if k == key else k): v for k, v in CARD.items()}
        assert not server.is_valid({**placed, "card": renamed}), f"{key} renamed"
        dropped = {k: v for k, v in CARD.items() if k != key}
        assert not server.is_valid({**placed, "card": dropped}), f"{key} missing"
    assert not server.is_valid({**placed, "card": {**CARD, "hand": "x"}}), "an extra key"


def test_a_poses_entry_is_typed_and_refused_with_a_renamed_missing_or_extra_key(
    server: Draft202012Validator,
) -> None:
    pose = {"x": 10.0, "y": 20.0, "rotation": 45.0, "ship": "ls-fighter"}
    poses = wire(to_page.Poses({"Bob": dict(pose)}, 40))  # type: ignore[dict-item]
    assert [e.message for e in server.iter_errors(poses)] == []
    for key in pose:
        renamed = {(f"{key}_" if k == key else k): v for k, v in pose.items()}
        assert not server.is_valid({**poses, "poses": {"Bob": renamed}}), f"{key} renamed"
        dropped = {k: v for k, v in pose.items() if k != key}
        assert not server.is_valid({**poses, "poses": {"Bob": dropped}}), f"{key} missing"
    assert not server.is_valid({**poses, "poses": {"Bob": {**pose, "card": 1}}}), "extra key"


def test_a_placed_frame_s_players_are_typed_and_refused_with_a_renamed_missing_or_extra_key(
    server: Draft202012Validator,
) -> None:
    cards = {"cards_left": 9, "holding": "ls-fighter", "decided": False, "discarded": None}
    fleet = cards | {"race": "wiss", "fleet_chosen": True}  # with a race and a fleet
    for status in (cards, fleet):
        placed = wire(to_page.Placed("Ann", dict(CARD), 1.5, {"Ann": status}, 4))  # type: ignore[arg-type, dict-item]
        assert [e.message for e in server.iter_errors(placed)] == []
        for key in status:
            renamed = {(f"{key}_" if k == key else k): v for k, v in status.items()}
            assert not server.is_valid({**placed, "players": {"Ann": renamed}}), key
            dropped = {k: v for k, v in status.items() if k != key}
            if key not in ("race", "fleet_chosen"):  # without both: a game without races
                assert not server.is_valid({**placed, "players": {"Ann": dropped}}), key
        assert not server.is_valid({**placed, "players": {"Ann": {**status, "hand": 1}}})
    assert not server.is_valid({**placed, "players": {"Ann": {**cards, "race": "wiss"}}})


def test_a_chat_history_s_messages_are_typed_and_refused_with_a_renamed_missing_or_extra_key(
    server: Draft202012Validator,
) -> None:
    line = wire(to_page.Chat(12.5, 0, "Ann", "Ann", "players", "gl hf", None))
    history = wire(to_page.ChatHistory([line], False))  # type: ignore[list-item]
    assert [e.message for e in server.iter_errors(history)] == []
    for key in line:
        renamed = {(f"{key}_" if k == key else k): v for k, v in line.items()}
        assert not server.is_valid({**history, "messages": [renamed]}), f"{key} renamed"
        dropped = {k: v for k, v in line.items() if k != key}
        assert not server.is_valid({**history, "messages": [dropped]}), f"{key} missing"
    assert not server.is_valid({**history, "messages": [{**line, "color": "red"}]}), "extra key"


def test_a_room_s_correspondence_is_typed_and_refused_with_a_renamed_missing_or_extra_key() -> None:
    """(Whole correspondence matches' room frames pass: test_correspondence_frames.py.)"""
    schema = protocol_schema()
    room = next(b for b in schema["$defs"]["server"]["oneOf"] if b["title"] == "RoomNews")
    check = Draft202012Validator({**schema, **room["properties"]["correspondence"]})
    about = {"turn_hours": 24, "deadline": 1.7e9, "waiting": ["Bob"], "missed": {"Bob": 1}}
    about |= {"ran_out": {"Bob": [3]}, "lose_at": 3}
    assert [e.message for e in check.iter_errors(about)] == []
    assert check.is_valid(None)
    for key in about:
        renamed = {(f"{key}_" if k == key else k): v for k, v in about.items()}
        assert not check.is_valid(renamed), f"{key} renamed"
        assert not check.is_valid({k: v for k, v in about.items() if k != key}), f"{key} missing"
    assert not check.is_valid({**about, "hours": 24}), "an extra key"
