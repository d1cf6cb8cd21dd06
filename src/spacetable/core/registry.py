"""The game registry (DESIGN section 7): one entry per game, through which the rest of
spacetable reaches every game without asking which one it is.

A game describes itself once, as a :class:`Game` named ``GAME`` in its own module, and is
registered by one line in :data:`REGISTRATIONS`. The command line (``spacetable resolve``
and ``render`` settle any game's files by the file's ``ruleset``), the server's lobby,
rooms and stored matches, and the browser (``GET /api/games``) reach every game through it.

The registrations are imported when first asked for, so that importing this module costs
nothing and a game's module may itself import this one.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from spacetable._userinput import clipped

#: The module of each game, which defines its ``GAME``: one line per game.
REGISTRATIONS: tuple[str, ...] = (
    "spacetable.games.lightspeed",
    "spacetable.games.stellar",
    "spacetable.games.ftl",
    "spacetable.games.hexfleet",
)


#: The largest file a referee reads (table and turn files alike; docs/formats.md, Limits).
MAX_FILE_BYTES = 1 << 20


class UnknownGame(LookupError):
    """No registered game has this key or plays files of this ruleset."""


@dataclass(frozen=True, slots=True)
class Referee:
    """How a game settles a file that describes a moment of a real game (a laser table
    when deployment ends, an FTL turn with its written orders): what ``spacetable
    resolve`` and ``render`` do with it.

    ``read`` checks decoded JSON and builds the file's object, raising ``error`` (one line
    naming the problem) when it is malformed or impossible; ``resolve`` plays it out
    (raising ``error`` for what only shows then); ``account`` tells the resolution in
    words, line by line; ``result_json`` is the ``resolve --json`` object; ``draw`` names
    the renderer, ``"module:function"`` taking ``(file, resolution or None)`` and returning
    SVG text (imported when drawing, so the rules layer does not import the renderers).
    """

    read: Callable[[Any], Any]
    resolve: Callable[[Any], Any]
    account: Callable[[Any, Any], list[str]]
    result_json: Callable[[Any], dict[str, Any]]
    draw: str
    error: type[Exception]
    #: What the files are called in messages ("table file", "turn file").
    kind: str = "file"
    #: ``render`` draws the resolution even without ``--battle`` (a turn file is its
    #: orders: there is nothing to draw without them).
    draws_resolution: bool = False
    #: The file as checked, defaults filled in, as JSON (the referee page edits it), if
    #: the game offers it.
    to_json: Callable[[Any], dict[str, Any]] | None = None

    def renderer(self) -> Callable[[Any, Any], str]:
        """The drawing function :attr:`draw` names (imported now)."""
        function: Callable[[Any, Any], str] = _imported(self.draw)
        return function

    def svg(self, settled: Any, resolution: Any | None) -> str:
        """Draw ``settled`` (with its resolution, if given) as SVG."""
        return self.renderer()(settled, resolution)


def _imported(path: str) -> Any:
    """The object ``"module:name"`` names (imported now)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True, slots=True)
class Bots:
    """A game's bots: ``make`` names ``"module:function"``, taking a level and returning a
    bot with ``choose(view, rng) -> action`` (imported when a bot is made: the bots import
    the games, not the other way round); ``levels`` in order of strength; ``default`` is
    offered first (to someone new: the level a beginner can play against); ``warm_up``
    names a function that loads what the first move would wait for (called off the event
    loop at start-up), if any; ``about`` tells each level in words for the seat panel and
    the lobby: what it does and at what pace (``("beginner", "places a card about every
    6 s")``)."""

    make: str
    levels: tuple[str, ...]
    default: str
    warm_up: str | None = None
    about: tuple[tuple[str, str], ...] = ()
    #: The level that plays for a player who went away (``None``: the default). A
    #: stand-in keeps his seat in the match, so it should play about as well as he did.
    stand_in: str | None = None

    @property
    def stand_in_level(self) -> str:
        """The level of a bot standing in for a player."""
        return self.stand_in or self.default

    def describe(self, level: str) -> str:
        """``level`` in words, its name first: "Beginner — places a card about every 6 s"
        (the name alone for a level with no description)."""
        title = level[:1].upper() + level[1:]
        words = dict(self.about).get(level)
        return f"{title} — {words}" if words else title

    def bot(self, level: str) -> Any:
        """A bot of ``level``. Raises ``ValueError`` naming the levels there are."""
        if level not in self.levels:
            raise ValueError(f"unknown bot level {level!r} (one of: {', '.join(self.levels)})")
        return _imported(self.make)(level)

    def warm(self) -> None:
        """Run :attr:`warm_up` (seconds of work: call it off the event loop)."""
        if self.warm_up is not None:
            _imported(self.warm_up)()


#: How a room paces a game: ``realtime`` (cards in hand stream their poses and land when
#: their player drops them; stop and countdowns freeze them), ``plots`` (every seat plots
#: in secret; the turn resolves when all plots are in or the plot timer runs out) or
#: ``turns`` (one player acts at a time, as the match says whose move it is).
Pacing = Literal["realtime", "plots", "turns"]


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the rest of spacetable sees it.

    ``match`` is the match state machine (a :class:`~spacetable.core.match.Match`
    subclass); ``room_options`` the pydantic model of a room's options (``ruleset``,
    ``seats`` and the match options but the players), whose fields and bounds the lobby
    offers; ``pacing`` how a room plays it; ``countdown_option`` the match option a server
    may shorten for tests (``Timing.countdown_seconds``); ``resources`` what the browser may
    fetch at ``/api/games/{key}/{name}`` (``"module:function"`` returning JSON).
    """

    key: str
    title: str
    #: The ``ruleset`` values of this game's files and stored matches.
    rulesets: tuple[str, ...]
    referee: Referee | None = None
    match: type[Any] | None = None
    room_options: type[Any] | None = None
    pacing: Pacing = "realtime"
    bots: Bots | None = None
    countdown_option: str | None = None
    resources: tuple[tuple[str, str], ...] = ()
    #: ``"module:function"`` listing the game's cards for ``spacetable cards``: takes a
    #: part of the catalog or ``None`` (all), returns ``(cards by key, text table)``,
    #: raises ``ValueError`` naming an unknown part.
    cards: str | None = None
    #: ``"module:function"`` playing one seeded duel of two of its bots to the end
    #: (:class:`spacetable.core.duels.Duel`), for ``spacetable duels``, if the game has one.
    duel: str | None = None
    #: Commands the game adds to ``spacetable``: ``(name, "module:function")``, the
    #: function a typer command (its signature is the command's options) returning the
    #: text to print, raising ``ValueError`` naming a bad option (one line, exit status 2).
    commands: tuple[tuple[str, str], ...] = ()
    #: The folder of the game's browser module (``index.js`` and what it imports), served
    #: at :attr:`client`'s folder; ``None`` for a game whose module ships in ``web/js/games/``.
    web_dir: Path | None = None

    def command_functions(self) -> list[tuple[str, Callable[..., Any]]]:
        """The game's commands (:attr:`commands`), imported now."""
        return [(name, _imported(path)) for name, path in self.commands]

    def duel_function(self) -> Any:
        """The game's duel (:attr:`duel`), imported now. Raises ``ValueError`` if none."""
        if self.duel is None:
            raise ValueError(f"{self.title} has no duels to measure its bots")
        return _imported(self.duel)

    def card_list(self, part: str | None) -> tuple[dict[str, Any], str]:
        """The game's cards (of ``part``) and their table as text (:attr:`cards`)."""
        if self.cards is None:
            raise ValueError(f"{self.title} has no cards to list")
        listed: tuple[dict[str, Any], str] = _imported(self.cards)(part)
        return listed

    @property
    def playable(self) -> bool:
        """Whether rooms can play this game (it has a match and room options)."""
        return self.match is not None and self.room_options is not None

    def resource(self, name: str) -> Any:
        """The JSON of the resource ``name``; raises ``KeyError`` for an unknown one."""
        for key, path in self.resources:
            if key == name:
                return _imported(path)()
        raise KeyError(name)

    @property
    def client(self) -> str:
        """The URL of the game's browser module (``games/<key>/index.js``)."""
        return f"/static/js/games/{self.key}/index.js"

    def to_json(self) -> dict[str, Any]:
        """The game as ``GET /api/games`` lists it."""
        return {
            "key": self.key,
            "title": self.title,
            "rulesets": list(self.rulesets),
            "pacing": self.pacing,
            "playable": self.playable,
            "bot_levels": list(self.bots.levels) if self.bots else [],
            "default_bot": self.bots.default if self.bots else None,
            "bot_descriptions": (
                {level: self.bots.describe(level) for level in self.bots.levels}
                if self.bots
                else {}
            ),
            "resources": [name for name, _ in self.resources],
            "client": self.client,
            "options": None if self.room_options is None else self.room_options.model_json_schema(),
        }


@functools.cache
def games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    return tuple(importlib.import_module(name).GAME for name in REGISTRATIONS)


def preload() -> None:
    """Import every game and its renderer now (a worker forked afterwards starts warm)."""
    for entry in games():
        if entry.referee is not None:
            entry.referee.renderer()


def game(key: str) -> Game:
    """The game registered under ``key``; raises :class:`UnknownGame`."""
    for entry in games():
        if entry.key == key:
            return entry
    raise UnknownGame(f"unknown game {key!r} (known: {', '.join(g.key for g in games())})")


def rulesets() -> tuple[str, ...]:
    """Every ruleset a registered game's files may name."""
    return tuple(r for entry in games() for r in entry.rulesets)


def game_for_ruleset(ruleset: Any) -> Game:
    """The game whose files name ``ruleset``; raises :class:`UnknownGame` naming the
    rulesets there are."""
    for entry in games():
        if ruleset in entry.rulesets:
            return entry
    known = ", ".join(rulesets())
    if ruleset is None:
        raise UnknownGame(f"the file names no 'ruleset' (one of: {known})")
    raise UnknownGame(f"unknown ruleset {clipped(ruleset)} (one of: {known})")


def referee_for(data: Any) -> tuple[Game, Referee]:
    """The game and referee for a decoded file, by its ``ruleset``; raises
    :class:`UnknownGame` for a file no registered game settles."""
    if not isinstance(data, dict):
        raise UnknownGame("the file must hold a JSON object")
    entry = game_for_ruleset(data.get("ruleset"))
    if entry.referee is None:
        raise UnknownGame(f"{entry.title} has no file format to resolve")
    return entry, entry.referee
