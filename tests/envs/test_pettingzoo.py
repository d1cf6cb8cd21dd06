"""The four environments (spacetable.envs) against PettingZoo's own tests: the API test
(``parallel_api_test`` for the simultaneous games, ``api_test`` for the hex fleet), the
seed test (two environments of the same seed, the same sampled actions, the same
episode) and the render test (every render mode gives what it says: SVG text here); then
episodes of random legal actions whose action log, replayed by the game's match alone,
gives the same result and the same rewards.

Small episodes and few cycles: a few seconds a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.utils import parallel_to_aec

from spacetable.envs import FtlEnv, HexFleetEnv, LightSpeedEnv, StellarEnv
from spacetable.envs._base import replayed, rewards_by_place
from spacetable.games.hexfleet.match import HexMatch

#: The simultaneous games' environments, each of a small match (Stellar Conflict's
#: smallest battle).
PARALLEL: dict[str, Callable[..., Any]] = {
    "lightspeed": LightSpeedEnv,
    "stellar": lambda **kw: StellarEnv(options={"battle_size": "dispute"}, **kw),
    "ftl": FtlEnv,
}
#: PettingZoo's API test warns of any observation that is a dict rather than an array
#: (it names its own dict-observation games, chess, go..., as exceptions): the
#: environments' observations are dicts with an action mask, as the issue asks.
DICT_OBSERVATIONS = (
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


def is_svg(drawn: Any) -> bool:
    """Whether a render is a whole SVG picture as text."""
    return isinstance(drawn, str) and drawn.lstrip().startswith("<svg") and "</svg>" in drawn


def as_aec(make: Callable[..., Any]) -> Callable[..., AECEnv]:
    """An AEC constructor of a parallel environment (PettingZoo's render test steps agents
    one at a time). Its first call asks for ``human`` only to read the render modes:
    the environments draw to text, for no screen."""

    def made(render_mode: str | None = None) -> AECEnv:
        return parallel_to_aec(make(render_mode=None if render_mode == "human" else render_mode))

    return made


@pytest.mark.parametrize("key", PARALLEL)
def test_parallel_api(key: str) -> None:
    parallel_api_test(PARALLEL[key](), num_cycles=60)


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_hexfleet_api() -> None:
    api_test(HexFleetEnv(), num_cycles=40)


@pytest.mark.parametrize("key", PARALLEL)
def test_parallel_seed(key: str) -> None:
    parallel_seed_test(PARALLEL[key], num_cycles=40)


def test_hexfleet_seed() -> None:
    seed_test(HexFleetEnv, num_cycles=40)


@pytest.mark.parametrize("key", PARALLEL)
def test_parallel_render(key: str) -> None:
    render_test(as_aec(PARALLEL[key]), custom_tests={"svg": is_svg})


def test_hexfleet_render() -> None:
    def made(render_mode: str | None = None) -> HexFleetEnv:
        return HexFleetEnv(render_mode=None if render_mode == "human" else render_mode)

    render_test(made, custom_tests={"svg": is_svg})


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="svg"):
        LightSpeedEnv(render_mode="rgb_array")


def random_parallel_episode(env: ParallelEnv, seed: int) -> tuple[dict[str, float], list[Any]]:
    """Play ``env`` from ``reset(seed=seed)`` to its end with random legal actions (a
    seeded draw); its last rewards and every round's observations."""
    observations, _ = env.reset(seed=seed)
    draw = np.random.default_rng(seed)
    seen: list[Any] = [observations]
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {
            agent: int(draw.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for agent in env.agents
        }
        observations, rewards, terminations, truncations, _ = env.step(actions)
        assert not any(truncations.values())
        seen.append(observations)
    assert all(terminations.values())
    return rewards, seen


@pytest.mark.parametrize(("key", "seats"), [("lightspeed", 2), ("stellar", 2), ("ftl", 2),
                                            ("lightspeed", 3), ("ftl", 4)])  # fmt: skip
def test_a_random_episode_replays_through_the_match(key: str, seats: int) -> None:
    env = PARALLEL[key](seats=seats)
    rewards, _ = random_parallel_episode(env, seed=7)
    again: Any = replayed(env.match)
    assert again.is_over
    assert again.result().to_json() == env.match.result().to_json()
    assert again.actions == env.match.actions
    assert rewards == rewards_by_place(env.ranks(again))
    winner = again.result().winner
    assert winner is None or rewards[winner] == 1.0


def test_a_random_hexfleet_episode_replays_through_the_match() -> None:
    env = HexFleetEnv()
    env.reset(seed=7)
    draw = np.random.default_rng(7)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        assert not truncated
        action = None
        if terminated:
            final[agent] = reward
        else:
            action = int(draw.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    again = replayed(env.match)
    assert isinstance(again, HexMatch)
    result = env.match.result()
    assert result is not None and again.result() == result
    assert again.actions == env.match.actions
    assert again.log == env.match.log
    assert final == rewards_by_place(env.ranks(again))
    assert result.winner is None or final[result.winner] == 1.0


@pytest.mark.parametrize("key", PARALLEL)
def test_the_same_seed_and_actions_give_the_same_episode(key: str) -> None:
    first = random_parallel_episode(PARALLEL[key](), seed=3)
    second = random_parallel_episode(PARALLEL[key](), seed=3)
    assert first[0] == second[0]
    assert len(first[1]) == len(second[1])
    for a, b in zip(first[1], second[1], strict=True):
        for agent in a:
            assert np.array_equal(a[agent]["observation"], b[agent]["observation"])
            assert np.array_equal(a[agent]["action_mask"], b[agent]["action_mask"])
