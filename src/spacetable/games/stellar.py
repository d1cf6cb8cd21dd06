"""Stellar Conflict as a match: secret fleets, the timed deployment, then the laser battle.

The match is a pure state machine (:mod:`spacetable.core.match`): no clock, no I/O, no
global random. Each player commands one race (``data/stellar/<race>.toml``; one card of
each ship exists). Decks are shuffled with the match's seeded ``random.Random`` in seat
order, so a match replays exactly from its options, seed and action log
(:meth:`StellarMatch.replay`). The races, the credits and the fleet checks are in
:mod:`spacetable.games.stellar_fleets` (every name of it is re-exported here).

Phases (:class:`Phase`):

``preparation``
    Each player secretly chooses the ships of his race that join the battle with
    :class:`Fleet`: they may cost at most the battle's credits (Dispute 10, Conflict 15,
    War 20). The race's Cargo and Flag ships join every fleet by themselves and cost
    nothing. Once the last fleet is in, every deck is formed: the chosen ships shuffled,
    the Cargo ship on top (none in the asteroid variant) and the Flag ship at the bottom.
``deployment``
    Everyone plays at once, as in Light Speed's fast round (:mod:`spacetable.games.
    _deployment`): :class:`Place` puts the card in hand on the table and the next one comes
    to hand; there is no discarding. With the ``timer`` deployment (the default) the
    countdown (:data:`COUNTDOWN_SECONDS`: 30, 60 or 120 s by battle size) starts when the
    last fleet is chosen, at :attr:`StellarMatch.deadline`; the server sends
    :class:`TimerExpired` when it runs out. With the ``stop`` deployment (Light Speed's
    original rule) whoever places his last card calls stop at once. A player who has
    placed all his cards under the timer just waits; when nobody holds a card any more the
    deployment is over.
``stop``
    The timer rang or someone called stop: every card still in hand is frozen and the rest
    of the decks are out of the game. Each player who holds a card chooses :class:`Drop`
    (the server sends the pose where the card froze; an illegal spot is refused and he may
    choose again or discard) or :class:`Discard`; the server's :class:`Timeout` discards
    every card still undecided. Once nobody is undecided, cargo ships carry their cubes
    (8 / 5 / 4 for 2 / 3 / 4 players, put on the card as it lands) and the battle is
    resolved (:func:`spacetable.lasers.battle.resolve`, Stellar Conflict scoring).
``over``
    :meth:`StellarMatch.result` is the battle's :class:`~spacetable.lasers.battle.Outcome`.

What a player sees (:meth:`StellarMatch.view`): his own fleet, never another's (a
spectator sees none); who has chosen; then, as in Light Speed, every card on the table,
every card in hand, how many cards each deck still holds, and never any deck's order.

Card ids on the table are ``"<player>-<ship key>"`` (``"red-wiss-lancet"``); asteroids are
``"asteroid"``, or ``"asteroid-1"`` .. ``"asteroid-5"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions, Match, decode_action
from spacetable.core.registry import Game
from spacetable.games._deployment import DEFAULT_TABLE_MM as DEFAULT_TABLE_MM
from spacetable.games._deployment import (
    LASER_BOTS,
    Deployment,
    checked_players,
    checked_table_size,
    is_number,
    join_names,
)
from spacetable.games._deployment import CardDiscarded as CardDiscarded
from spacetable.games._deployment import CardDropped as CardDropped
from spacetable.games._deployment import CardPlaced as CardPlaced
from spacetable.games._deployment import Discard as Discard
from spacetable.games._deployment import Drop as Drop
from spacetable.games._deployment import Place as Place
from spacetable.games._deployment import StopCalled as StopCalled
from spacetable.games._deployment import Timeout as Timeout
from spacetable.games.stellar_fleets import BATTLE_SIZES as BATTLE_SIZES
from spacetable.games.stellar_fleets import CREDITS as CREDITS
from spacetable.games.stellar_fleets import RACES as RACES
from spacetable.games.stellar_fleets import BattleSize as BattleSize
from spacetable.games.stellar_fleets import Race as Race
from spacetable.games.stellar_fleets import check_fleet as check_fleet
from spacetable.games.stellar_fleets import fleet_cost as fleet_cost
from spacetable.games.stellar_fleets import race_of as race_of
from spacetable.games.stellar_fleets import race_ships as race_ships
from spacetable.games.stellar_fleets import stellar_ships as stellar_ships
from spacetable.lasers.battle import Card, Outcome, Resolver, resolve
from spacetable.lasers.geometry import Pose, rect_inside
from spacetable.lasers.tables import CARGO_CUBES, TABLE_REFEREE, Table, catalog

# -- static facts ---------------------------------------------------------------------------

RULESET = "stellar"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: The deployment countdown in seconds, by battle size (the server runs the clock).
COUNTDOWN_SECONDS: dict[BattleSize, float] = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}

DeploymentRule = Literal["timer", "stop"]
DEPLOYMENT_RULES: tuple[DeploymentRule, ...] = ("timer", "stop")

#: The asteroid variant uses 1 to this many asteroid cards.
MAX_ASTEROIDS = 5
#: Two or more asteroids lie evenly spaced on a circle of this radius (mm) around the
#: table's centre, the first to the right of it.
ASTEROID_RING_MM = 220.0


class Phase(StrEnum):
    """Where the match stands."""

    PREPARATION = "preparation"
    DEPLOYMENT = "deployment"
    STOP = "stop"
    OVER = "over"


def _role_ship(race: str, role: str) -> str:
    """The key of ``race``'s one ship of ``role`` (``cargo`` or ``flag``)."""
    (key,) = (key for key, ship in race_ships(race).items() if ship.role == role)
    return key


# -- actions --------------------------------------------------------------------------------

# Deployment uses the actions shared with Light Speed's fast round
# (:mod:`spacetable.games._deployment`): :class:`Place` while deploying, :class:`Drop` or
# :class:`Discard` once the cards in hand froze, and the server's :class:`Timeout` at the
# end of its countdown for that choice.


@dataclass(frozen=True, slots=True)
class Fleet(Action):
    """Preparation: ``player`` secretly chooses the ships (keys of his race, Cargo and Flag
    ships left out) that join the battle. Final once sent."""

    type_name: ClassVar[str] = "fleet"
    player: str
    ships: tuple[str, ...]
    t: float

    def __post_init__(self) -> None:
        if isinstance(self.ships, list):
            object.__setattr__(self, "ships", tuple(self.ships))


@dataclass(frozen=True, slots=True)
class TimerExpired(Action):
    """The server's deployment countdown ran out: every card in hand freezes."""

    type_name: ClassVar[str] = "timer-expired"
    t: float


StellarAction = Fleet | Place | Drop | Discard | TimerExpired | Timeout
ACTION_TYPES: tuple[type[StellarAction], ...] = (
    Fleet,
    Place,
    Drop,
    Discard,
    TimerExpired,
    Timeout,
)


# -- events ---------------------------------------------------------------------------------

# :class:`CardPlaced`, :class:`StopCalled`, :class:`CardDropped` and :class:`CardDiscarded`
# are shared with Light Speed.


@dataclass(frozen=True, slots=True)
class FleetChosen(Event):
    """``player`` has chosen his fleet (which ships stays secret)."""

    type_name: ClassVar[str] = "fleet-chosen"
    player: str
    t: float


@dataclass(frozen=True, slots=True)
class DeploymentBegan(Event):
    """Every fleet is in and every deck formed; the countdown runs until ``deadline``
    (server time, s; ``None`` under the stop rule)."""

    type_name: ClassVar[str] = "deployment"
    deadline: float | None
    t: float


@dataclass(frozen=True, slots=True)
class TimerRang(Event):
    """The countdown ran out: the cards in hand froze, the rest of the decks are out."""

    type_name: ClassVar[str] = "timer"
    t: float


@dataclass(frozen=True, slots=True)
class DeploymentOver(Event):
    """Every card is down or discarded; the battle's events follow."""

    type_name: ClassVar[str] = "deployment-over"
    t: float


# -- the game: options and setup ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StellarOptions:
    """How a Stellar Conflict match is set up.

    ``players``: 2 to 4 distinct names in seat order. ``races``: one distinct race per
    player, in seat order (default: :data:`RACES` in order). ``battle_size``: ``dispute``,
    ``conflict`` or ``war`` (the credits and the countdown). ``deployment``: ``timer`` or
    ``stop`` (Light Speed's rule). ``asteroids``: 0 for the normal game with cargo ships,
    1 to 5 for the asteroid variant (no cargo ships; the cubes lie on the asteroids).
    ``stolen_goods``: the Stolen Goods variant. ``table_size_mm``: width and height of the
    table, centred on the origin. ``countdown``: seconds the deployment countdown runs
    instead of the battle size's (a server setting, for quick tests or a house rule);
    ``None``: 30, 60 or 120 s.

    Raises :class:`~spacetable.core.match.InvalidOptions` naming the bad option.
    """

    players: tuple[str, ...] = ("red", "blue")
    races: tuple[Race, ...] | None = None
    battle_size: BattleSize = "conflict"
    deployment: DeploymentRule = "timer"
    asteroids: int = 0
    stolen_goods: bool = False
    table_size_mm: tuple[float, float] = field(default=DEFAULT_TABLE_MM)
    countdown: float | None = None

    def __post_init__(self) -> None:
        players = checked_players(self.players, "Stellar Conflict", MIN_PLAYERS, MAX_PLAYERS)
        if self.countdown is not None and not (
            is_number(self.countdown) and math.isfinite(self.countdown) and self.countdown > 0
        ):
            raise InvalidOptions(
                f"'countdown' must be a number of seconds > 0, got {self.countdown!r}"
            )
        races = RACES[: len(players)] if self.races is None else self.races
        if not isinstance(races, list | tuple) or len(races) != len(players):
            raise InvalidOptions(f"'races' must name one race per player, got {races!r}")
        for race in races:
            if race not in RACES:
                raise InvalidOptions(f"unknown race {race!r} (choose from {', '.join(RACES)})")
        if len(set(races)) != len(races):
            raise InvalidOptions("each race's cards exist once: players need distinct races")
        if self.battle_size not in BATTLE_SIZES:
            raise InvalidOptions(
                f"'battle_size' must be one of {', '.join(BATTLE_SIZES)}, got {self.battle_size!r}"
            )
        if self.deployment not in DEPLOYMENT_RULES:
            raise InvalidOptions(
                f"'deployment' must be one of {', '.join(DEPLOYMENT_RULES)}, "
                f"got {self.deployment!r}"
            )
        if (
            isinstance(self.asteroids, bool)
            or not isinstance(self.asteroids, int)
            or not 0 <= self.asteroids <= MAX_ASTEROIDS
        ):
            raise InvalidOptions(
                f"'asteroids' must be a whole number from 0 to {MAX_ASTEROIDS}, "
                f"got {self.asteroids!r}"
            )
        if not isinstance(self.stolen_goods, bool):
            raise InvalidOptions(f"'stolen_goods' must be true or false, got {self.stolen_goods!r}")
        width, height = checked_table_size(self.table_size_mm)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "races", tuple(races))
        object.__setattr__(self, "table_size_mm", (width, height))
        for card in self.asteroid_cards():
            if not rect_inside(card.rect, width, height):
                raise InvalidOptions(
                    f"the {width:g} x {height:g} mm table is too small for the asteroids"
                )

    def race(self, player: str) -> Race:
        """The race ``player`` commands."""
        assert self.races is not None
        return self.races[self.players.index(player)]

    @property
    def credits(self) -> int:
        """What a fleet may cost in this battle."""
        return CREDITS[self.battle_size]

    @property
    def countdown_seconds(self) -> float:
        """How long the deployment countdown runs (also set under the stop rule)."""
        if self.countdown is not None:
            return float(self.countdown)
        return COUNTDOWN_SECONDS[self.battle_size]

    @property
    def cargo_cubes(self) -> int:
        """Cubes on each cargo ship: 8, 5 or 4 for 2, 3 or 4 players."""
        return CARGO_CUBES[len(self.players)]

    @property
    def cubes_per_asteroid(self) -> int:
        """Asteroid variant: the cubes the cargo ships would have carried, shared equally
        among the asteroids (rounded down); 0 without asteroids."""
        if not self.asteroids:
            return 0
        return len(self.players) * self.cargo_cubes // self.asteroids

    def asteroid_cards(self) -> tuple[Card, ...]:
        """The asteroid cards as they lie before deployment: one at the centre, or several
        evenly spaced on a ring of :data:`ASTEROID_RING_MM` around it."""
        cubes = self.cubes_per_asteroid
        if self.asteroids == 1:
            return (Card("asteroid", Pose(0.0, 0.0), rocks=cubes),)
        cards = []
        for index in range(self.asteroids):
            angle = 2 * math.pi * index / self.asteroids
            x = round(ASTEROID_RING_MM * math.cos(angle), 1) + 0.0  # + 0.0: no -0.0
            y = round(ASTEROID_RING_MM * math.sin(angle), 1) + 0.0
            cards.append(Card(f"asteroid-{index + 1}", Pose(x, y), rocks=cubes))
        return tuple(cards)

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (round-trips through :meth:`from_json`)."""
        return {
            "players": list(self.players),
            "races": list(self.races or ()),
            "battle_size": self.battle_size,
            "deployment": self.deployment,
            "asteroids": self.asteroids,
            "stolen_goods": self.stolen_goods,
            "table_size_mm": list(self.table_size_mm),
        } | ({} if self.countdown is None else {"countdown": self.countdown})

    @classmethod
    def from_json(cls, data: Any) -> StellarOptions:
        """Options from JSON; missing keys take their defaults. Raises InvalidOptions."""
        if not isinstance(data, dict):
            raise InvalidOptions("Stellar Conflict options must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


# -- the state: rules -----------------------------------------------------------------------


class StellarMatch(Match[StellarAction, StellarOptions]):
    """One Stellar Conflict match from the secret fleets to the battle's outcome."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Stellar Conflict"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def __init__(self, options: StellarOptions, seed: int) -> None:
        """Set up the table (asteroids in the asteroid variant) and wait for the fleets;
        decks are shuffled with ``random.Random(seed)`` once they are all in."""
        super().__init__(options, seed)
        #: What resolves the battle: the reference by default. The server sets the
        #: compiled resolver, which gives the same outcome and events much faster.
        self.resolver: Resolver = resolve
        self.phase = Phase.PREPARATION
        #: Who placed his last card and called stop (stop deployment).
        self.stopped_by: str | None = None
        #: Whether the countdown ran out (timer deployment).
        self.timer_expired = False
        #: Server time (s) the countdown runs out, once deployment began under the timer.
        self.deadline: float | None = None
        self._ships = stellar_ships()
        self._fleets: dict[str, tuple[str, ...]] = {}
        self._round = Deployment(
            options.players, self._ships, options.asteroid_cards(), options.table_size_mm
        )
        self._outcome: Outcome | None = None

    @classmethod
    def action_from_json(cls, data: Any) -> StellarAction:
        """Decode a Stellar Conflict action. Raises MalformedAction naming the problem."""
        return decode_action(data, ACTION_TYPES)

    @classmethod
    def options_from_json(cls, data: Any) -> StellarOptions:
        """Decode Stellar Conflict options. Raises InvalidOptions."""
        return StellarOptions.from_json(data)

    # -- questions the server and the bots ask ------------------------------------------------

    def fleet(self, player: str) -> tuple[str, ...] | None:
        """The ships ``player`` chose (a secret until played), or ``None`` before."""
        return self._fleets.get(player)

    def hand(self, player: str) -> str | None:
        """The ship key of the card ``player`` holds, or ``None``."""
        return self._round.hands.get(player)

    def needs_action(self, player: str) -> bool:
        """Whether ``player`` still has to choose a fleet, or holds a card he can still
        place, drop or discard."""
        if self.phase == Phase.PREPARATION:
            return player in self._round.hands and player not in self._fleets
        return self.phase != Phase.OVER and self._round.hands.get(player) is not None

    def result(self) -> Outcome | None:
        """The battle's outcome once the match is over, else ``None``."""
        return self._outcome

    def check_placement(self, player: str, x: float, y: float, rotation_deg: float) -> str | None:
        """Why ``player``'s card in hand may not lie at ``(x, y, rotation_deg)`` now, or
        ``None`` if it may. Applies nothing; the phase is :meth:`check`'s business."""
        return self._round.check_placement(player, x, y, rotation_deg)

    def check(self, action: StellarAction) -> str | None:
        """Why ``action`` is illegal now (in a player's words), or ``None``."""
        if self.phase == Phase.OVER:
            return "the match is over"
        if isinstance(action, Timeout):
            return None if self.phase == Phase.STOP else self._not_frozen()
        if isinstance(action, TimerExpired):
            return self._check_timer(action.t)
        problem = self._round.player_problem(action.player)
        if problem is not None:
            return problem
        if isinstance(action, Fleet):
            return self._check_fleet(action)
        if self.phase == Phase.PREPARATION:
            if action.player not in self._fleets:
                return "choose your fleet first"
            waiting = [p for p in self.players if p not in self._fleets]
            return f"the deployment has not begun: {join_names(waiting)} still choosing"
        ship = self._round.hands[action.player]
        if ship is None:
            return self._round.no_card(action.player)
        name = self._ships[ship].name
        if isinstance(action, Place):
            if self.phase == Phase.STOP:
                return f"{self._freeze()}: drop your {name} or discard it"
            if self.deadline is not None and action.t >= self.deadline:
                return f"the countdown ran out at t={self.deadline:g} s: your {name} froze"
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        if self.phase == Phase.DEPLOYMENT:
            if isinstance(action, Discard):
                return f"there is no discarding during deployment: place your {name}"
            return f"{self._not_frozen()}: place your {name}"
        if isinstance(action, Drop):
            return self.check_placement(action.player, action.x, action.y, action.rotation_deg)
        return None

    def _check_fleet(self, action: Fleet) -> str | None:
        if self.phase != Phase.PREPARATION:
            return "the fleets are chosen: the deployment has begun"
        if action.player in self._fleets:
            return "you have already chosen your fleet"
        if not isinstance(action.ships, tuple):
            return f"a fleet is a list of ship keys, got {action.ships!r}"
        return check_fleet(self.options.race(action.player), action.ships, self.options.battle_size)

    def _check_timer(self, t: float) -> str | None:
        if self.options.deployment == "stop":
            return "this match has no countdown: deployment ends when someone calls stop"
        if self.phase == Phase.PREPARATION:
            return "the countdown starts once every fleet is chosen"
        if self.phase == Phase.STOP:
            return "the countdown has already run out"
        assert self.deadline is not None
        if t < self.deadline:
            return f"the countdown runs until t={self.deadline:g} s"
        return None

    def _freeze(self) -> str:
        """Why the cards in hand froze."""
        return f"{self.stopped_by} called stop" if self.stopped_by else "time is up"

    def _not_frozen(self) -> str:
        """Why nothing is frozen yet."""
        if self.phase == Phase.PREPARATION:
            return "the deployment has not begun"
        if self.options.deployment == "stop":
            return "nobody has called stop yet"
        return "the countdown is still running"

    def _perform(self, action: StellarAction) -> list[Event]:
        events: list[Event] = []
        t = float(action.t)
        if isinstance(action, Fleet):
            self._fleets[action.player] = action.ships
            events.append(FleetChosen(action.player, t))
            if len(self._fleets) == len(self.players):
                events.append(self._form_decks(t))
            return events
        if isinstance(action, Place):
            events.append(self._round.place(action, self._cubes(action.player)))
            if not self._round.draw(action.player) and self.options.deployment == "stop":
                self.phase = Phase.STOP
                self.stopped_by = action.player
                events.append(StopCalled(action.player, t))
        elif isinstance(action, TimerExpired):
            self.phase = Phase.STOP
            self.timer_expired = True
            events.append(TimerRang(t))
        elif isinstance(action, Drop):
            events.append(self._round.drop(action, self._cubes(action.player)))
        elif isinstance(action, Discard):
            events.append(self._round.discard(action.player, False, t))
        else:
            events.extend(self._round.discard(p, True, t) for p in self._round.holding())
        if not self._round.holding():
            events.append(DeploymentOver(t))
            self._outcome = self.to_table().resolve(self.resolver)
            self.phase = Phase.OVER
            events.extend(self._outcome.events)
        return events

    def _form_decks(self, t: float) -> DeploymentBegan:
        """Shuffle every fleet in seat order, Cargo ship on top, Flag ship at the bottom;
        deal the top cards and start the countdown."""
        for player in self.players:
            race = self.options.race(player)
            picks = list(self._fleets[player])
            self.rng.shuffle(picks)
            top = [] if self.options.asteroids else [_role_ship(race, "cargo")]
            self._round.deal(player, [*top, *picks, _role_ship(race, "flag")])
        self.phase = Phase.DEPLOYMENT
        if self.options.deployment == "timer":
            self.deadline = t + self.options.countdown_seconds
        return DeploymentBegan(self.deadline, t)

    def _cubes(self, player: str) -> int:
        """Cubes on the card ``player`` holds when it lands: a cargo ship's load."""
        ship = self._round.hands[player]
        assert ship is not None
        return self.options.cargo_cubes if self._ships[ship].role == "cargo" else 0

    # -- exports ------------------------------------------------------------------------------

    def to_table(self) -> Table:
        """The cards on the table now as a table file's :class:`~spacetable.lasers.tables.Table`
        (the final position once the match is over)."""
        return Table(
            cast(Literal["stellar"], RULESET),
            self.players,
            tuple(self._round.table),
            {"stolen_goods": self.options.stolen_goods},
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
        dealt = self.phase != Phase.PREPARATION
        return {
            p: {
                "race": self.options.race(p),
                "fleet_chosen": p in self._fleets,
                "cards_left": len(cards.decks[p]) if dealt else None,
                "holding": cards.hands[p],
                "decided": self.phase in (Phase.STOP, Phase.OVER) and cards.hands[p] is None,
                "discarded": cards.discarded.get(p),
            }
            for p in self.players
        }

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) may see, as JSON:

        ``phase``; ``player``; ``hand`` (your card's ship key or ``None``); ``fleet`` (the
        ships you chose, or ``None``: before you choose, and always for a spectator);
        ``players`` (per player in seat order: ``race``, ``fleet_chosen``, ``cards_left``
        in the deck (``None`` before deployment), ``holding`` (ship key or ``None``),
        ``decided`` (after the freeze: nothing left to choose), ``discarded`` (ship key or
        ``None``)); ``table`` (:meth:`table_cards`); ``stopped_by``; ``timer_expired``;
        ``deadline`` (server time the countdown runs out, or ``None``); the setup
        (``battle_size``, ``credits``, ``countdown_seconds``, ``deployment``,
        ``asteroids``, ``stolen_goods``, ``table_size_mm``). Never another player's
        fleet, never any deck's order. Raises ``ValueError`` for a name that is not a
        player.
        """
        cards = self._round
        if player is not None and player not in cards.hands:
            raise ValueError(f"{player!r} is not a player in this match")
        own = self._fleets.get(player) if player is not None else None
        return {
            "ruleset": RULESET,
            "phase": self.phase.value,
            "player": player,
            "hand": None if player is None else cards.hands[player],
            "fleet": None if own is None else list(own),
            "players": self.player_statuses(),
            "table": self.table_cards(),
            "stopped_by": self.stopped_by,
            "timer_expired": self.timer_expired,
            "deadline": self.deadline,
            "battle_size": self.options.battle_size,
            "credits": self.options.credits,
            "countdown_seconds": self.options.countdown_seconds,
            "deployment": self.options.deployment,
            "asteroids": self.options.asteroids,
            "stolen_goods": self.options.stolen_goods,
            "table_size_mm": list(self.options.table_size_mm),
        }


class StellarRoom(BaseModel):
    """A Stellar Conflict room's options (``POST /api/rooms``): ``races`` names one
    distinct race per seat (null: Wiss, Vak, Hexai, Tetrakori in seat order); ``asteroids``
    0 plays with cargo ships, 1 to 5 with that many asteroids instead."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["stellar"]
    seats: int = Field(2, ge=2, le=4, title="Players")
    races: list[Literal["wiss", "vak", "hexai", "tetrakori"]] | None = Field(
        None, title="Race of each seat"
    )
    battle_size: Literal["dispute", "conflict", "war"] = Field(
        "conflict",
        title="Battle",
        json_schema_extra={
            "value_titles": {
                size: f"{size.title()}: {CREDITS[size]} credits, {COUNTDOWN_SECONDS[size]:.0f} s"
                for size in BATTLE_SIZES
            }
        },
    )
    deployment: Literal["timer", "stop"] = Field(
        "timer",
        title="Deployment",
        json_schema_extra={
            "value_titles": {"timer": "countdown", "stop": "Light Speed's stop rule"}
        },
    )
    asteroids: int = Field(
        0,
        ge=0,
        le=5,
        title="Asteroids instead of cargo ships",
        json_schema_extra={
            "value_titles": {
                "0": "none: cargo ships",
                "1": "1 asteroid",
                **{str(n): f"{n} asteroids" for n in range(2, 6)},
            }
        },
    )
    stolen_goods: bool = Field(
        False, title="Stolen goods (a destroyed thief's cubes go to the ship that finished it)"
    )


def catalog_json() -> dict[str, Any]:
    """Every race's ship definitions as JSON (DESIGN section 2), keyed by ship."""
    return {key: ship.to_json() for key, ship in catalog(RULESET).items()}


def races_json() -> dict[str, Any]:
    """The races: ``{"wiss": {"name": "Wiss", "ships": [keys in catalog order]}, ...}``."""
    return {race: {"name": race.title(), "ships": list(race_ships(race))} for race in RACES}


#: Stellar Conflict in the game registry (:mod:`spacetable.core.registry`).
GAME = Game(
    "stellar",
    "Stellar Conflict",
    (RULESET,),
    TABLE_REFEREE,
    match=StellarMatch,
    room_options=StellarRoom,
    pacing="realtime",
    bots=LASER_BOTS,
    countdown_option="countdown",
    cards="spacetable.games._catalogs:stellar_cards",
    resources=(
        ("catalog", "spacetable.games.stellar:catalog_json"),
        ("races", "spacetable.games.stellar:races_json"),
        ("art", "spacetable.render.ship_art:stellar_art"),
    ),
    duel="spacetable.bots.lasers.arena:stellar_duel",
)
