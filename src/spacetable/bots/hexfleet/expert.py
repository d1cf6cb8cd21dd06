"""The hex fleet expert bot (level ``expert``): information-set Monte Carlo tree search
over the hidden cards.

What a seat does not know is the order of the draw pile (the cards that settle every
salvo and shield roll) and which chit comes out of the cup next. At each decision the
bot searches the actions of its active ship (end the activation, the ``tactical``
level's choice, every shot it may fire, raising its shields, and moves to the hexes it
can reach, nearest to the tactical choice first) with UCT at the root of an
information-set tree (Cowling, Powley and Whitehouse, 2012): every iteration draws one
*determinization* of what it cannot see, consistent with its view (the unseen cards,
:meth:`~spacetable.games.hexfleet.match.HexMatch.unseen`, shuffled into a pile of the
pile's size; a fresh seed for the cup's draws), plays the chosen action on a battle
rebuilt from the view with those cards, then lets the ``tactical`` bot play both sides
for :data:`HORIZON` more actions, and scores the battle by each side's strength left
(or the result, if it ended). Statistics are shared across determinizations, so an
action is judged on the cards it could meet, never on the real pile.

The budget is an iteration count (:data:`ITERATIONS`), never the clock: the same view
and seed give the same action on any machine. Chance comes only from the ``random.Random``
passed in. A battle the bot cannot rebuild from its view (a custom scenario, whose
fleets the view does not name) is played by the ``tactical`` bot.
"""

from __future__ import annotations

import math
import random
from typing import Any

from spacetable.bots.hexfleet._seat import Seat, ship_from_json
from spacetable.bots.hexfleet.tactical import TacticalBot
from spacetable.games.hexfleet import actions as act
from spacetable.games.hexfleet.cards import Deck, full_deck, parse_card
from spacetable.games.hexfleet.fleets import SCENARIOS
from spacetable.games.hexfleet.hexes import distance
from spacetable.games.hexfleet.match import Activation, HexMatch, HexOptions, Phase

#: Determinized playouts per decision (the thinking budget).
ITERATIONS = 24
#: Actions played by the tactical bot after the searched one before the battle is scored.
HORIZON = 4
#: The most moves weighed at the root (besides the tactical bot's own).
MOVES = 6
#: UCT's exploration constant (scores are in strength shares, between -1 and 1).
EXPLORATION = 0.35


class ExpertBot:
    """Chooses by information-set MCTS over the hidden cards (see the module's docstring)."""

    def __init__(self, iterations: int = ITERATIONS, horizon: int = HORIZON) -> None:
        self.iterations = iterations
        self.horizon = horizon
        self.tactical = TacticalBot()

    def choose(self, view: dict[str, Any], rng: random.Random) -> act.HexAction:
        """The action for ``view["player"]``'s active ship."""
        seat = Seat.of(view)
        default = self.tactical.choose(view, rng)
        if seat.placing or view.get("scenario") not in SCENARIOS:
            return default
        actions = candidates(seat, default)
        if len(actions) == 1:
            return actions[0]
        visits = [0] * len(actions)
        totals = [0.0] * len(actions)
        for n in range(self.iterations):
            if n < len(actions):
                index = n
            else:
                index = max(
                    range(len(actions)),
                    key=lambda i: (
                        totals[i] / visits[i] + EXPLORATION * math.sqrt(math.log(n) / visits[i])
                    ),
                )
            match = determinize(view, rng)
            totals[index] += self.playout(match, actions[index], seat.player, rng)
            visits[index] += 1
        best = max(range(len(actions)), key=lambda i: (visits[i], totals[i] / visits[i], -i))
        return actions[best]

    def playout(
        self, match: HexMatch, action: act.HexAction, player: str, rng: random.Random
    ) -> float:
        """``action`` then :attr:`horizon` tactical actions on ``match``; the score for
        ``player``."""
        match.apply(action)
        for _ in range(self.horizon):
            if match.is_over:
                break
            ship = match.active
            if ship is None:
                break
            match.apply(self.tactical.choose(match.view(ship.owner), rng))
        return score(match, player)


def candidates(seat: Seat, default: act.HexAction) -> list[act.HexAction]:
    """The root's actions: the tactical ``default`` first, ending the activation, every
    shot, raising shields, and up to :data:`MOVES` moves nearest the default's end hex."""
    player, ship = seat.player, seat.ship
    found: list[act.HexAction] = [default, act.EndActivation(player, ship.id, 0.0)]
    found.extend(act.Fire(player, ship.id, t.id, 0.0) for t in seat.targets())
    if seat.can_raise():
        found.append(act.RaiseShields(player, ship.id, 0.0))
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
    return out


def determinize(view: dict[str, Any], rng: random.Random) -> HexMatch:
    """A battle rebuilt from ``view`` with what it hides drawn by ``rng``: the unseen cards
    shuffled into the pile, a fresh seed for the cup and later shuffles."""
    ships = [ship_from_json(s) for s in view["ships"]]
    players = tuple(dict.fromkeys(s.owner for s in ships))
    options = HexOptions(players=players, scenario=view["scenario"],
                         turn_limit=view["turn_limit"])  # fmt: skip
    match = HexMatch(options, rng.randrange(2**32))
    match.ships = {s.id: s for s in ships}
    match.turn = view["turn"]
    match.cup = list(view["cup"])
    match.phase = Phase(view["phase"])
    activation = view["activation"]
    match.activation = Activation(
        activation["ship"],
        activation["movement"],
        frozenset(activation["done"]),
        activation["placing"],
    )
    match._undo = []
    deck = view["deck"]
    discards = [parse_card(c) for c in deck["discards"]]
    gone = set(deck["discards"])
    unseen = [c for c in full_deck() if str(c) not in gone]
    rng.shuffle(unseen)
    match.deck = Deck(match.rng, unseen[: deck["pile"]], discards, deck["reshuffles"])
    match.log = []
    return match


def score(match: HexMatch, player: str) -> float:
    """``player``'s strength share minus the best other side's; a battle won or lost
    counts 1 or -1."""
    result = match.result()
    if result is not None and result.winner is not None and result.reason != "turn-limit":
        return 1.0 if result.winner == player else -1.0
    strength = match.strength()
    others = [v for p, v in strength.items() if p != player]
    return strength[player] - max(others, default=0.0)
