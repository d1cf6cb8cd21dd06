"""The game registry (DESIGN section 7): one entry per game, through which the server and
the command line reach every game without asking which one it is.

Each game's rules package exposes its :class:`~spacetable.core.rules.GameRules`
(``RULES``); a module of this package per game (``registry/lightspeed.py``...) wires those
rules to the game's bots, drawings, duels and extra commands as a :class:`Game` named
``GAME``, importing them normally, so every dependency is a real import that points down.
A game is registered by one line in :data:`BUILTIN`.

Games may also come from outside the package: :data:`GAMES_VARIABLE` names modules, comma
separated, that define a ``GAME`` each; they are read when the registry first lists games,
so server and command-line subprocesses that inherit the variable list them too.
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import Any

from spacetable._userinput import clipped
from spacetable.core.rules import Referee
from spacetable.i18n.phrase import Phrase, Reason, refusal
from spacetable.registry import ftl, hexfleet, lightspeed, stellar
from spacetable.registry._game import Bots, Game

__all__ = [
    "BUILTIN",
    "GAMES_VARIABLE",
    "Bots",
    "Game",
    "UnknownGame",
    "game",
    "game_for_ruleset",
    "games",
    "preload",
    "referee_for",
    "rulesets",
]

#: The games spacetable comes with, in the order it lists them: one line per game.
BUILTIN: tuple[Game, ...] = (
    lightspeed.GAME,
    stellar.GAME,
    ftl.GAME,
    hexfleet.GAME,
)

#: The environment variable naming more modules that define a ``GAME`` each
#: (``"pkg.module,other.module"``), listed after the built-in games.
GAMES_VARIABLE = "SPACETABLE_GAMES"


class UnknownGame(LookupError):
    """No registered game has this key or plays files of this ruleset; :attr:`says` is
    the message as a phrase (for a reader of another language)."""

    @property
    def says(self) -> Phrase | None:
        """The message as a phrase (:mod:`spacetable.i18n.phrase`), or ``None``."""
        said = self.args[0] if self.args else None
        return said.phrase if isinstance(said, Reason) else None


@functools.cache
def games() -> tuple[Game, ...]:
    """Every registered game: the built-in ones, then those :data:`GAMES_VARIABLE` names.
    Raises ``ImportError`` for a module it names that cannot be imported, ``TypeError``
    for one whose ``GAME`` is not a :class:`Game`."""
    extra = [name.strip() for name in os.environ.get(GAMES_VARIABLE, "").split(",")]
    found = list(BUILTIN)
    for name in filter(None, extra):
        entry = getattr(importlib.import_module(name), "GAME", None)
        if not isinstance(entry, Game):
            raise TypeError(f"{GAMES_VARIABLE}: {name} defines no GAME")
        found.append(entry)
    return tuple(found)


def preload() -> None:
    """Import every registered game now (a worker forked afterwards starts warm)."""
    games()


def game(key: str) -> Game:
    """The game registered under ``key``; raises :class:`UnknownGame`."""
    for entry in games():
        if entry.rules.key == key:
            return entry
    known = ", ".join(g.rules.key for g in games())
    raise UnknownGame(refusal("unknown game {key} (known: {known})", key=repr(key), known=known))


def rulesets() -> tuple[str, ...]:
    """Every ruleset a registered game's files may name."""
    return tuple(r for entry in games() for r in entry.rules.rulesets)


def game_for_ruleset(ruleset: Any) -> Game:
    """The game whose files name ``ruleset``; raises :class:`UnknownGame` naming the
    rulesets there are."""
    for entry in games():
        if ruleset in entry.rules.rulesets:
            return entry
    known = ", ".join(rulesets())
    if ruleset is None:
        raise UnknownGame(refusal("the file names no 'ruleset' (one of: {known})", known=known))
    raise UnknownGame(
        refusal(
            "unknown ruleset {ruleset} (one of: {known})", ruleset=clipped(ruleset), known=known
        )
    )


def referee_for(data: Any) -> tuple[Game, Referee]:
    """The game and referee for a decoded file, by its ``ruleset``; raises
    :class:`UnknownGame` for a file no registered game settles."""
    if not isinstance(data, dict):
        raise UnknownGame("the file must hold a JSON object")
    entry = game_for_ruleset(data.get("ruleset"))
    if entry.rules.referee is None:
        raise UnknownGame(f"{entry.rules.title} has no file format to resolve")
    return entry, entry.rules.referee
