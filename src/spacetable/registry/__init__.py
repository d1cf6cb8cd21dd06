"""The game registry (DESIGN section 7): one entry per game, through which the server and
the command line reach every game without asking which one it is.

Each game's rules package exposes its :class:`~spacetable.core.rules.GameRules`
(``RULES``); a module of this package per game (``registry/lightspeed.py``...) wires those
rules to the game's bots, drawings, duels and extra commands as a :class:`Game` named
``GAME``. A game is registered by one :class:`Listing` in :data:`BUILTIN`: what the
command line says of it before loading it (its key, title, rulesets, bot levels...), and
the module that defines it. Games load on demand: ``spacetable resolve`` of a Light Speed
table imports Light Speed alone, and ``spacetable --help`` none (docs/performance.md);
:func:`games` loads them all.

Games may also come from outside the package: :data:`GAMES_VARIABLE` names modules, comma
separated, that define a ``GAME`` each; they are read when the registry first lists games,
so server and command-line subprocesses that inherit the variable list them too.
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import TYPE_CHECKING, Any

from spacetable._userinput import clipped
from spacetable.bots import ftl as ftl_bots
from spacetable.bots import hexfleet as hexfleet_bots
from spacetable.bots import lasers as laser_bots
from spacetable.i18n.phrase import Phrase, Reason, refusal
from spacetable.registry._game import Bots, Draw, DuelFunction, Game
from spacetable.registry._listing import GameCommand, Listing, lazy
from spacetable.registry._room import RealtimePlay, SeatChoice

if TYPE_CHECKING:
    from spacetable.core.rules import Referee

__all__ = [
    "BUILTIN",
    "GAMES_VARIABLE",
    "Bots",
    "Draw",
    "DuelFunction",
    "Game",
    "GameCommand",
    "Listing",
    "RealtimePlay",
    "SeatChoice",
    "UnknownGame",
    "default_ruleset",
    "game",
    "game_for_ruleset",
    "games",
    "lazy",
    "listings",
    "preload",
    "referee_for",
    "rulesets",
]

#: The games spacetable comes with, in the order it lists them: one listing per game
#: (tests/core/test_registry.py checks that each says what its game does). The first
#: playable one is the default game (:func:`default_ruleset`).
BUILTIN: tuple[Listing, ...] = (
    Listing(
        key="lightspeed",
        title="Light Speed",
        module="spacetable.registry.lightspeed",
        rulesets=("lightspeed",),
        file_kind="table file",
        bot_levels=laser_bots.LEVELS,
        duels=True,
        cards=True,
        prints=True,
    ),
    Listing(
        key="stellar",
        title="Stellar Conflict",
        module="spacetable.registry.stellar",
        rulesets=("stellar",),
        countdown_option=True,
        file_kind="table file",
        bot_levels=laser_bots.LEVELS,
        duels=True,
        cards=True,
        card_parts=("wiss", "vak", "hexai", "tetrakori"),
        prints=True,
        commands=(
            GameCommand(
                "races",
                "spacetable.lab.races:races_command",
                "Measure how fair the Stellar Conflict races are (bot study).",
            ),
        ),
    ),
    Listing(
        key="ftl",
        title="Faster Than Light",
        module="spacetable.registry.ftl",
        rulesets=("ftl",),
        pacing="plots",
        file_kind="turn file",
        bot_levels=ftl_bots.LEVELS,
        duels=True,
        prints=True,
    ),
    Listing(
        key="hexfleet",
        title="Hex fleet",
        module="spacetable.registry.hexfleet",
        rulesets=("hexfleet",),
        pacing="turns",
        file_kind="combat script",
        bot_levels=hexfleet_bots.LEVELS,
        duels=True,
        prints=True,
        commands=(
            GameCommand(
                "odds",
                "spacetable.lab.hexfleet_odds:odds_command",
                "The exact odds of one salvo and of raising shields, from the cards left to draw.",
            ),
        ),
    ),
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


def listings() -> tuple[Listing, ...]:
    """Every registered game's listing: the built-in ones, then those
    :data:`GAMES_VARIABLE` names (which are imported to be listed). Raises ``ImportError``
    for a module it names that cannot be imported, ``TypeError`` for one whose ``GAME``
    is not a :class:`Game`."""
    extra = [name.strip() for name in os.environ.get(GAMES_VARIABLE, "").split(",")]
    found = list(BUILTIN)
    for name in filter(None, extra):
        entry = getattr(importlib.import_module(name), "GAME", None)
        if not isinstance(entry, Game):
            raise TypeError(f"{GAMES_VARIABLE}: {name} defines no GAME")
        found.append(Listing.of(entry, name))
    return tuple(found)


@functools.cache
def games() -> tuple[Game, ...]:
    """Every registered game, loaded (each game's rules, and the wiring of its bots and
    drawings, which load their own heavy parts when first used). Raises as
    :func:`listings`."""
    return tuple(listing.load() for listing in listings())


def preload() -> None:
    """Import every registered game now (a worker forked afterwards starts warm)."""
    games()


def game(key: str) -> Game:
    """The game registered under ``key`` (loading it alone); raises :class:`UnknownGame`."""
    found = listings()
    for listing in found:
        if listing.key == key:
            return listing.load()
    known = ", ".join(listing.key for listing in found)
    raise UnknownGame(refusal("unknown game {key} (known: {known})", key=repr(key), known=known))


def default_ruleset() -> str:
    """The ruleset a room plays when none is named: the first playable game's first (the
    order of :data:`BUILTIN`)."""
    return next(listing.rulesets[0] for listing in listings() if listing.playable)


def rulesets() -> tuple[str, ...]:
    """Every ruleset a registered game's files may name."""
    return tuple(r for listing in listings() for r in listing.rulesets)


def game_for_ruleset(ruleset: Any) -> Game:
    """The game whose files name ``ruleset`` (loading it alone); raises
    :class:`UnknownGame` naming the rulesets there are."""
    for listing in listings():
        if ruleset in listing.rulesets:
            return listing.load()
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
