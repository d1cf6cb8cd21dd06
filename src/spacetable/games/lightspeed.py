"""Light Speed as a match: setup, the fast round, "stop!", then the laser battle.

The match is a pure state machine (:mod:`spacetable.core.match`): no clock, no I/O, no
global random. Each player's deck is the ten Light Speed ships, shuffled with the match's
seeded ``random.Random`` in seat order, so a match replays exactly from its options, seed
and action log (:meth:`LightSpeedMatch.replay`).

Phases (:class:`Phase`):

``fast``
    Everyone plays at once. Each player holds the top card of his deck. :class:`Place`
    puts it on the table at a pose; it must lie wholly on the table and touch no card
    already there. The next card of the deck then comes to hand. There is no discarding.
    Whoever places his last card calls stop at once.
``stop``
    Every other player still holds a card and must choose: :class:`Drop` it at a pose
    (the server sends the pose where the card froze; an illegal spot is refused and the
    player may choose again or discard) or :class:`Discard` it. The server sends
    :class:`Timeout` when its stop countdown runs out: every card still undecided is
    discarded. Once nobody is undecided the battle is resolved
    (:func:`spacetable.lasers.battle.resolve`) and the match is over.
``over``
    :meth:`LightSpeedMatch.result` is the battle's :class:`~spacetable.lasers.battle.Outcome`.

Moving the card in hand is not an action: the server streams hand poses without storing
them, and asks :meth:`LightSpeedMatch.check_placement` why a spot is refused.

What a player sees (:meth:`LightSpeedMatch.view`): every card on the table, every player's
card in hand (cards are played face up, so the ship a player is positioning is visible to
all; the server's pose stream shows it anyway), how many cards each deck still holds, and
which card each player discarded at the stop. Never the order of any deck.

Card ids on the table are ``"<player>-<ship key>"`` (``"red-moth"``), unique because every
deck holds one of each ship; asteroids are ``"asteroid"``, or ``"asteroid-1"`` and
``"asteroid-2"`` with two small asteroids.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions, Match, decode_action
from spacetable.core.registry import Game
from spacetable.games._deployment import DEFAULT_TABLE_MM as DEFAULT_TABLE_MM
from spacetable.games._deployment import LASER_BOTS, Deployment, checked_players, checked_table_size
from spacetable.games._deployment import CardDiscarded as CardDiscarded
from spacetable.games._deployment import CardDropped as CardDropped
from spacetable.games._deployment import CardPlaced as CardPlaced
from spacetable.games._deployment import Discard as Discard
from spacetable.games._deployment import Drop as Drop
from spacetable.games._deployment import Place as Place
from spacetable.games._deployment import StopCalled as StopCalled
from spacetable.games._deployment import Timeout as Timeout
from spacetable.lasers.battle import Card, Outcome, Resolver, resolve
from spacetable.lasers.geometry import Pose, rect_inside
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import TABLE_REFEREE, Table, catalog

# -- static facts ---------------------------------------------------------------------------

RULESET = "lightspeed"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

AsteroidLayout = Literal["single", "large", "two-small"]
ASTEROID_LAYOUTS: tuple[AsteroidLayout, ...] = ("single", "large", "two-small")

#: Rocks on the asteroid (single or large) unless the options say otherwise.
DEFAULT_ROCKS = 12
#: Rocks on each of two small asteroids, by number of players.
TWO_SMALL_ROCKS = {2: 6, 3: 8, 4: 10}
#: The large asteroid: the two asteroid cards side by side along their long edges.
LARGE_ASTEROID_MM = (2 * CARD_SIZE_MM[0], CARD_SIZE_MM[1])
#: Gap between two small asteroids: "several inches" read as six (152.4 mm).
SMALL_ASTEROID_GAP_MM = 6 * 25.4


class Phase(StrEnum):
    """Where the match stands."""

    FAST = "fast"
    STOP = "stop"
    OVER = "over"


@functools.cache
def fleet() -> dict[str, ShipDef]:
    """The ten ships of every Light Speed deck, keyed by ship key, in catalog order."""
    return catalog(RULESET)


# -- actions --------------------------------------------------------------------------------

# The fast round's actions are shared with Stellar Conflict's deployment
# (:mod:`spacetable.games._deployment`): :class:`Place` in the fast round, :class:`Drop` or
# :class:`Discard` after stop, and the server's :class:`Timeout` at the end of its stop
# countdown.

LightSpeedAction = Place | Drop | Discard | Timeout
ACTION_TYPES: tuple[type[LightSpeedAction], ...] = (Place, Drop, Discard, Timeout)


# -- events ---------------------------------------------------------------------------------

# :class:`CardPlaced`, :class:`StopCalled`, :class:`CardDropped` and :class:`CardDiscarded`
# are shared with Stellar Conflict; the end of the fast round is Light Speed's own.


@dataclass(frozen=True, slots=True)
class FastRoundOver(Event):
    """Every card is down or discarded; the battle's events follow."""

    type_name: ClassVar[str] = "fast-round-over"
    t: float


# -- the game: options and setup ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LightSpeedOptions:
    """How a Light Speed match is set up.

    ``players``: 2 to 4 distinct names in seat order. ``asteroids``: ``"single"`` (one
    asteroid card at the centre), ``"large"`` (the two asteroid cards together as one
    126 x 88 mm asteroid) or ``"two-small"`` (two asteroid cards six inches apart).
    ``rocks``: rocks on each asteroid, overriding the default (12, or 6 / 8 / 10 each for
    two small asteroids with 2 / 3 / 4 players). ``piracy``: the Piracy variant.
    ``table_size_mm``: width and height of the table, centred on the origin.

    Raises :class:`~spacetable.core.match.InvalidOptions` naming the bad option.
    """

    players: tuple[str, ...] = ("red", "blue")
    asteroids: AsteroidLayout = "single"
    rocks: int | None = None
    piracy: bool = False
    table_size_mm: tuple[float, float] = field(default=DEFAULT_TABLE_MM)

    def __post_init__(self) -> None:
        players = checked_players(self.players, "Light Speed", MIN_PLAYERS, MAX_PLAYERS)
        if self.asteroids not in ASTEROID_LAYOUTS:
            raise InvalidOptions(
                f"'asteroids' must be one of {', '.join(ASTEROID_LAYOUTS)}, got {self.asteroids!r}"
            )
        if self.rocks is not None and (
            isinstance(self.rocks, bool) or not isinstance(self.rocks, int) or self.rocks < 1
        ):
            raise InvalidOptions(f"'rocks' must be a whole number >= 1, got {self.rocks!r}")
        if not isinstance(self.piracy, bool):
            raise InvalidOptions(f"'piracy' must be true or false, got {self.piracy!r}")
        width, height = checked_table_size(self.table_size_mm)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "table_size_mm", (width, height))
        for card in self.asteroid_cards():
            if not rect_inside(card.rect, width, height):
                raise InvalidOptions(
                    f"the {width:g} x {height:g} mm table is too small for the asteroids"
                )

    @property
    def rocks_per_asteroid(self) -> int:
        """Rocks put on each asteroid at setup."""
        if self.rocks is not None:
            return self.rocks
        if self.asteroids == "two-small":
            return TWO_SMALL_ROCKS[len(self.players)]
        return DEFAULT_ROCKS

    def asteroid_cards(self) -> tuple[Card, ...]:
        """The asteroid card(s) as they lie before the fast round, centred on the table."""
        rocks = self.rocks_per_asteroid
        if self.asteroids == "single":
            return (Card("asteroid", Pose(0.0, 0.0), rocks=rocks),)
        if self.asteroids == "large":
            return (Card("asteroid", Pose(0.0, 0.0), rocks=rocks, size=LARGE_ASTEROID_MM),)
        offset = (CARD_SIZE_MM[0] + SMALL_ASTEROID_GAP_MM) / 2
        return (
            Card("asteroid-1", Pose(-offset, 0.0), rocks=rocks),
            Card("asteroid-2", Pose(offset, 0.0), rocks=rocks),
        )

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (round-trips through :meth:`from_json`)."""
        return {
            "players": list(self.players),
            "asteroids": self.asteroids,
            "rocks": self.rocks,
            "piracy": self.piracy,
            "table_size_mm": list(self.table_size_mm),
        }

    @classmethod
    def from_json(cls, data: Any) -> LightSpeedOptions:
        """Options from JSON; missing keys take their defaults. Raises InvalidOptions."""
        if not isinstance(data, dict):
            raise InvalidOptions("Light Speed options must be a JSON object")
        known = {"players", "asteroids", "rocks", "piracy", "table_size_mm"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


# -- the state: rules -----------------------------------------------------------------------


class LightSpeedMatch(Match[LightSpeedAction, LightSpeedOptions]):
    """One Light Speed match from the shuffle to the battle's outcome."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Light Speed"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def __init__(self, options: LightSpeedOptions, seed: int) -> None:
        """Set up the table and shuffle every deck with ``random.Random(seed)``; each
        player's first card comes to hand."""
        super().__init__(options, seed)
        #: What resolves the battle: the reference by default. The server sets the
        #: compiled resolver, which gives the same outcome and events much faster.
        self.resolver: Resolver = resolve
        self.phase = Phase.FAST
        #: Who placed his last card and called stop.
        self.stopped_by: str | None = None
        self._ships = fleet()
        self._round = Deployment(
            options.players, self._ships, options.asteroid_cards(), options.table_size_mm
        )
        for player in options.players:
            deck = list(self._ships)
            self.rng.shuffle(deck)
            self._round.deal(player, deck)
        self._outcome: Outcome | None = None

    @classmethod
    def action_from_json(cls, data: Any) -> LightSpeedAction:
        """Decode a Light Speed action. Raises MalformedAction naming the problem."""
        return decode_action(data, ACTION_TYPES)

    @classmethod
    def options_from_json(cls, data: Any) -> LightSpeedOptions:
        """Decode Light Speed options. Raises InvalidOptions."""
        return LightSpeedOptions.from_json(data)

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

    def check_placement(self, player: str, x: float, y: float, rotation_deg: float) -> str | None:
        """Why ``player``'s card in hand may not lie at ``(x, y, rotation_deg)`` now, or
        ``None`` if it may. Applies nothing; the phase is :meth:`check`'s business."""
        return self._round.check_placement(player, x, y, rotation_deg)

    def check(self, action: LightSpeedAction) -> str | None:
        """Why ``action`` is illegal now (in a player's words), or ``None``."""
        if self.phase == Phase.OVER:
            return "the match is over"
        if isinstance(action, Timeout):
            return None if self.phase == Phase.STOP else "nobody has called stop yet"
        problem = self._round.player_problem(action.player)
        if problem is not None:
            return problem
        ship = self._round.hands[action.player]
        if ship is None:
            return self._round.no_card(action.player)
        name = self._ships[ship].name
        if isinstance(action, Place):
            if self.phase == Phase.STOP:
                return f"{self.stopped_by} called stop: drop your {name} or discard it"
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        if self.phase == Phase.FAST:
            if isinstance(action, Discard):
                return f"there is no discarding in the fast round: place your {name}"
            return f"nobody has called stop yet: place your {name}"
        if isinstance(action, Drop):
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        return None

    def _perform(self, action: LightSpeedAction) -> list[Event]:
        events: list[Event] = []
        t = float(action.t)
        if isinstance(action, Place):
            events.append(self._round.place(action))
            if not self._round.draw(action.player):
                self.phase = Phase.STOP
                self.stopped_by = action.player
                events.append(StopCalled(action.player, t))
            return events
        if isinstance(action, Drop):
            events.append(self._round.drop(action))
        elif isinstance(action, Discard):
            events.append(self._round.discard(action.player, False, t))
        else:
            events.extend(self._round.discard(p, True, t) for p in self._round.holding())
        if not self._round.holding():
            events.append(FastRoundOver(t))
            self._outcome = self.to_table().resolve(self.resolver)
            self.phase = Phase.OVER
            events.extend(self._outcome.events)
        return events

    # -- exports ------------------------------------------------------------------------------

    def to_table(self) -> Table:
        """The cards on the table now as a table file's :class:`~spacetable.lasers.tables.Table`
        (the final position once the match is over)."""
        return Table(
            cast(Literal["lightspeed"], RULESET),
            self.players,
            tuple(self._round.table),
            {"piracy": self.options.piracy},
            table_size=self.options.table_size_mm,
        )

    def table_cards(self) -> list[dict[str, Any]]:
        """The cards on the table in placement order (asteroids first), as table-file card
        objects (DESIGN section 3)."""
        cards: list[dict[str, Any]] = self.to_table().to_json()["cards"]
        return cards

    # -- the observer -------------------------------------------------------------------------

    def player_statuses(self) -> dict[str, dict[str, Any]]:
        """Each player's public status, in seat order: the ``players`` of :meth:`view`."""
        cards = self._round
        return {
            p: {
                "cards_left": len(cards.decks[p]),
                "holding": cards.hands[p],
                "decided": self.phase != Phase.FAST and cards.hands[p] is None,
                "discarded": cards.discarded.get(p),
            }
            for p in self.players
        }

    @property
    def deadline(self) -> float | None:
        """Light Speed has no countdown: the fast round ends when a player calls stop."""
        return None

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) may see, as JSON:

        ``phase``; ``player``; ``hand`` (your card's ship key or ``None``); ``players``
        (per player in seat order: ``cards_left`` in the deck, ``holding`` (ship key or
        ``None``), ``decided`` (after stop: nothing left to choose), ``discarded`` (ship
        key or ``None``)); ``table`` (:meth:`table_cards`); ``stopped_by``; the setup
        (``asteroids``, ``piracy``, ``table_size_mm``). Never any deck's order.
        Raises ``ValueError`` for a name that is not a player.
        """
        cards = self._round
        if player is not None and player not in cards.hands:
            raise ValueError(f"{player!r} is not a player in this match")
        return {
            "ruleset": RULESET,
            "phase": self.phase.value,
            "player": player,
            "hand": None if player is None else cards.hands[player],
            "players": self.player_statuses(),
            "table": self.table_cards(),
            "stopped_by": self.stopped_by,
            "asteroids": self.options.asteroids,
            "piracy": self.options.piracy,
            "table_size_mm": list(self.options.table_size_mm),
        }


class LightSpeedRoom(BaseModel):
    """A Light Speed room's options (``POST /api/rooms``; ``ruleset`` may be left out)."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["lightspeed"] = "lightspeed"
    seats: int = Field(2, ge=2, le=4, title="Players")
    asteroids: Literal["single", "large", "two-small"] = Field(
        "single",
        title="Asteroid",
        json_schema_extra={
            "value_titles": {
                "single": "one asteroid",
                "large": "one large asteroid",
                "two-small": "two small asteroids",
            }
        },
    )
    rocks: int | None = Field(
        None,
        ge=1,
        le=99,
        title="Rocks per asteroid",
        json_schema_extra={"value_titles": {"null": "default"}},
    )
    piracy: bool = Field(False, title="Piracy (steal rocks by shooting ships)")


def catalog_json() -> dict[str, Any]:
    """Light Speed's ship definitions as JSON (DESIGN section 2), keyed by ship."""
    return {key: ship.to_json() for key, ship in catalog(RULESET).items()}


#: Light Speed in the game registry (:mod:`spacetable.core.registry`).
GAME = Game(
    "lightspeed",
    "Light Speed",
    (RULESET,),
    TABLE_REFEREE,
    match=LightSpeedMatch,
    room_options=LightSpeedRoom,
    pacing="realtime",
    bots=LASER_BOTS,
    cards="spacetable.games._catalogs:lightspeed_cards",
    resources=(
        ("catalog", "spacetable.games.lightspeed:catalog_json"),
        ("art", "spacetable.render.ship_art:lightspeed_art"),
    ),
    duel="spacetable.bots.lasers.arena:lightspeed_duel",
)
