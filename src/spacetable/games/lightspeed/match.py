"""Light Speed as a match: setup, the fast round, "stop!", then the laser battle.

The match is a pure state machine (:mod:`spacetable.core.match`): no clock, no I/O, no
global random. Each player's deck is the ten Light Speed ships, shuffled with the match's
seeded ``random.Random`` in seat order, so a match replays exactly from its options, seed
and action log (:meth:`LightSpeedMatch.replay`). The cards and the battle are the laser
games' (:class:`~spacetable.games._laser_match.LaserMatch`).

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
from typing import Any, ClassVar, Literal

from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions
from spacetable.core.records import tagged
from spacetable.games._deployment import DEFAULT_TABLE_MM as DEFAULT_TABLE_MM
from spacetable.games._deployment import CardDiscarded as CardDiscarded
from spacetable.games._deployment import CardDropped as CardDropped
from spacetable.games._deployment import CardPlaced as CardPlaced
from spacetable.games._deployment import Discard as Discard
from spacetable.games._deployment import Drop as Drop
from spacetable.games._deployment import Place as Place
from spacetable.games._deployment import StopCalled as StopCalled
from spacetable.games._deployment import Timeout as Timeout
from spacetable.games._deployment import checked_players, checked_table_size
from spacetable.games._laser_match import (
    LaserMatch,
    LaserPlayerStatus,
    LaserTableView,
    check_asteroids_fit,
    options_from_json,
)
from spacetable.games._laser_match import Phase as Phase
from spacetable.i18n import N_
from spacetable.i18n.phrase import Reason, refusal
from spacetable.lasers.battle import Card
from spacetable.lasers.geometry import Pose
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import catalog

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


@tagged("fast-round-over")
class FastRoundOver(Event):
    """Every card is down or discarded; the battle's events follow."""

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
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "table_size_mm", checked_table_size(self.table_size_mm))
        check_asteroids_fit(self)

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
        return options_from_json(cls, "Light Speed", data)


# -- the state: rules -----------------------------------------------------------------------


class LightSpeedView(LaserTableView):
    """A Light Speed ``state``'s view (:meth:`LightSpeedMatch.view`): every key it always
    has (its registration declares it: ``Game.payloads``)."""

    players: dict[str, LaserPlayerStatus]
    asteroids: str
    piracy: bool


class LightSpeedMatch(LaserMatch[LightSpeedAction, LightSpeedOptions]):
    """One Light Speed match from the shuffle to the battle's outcome."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Light Speed"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    round_name: ClassVar[str] = N_("in the fast round")

    def __init__(self, options: LightSpeedOptions, seed: int) -> None:
        """Set up the table and shuffle every deck with ``random.Random(seed)``; each
        player's first card comes to hand."""
        super().__init__(options, seed, fleet())
        for player in options.players:
            deck = list(self._ships)
            self.rng.shuffle(deck)
            self._round.deal(player, deck)

    @classmethod
    def options_from_json(cls, data: Any) -> LightSpeedOptions:
        """Decode Light Speed options. Raises InvalidOptions."""
        return LightSpeedOptions.from_json(data)

    def check(self, action: LightSpeedAction) -> Reason | None:
        """Why ``action`` is illegal now (in a player's words, a phrase), or ``None``."""
        if self.phase == Phase.OVER:
            return refusal("the match is over")
        return self._check_card(action)

    def _perform(self, action: LightSpeedAction) -> list[Event]:
        return self._play_card(action)

    def _round_over(self, t: float) -> Event:
        return FastRoundOver(t)

    def _variant(self) -> dict[str, bool]:
        return {"piracy": self.options.piracy}

    # -- the observer -------------------------------------------------------------------------

    def player_statuses(self) -> dict[str, dict[str, Any]]:
        """Each player's public status, in seat order: the ``players`` of :meth:`view`."""
        return self.card_statuses()

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) may see, as JSON:

        ``phase``; ``player``; ``hand`` (your card's ship key or ``None``); ``players``
        (per player in seat order: ``cards_left`` in the deck, ``holding`` (ship key or
        ``None``), ``decided`` (after stop: nothing left to choose), ``discarded`` (ship
        key or ``None``)); ``table`` (:meth:`table_cards`); ``stopped_by``; the setup
        (``asteroids``, ``piracy``, ``table_size_mm``). Never any deck's order.
        Raises ``ValueError`` for a name that is not a player.
        """
        return self.table_view(player) | {
            "players": self.player_statuses(),
            "asteroids": self.options.asteroids,
            "piracy": self.options.piracy,
        }
