"""Stellar Conflict as a match: secret fleets, the timed deployment, then the laser battle.

The match is a pure state machine (:mod:`spacetable.core.match`): no clock, no I/O, no
global random. Each player commands one race (``data/stellar/<race>.toml``; one card of
each ship exists). Decks are shuffled with the match's seeded ``random.Random`` in seat
order, so a match replays exactly from its options, seed and action log
(:meth:`StellarMatch.replay`). The races, the credits and the fleet checks are in
:mod:`spacetable.games.stellar.fleets`, the setup in :mod:`~spacetable.games.stellar.options`;
the cards and the battle are the laser games' (:class:`~spacetable.games._laser_match.LaserMatch`).

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

from typing import Any, ClassVar

from pydantic import ConfigDict, with_config

from spacetable.core.events import Event
from spacetable.core.match import Action
from spacetable.games._deployment import Timeout, join_names
from spacetable.games._laser_match import LaserMatch, LaserPlayerStatus, LaserTableView, Phase
from spacetable.games.stellar.actions import ACTION_TYPES, Fleet, StellarAction, TimerExpired
from spacetable.games.stellar.events import DeploymentBegan, DeploymentOver, FleetChosen, TimerRang
from spacetable.games.stellar.fleets import check_fleet, race_ships, stellar_ships
from spacetable.games.stellar.options import RULESET, StellarOptions
from spacetable.i18n import N_
from spacetable.i18n.phrase import Reason, player_said, refusal


def _role_ship(race: str, role: str) -> str:
    """The key of ``race``'s one ship of ``role`` (``cargo`` or ``flag``)."""
    (key,) = (key for key, ship in race_ships(race).items() if ship.role == role)
    return key


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class StellarPlayerStatus(LaserPlayerStatus):
    """One player in a Stellar Conflict view: his cards, his race, whether he chose."""

    race: str | None
    fleet_chosen: bool


class StellarView(LaserTableView):
    """A Stellar Conflict ``state``'s view (:meth:`StellarMatch.view`): every key it
    always has (its registration declares it: ``Game.payloads``)."""

    fleet: list[str] | None
    players: dict[str, StellarPlayerStatus]
    timer_expired: bool
    deadline: float | None
    battle_size: str
    credits: int
    countdown_seconds: float | None
    deployment: str
    asteroids: int
    stolen_goods: bool


class StellarMatch(LaserMatch[StellarAction, StellarOptions]):
    """One Stellar Conflict match from the secret fleets to the battle's outcome."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Stellar Conflict"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    round_name: ClassVar[str] = N_("during deployment")

    def __init__(self, options: StellarOptions, seed: int) -> None:
        """Set up the table (asteroids in the asteroid variant) and wait for the fleets;
        decks are shuffled with ``random.Random(seed)`` once they are all in."""
        super().__init__(options, seed, stellar_ships())
        self.phase = Phase.PREPARATION
        #: Whether the countdown ran out (timer deployment).
        self.timer_expired = False
        self._fleets: dict[str, tuple[str, ...]] = {}

    @classmethod
    def options_from_json(cls, data: Any) -> StellarOptions:
        """Decode Stellar Conflict options. Raises InvalidOptions."""
        return StellarOptions.from_json(data)

    # -- questions the server and the bots ask ------------------------------------------------

    def fleet(self, player: str) -> tuple[str, ...] | None:
        """The ships ``player`` chose (a secret until played), or ``None`` before."""
        return self._fleets.get(player)

    def needs_action(self, player: str) -> bool:
        """Whether ``player`` still has to choose a fleet, or holds a card he can still
        place, drop or discard."""
        if self.phase == Phase.PREPARATION:
            return player in self._round.hands and player not in self._fleets
        return super().needs_action(player)

    # -- rules ----------------------------------------------------------------------------------

    def check(self, action: StellarAction) -> Reason | None:
        """Why ``action`` is illegal now (in a player's words, a phrase), or ``None``."""
        if self.phase == Phase.OVER:
            return refusal("the match is over")
        if isinstance(action, TimerExpired):
            return self._check_timer(action.t)
        if isinstance(action, Timeout):
            return self._check_card(action)
        problem = self._round.player_problem(action.player)
        if problem is not None:
            return problem
        if isinstance(action, Fleet):
            return self._check_fleet(action)
        if self.phase == Phase.PREPARATION:
            if action.player not in self._fleets:
                return refusal("choose your fleet first")
            waiting = [player_said(p) for p in self.players if p not in self._fleets]
            return refusal("the deployment has not begun: {players} still choosing",
                           players=join_names(waiting))  # fmt: skip
        return self._check_card(action)

    def _check_fleet(self, action: Fleet) -> Reason | None:
        if self.phase != Phase.PREPARATION:
            return refusal("the fleets are chosen: the deployment has begun")
        if action.player in self._fleets:
            return refusal("you have already chosen your fleet")
        if not isinstance(action.ships, tuple):
            return refusal("a fleet is a list of ship keys, got {value}", value=repr(action.ships))
        return check_fleet(self.options.race(action.player), action.ships, self.options.battle_size)

    def _check_timer(self, t: float) -> Reason | None:
        if self.options.deployment == "stop":
            return refusal("this match has no countdown: deployment ends when someone calls stop")
        if self.phase == Phase.PREPARATION:
            return refusal("the countdown starts once every fleet is chosen")
        if self.phase == Phase.STOP:
            return refusal("the countdown has already run out")
        assert self.deadline is not None
        if t < self.deadline:
            return refusal("the countdown runs until t={t} s", t=f"{self.deadline:g}")
        return None

    def _not_frozen(self) -> Reason:
        if self.phase == Phase.PREPARATION:
            return refusal("the deployment has not begun")
        if self.options.deployment == "stop":
            return refusal("nobody has called stop yet")
        return refusal("the countdown is still running")

    def _perform(self, action: StellarAction) -> list[Event]:
        t = float(action.t)
        if isinstance(action, Fleet):
            self._fleets[action.player] = action.ships
            events: list[Event] = [FleetChosen(action.player, t)]
            if len(self._fleets) == len(self.players):
                events.append(self._form_decks(t))
            return events
        if isinstance(action, TimerExpired):
            self.phase = Phase.STOP
            self.timer_expired = True
            return [TimerRang(t), *self._end_of_round(t)]
        return self._play_card(action)

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

    def _stops_when_dealt_out(self) -> bool:
        return self.options.deployment == "stop"

    def _round_over(self, t: float) -> Event:
        return DeploymentOver(t)

    def _variant(self) -> dict[str, bool]:
        return {"stolen_goods": self.options.stolen_goods}

    # -- the observer -------------------------------------------------------------------------

    def player_statuses(self) -> dict[str, dict[str, Any]]:
        """Each player's public status, in seat order: the ``players`` of :meth:`view`."""
        return {
            p: {"race": self.options.race(p), "fleet_chosen": p in self._fleets} | cards
            for p, cards in self.card_statuses().items()
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
        seen = self.table_view(player)
        own = self._fleets.get(player) if player is not None else None
        return seen | {
            "fleet": None if own is None else list(own),
            "players": self.player_statuses(),
            "timer_expired": self.timer_expired,
            "deadline": self.deadline,
            "battle_size": self.options.battle_size,
            "credits": self.options.credits,
            "countdown_seconds": self.options.countdown_seconds,
            "deployment": self.options.deployment,
            "asteroids": self.options.asteroids,
            "stolen_goods": self.options.stolen_goods,
        }
