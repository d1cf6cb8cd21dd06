"""``spacetable duels`` without ``--game``: the game is the one whose bots have both levels
(read from the registry), and a choice it cannot make is one line naming the games."""

from __future__ import annotations

from typer.testing import CliRunner

from spacetable.cli import app
from spacetable.registry import listings


def _refusal(*args: str) -> str:
    done = CliRunner().invoke(app, ["duels", *args], env={"COLUMNS": "200"})
    assert done.exit_code == 2, done.output
    assert done.output.count("\n") == 1, done.output
    return done.output


def test_levels_of_several_games_ask_for_the_game_naming_them() -> None:
    shared = [e for e in listings() if e.duels and {"hard", "medium"} <= set(e.bot_levels)]
    assert len(shared) > 1
    said = _refusal("--bot", "hard", "--against", "medium")
    assert "--game" in said
    for entry in shared:
        assert entry.key in said


def test_an_unknown_level_names_every_games_levels() -> None:
    said = _refusal("--bot", "grandmaster", "--against", "random")
    assert "unknown bot level 'grandmaster'" in said
    for entry in listings():
        if entry.duels:
            assert entry.title in said


def test_levels_no_one_game_has_together_are_refused() -> None:
    duelling = [entry for entry in listings() if entry.duels]
    bot, against = next(
        (a, b)
        for entry in duelling
        for other in duelling
        for a in entry.bot_levels
        for b in other.bot_levels
        if not any({a, b} <= set(e.bot_levels) for e in duelling)
    )
    said = _refusal("--bot", bot, "--against", against)
    assert f"no game has both {bot!r} and {against!r} bots" in said
