"""The game registry (DESIGN section 7): every game registered once, reached by key or by
the ruleset its files name."""

from __future__ import annotations

import importlib

import pytest

from spacetable.core.registry import (
    REGISTRATIONS,
    UnknownGame,
    game,
    game_for_ruleset,
    games,
    referee_for,
    rulesets,
)


def test_every_registration_is_a_game_with_its_own_key_and_rulesets() -> None:
    entries = games()
    assert len(entries) == len(REGISTRATIONS)
    assert len({g.key for g in entries}) == len(entries)
    assert len(set(rulesets())) == len(rulesets())
    assert {"lightspeed", "stellar", "ftl"} <= {g.key for g in entries}


@pytest.mark.parametrize("ruleset", ["lightspeed", "stellar", "ftl"])
def test_a_file_reaches_its_game_by_ruleset(ruleset: str) -> None:
    entry, referee = referee_for({"ruleset": ruleset})
    assert entry is game_for_ruleset(ruleset) is game(entry.key)
    # The renderer it names exists (it is imported only when drawing).
    module, _, name = referee.draw.partition(":")
    assert callable(getattr(importlib.import_module(module), name))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ruleset": "chess"}, "unknown ruleset 'chess'"),
        ({"players": ["a", "b"]}, "names no 'ruleset'"),
        ({"ruleset": ["ftl"]}, "unknown ruleset"),
        ([1, 2], "must hold a JSON object"),
    ],
)
def test_files_no_game_settles_are_refused_by_name(data: object, message: str) -> None:
    with pytest.raises(UnknownGame, match=message):
        referee_for(data)


def test_an_unknown_game_key_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="known: lightspeed, stellar, ftl"):
        game("hexfleet-deluxe")
