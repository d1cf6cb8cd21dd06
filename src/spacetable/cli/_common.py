"""What the ``spacetable`` commands share: the one way a user error ends a command, and
help texts that name the registered games (built from the registry, so they cannot go
stale when a game is added)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import NoReturn

import typer

from spacetable.registry import Game, games


def fail(message: str) -> NoReturn:
    """Report a user error on stderr and exit with status 2."""
    print(f"spacetable: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def in_words(items: Iterable[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` joins the last two)."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def titles(having: Callable[[Game], object] = lambda entry: True, last: str = "and") -> str:
    """The titles of the registered games for which ``having`` is true, in words."""
    return in_words((g.rules.title for g in games() if having(g)), last)


def choices(having: Callable[[Game], object] = lambda entry: True) -> str:
    """The keys of the registered games for which ``having`` is true, each with its title:
    "lightspeed (Light Speed), ftl (Faster Than Light) or ..."."""
    return in_words((f"{g.rules.key} ({g.rules.title})" for g in games() if having(g)), "or")


def bot_levels() -> str:
    """Each registered game's bot levels, in words: "Light Speed: beginner, random...;
    Faster Than Light: ..."."""
    return "; ".join(
        f"{g.rules.title}: {', '.join(g.bots.levels)}" for g in games() if g.bots is not None
    )


def file_kinds() -> str:
    """The files ``resolve`` and ``render`` settle, game by game, in words: "a Light Speed
    table file, a Stellar Conflict table file, a Faster Than Light turn file..."."""
    return in_words(
        (
            f"a {g.rules.title} {g.rules.referee.kind}"
            for g in games()
            if g.rules.referee is not None
        ),
        "or",
    )
