"""A rebuilt room is the same room (issue 21): what its players had beyond the match's
actions outlives a kill -9 of its server too. A draw offer still waits for its answer,
the chat shows what was said, a player who went away is still away (the others may still
claim the win), an FTL player's unsent draft is plotted for him when the timer runs out,
and the plot timer resumes with the time it had left at the crash, not at the last
action. Each on SQLite and on PostgreSQL (when ``SPACETABLE_TEST_POSTGRES_URL`` is set).
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from spacetable.server.store.storage import normalise_url
from tests._server import Client, seated, wait_until
from tests.server.durable._restart import db, kill, rejoined, servers, start, token_of

#: Each test starts two server processes: on a busy machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)

__all__ = ["db"]  # the fixture


def _state(client: Client, when: Any = None, timeout: float = 20.0) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and (when is None or when(m)), timeout)


def _ftl_room(server: Any, **options: Any) -> tuple[str, Client, Client]:
    """A two-player FTL room, both players seated and plotting turn 1."""
    room = server.create_room(ruleset="ftl", turn_limit=2, **options)
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    ann.send(type="ready")
    bob.send(type="ready")
    _state(ann, lambda m: m["phase"] == "plot")
    _state(bob, lambda m: m["phase"] == "plot")
    return room, ann, bob


def _stored_clock(url: str, room: str) -> float | None:
    """The match time the room's server last said it held the room at (its heartbeat)."""
    engine = create_engine(normalise_url(url), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                text("SELECT clock FROM live_rooms WHERE id = :room"), {"room": room}
            ).scalar()
    finally:
        engine.dispose()
    return None if found is None else float(found)


def _heartbeat_past(url: str, room: str, t: float, timeout: float = 60.0) -> float:
    """Wait until the room's stored heartbeat is past match time ``t``; that time."""

    def past() -> bool:
        clock = _stored_clock(url, room)
        return clock is not None and clock >= t

    wait_until(past, f"the room's heartbeat past match time {t}", timeout)
    clock = _stored_clock(url, room)
    assert clock is not None
    return clock


def test_a_draw_offer_and_the_chat_come_back_after_a_kill(db: str) -> None:
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=2)
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        tokens = [token_of(c) for c in (ann, bob)]
        ann.send(type="chat", text="hello before the match")
        bob.wait(lambda m: m["type"] == "chat" and m["text"] == "hello before the match")
        ann.send(type="ready")
        bob.send(type="ready")
        _state(ann, lambda m: m["phase"] == "plot")
        bob.send(type="chat", quick="gg")
        ann.wait(lambda m: m["type"] == "chat" and m["quick"] == "gg")
        ann.send(type="offer_draw")
        offer = bob.wait_type("draw_offer")
        assert offer["by"] == "Ann" and offer["waiting"] == [1]
        kill(first)

        second = start(db)
        started.append(second)
        bob = rejoined(second, room, tokens[1])
        # The offer still waits for Bob, and the chat shows what was said, in order.
        offer = bob.wait_type("draw_offer")
        assert offer["by"] == "Ann" and offer["waiting"] == [1]
        history = next(m for m in bob.received if m["type"] == "chat_history")["messages"]
        said = [(m["name"], m["text"] or m["quick"]) for m in history]
        assert said == [("Ann", "hello before the match"), ("Bob", "gg")]
        ann = rejoined(second, room, tokens[0])
        ann.send(type="chat", text="after the crash")
        bob.wait(lambda m: m["type"] == "chat" and m["text"] == "after the crash")
        bob.send(type="answer_draw", accept=True)
        result = ann.wait_type("result")
        assert result["result"]["ending"] == "agreed_draw"
        stored = second.stored_match(result["match_id"])
        # The match stores what was said during it, before and after the crash alike.
        assert [m["text"] or m["quick"] for m in stored["chat"]] == ["gg", "after the crash"]


def test_a_player_away_is_still_away_after_a_kill(db: str) -> None:
    with servers() as started:
        first = start(db, "--grace-seconds", "1", "--abandon-seconds", "600", room_seed=12)
        started.append(first)
        room, ann, bob = _ftl_room(first)
        token = token_of(ann)
        bob.close()
        away = ann.wait(lambda m: m["type"] == "absent" and m["choices"])
        assert away["seat"] == 1 and "claim" in away["choices"]
        kill(first)

        second = start(db, "--grace-seconds", "1", "--abandon-seconds", "600")
        started.append(second)
        ann = rejoined(second, room, token)
        # Ann is told Bob is away, his grace over: she may claim the win at once.
        away = ann.wait(lambda m: m["type"] == "absent")
        assert away["seat"] == 1 and away["player"] == "Bob" and "claim" in away["choices"]
        assert away["grace_left_s"] == 0.0
        ann.send(type="absence", seat=1, choice="claim")
        result = ann.wait_type("result")
        assert result["result"]["ending"] == "claimed"


def test_a_draft_and_the_plot_timer_come_back_after_a_kill(db: str) -> None:
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room, ann, bob = _ftl_room(first, plot_timer_s=60)
        tokens = [token_of(c) for c in (ann, bob)]
        bob.send(type="plot", orders=["Bob:S2"])
        plotted = _state(ann, lambda m: m["players"]["Bob"]["plotted"])
        left, t = plotted["plot_seconds_left"], plotted["t"]
        # Ann's plot, written but not sent: only the server and she know it.
        ann.send(type="draft", orders=["Ann:R+45"])
        # The server lives on 3 s after the last action before it dies.
        _heartbeat_past(db, room, t + 3)
        kill(first)

        # (Its clock moves when the test says: the timer runs out without a wait.)
        second = start(db, "--test-clock")
        started.append(second)
        bob = rejoined(second, room, tokens[1])
        # The timer has what it had at the crash: the 3 s after the last action are gone.
        resumed = _state(bob)["plot_seconds_left"]
        assert resumed <= left - 2.9, (left, resumed)
        ann = rejoined(second, room, tokens[0])
        assert not [m for m in ann.received if m["type"] == "turn"]  # not before its time
        # When it runs out, Ann's draft is plotted for her, as if the server never died.
        second.post("/api/test/clock", {"advance": resumed})
        turn = ann.wait_type("turn", timeout=60)
        plots = {e["player"]: e["orders"] for e in turn["events"] if e["type"] == "plot"}
        assert plots == {"Ann": ["Ann:R+45"], "Bob": ["Bob:S2"]}
