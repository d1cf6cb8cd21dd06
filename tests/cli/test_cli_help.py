"""Help that cannot go stale: ``spacetable --help`` and every command that takes a game
name every registered game (their help texts are built from the registry)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spacetable.registry import Game, games
from tests._cli import spacetable

#: Each command that takes a game, and which registered games it takes.
COMMANDS: dict[str, Callable[[Game], object]] = {
    "resolve": lambda g: g.rules.referee is not None,
    "render": lambda g: g.rules.referee is not None,
    "replay": lambda g: g.rules.playable,
    "duels": lambda g: g.duel is not None,
    "cards": lambda g: g.cards is not None,
}


def help_text(*command: str) -> str:
    """``spacetable [command] --help`` as one line: the help is reflowed to the terminal,
    so a title may break across lines and boxes."""
    done = spacetable(*command, "--help")
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.replace("│", " ").split())


def test_spacetable_help_names_every_registered_game() -> None:
    text = help_text()
    for entry in games():
        assert entry.rules.title in text


@pytest.mark.parametrize("command", list(COMMANDS))
def test_each_command_that_takes_a_game_names_the_games_it_takes(command: str) -> None:
    text = help_text(command)
    taken = [g for g in games() if COMMANDS[command](g)]
    assert taken
    for entry in taken:
        assert entry.rules.title in text, f"{command} --help does not name {entry.rules.title}"


def test_resolve_render_replay_and_duels_take_every_built_in_game() -> None:
    for command in ("resolve", "render", "replay", "duels"):
        assert all(COMMANDS[command](g) for g in games()), command
