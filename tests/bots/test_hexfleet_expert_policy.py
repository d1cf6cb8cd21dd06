"""The hex fleet expert's own policy: the tactical bot's judgement with other weights
plays its side (its first candidate and its side in the playouts), while the other side
is played by the tactical level it models; the tactical level's weights are its own."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spacetable.bots.hexfleet import make_bot
from spacetable.bots.hexfleet.expert import ExpertBot
from spacetable.bots.hexfleet.tactical import TACTICAL, TacticalBot, Weights
from tests.bots._hexfleet import battle_after


def test_the_tactical_level_judges_by_the_tactical_weights() -> None:
    assert TacticalBot().weights == TACTICAL == Weights()
    bot = make_bot("tactical")
    assert isinstance(bot, TacticalBot) and bot.weights == TACTICAL


def test_the_expert_plays_its_side_by_its_own_policy_and_models_the_other_by_tactical(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every decision of the playouts (on a view cut to what the bots read, with no log)
    for the expert's side is its own policy's, every decision for the other side the
    tactical level's."""
    own = Weights(exposure=0.5, late_turns=5)
    asked: list[tuple[str, Weights]] = []
    choose = TacticalBot.choose

    def seen(self: TacticalBot, view: dict[str, Any], rng: random.Random) -> object:
        if "log" not in view:  # a playout's, not the root's
            asked.append((view["player"], self.weights))
        return choose(self, view, rng)

    match = battle_after(3, 20)
    assert match.active is not None
    monkeypatch.setattr(TacticalBot, "choose", seen)
    player = match.active.owner
    ExpertBot(rounds=(2, 2), own=own).choose(match.view(player), random.Random(1))
    assert {w for p, w in asked if p == player} == {own}
    others = {w for p, w in asked if p != player}
    assert others == {TACTICAL}


def test_the_expert_level_plays_its_side_by_its_own_weights() -> None:
    """The level offered plays its side less wary of the enemies' reach than the tactical
    level it models the other side by (docs/lab.md: 113 of 200 seeded duels won against
    ``tactical``, 110 on the tactical policy)."""
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot)
    assert bot.own.weights == Weights(exposure=0.6) != TACTICAL
    assert bot.tactical.weights == TACTICAL
