"""Whole matches of seeded rooms, in-process on a clock moved by hand, against their golden
logs (issue 18): a player seats the game's default bot, starts, and leaves the match to the
bots; every action lands at the same match time, with the same outcome, on every run.

Regenerate after an intended change (rules, bots, the room's pacing or timing) with
``SPACETABLE_UPDATE_GOLDEN=1 uv run pytest tests/server/rooms/test_room_golden.py`` and review
the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage
from tests._clock import FakeClock, Player
from tests._golden import matches_golden, room_log_path
from tests._loops import run_apart

SEED = 7
#: Longer than any of these matches (the clock jumps from timer to timer: no test waits).
HOUR_S = 3600.0


def played(tmp_path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """The stored match of a room of ``options`` (``POST /api/rooms``'s body) whose seats
    the bots play: Ann seats the game's default bot, gets ready, and leaves at once."""

    async def run() -> dict[str, Any]:
        saves = SaveQueue(Storage(f"sqlite:///{tmp_path / 'matches.db'}"))
        clock = FakeClock()
        room = Room("room", room_options(options), saves, Timing(), clock=clock, seed=SEED)
        try:
            ann = Player(room)
            ann.send(type="join", name="Ann")
            ann.send(type="bot", seat=1)
            ann.send(type="ready", ready=True)
            await clock.advance(0, room)
            ann.send(type="leave")  # a bot plays her seat: the bots finish the match
            # A match every person left without playing is not stored (rooms/room.py,
            # _played_by_people); this harness stands for a person who played and then left.
            room.pacing.person_acted = True
            await clock.advance(HOUR_S, room)
            assert room.phase == "over" and room.match_id is not None
            saves.close()
            stored = saves.storage.get(room.match_id)
            assert stored is not None
            return {
                "seed": stored.seed,
                "seats": [s["player"] for s in stored.seats],
                "options": stored.options,
                "actions": stored.actions,
                "result": {k: v for k, v in stored.result.items() if k != "table"},
            }
        finally:
            await room.close()
            saves.close()

    return run_apart(run())


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("lightspeed", {"ruleset": "lightspeed"}),
        ("stellar", {"ruleset": "stellar", "battle_size": "dispute"}),
        ("ftl", {"ruleset": "ftl", "turn_limit": 6}),
        ("hexfleet", {"ruleset": "hexfleet", "scenario": "duel", "turn_limit": 6}),
    ],
)
def test_a_seeded_room_of_bots_plays_its_golden_match(
    tmp_path: Path, game: str, options: dict[str, Any]
) -> None:
    log = played(tmp_path, options)
    assert log["seed"] == SEED and log["actions"]
    assert matches_golden(room_log_path(game, SEED), log)
