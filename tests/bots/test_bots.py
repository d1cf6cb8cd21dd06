"""Bots: legal play through the match machine, and the greedy bot's strength."""

from __future__ import annotations

import random

import pytest

from spacetable.bots.lasers import LEVELS, make_bot
from spacetable.bots.lasers.arena import play_match, win_rate
from spacetable.games.lightspeed import LightSpeedMatch, LightSpeedOptions
from spacetable.games.stellar import Fleet


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_bot_plays_a_whole_four_player_match(level: str) -> None:
    match = play_match(
        [make_bot(level), make_bot("random"), make_bot("random"), make_bot("random")], seed=3
    )
    outcome = match.result()
    assert outcome is not None
    assert set(outcome.scores) == {"red", "blue", "green", "purple"}
    replayed = LightSpeedMatch.replay(match.options, match.seed, match.actions)
    again = replayed.result()
    assert again is not None and again.to_json() == outcome.to_json()


def test_bots_decide_after_stop() -> None:
    # Blue is four times slower, so red calls stop with blue still holding cards.
    match = play_match([make_bot("random"), make_bot("medium")], seed=9, paces=[0.25, 1.0])
    assert match.stopped_by == "red"
    assert match.actions[-1].type_name in ("drop", "discard")


def test_greedy_choices_are_legal_spots() -> None:
    match = LightSpeedMatch(LightSpeedOptions(asteroids="two-small"), seed=5)
    bot = make_bot("hard")
    rng = random.Random(0)
    for _ in range(6):
        for player in match.players:
            action = bot.choose(match.view(player), rng).with_time(0.0)
            assert not isinstance(action, Fleet)  # Light Speed asks for no fleet
            assert match.check(action) is None
            match.apply(action)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        make_bot("genius")


def test_the_greedy_bot_beats_the_random_bot_in_a_few_seeded_matches() -> None:
    """The study below in small: the same first seeds, the greedy bot wins them."""
    assert win_rate(make_bot("medium"), make_bot("random"), games=6, seed=1000) >= 5 / 6


@pytest.mark.slow
def test_greedy_bot_beats_the_random_bot_nine_times_in_ten() -> None:
    rate = win_rate(make_bot("medium"), make_bot("random"), games=200, seed=1000)
    print(f"greedy (medium) vs random over 200 games: {rate:.1%}")
    assert rate >= 0.9
