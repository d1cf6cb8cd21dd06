"""The hex fleet expert: the same action for the same seed, a legal one, blind to the
order of the draw pile and to the cup's next chit, and a short seeded duel played out."""

from __future__ import annotations

import copy
import random

from spacetable.bots.hexfleet import make_bot
from spacetable.bots.hexfleet.arena import duel
from spacetable.bots.hexfleet.expert import ExpertBot
from spacetable.games.hexfleet.match import HexMatch, HexOptions


def position(seed: int) -> HexMatch:
    """A seeded skirmish played by the tactical bots until red's ship is active again
    after a few activations."""
    match = HexMatch(HexOptions(scenario="skirmish", turn_limit=6), seed)
    tactical, rng = make_bot("tactical"), random.Random(seed)
    for played in range(200):
        ship = match.active
        assert ship is not None and not match.is_over
        if ship.owner == "red" and played >= 6 and not match.activation.placing:  # type: ignore[union-attr]
            return match
        match.apply(tactical.choose(match.view(ship.owner), rng))
    raise AssertionError("red was never active")


def test_the_expert_chooses_the_same_legal_action_for_a_seed() -> None:
    for seed in (1, 2):
        match = position(seed)
        first = make_bot("expert").choose(match.view("red"), random.Random(seed))
        assert ExpertBot().choose(copy.deepcopy(match.view("red")), random.Random(seed)) == first
        assert match.check(first) is None, first


def test_the_expert_never_reads_the_draw_pile_or_the_cup_to_come() -> None:
    """Two battles alike in all the seat sees, their piles in other orders and their
    chance reseeded: the same view, the same action."""
    match = position(3)
    chosen, views = [], []
    for shuffle in (10, 11):
        other = copy.deepcopy(match)
        random.Random(shuffle).shuffle(other.deck.pile)
        other.rng.seed(shuffle)
        views.append(other.view("red"))
        chosen.append(ExpertBot().choose(other.view("red"), random.Random(5)))
    assert len(match.deck.pile) > 1  # a pile to reorder
    assert views[0] == views[1]
    assert chosen[0] == chosen[1]


def test_a_short_duel_of_the_expert_against_tactical_completes() -> None:
    result = duel(ExpertBot(iterations=8, horizon=2), make_bot("tactical"), 4, turn_limit=2)
    assert 1 <= result.turns <= 2
