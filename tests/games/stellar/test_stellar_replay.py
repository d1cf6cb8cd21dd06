"""Stellar Conflict determinism: bot-played matches replay exactly from their options,
seed and action log (PettingZoo's seed test, for our match machine)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers.arena import play_stellar_match
from spacetable.games.stellar import (
    DeploymentOver,
    Phase,
    StellarMatch,
    StellarOptions,
    TimerRang,
)

PLAYERS = ("red", "blue", "green", "purple")

# (bot levels by seat, options, seed): 2, 3 and 4 players; timer and stop; cargo ships or
# asteroids; with and without stolen goods; every battle size.
CASES: list[tuple[tuple[str, ...], dict[str, Any], int]] = [
    (("random", "random"), {"battle_size": "conflict"}, 1),
    (("easy", "easy"), {"deployment": "stop", "stolen_goods": True, "battle_size": "dispute"}, 2),
    (("random", "easy"), {"asteroids": 3, "stolen_goods": True, "battle_size": "war"}, 3),
    (("random",) * 3, {"deployment": "stop", "asteroids": 2, "battle_size": "war"}, 4),
    (("easy", "random", "easy"), {"stolen_goods": True}, 5),
    (("random",) * 4, {"asteroids": 5, "stolen_goods": True, "battle_size": "dispute"}, 6),
    (("easy",) * 4, {"deployment": "stop", "asteroids": 1, "battle_size": "dispute"}, 7),
    (("easy", "random", "random", "easy"), {"races": ("vak", "tetrakori", "wiss", "hexai")}, 8),
]


def play(levels: tuple[str, ...], options: dict[str, Any], seed: int) -> StellarMatch:
    """One bot-played match."""
    setup = StellarOptions(PLAYERS[: len(levels)], **options)
    return play_stellar_match([make_bot(level) for level in levels], seed, setup)


def events_json(match: StellarMatch) -> list[dict[str, Any]]:
    return [e.to_json() for e in match.events]


@pytest.mark.usefixtures("compiled_kernels")
@pytest.mark.parametrize(("levels", "options", "seed"), CASES)
def test_a_bot_played_match_replays_exactly(
    levels: tuple[str, ...], options: dict[str, Any], seed: int
) -> None:
    match = play(levels, options, seed)
    outcome = match.result()
    assert match.phase == Phase.OVER and outcome is not None
    assert any(isinstance(e, DeploymentOver) for e in match.events)
    if options.get("deployment") == "stop":
        assert match.stopped_by is not None
        assert not any(isinstance(e, TimerRang) for e in match.events)
    # Stored and reloaded as JSON, the record rebuilds the same match.
    record = json.loads(json.dumps(match.record()))
    replayed = StellarMatch.from_record(record)
    assert events_json(replayed) == events_json(match)
    again = replayed.result()
    assert again is not None and again.to_json() == outcome.to_json()
    for player in (*match.players, None):
        assert replayed.view(player) == match.view(player)
    # The same from the action objects, and every action survives JSON unchanged.
    assert events_json(StellarMatch.replay(match.options, seed, match.actions)) == events_json(
        match
    )
    for action in match.actions:
        assert StellarMatch.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    # Playing the same seed again makes the same match, action for action.
    twin = play(levels, options, seed)
    assert twin.record() == match.record() and events_json(twin) == events_json(match)
