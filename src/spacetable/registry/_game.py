"""A registered game: its rules (:class:`~spacetable.core.rules.GameRules`) and the wiring
one layer up, to its bots, its drawings, its duels and the commands it adds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from spacetable.bots import Bot
from spacetable.i18n import ENGLISH, Translator
from spacetable.printing.choices import Sheets
from spacetable.registry._room import RealtimePlay, SeatChoice

if TYPE_CHECKING:
    from spacetable.core.duels import DuelResult
    from spacetable.core.rules import GameRules
    from spacetable.registry.messages import MoveMessage


class Draw(Protocol):
    """Draws a file the game's referee settled, with its resolution if given, as SVG text,
    its words in ``tr``'s language (``Game.draw``)."""

    def __call__(
        self, settled: Any, resolution: Any | None = None, /, *, tr: Translator
    ) -> str: ...


class DuelFunction(Protocol):
    """Plays one seeded duel of bot ``a`` against bot ``b`` to its end (``Game.duel``;
    :mod:`spacetable.core.duels`): ``a`` in the first seat if ``a_first``, the game's own
    turn limit unless given, each decision timed by ``clock`` if given. A game's duel may
    take options of its own as keywords (the hex fleet's ``scenario``)."""

    def __call__(
        self,
        a: Bot[Any],
        b: Bot[Any],
        seed: int,
        /,
        *,
        a_first: bool = True,
        turn_limit: int = ...,
        clock: Callable[[], float] | None = None,
    ) -> DuelResult: ...


@dataclass(frozen=True, slots=True)
class Bots:
    """A game's bots: ``make`` takes a level and returns a bot with ``choose(view, rng) ->
    action``; ``levels`` in order of strength; ``default`` is the level a seat gets
    when none is named (a stand-in's too, unless ``stand_in`` says otherwise); ``beginner``
    the one the lobby's "Play a bot" offers first; ``warm_up`` loads what the first move
    would wait for (called off the event loop at start-up), if anything; ``about`` tells
    each level in words for the seat panel and the lobby: what it does and at what pace
    (``("beginner", "places a card about every 6 s")``)."""

    make: Callable[[str], Bot[Any]]
    levels: tuple[str, ...]
    default: str
    warm_up: Callable[[], object] | None = None
    about: tuple[tuple[str, str], ...] = ()
    #: The level that plays for a player who went away (``None``: the default). A
    #: stand-in keeps his seat in the match, so it should play about as well as he did.
    stand_in: str | None = None
    #: The level the lobby's "Play a bot" offers first: the weakest that plays to win (not
    #: "random", a target to learn on), for someone new (``None``: the default).
    beginner: str | None = None

    @property
    def beginner_level(self) -> str:
        """The level "Play a bot" offers a newcomer first."""
        return self.beginner or self.default

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

    def bot(self, level: str) -> Bot[Any]:
        """A bot of ``level``. Raises ``ValueError`` naming the levels there are."""
        if level not in self.levels:
            raise ValueError(f"unknown bot level {level!r} (one of: {', '.join(self.levels)})")
        return self.make(level)

    def warm(self) -> None:
        """Run :attr:`warm_up` (seconds of work: call it off the event loop)."""
        if self.warm_up is not None:
            self.warm_up()


def every_player_moved(stored: Mapping[str, Any]) -> bool:
    """Whether every seated player of the stored match ``stored`` made a move of his own:
    an action of its log names him (``player``). A game's first round, unless its
    registration says otherwise (:attr:`Game.opening_over`)."""
    players = {str(seat.get("player") or seat.get("name")) for seat in stored.get("seats") or ()}
    moved = {str(action.get("player")) for action in stored.get("actions") or ()}
    return bool(players) and players <= moved


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the rest of spacetable sees it: its ``rules`` and what plays, draws and
    measures it.

    ``draw`` draws a file its referee settled, ``(file, resolution or None, tr=translator)``
    to SVG text, its words in the translator's language; ``resources`` are what the browser
    may fetch at ``/api/games/{key}/{name}`` (functions returning JSON).
    """

    rules: GameRules
    bots: Bots | None = None
    draw: Draw | None = None
    #: Each resource's name and the function that returns its JSON.
    resources: tuple[tuple[str, Callable[[], Any]], ...] = ()
    #: Lists the game's cards for ``spacetable cards``: takes a part of the catalog or
    #: ``None`` (all), returns ``(cards by key, text table)``, raises ``ValueError``
    #: naming an unknown part.
    cards: Callable[[str | None], tuple[dict[str, Any], str]] | None = None
    #: The parts of the catalog :attr:`cards` takes (Stellar Conflict's races), if any.
    card_parts: tuple[str, ...] = ()
    #: Plays one seeded duel of two of its bots to the end
    #: (:class:`spacetable.core.duels.Duel`), for ``spacetable duels``, if the game has one.
    duel: DuelFunction | None = None
    #: Commands the game adds to ``spacetable``: ``(name, function)``, the function a
    #: typer command (its signature is the command's options) returning the text to print,
    #: raising ``ValueError`` naming a bad option (one line, exit status 2).
    commands: tuple[tuple[str, Callable[..., str]], ...] = ()
    #: The folder of the game's browser module (``index.js`` and what it imports), served
    #: at :attr:`client`'s folder; ``None`` for a game whose module ships in ``web/js/games/``.
    web_dir: Path | None = None
    #: Who is ahead in an unfinished match: each player's standing (higher is ahead), or
    #: ``None`` when the game cannot tell yet (a laser battle is decided all at once). The
    #: bots answer a draw offer by it (docs/rulings.md): a bot accepts only when behind.
    standing: Callable[[Any], Mapping[str, float] | None] | None = None
    #: The game's print-and-play sheets, for ``spacetable print``, if it has any.
    sheets: Sheets | None = None
    #: A stored match (``GET /api/matches/{id}``'s JSON) as the game replays it now, for a
    #: game whose older stored matches need it (seconds of work: called off the event
    #: loop); ``None``: stored matches replay as they are.
    upgrade_stored: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    #: Whether the photo referee (``spacetable photo``, ``POST /api/referee/photo``) reads
    #: the game's tables: its printed cards carry the markers :mod:`spacetable.photo`
    #: finds, and its referee's files are tables of cards.
    photos: bool = False
    #: The messages the game adds to the websocket protocol that players send during the
    #: match, each becoming one of its actions (Stellar Conflict's ``fleet``).
    moves: tuple[type[MoveMessage], ...] = ()
    #: What each seated player chooses for his own seat in the lobby (Stellar Conflict's
    #: race), each with its message.
    seat_choices: tuple[SeatChoice, ...] = ()
    #: How a room plays the game's placing round, for a game paced in real time.
    realtime: RealtimePlay | None = None
    #: The room the state-size benchmark (``spacetable bench --state-bytes``) plays: a
    #: ``POST /api/rooms`` body of four seats, all played by bots.
    bench_room: Mapping[str, Any] | None = None
    #: Whether a stored match (``GET /api/matches/{id}``'s JSON: its ``seats``,
    #: ``actions``, ``events``) got past its first turn or round. A match stopped before
    #: (resigned, a draw agreed, a win claimed) is not rated (docs/accounts.md): a
    #: resignation at once must not farm a rating. ``None``: once every seated player made
    #: a move of his own (:func:`every_player_moved`).
    opening_over: Callable[[Mapping[str, Any]], bool] | None = None
    #: The game's own objects in the server's socket messages, each declared by a
    #: ``TypedDict``, by message type: ``state``, the game's view (every key it always
    #: has). ``spacetable protocol schema`` joins it with the pacing's clocks and refuses
    #: a ``state`` with a key neither declares (a renamed field), or without one of them.
    payloads: tuple[tuple[str, Any], ...] = ()

    def past_opening(self, stored: Mapping[str, Any]) -> bool:
        """Whether the stored match ``stored`` got past its first turn or round
        (:attr:`opening_over`)."""
        over = self.opening_over or every_player_moved
        return over(stored)

    def seat_choice(self, message: str) -> SeatChoice | None:
        """The seat choice that the lobby message of type ``message`` makes, if the game
        has it."""
        return next((c for c in self.seat_choices if c.type == message), None)

    def ahead(self, match: Any) -> Mapping[str, float] | None:
        """The players' standing in ``match`` (:attr:`standing`), ``None`` if untold."""
        return None if self.standing is None else self.standing(match)

    def for_replay(self, stored: dict[str, Any]) -> dict[str, Any]:
        """The stored match ``stored`` as the game replays it now (:attr:`upgrade_stored`)."""
        return stored if self.upgrade_stored is None else self.upgrade_stored(stored)

    @property
    def client(self) -> str:
        """The URL of the game's browser module (``games/<key>/index.js``)."""
        return f"/static/js/games/{self.rules.key}/index.js"

    def svg(self, settled: Any, resolution: Any | None, tr: Translator = ENGLISH) -> str:
        """Draw a file the game's referee settled (with its resolution, if given) as SVG,
        its words in ``tr``'s language. Raises ``ValueError`` if the game draws none."""
        if self.draw is None:
            raise ValueError(f"{self.rules.title} has no drawing of its files")
        return self.draw(settled, resolution, tr=tr)

    def duel_function(self) -> DuelFunction:
        """The game's duel (:attr:`duel`). Raises ``ValueError`` if it has none."""
        if self.duel is None:
            raise ValueError(f"{self.rules.title} has no duels to measure its bots")
        return self.duel

    def card_list(self, part: str | None) -> tuple[dict[str, Any], str]:
        """The game's cards (of ``part``) and their table as text (:attr:`cards`)."""
        if self.cards is None:
            raise ValueError(f"{self.rules.title} has no cards to list")
        return self.cards(part)

    def resource(self, name: str) -> Any:
        """The JSON of the resource ``name``; raises ``KeyError`` for an unknown one."""
        for key, function in self.resources:
            if key == name:
                return function()
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The game as ``GET /api/games`` lists it."""
        rules = self.rules
        return {
            "key": rules.key,
            "title": rules.title,
            "rulesets": list(rules.rulesets),
            "pacing": rules.pacing,
            "playable": rules.playable,
            "bot_levels": list(self.bots.levels) if self.bots else [],
            "default_bot": self.bots.default if self.bots else None,
            "beginner_bot": self.bots.beginner_level if self.bots else None,
            "bot_descriptions": (
                {level: self.bots.describe(level) for level in self.bots.levels}
                if self.bots
                else {}
            ),
            "resources": [name for name, _ in self.resources],
            "photos": self.photos and rules.referee is not None,
            "client": self.client,
            "options": None
            if rules.room_options is None
            else rules.room_options.model_json_schema(),
        }
