"""What a game is in the rules layer: its :class:`GameRules`, one object each game's package
exposes as ``RULES`` (DESIGN sections 1 and 7).

It names only rules things: the match state machine, the options a room offers, how a room
paces the game, and how a referee settles the game's files. The wiring to bots, renderers,
duels and commands sits one layer up, in the game registry (:mod:`spacetable.registry`),
which imports both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from spacetable.core.match import Match
from spacetable.i18n import Translator

#: How a room paces a game: ``realtime`` (cards in hand stream their poses and land when
#: their player drops them; stop and countdowns freeze them), ``plots`` (every seat plots
#: in secret; the turn resolves when all plots are in or the plot timer runs out) or
#: ``turns`` (one player acts at a time, as the match says whose move it is).
Pacing = Literal["realtime", "plots", "turns"]


@dataclass(frozen=True, slots=True)
class Referee:
    """How a game settles a file that describes a moment of a real game (a laser table
    when deployment ends, an FTL turn with its written orders): what ``spacetable
    resolve`` and ``render`` do with it.

    ``read`` checks decoded JSON and builds the file's object, raising ``error`` (one line
    naming the problem) when it is malformed or impossible; ``resolve`` plays it out
    (raising ``error`` for what only shows then); ``account`` tells the resolution in
    words, line by line; ``result_json`` is the ``resolve --json`` object.
    """

    read: Callable[[Any], Any]
    resolve: Callable[[Any], Any]
    account: Callable[[Any, Any], list[str]]
    result_json: Callable[[Any], dict[str, Any]]
    error: type[Exception]
    #: What the files are called in messages ("table file", "turn file").
    kind: str = "file"
    #: A drawing of the file shows its resolution even when not asked for (a turn file
    #: is its orders: there is nothing to draw without them).
    draws_resolution: bool = False
    #: The file as checked, defaults filled in, as JSON (the referee page edits it), if
    #: the game offers it.
    to_json: Callable[[Any], dict[str, Any]] | None = None
    #: ``account`` in the reader's language (``resolve --lang``), for a game whose
    #: account is translated; the others tell it in English.
    account_in: Callable[[Any, Any, Translator], list[str]] | None = None


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game as its rules define it.

    ``key`` names the game everywhere (URLs, ``--game``); ``rulesets`` are the ``ruleset``
    values of its files and stored matches. ``match`` is the match state machine (a
    :class:`~spacetable.core.match.Match` subclass); ``room_options`` the pydantic model of
    a room's options (``ruleset``, ``seats`` and the match options but the players), whose
    fields and bounds the lobby offers; ``pacing`` how a room plays it;
    ``countdown_option`` the match option a server may shorten for tests
    (``Timing.countdown_seconds``); ``referee`` how its files settle, if it has any.
    """

    key: str
    title: str
    rulesets: tuple[str, ...]
    referee: Referee | None = None
    match: type[Match[Any, Any]] | None = None
    room_options: type[BaseModel] | None = None
    pacing: Pacing = "realtime"
    countdown_option: str | None = None

    @property
    def playable(self) -> bool:
        """Whether rooms can play this game (it has a match and room options)."""
        return self.match is not None and self.room_options is not None


def nullable(default: Any, title: str, none_means: str, **bounds: Any) -> Any:
    """A room option that may be ``None`` (a pydantic ``Field``): ``title`` and ``bounds``
    (``ge``, ``le``...) as ``Field`` takes them, and ``none_means`` what ``None`` is called
    in the lobby's form ("none", "no timer": its ``value_titles``)."""
    return Field(
        default, title=title, json_schema_extra={"value_titles": {"null": none_means}}, **bounds
    )


#: The room option of correspondence play (issue 37): hours each turn waits for its
#: player, among registered players only (``server/rooms/correspondence.py``). A room
#: option, never a match's: the room keeps it out of the match options.
CORRESPONDENCE_OPTION = "turn_hours"
#: The longest a correspondence turn may wait (a week).
MAX_TURN_HOURS = 168


def turn_hours_option() -> Any:
    """The ``turn_hours`` room option a game that may be played by correspondence adds to
    its room options (1 to :data:`MAX_TURN_HOURS`; ``None``: played live)."""
    return nullable(
        None,
        "Hours per turn (correspondence, registered players only)",
        "live play",
        ge=1,
        le=MAX_TURN_HOURS,
    )
