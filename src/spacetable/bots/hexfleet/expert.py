"""The hex fleet expert bot (level ``expert``): Monte Carlo search over the hidden cards.

What a seat does not know is the order of the draw pile (the cards that settle every
salvo and shield roll) and which chit comes out of the cup next. At each decision the
bot weighs a few actions of its active ship (its own policy's choice first, then the
``tactical`` level's, every other shot it may fire, raising its shields, ending the
activation, and the moves that end nearest an enemy) on *determinizations* of what it
cannot see, consistent with its view (the unseen cards,
:meth:`~spacetable.games.hexfleet.match.HexMatch.unseen`, shuffled into a pile of the
pile's size; a fresh seed for the cup's draws), as an information-set search does
(Cowling, Powley and Whitehouse, 2012): an action is judged on the cards it could meet,
never on the real pile. The tree is one level deep: the root's actions, each followed by
policy playouts. A deeper tree would split the same budget among the next steps of the
activation and the opponent's replies, where a few hundred playouts leave each node a
handful of visits; here the policies play those steps, and the search spends all its
deals on the choice at hand.

The deals are spent by sequential halving (Karnin, Koren and Somekh, 2013), a bandit
schedule for picking the best arm rather than for playing well while learning (UCB's):
every action meets the first :data:`ROUNDS` deals, then the better half (its own
policy's choice always kept) meet more, until the last two or three meet all 64, so a
close call is settled on many deals and a clear one costs few; the actions compared meet
the same deals (common random numbers). After the action its own policy plays its side
and the ``tactical`` bot the other (its model of the opponent) to the end of the
activation and :data:`ACTIVATIONS` more (at most :data:`PLAYOUT` actions), and the
battle is scored by each side's strength left (or its result, if it ended); in the last
turns (:data:`ENDGAME`), where a battle cut short by the turn limit is decided, it plays
on to the battle's end and scores its result, so that a side ahead keeps its lead and a
side behind takes its chances. The best action by its mean score is played if it beats
its own policy's choice on the same deals by more than :data:`MARGIN`; else that choice.
(With 4 deals and no halving, a few lucky deals could make ending the activation look
better than a shot worth far more.)

The budget is counted (deals, actions per playout), never the clock: the same view and
seed give the same action on any machine. Chance comes only from the ``random.Random``
passed in. A battle the bot cannot rebuild from its view (a custom scenario, whose
fleets the view does not name) is played by its own policy.
"""

from __future__ import annotations

import random
from typing import Any

from spacetable.bots.hexfleet._seat import Seat, ship_from_json
from spacetable.bots.hexfleet.tactical import TacticalBot, Weights
from spacetable.core.events import Event
from spacetable.games.hexfleet import actions as act
from spacetable.games.hexfleet.cards import Deck, full_deck, parse_card
from spacetable.games.hexfleet.events import ActivationEnded
from spacetable.games.hexfleet.fleets import SCENARIOS
from spacetable.games.hexfleet.hexes import distance
from spacetable.games.hexfleet.match import Activation, HexMatch, HexOptions, Phase
from spacetable.games.hexfleet.ships import Ship

#: The deals of the hidden cards added in each round of the search (sequential halving):
#: every candidate meets the first round's, and after each round but the last the
#: better half of them (its own policy's choice always among them) meet the next's.
ROUNDS: tuple[int, ...] = (8, 8, 16, 32)
#: Activations played out after the one under way, before scoring.
ACTIVATIONS = 1
#: The most actions a playout lasts after the weighed one.
PLAYOUT = 8
#: The most moves weighed (besides the tactical bot's own choice).
MOVES = 3
#: The most actions weighed in all, the tactical bot's choice included.
CANDIDATES = 7
#: How much an action's mean score must beat the tactical choice's on the deals both met
#: to be played (scores are strength shares, between -1 and 1).
MARGIN = 0.0
#: In the last turns (the turn limit's and the :data:`ENDGAME` before it), where a duel
#: is decided, each playout runs to the battle's end (at most :data:`END_PLAYOUT`
#: actions) and is scored by its result, won or lost, not by the strength left.
ENDGAME = 2
#: The most actions a playout to the battle's end lasts.
END_PLAYOUT = 150
#: The judgement of the expert's own policy (its first action weighed, and its side's in
#: the playouts): the tactical level's, but minding the enemies' reach less against the
#: shot it may fire (``exposure`` 0.6, the tactical level's 1). Over the 200 seeded duels
#: against ``tactical`` it won 113 where the expert on the tactical policy won 110: no
#: more than chance can give (docs/lab.md, "The expert bots").
OWN = Weights(exposure=0.6)


def most_playouts(candidates: int, rounds: tuple[int, ...] = ROUNDS) -> int:
    """The most playouts one decision among ``candidates`` actions plays."""
    total, alive = 0, candidates
    for deals in rounds:
        total += alive * deals
        if alive > 2:  # the better half, and the tactical choice if it is not in it
            alive = min(alive, max(2, (alive + 1) // 2) + 1)
    return total


class ExpertBot:
    """Chooses by Monte Carlo search over the hidden cards (see the module's docstring)."""

    def __init__(
        self,
        rounds: tuple[int, ...] = ROUNDS,
        activations: int = ACTIVATIONS,
        playout: int = PLAYOUT,
        own: Weights = OWN,
    ) -> None:
        self.rounds = tuple(rounds)
        self.activations = activations
        self.playout_actions = playout
        #: The model of the other side in the playouts: the tactical level.
        self.tactical = TacticalBot()
        #: The policy of its own side: the first action weighed, and its side's in the
        #: playouts.
        self.own = TacticalBot(own)

    def choose(self, view: dict[str, Any], rng: random.Random) -> act.HexAction:
        """The action for ``view["player"]``'s active ship."""
        seat = Seat.of(view)
        default = self.own.choose(view, rng)
        if seat.placing or view.get("scenario") not in SCENARIOS:
            return default
        tactical = self.tactical.choose(view, rng)  # the other side's model, for its ship
        actions = candidates(seat, default, (tactical,))
        if len(actions) == 1:
            return actions[0]
        root = _Sim.of(view)
        to_the_end = view["turn"] >= view["turn_limit"] - ENDGAME
        seeds = [rng.randrange(2**32) for _ in range(sum(self.rounds))]
        totals = [0.0] * len(actions)
        alive = list(range(len(actions)))
        used = 0
        for k, more in enumerate(self.rounds):
            for seed in seeds[used : used + more]:
                deal = root.dealt(random.Random(seed))
                for i in alive:
                    totals[i] += self.playout(
                        deal.copy(), actions[i], seat.player, to_the_end=to_the_end
                    )
            used += more
            if k + 1 < len(self.rounds) and len(alive) > 2:
                ranked = sorted(alive, key=lambda i: (-totals[i], i))
                alive = sorted({0, *ranked[: max(2, (len(alive) + 1) // 2)]})
        best = max(alive, key=lambda i: (totals[i], -i))
        if totals[best] - totals[0] > MARGIN * used:
            return actions[best]
        return default

    def playout(
        self, match: _Sim, action: act.HexAction, player: str, *, to_the_end: bool = False
    ) -> float:
        """``action`` then its own policy on ``player``'s side and the tactical bot on
        the other, to the end of the activation and :attr:`activations` more (at most
        :attr:`playout_actions` actions), or ``to_the_end`` of the battle (at most
        :data:`END_PLAYOUT` actions); the score for ``player``."""
        activations = END_PLAYOUT if to_the_end else self.activations
        ended = match.play(action)
        for _ in range(END_PLAYOUT if to_the_end else self.playout_actions):
            ship = match.active
            if match.is_over or ship is None or ended > activations:
                break
            bot = self.own if ship.owner == player else self.tactical
            ended += match.play(match.policy(bot, ship.owner))
        return score(match, player)


#: The tactical bot's ``rng`` in playouts (it draws nothing from it).
_NO_CHANCE = random.Random(0)


def candidates(
    seat: Seat, default: act.HexAction, also: tuple[act.HexAction, ...] = ()
) -> list[act.HexAction]:
    """The actions weighed (at most :data:`CANDIDATES`): the own policy's ``default``
    first, then ``also`` (the tactical level's choice), every other shot, raising
    shields, ending the activation, and up to :data:`MOVES` moves (those ending nearest
    an enemy)."""
    player, ship = seat.player, seat.ship
    found: list[act.HexAction] = [default, *also]
    found.extend(act.Fire(player, ship.id, t.id, 0.0) for t in seat.targets())
    if seat.can_raise():
        found.append(act.RaiseShields(player, ship.id, 0.0))
    found.append(act.EndActivation(player, ship.id, 0.0))
    moves = seat.moves()
    if moves and ship.at is not None:
        enemies = [e.at for e in seat.enemies() if e.at is not None]

        def closeness(key: Any) -> tuple[int, str]:
            at, _facing = key
            near = min((distance(at, e) for e in enemies), default=0)
            return (near, moves[key])

        for key in sorted(moves, key=closeness)[:MOVES]:
            found.append(act.Move(player, ship.id, moves[key], 0.0))
    out: list[act.HexAction] = []
    for action in found:
        if action not in out:
            out.append(action)
    return out[:CANDIDATES]


class _Sim(HexMatch):
    """A battle the expert plays out: rebuilt from a view, copied cheaply, told nothing
    in words (no log), its actions applied unchecked (they come from the bots)."""

    #: How many cards the pile holds (:meth:`dealt` fills it).
    pile_size: int
    #: The deck as the seat saw it at the root: the playouts' bots reason on it.
    seen: dict[str, Any]
    #: The tactical bot's choices by position, shared by every copy of one root.
    choices: dict[tuple[Any, ...], act.HexAction]

    @classmethod
    def of(cls, view: dict[str, Any]) -> _Sim:
        """The battle ``view`` shows, its draw pile empty and its chance unseeded (see
        :meth:`dealt`)."""
        ships = [ship_from_json(s) for s in view["ships"]]
        players = tuple(dict.fromkeys(s.owner for s in ships))
        options = HexOptions(players=players, scenario=view["scenario"],
                             turn_limit=view["turn_limit"])  # fmt: skip
        match = cls(options, 0)
        match.ships = {s.id: s for s in ships}
        match.turn = view["turn"]
        match.cup = list(view["cup"])
        match.phase = Phase(view["phase"])
        activation = view["activation"]
        match.activation = Activation(
            activation["ship"], activation["movement"], frozenset(activation["done"]),
            activation["placing"],
        )  # fmt: skip
        deck = view["deck"]
        match.deck = Deck(match.rng, [], [parse_card(c) for c in deck["discards"]],
                          deck["reshuffles"])  # fmt: skip
        match.pile_size = deck["pile"]
        match.seen, match.choices = deck, {}
        match._undo, match.log, match.events = [], [], []
        return match

    def dealt(self, rng: random.Random) -> _Sim:
        """A copy whose pile holds the unseen cards in an order drawn by ``rng``, and
        whose chance (the cup, later shuffles) is reseeded by it."""
        gone = set(self.deck.discards)
        unseen = [c for c in full_deck() if c not in gone]
        rng.shuffle(unseen)
        match = self.copy()
        match.rng.seed(rng.randrange(2**32))
        match.deck.pile = unseen[: self.pile_size]
        return match

    def copy(self) -> _Sim:
        """An independent copy (ships are immutable: the dict is copied, not them)."""
        match = object.__new__(_Sim)
        match.__dict__.update(self.__dict__)
        match.rng = random.Random()
        match.rng.setstate(self.rng.getstate())
        match.ships = dict(self.ships)
        match.cup = list(self.cup)
        match.deck = Deck(match.rng, list(self.deck.pile), list(self.deck.discards),
                          self.deck.reshuffles)  # fmt: skip
        match._undo, match.log, match.events, match.actions = [], [], [], []
        return match

    def play(self, action: act.HexAction) -> int:
        """Apply ``action`` (a bot's: legal) without checking it; whether it ended an
        activation (1) or not (0)."""
        return sum(isinstance(e, ActivationEnded) for e in self._perform(action))

    def _tell(self, events: list[Event], before: dict[str, Ship], turn: int) -> None:
        pass  # no log in words

    def policy(self, tactical: TacticalBot, player: str) -> act.HexAction:
        """The tactical bot's action for ``player``'s active ship, remembered by position
        (the same in every deal that reaches it: the bot reasons on the deck as seen at
        the root, not on the deal's)."""
        key = (player, self.turn, self.activation, tuple(self.ships.values()), tuple(self.cup))
        action = self.choices.get(key)
        if action is None:
            action = self.choices[key] = tactical.choose(self.bot_view(player), _NO_CHANCE)
        return action

    def bot_view(self, player: str) -> dict[str, Any]:
        """What the bots read of :meth:`view` (not the odds, moves or log it adds)."""
        activation = self.activation
        return {
            "player": player,
            "phase": self.phase.value,
            "turn": self.turn,
            "turn_limit": self.options.turn_limit,
            "scenario": self.options.scenario,
            "ships": [s.to_json() for s in self.ships.values()],
            "cup": list(self.cup),
            "activation": None if activation is None else activation.to_json(),
            "deck": self.seen,
            "board": self.board.to_json(),
            "strength": self.strength(),
        }


def score(match: HexMatch, player: str) -> float:
    """``player``'s strength share minus the best other side's; a battle over counts 1
    if won, -1 if lost, 0 if drawn."""
    result = match.result()
    if result is not None:
        return 0.0 if result.winner is None else 1.0 if result.winner == player else -1.0
    strength = match.strength()
    others = [v for p, v in strength.items() if p != player]
    return strength[player] - max(others, default=0.0)
