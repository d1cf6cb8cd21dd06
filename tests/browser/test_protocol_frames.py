"""Every frame a test's pages send and receive is checked against the protocol's JSON
Schema (tests/browser/_frames.py, issue 68 item 4): a renamed field, an unknown type or a
frame that is no JSON fails the test that saw it, naming the frame."""

from __future__ import annotations

import json
from collections.abc import Mapping

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from spacetable.registry import games
from spacetable.server.protocol.schema import protocol_schema
from tests.browser._frames import RECEIVED, REFUSED, SENT, games_validators, refusal
from tests.browser._pages import PagePool, borrowed_page
from tests.browser.conftest import Server, room_socket
from tests.server.protocol.test_game_payloads import KEYS, states

RULESETS = [entry.rules.rulesets[0] for entry in games()]

#: Frames as the pages really send and receive them (recorded from a room's socket).
WELCOME = {
    "type": "welcome",
    "role": "player",
    "seat": 0,
    "player": "Ann",
    "token": "4f0c2b7e",
    "speaker": "s-1",
}
CHAT_SENT = {"type": "chat", "text": "good luck", "channel": "players"}
CHAT_HEARD = {
    "type": "chat",
    "t": 12.5,
    "seat": 0,
    "name": "Ann",
    "speaker": "s-1",
    "channel": "players",
    "text": "good luck",
    "quick": None,
}


def _renamed(message: Mapping[str, object], old: str, new: str) -> str:
    return json.dumps({(new if key == old else key): value for key, value in message.items()})


def test_a_recorded_frame_with_a_renamed_field_is_refused_both_ways() -> None:
    assert refusal(RECEIVED, json.dumps(WELCOME)) is None
    assert refusal(SENT, json.dumps(CHAT_SENT)) is None
    assert refusal(RECEIVED, json.dumps(CHAT_HEARD)) is None

    heard = refusal(RECEIVED, _renamed(WELCOME, "token", "tok"))
    assert heard is not None and heard.startswith(REFUSED)
    assert "'welcome' frame received" in heard and "$defs/server" in heard
    sent = refusal(SENT, _renamed(CHAT_SENT, "text", "txt"))
    assert sent is not None and "'chat' frame sent" in sent and "'txt' was unexpected" in sent
    # A field of the wrong kind is named by its path.
    wrong = refusal(RECEIVED, json.dumps({**CHAT_HEARD, "seat": "zero"}))
    assert wrong is not None and " at seat: " in wrong
    # What the pages never send: another type, or no JSON at all.
    assert "no client message type ('chatter')" in str(refusal(SENT, '{"type": "chatter"}'))
    assert "no JSON" in str(refusal(RECEIVED, "pong"))
    assert "binary" in str(refusal(SENT, b"\x00"))


def test_a_page_that_sends_a_renamed_field_has_it_reported(
    server: Server, page_pool: PagePool
) -> None:
    room = server.api("/api/rooms", {"seats": 2})
    with borrowed_page(page_pool, server.base, {}) as (page, errors):
        page.goto(f"/rooms/{room['id']}")
        page.wait_for_function(
            "() => window.spacetableSockets.some("
            "(s) => s.readyState === WebSocket.OPEN && s.url.includes('/ws/rooms/'))"
        )
        assert not errors  # the page's own frames are all declared
        with room_socket(page).expect_event("framesent"):
            page.evaluate(
                """() => window.spacetableSockets.filter((s) => s.url.includes("/ws/rooms/"))
                     .at(-1).send(
                     JSON.stringify({ type: "chat", txt: "good luck" }))"""
            )
        refused = [text for text in errors if text.startswith(REFUSED)]
        assert len(refused) == 1, errors
        assert "'chat' frame sent" in refused[0] and "'txt' was unexpected" in refused[0]
        errors.clear()  # (the test saw what it wanted)


def test_a_game_s_own_frames_are_checked_against_its_game_alone_as_the_schema_does() -> None:
    """A state, a result and an acted frame go through their game's own closed schema (the
    fast path): it takes and refuses what the whole schema takes and refuses."""
    schema = protocol_schema()
    whole = Draft202012Validator({**schema, "$ref": "#/$defs/server"})
    frames = []
    for key in KEYS:
        for state in states(key):
            frames += [
                state,
                {**state, "hand_": None},
                {k: v for k, v in state.items() if k != "t"},
            ]
            frames.append({**state, "ruleset": next(r for r in RULESETS if r != state["ruleset"])})
        stopped = {"winner": None, "reason": "agreed", "ending": "agreed_draw", "ending_by": None}
        for ruleset in RULESETS:
            result = {"type": "result", "match_id": "m", "ruleset": ruleset}
            frames += [{**result, "result": stopped}, {**result, "result": {**stopped, "x": 1}}]
            frames.append({**result, "result": stopped | {"events": []}})
    frames.append({"type": "state", "ruleset": "highest", "t": 0.0, "version": 0, "runup": None})
    assert "state" in games_validators("server") and "result" in games_validators("server")
    for frame in frames:
        said = refusal(RECEIVED, json.dumps(frame))
        assert (said is None) == whole.is_valid(frame), (frame, said)
