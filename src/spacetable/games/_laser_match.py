"""What a Light Speed match and a Stellar Conflict match share: the placing round's cards
(:mod:`spacetable.games._deployment`), the freeze, the laser battle at the end, the table
it leaves and what everyone sees of it.

:class:`LaserMatch` is the base both games' matches extend. It plays the cards: a card in
hand is placed during the placing round, dropped or discarded once the cards froze, and
discarded by the server's :class:`~spacetable.games._deployment.Timeout`; when nobody
holds a card any more, the battle is resolved and the match is over. Each game adds what
comes before (Stellar Conflict's secret fleets), what freezes the cards (stop, or the
countdown), and its own setup and view.
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from enum import StrEnum
from typing import Any, ClassVar, Literal, Protocol, TypeVar, cast

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from spacetable.core.endings import StoppedResult
from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions, Match, Options
from spacetable.games._deployment import (
    Deployment,
    Discard,
    Drop,
    Place,
    StopCalled,
    Timeout,
)
from spacetable.i18n.phrase import Phrase, Reason, phrase, player_said, refusal
from spacetable.lasers.battle import Card, Outcome, Resolver, resolve
from spacetable.lasers.geometry import rect_inside
from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import Table, catalog


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class Phase(StrEnum):
    """Where a laser match stands. Light Speed goes ``fast``, ``stop``, ``over``; Stellar
    Conflict ``preparation``, ``deployment``, ``stop``, ``over``."""

    #: Stellar Conflict: every player chooses his fleet in secret.
    PREPARATION = "preparation"
    #: Light Speed's fast round: everyone places cards at once.
    FAST = "fast"
    #: Stellar Conflict's deployment: the same, maybe against a countdown.
    DEPLOYMENT = "deployment"
    #: The cards in hand froze: each is dropped where it is or discarded.
    STOP = "stop"
    OVER = "over"


class LaserOptions(Options, Protocol):
    """What the placing round needs of a laser game's options."""

    @property
    def table_size_mm(self) -> tuple[float, float]:
        """Width and height of the table, centred on the origin."""
        ...

    def asteroid_cards(self) -> tuple[Card, ...]:
        """The asteroid cards as they lie before the placing round."""
        ...


#: The actions of the placing round and after the freeze.
CardAction = Place | Drop | Discard | Timeout
ActionT = TypeVar("ActionT", bound=Action)
OptionsT = TypeVar("OptionsT", bound=LaserOptions)
_Self = TypeVar("_Self")


def check_asteroids_fit(options: LaserOptions) -> None:
    """Raise :class:`~spacetable.core.match.InvalidOptions` if an asteroid card of
    ``options`` does not lie wholly on its table."""
    width, height = options.table_size_mm
    for card in options.asteroid_cards():
        if not rect_inside(card.rect, width, height):
            raise InvalidOptions(
                f"the {width:g} x {height:g} mm table is too small for the asteroids"
            )


def options_from_json(options_type: type[_Self], title: str, data: Any) -> _Self:
    """Options of ``options_type`` (a dataclass) from JSON; missing keys take their
    defaults. Raises :class:`~spacetable.core.match.InvalidOptions` naming unknown keys
    (``title`` names the game)."""
    if not isinstance(data, dict):
        raise InvalidOptions(f"{title} options must be a JSON object")
    known = {f.name for f in dataclasses.fields(cast(Any, options_type))}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
    return options_type(**data)


def catalog_json(ruleset: str) -> dict[str, Any]:
    """A laser game's ship definitions as JSON (DESIGN section 2), keyed by ship."""
    return {key: ship.to_json() for key, ship in catalog(ruleset).items()}


class LaserTableView(TypedDict):
    """What every laser game's view has (:meth:`LaserMatch.table_view`), as its ``state``
    carries it (the games' registrations declare their views: ``Game.payloads``)."""

    ruleset: str
    phase: str
    player: str | None
    hand: str | None
    table: list[dict[str, Any]]
    stopped_by: str | None
    table_size_mm: list[float]


class LaserPlayerStatus(TypedDict):
    """One player's cards, in a laser game's view (:meth:`LaserMatch.card_statuses`)."""

    cards_left: int | None
    holding: str | None
    decided: bool
    discarded: str | None


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class LaserStoppedResult(StoppedResult):
    """The ``result`` of a laser match the players stopped before its battle (a battle's
    result is the ``battle`` message's): no battle, so no ``events``."""

    events: list[Any]


class LaserMatch(Match[ActionT, OptionsT]):
    """A laser game's match from the placing round to the battle's outcome.

    Subclasses set :attr:`round_name` and :meth:`_round_over`, start in their own
    :attr:`phase`, and call :meth:`_check_card` and :meth:`_play_card` for the actions
    of :data:`CardAction`.
    """

    #: The placing round in a refusal: "there is no discarding in the fast round".
    round_name: ClassVar[str]

    def __init__(self, options: OptionsT, seed: int, ships: dict[str, ShipDef]) -> None:
        """Lay the asteroids of ``options``; ``ships`` holds every card a deck may hold."""
        super().__init__(options, seed)
        #: What resolves the battle: the reference by default. The server sets the
        #: compiled resolver, which gives the same outcome and events much faster.
        self.resolver: Resolver = resolve
        self.phase = Phase.FAST
        #: Who placed his last card and called stop.
        self.stopped_by: str | None = None
        #: Server time (s) a countdown freezes the cards in hand, if one runs.
        self.deadline: float | None = None
        self._ships = ships
        self._round = Deployment(
            options.players, ships, options.asteroid_cards(), options.table_size_mm
        )
        self._outcome: Outcome | None = None
        #: :meth:`table_cards` as last written (the table only grows).
        self._cards_json: list[dict[str, Any]] | None = None

    # -- questions the server and the bots ask ------------------------------------------------

    def hand(self, player: str) -> str | None:
        """The ship key of the card ``player`` holds, or ``None``."""
        return self._round.hands.get(player)

    def needs_action(self, player: str) -> bool:
        """Whether ``player`` holds a card he can still place, drop or discard."""
        return self.phase != Phase.OVER and self._round.hands.get(player) is not None

    def result(self) -> Outcome | None:
        """The battle's outcome once the match is over, else ``None``."""
        return self._outcome

    def check_placement(
        self, player: str, x: float, y: float, rotation_deg: float
    ) -> Reason | None:
        """Why ``player``'s card in hand may not lie at ``(x, y, rotation_deg)`` now, or
        ``None`` if it may. Applies nothing; the phase is :meth:`check`'s business."""
        return self._round.check_placement(player, x, y, rotation_deg)

    # -- rules ----------------------------------------------------------------------------------

    def _freeze(self) -> Phrase:
        """Why the cards in hand froze."""
        if self.stopped_by:
            return phrase("{player} called stop", player=player_said(self.stopped_by))
        return phrase("time is up")

    def _not_frozen(self) -> Reason:
        """Why nothing is frozen yet."""
        return refusal("nobody has called stop yet")

    def _check_card(self, action: CardAction) -> Reason | None:
        """Why a card action is illegal now, or ``None`` (the match is not over)."""
        if isinstance(action, Timeout):
            return None if self.phase == Phase.STOP else self._not_frozen()
        problem = self._round.player_problem(action.player)
        if problem is not None:
            return problem
        ship = self._round.hands[action.player]
        if ship is None:
            return self._round.no_card(action.player)
        name = self._ships[ship].name
        if isinstance(action, Place):
            if self.phase == Phase.STOP:
                return refusal(
                    "{why}: drop your {ship} or discard it", why=self._freeze(), ship=name
                )
            if self.deadline is not None and action.t >= self.deadline:
                return refusal("the countdown ran out at t={t} s: your {ship} froze",
                               t=f"{self.deadline:g}", ship=name)  # fmt: skip
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        if self.phase != Phase.STOP:
            if isinstance(action, Discard):
                return refusal("there is no discarding {when}: place your {ship}",
                               when=Phrase(self.round_name), ship=name)  # fmt: skip
            return refusal("{why}: place your {ship}", why=self._not_frozen().phrase, ship=name)
        if isinstance(action, Drop):
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        return None

    def _cubes(self, player: str) -> int:
        """Cubes on the card ``player`` holds when it lands (none in Light Speed)."""
        return 0

    def _stops_when_dealt_out(self) -> bool:
        """Whether a player who places his last card calls stop."""
        return True

    def _play_card(self, action: CardAction) -> list[Event]:
        """Apply a legal card action; once nobody holds a card, resolve the battle."""
        events: list[Event] = []
        t = float(action.t)
        if isinstance(action, Place):
            events.append(self._round.place(action, self._cubes(action.player)))
            if not self._round.draw(action.player) and self._stops_when_dealt_out():
                self.phase = Phase.STOP
                self.stopped_by = action.player
                events.append(StopCalled(action.player, t))
        elif isinstance(action, Drop):
            events.append(self._round.drop(action, self._cubes(action.player)))
        elif isinstance(action, Discard):
            events.append(self._round.discard(action.player, False, t))
        else:
            events.extend(self._round.discard(p, True, t) for p in self._round.holding())
        return events + self._end_of_round(t)

    @abstractmethod
    def _round_over(self, t: float) -> Event:
        """The event that ends the placing round at ``t`` (the battle's events follow)."""

    def _end_of_round(self, t: float) -> list[Event]:
        """If nobody holds a card any more, resolve the battle: the round's end and the
        battle's events."""
        if self._round.holding():
            return []
        self._outcome = self.to_table().resolve(self.resolver)
        self.phase = Phase.OVER
        return [self._round_over(t), *self._outcome.events]

    # -- exports ------------------------------------------------------------------------------

    def _variant(self) -> dict[str, bool]:
        """The table file's ``variant`` for this match."""
        return {}

    def to_table(self) -> Table:
        """The cards on the table now as a table file's :class:`~spacetable.lasers.tables.Table`
        (the final position once the match is over)."""
        return Table(
            cast(Literal["lightspeed", "stellar"], self.ruleset),
            self.players,
            tuple(self._round.table),
            self._variant(),
            table_size=self.options.table_size_mm,
        )

    def table_cards(self) -> list[dict[str, Any]]:
        """The cards on the table in placement order (asteroids first), as table-file card
        objects (DESIGN section 3). A card once down never changes, so they are written
        once for every view of the same table (a room sends one a player a placement)."""
        cards = self._round.table
        written = self._cards_json or []
        if len(written) != len(cards):  # only the cards put down since are written
            table = self.to_table()
            new = cards[len(written) :] if len(written) < len(cards) else cards
            kept = written if len(written) < len(cards) else []
            self._cards_json = written = kept + [table.card_json(card) for card in new]
        return list(written)

    # -- the observer -------------------------------------------------------------------------

    def card_statuses(self) -> dict[str, dict[str, Any]]:
        """Each player's cards in seat order: ``cards_left`` in the deck (``None`` before
        the decks are dealt), ``holding`` (ship key or ``None``), ``decided`` (after the
        freeze: nothing left to choose), ``discarded`` (ship key or ``None``)."""
        cards = self._round
        dealt = self.phase != Phase.PREPARATION
        return {
            p: {
                "cards_left": len(cards.decks[p]) if dealt else None,
                "holding": cards.hands[p],
                "decided": self.phase in (Phase.STOP, Phase.OVER) and cards.hands[p] is None,
                "discarded": cards.discarded.get(p),
            }
            for p in self.players
        }

    def table_view(self, player: str | None) -> dict[str, Any]:
        """What everyone sees of the cards, as the start of :meth:`view`: ``ruleset``,
        ``phase``, ``player``, ``hand`` (your card's ship key or ``None``), ``table``
        (:meth:`table_cards`), ``stopped_by``, ``table_size_mm``. Raises ``ValueError``
        for a name that is not a player."""
        if player is not None and player not in self._round.hands:
            raise ValueError(f"{player!r} is not a player in this match")
        return {
            "ruleset": self.ruleset,
            "phase": self.phase.value,
            "player": player,
            "hand": None if player is None else self._round.hands[player],
            "table": self.table_cards(),
            "stopped_by": self.stopped_by,
            "table_size_mm": list(self.options.table_size_mm),
        }
