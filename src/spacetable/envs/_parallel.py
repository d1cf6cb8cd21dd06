"""The parallel environment of a game whose players decide at once (the laser games'
placing round, Faster Than Light's plots): PettingZoo's ``ParallelEnv``, one step a round.

A subclass says what its actions are (:attr:`MatchParallelEnv.action_count`), what an
agent observes, how a round of actions becomes the match's own actions, and how the end
ranks the players; this class keeps the seats, the seeds, the rewards, truncation and the
drawing. An action the mask forbids (or one the rules refuse when it comes, because an
action of the same round came first) changes nothing: the agent waits this round, and its
info's ``refused`` says why.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from spacetable.envs._base import (
    MAX_CYCLES,
    RENDER_MODES,
    Observation,
    Seeds,
    agent_names,
    checked_render_mode,
    new_match,
    observation_space,
    rewards_by_place,
)
from spacetable.registry import game


class MatchParallelEnv(ParallelEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """One match of a simultaneous game as a PettingZoo ``ParallelEnv``.

    ``seats`` players (agents ``player_0``...), the match's ``options`` as its JSON holds
    them (the players left out; the game's defaults for the others), ``render_mode``
    ``"svg"`` or ``None``, and ``max_cycles`` rounds after which an unfinished episode is
    truncated. Raises :class:`~spacetable.core.match.InvalidOptions` naming a bad option.
    """

    #: The game's key in the registry.
    key: ClassVar[str]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        max_cycles: int = MAX_CYCLES,
    ) -> None:
        self.game = game(self.key)
        self.options = dict(options or {})
        self.render_mode = checked_render_mode(render_mode)
        self.max_cycles = max_cycles
        self.possible_agents = agent_names(seats)
        self.agents: list[str] = []
        #: Rounds played in this episode.
        self.rounds = 0
        self._seeds = Seeds()
        #: The match being played (one made now checks the options).
        self.match: Any = new_match(self.game, self.possible_agents, self.options, 0)
        size, count = self.observation_size(), self.action_count()
        self._observation_spaces = {a: observation_space(size, count) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}

    # -- what a game says -----------------------------------------------------------------------

    @abstractmethod
    def action_count(self) -> int:
        """How many actions an agent has (its ``Discrete(n)``)."""

    @abstractmethod
    def observation_size(self) -> int:
        """How many numbers an observation holds."""

    @abstractmethod
    def observe(self, agent: str) -> Observation:
        """What ``agent`` observes now, with its action mask."""

    @abstractmethod
    def play_round(self, actions: Mapping[str, int]) -> dict[str, str]:
        """Apply one round: each agent's action (agents absent wait). Returns why an
        agent's action changed nothing, by agent (the rules' refusal)."""

    @abstractmethod
    def ranks(self, match: Any) -> dict[str, tuple[float, ...]]:
        """Each player's place at the end of the finished ``match``, as a tuple compared
        in order (higher ranks better; equal tuples share a place)."""

    @abstractmethod
    def svg(self) -> str:
        """The match as it stands, drawn by the game's own renderer."""

    def began(self) -> None:
        """Called once a new match is made (a subclass resets what it keeps)."""

    # -- PettingZoo --------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observations: ``observation`` and ``action_mask``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s actions: ``Discrete(n)``, masked by ``action_mask``."""
        return self._action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Start a new match: of ``seed`` if given (the same seed and the same actions
        give the same episode), else of the next seed drawn from the last one given.
        ``options`` is not read (the match's options are the environment's)."""
        del options
        self.match = new_match(
            self.game, self.possible_agents, self.options, self._seeds.next(seed)
        )
        self.agents = list(self.possible_agents)
        self.rounds = 0
        self.began()
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play one round of ``actions`` (one action an agent; an agent left out waits)."""
        if not self.agents:
            return {}, {}, {}, {}, {}
        chosen = {a: int(actions[a]) for a in self.agents if a in actions}
        refused = self.play_round(chosen)
        self.rounds += 1
        over = bool(self.match.is_over)
        truncated = not over and self.rounds >= self.max_cycles
        rewards = self.rewards() if over else dict.fromkeys(self.agents, 0.0)
        observations = {a: self.observe(a) for a in self.agents}
        infos: dict[str, dict[str, Any]] = {
            a: {"refused": refused[a]} if a in refused else {} for a in self.agents
        }
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def rewards(self) -> dict[str, float]:
        """The rewards at the end, by place (:func:`~spacetable.envs._base.rewards_by_place`)."""
        return rewards_by_place(self.ranks(self.match))

    def render(self) -> str | None:
        """The match as SVG text in ``render_mode="svg"``; ``None`` without a mode."""
        return None if self.render_mode is None else self.svg()

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray:
        """Not offered: every agent's observation is its own seat's view."""
        raise NotImplementedError("the environments observe each seat's view, not a state")
