"""The game registry (DESIGN section 7): every game registered once, reached by key or by
the ruleset its files name."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacetable.registry import (
    BUILTIN,
    GAMES_VARIABLE,
    UnknownGame,
    default_ruleset,
    game,
    game_for_ruleset,
    games,
    referee_for,
    rulesets,
)


def test_every_registration_is_a_game_with_its_own_key_and_rulesets() -> None:
    entries = games()
    assert entries[: len(BUILTIN)] == tuple(listing.load() for listing in BUILTIN)
    assert len({g.rules.key for g in entries}) == len(entries)
    assert len(set(rulesets())) == len(rulesets())
    assert {"lightspeed", "stellar", "ftl", "hexfleet"} <= {g.rules.key for g in entries}


@pytest.mark.parametrize("ruleset", ["lightspeed", "stellar", "ftl", "hexfleet"])
def test_a_file_reaches_its_game_by_ruleset(ruleset: str) -> None:
    entry, referee = referee_for({"ruleset": ruleset})
    assert entry is game_for_ruleset(ruleset) is game(entry.rules.key)
    assert referee is entry.rules.referee and entry.draw is not None


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


def test_every_game_played_in_rooms_is_complete() -> None:
    """A game rooms can play names a match, a room options model with its ruleset and
    seats, a pacing the server knows, and bots whose levels its bots module makes."""
    from spacetable.server.rooms.room import PACINGS

    playable = [g for g in games() if g.rules.playable]
    assert {g.rules.key for g in playable} >= {"lightspeed", "stellar", "ftl", "hexfleet"}
    for entry in playable:
        rules = entry.rules
        assert rules.pacing in PACINGS
        assert rules.room_options is not None and rules.match is not None
        fields = rules.room_options.model_fields
        assert {"ruleset", "seats"} <= set(fields)
        assert entry.bots is not None and "random" in entry.bots.levels
        assert entry.bots.default in entry.bots.levels
        for level in entry.bots.levels:
            assert hasattr(entry.bots.bot(level), "choose")
        with pytest.raises(ValueError, match="one of"):
            entry.bots.bot("grandmaster")


def test_what_a_room_asks_of_a_game_beyond_its_rules_comes_through_the_registry() -> None:
    """A game paced in real time says how its placing round is played; the messages games
    add to the protocol are theirs alone, each seat choice's values are distinct, and the
    game a room plays when none is named is a playable one (the first listed)."""
    from spacetable.server.sockets.protocol import client_models

    for entry in games():
        assert (entry.realtime is not None) == (entry.rules.pacing == "realtime"), entry
        for choice in entry.seat_choices:
            assert choice.values and len(set(choice.values)) == len(choice.values)
            assert entry.seat_choice(choice.type) is choice
            model = entry.rules.room_options
            assert model is not None and choice.option in model.model_fields
    models = client_models()  # raises if two messages share a type
    assert models["fleet"] is game("stellar").moves[0]
    assert models["race"] is game("stellar").seat_choices[0].message
    assert game("lightspeed").seat_choice("race") is None
    assert default_ruleset() == "lightspeed" and game_for_ruleset(default_ruleset()).rules.playable


def test_a_games_resources_and_cards_come_through_the_registry() -> None:
    stellar = game("stellar")
    assert set(stellar.resource("races")) == {"wiss", "vak", "hexai", "tetrakori"}
    assert "vak-grub" in stellar.resource("catalog")
    with pytest.raises(KeyError):
        game("ftl").resource("catalog")
    ships, text = game("lightspeed").card_list(None)
    assert ships and "speed" in text
    with pytest.raises(ValueError, match="unknown race"):
        stellar.card_list("klingon")


def test_every_game_rooms_can_play_has_seeded_duels_for_its_bots() -> None:
    """``spacetable duels`` reaches every game's duel through the registry; a duel replays
    from its seed, and the seat swap gives bot ``a`` the other seat."""
    for entry in [g for g in games() if g.rules.playable]:
        assert entry.bots is not None
        duel = entry.duel_function()
        bots = entry.bots.bot("random"), entry.bots.bot("random")
        first = duel(*bots, 3, a_first=True, turn_limit=5, clock=None)
        again = duel(*bots, 3, a_first=True, turn_limit=5, clock=None)
        swapped = duel(*bots, 3, a_first=False, turn_limit=5, clock=None)
        assert first == again and first.winner in ("a", "b", None) and first.turns > 0
        assert swapped.a_seat != first.a_seat
        assert first.seconds_a == () and first.seconds_b == ()  # no clock, no timing


def test_a_bot_standing_in_for_a_player_plays_at_a_level_the_game_has() -> None:
    """A player who left mid-match was not learning: the laser games' stand-in is not the
    slow beginner they offer newcomers."""
    for entry in [g for g in games() if g.rules.playable]:
        assert entry.bots is not None and entry.bots.stand_in_level in entry.bots.levels
    laser = game("lightspeed").bots
    assert laser is not None and laser.stand_in_level == "medium" != laser.default


def test_games_registered_from_outside_the_package_are_listed_after_the_built_in_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SPACETABLE_GAMES`` names modules that define a ``GAME`` each."""
    (tmp_path / "extra_game.py").write_text(
        "from spacetable.core.rules import GameRules\n"
        "from spacetable.registry import Game\n"
        "GAME = Game(GameRules('extra', 'Extra', ('extra',)))\n"
    )
    (tmp_path / "no_game.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(GAMES_VARIABLE, " extra_game ,")
    games.cache_clear()
    try:
        assert games()[-1] is game("extra") is game_for_ruleset("extra")
        assert games()[: len(BUILTIN)] == tuple(listing.load() for listing in BUILTIN)
        monkeypatch.setenv(GAMES_VARIABLE, "extra_game,no_game")
        games.cache_clear()
        with pytest.raises(TypeError, match="no_game defines no GAME"):
            games()
    finally:
        monkeypatch.delenv(GAMES_VARIABLE)
        games.cache_clear()
