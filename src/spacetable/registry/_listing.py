"""What spacetable knows of a game before it loads it: a :class:`Listing`, and references
to code that is imported when it is first called (:func:`lazy`).

A listing names the game (key, title, rulesets) and says what it offers, in the few
words the command line's help needs, so that ``spacetable --help`` or ``spacetable
resolve`` does not import every game's rules, bots and drawings: the game itself
(:class:`~spacetable.registry.Game`) is imported from :attr:`Listing.module` when a
command needs it, and heavy parts of a game (bots compiled by numba, duels, drawings)
when they are first called. tests/registry checks that each listing says what its game
does.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from spacetable.registry._game import Game


def load(target: str) -> Any:
    """The object ``target`` names, ``"package.module:name"``, importing its module."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


class Lazy:
    """A function named by where it lives (``"package.module:function"``), imported on
    its first call: the registry names a game's bots, duels and commands this way, so
    that loading a game does not load them. It pickles as its name (a worker process that
    is handed it imports the function itself)."""

    __slots__ = ("_function", "target")

    def __init__(self, target: str) -> None:
        self.target = target
        self._function: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None:
            self._function = load(self.target)
        return self._function(*args, **kwargs)

    def __reduce__(self) -> tuple[type[Lazy], tuple[str]]:
        return Lazy, (self.target,)

    def __repr__(self) -> str:
        return f"lazy({self.target!r})"


def lazy(target: str) -> Callable[..., Any]:
    """A function that calls ``target`` (``"package.module:function"``), importing its
    module on the first call (:class:`Lazy`)."""
    return Lazy(target)


def target_of(function: Callable[..., Any]) -> str:
    """Where ``function`` lives, ``"package.module:name"`` (a :func:`lazy` reference's
    target)."""
    if isinstance(function, Lazy):
        return function.target
    return f"{function.__module__}:{function.__qualname__}"


class GameCommand(NamedTuple):
    """A command a game adds to ``spacetable``: its ``name``, the typer function that runs
    it (``"package.module:function"``, imported when the command runs or shows its own
    help) and its ``summary``, the first line of that function's docstring, which
    ``spacetable --help`` lists."""

    name: str
    target: str
    summary: str


def summary_of(function: Callable[..., Any]) -> str:
    """The first line of ``function``'s docstring (what ``--help`` lists)."""
    return (function.__doc__ or "").strip().split("\n", 1)[0]


@dataclass(frozen=True, slots=True)
class Listing:
    """A registered game as the command line sees it before loading it.

    ``module`` defines the game as ``GAME``; the other fields repeat what the game says of
    itself (:meth:`of` reads them off a loaded game): its rules' ``key``, ``title``,
    ``rulesets``, whether rooms play it, its ``pacing`` and countdown option, what its
    referee calls its files (``None``: it settles none), its bots' levels, whether it has
    duels and cards to list (and the parts of its catalog), and the commands it adds.
    """

    key: str
    title: str
    module: str
    rulesets: tuple[str, ...]
    playable: bool = True
    pacing: str = "realtime"
    countdown_option: bool = False
    file_kind: str | None = None
    bot_levels: tuple[str, ...] = ()
    duels: bool = False
    cards: bool = False
    card_parts: tuple[str, ...] = ()
    prints: bool = False
    commands: tuple[GameCommand, ...] = ()

    def load(self) -> Game:
        """The game itself (imports :attr:`module`). Raises ``TypeError`` if the module
        defines no :class:`~spacetable.registry.Game` named ``GAME``."""
        from spacetable.registry._game import Game

        entry = getattr(importlib.import_module(self.module), "GAME", None)
        if not isinstance(entry, Game):
            raise TypeError(f"{self.module} defines no GAME")
        return entry

    @classmethod
    def of(cls, game: Game, module: str) -> Listing:
        """The listing of a loaded ``game`` that ``module`` defines."""
        rules = game.rules
        return cls(
            key=rules.key,
            title=rules.title,
            module=module,
            rulesets=rules.rulesets,
            playable=rules.playable,
            pacing=rules.pacing,
            countdown_option=rules.countdown_option is not None,
            file_kind=None if rules.referee is None else rules.referee.kind,
            bot_levels=game.bots.levels if game.bots is not None else (),
            duels=game.duel is not None,
            cards=game.cards is not None,
            card_parts=game.card_parts,
            prints=game.sheets is not None,
            commands=tuple(
                GameCommand(name, target_of(function), summary_of(load(target_of(function))))
                for name, function in game.commands
            ),
        )
