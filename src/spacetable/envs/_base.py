"""What the four environments share: seats as agents, seeds, observations with an action
mask, the rewards at the end (by place), truncation and the drawing.

An environment plays one match of its game (the game's registry entry names the match
class, the drawing and the options): every seat is an agent, ``player_0`` to
``player_{n-1}`` in seat order (the match's players are named so too). Nothing of the
rules is here: each step becomes the match's own actions, applied with
:meth:`~spacetable.core.match.Match.apply`, and what an agent observes is drawn from what
the match shows that player (:meth:`~spacetable.core.match.Match.view`, or the public
state for a game with no secrets but the deck's order).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from spacetable.core.match import Match
from spacetable.registry import Game

#: Render modes the environments offer: the SVG picture of the match as it stands, drawn
#: by the game's own renderer (:mod:`spacetable.render`), as text.
RENDER_MODES = ("svg",)
#: Rounds (parallel steps) or actions (the hex fleet's steps) after which an unfinished
#: episode is truncated, unless an environment is given its own ``max_cycles``.
MAX_CYCLES = 1000

Observation = dict[str, np.ndarray]


def agent_names(seats: int) -> list[str]:
    """The agents of a match of ``seats`` seats, in seat order: ``player_0``..."""
    return [f"player_{seat}" for seat in range(seats)]


def checked_render_mode(mode: str | None) -> str | None:
    """``mode`` if an environment offers it (``None``: no drawing). Raises
    ``ValueError`` naming the modes there are."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode {mode!r}: the environments offer {', '.join(RENDER_MODES)}")
    return mode


def observation_space(size: int, actions: int) -> spaces.Dict:
    """An observation: ``observation``, ``size`` numbers in [-1, 1], and ``action_mask``,
    1 for each of the ``actions`` an agent may take now, 0 for the others."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )


def observed(features: Sequence[float], mask: np.ndarray) -> Observation:
    """An observation of ``features`` (each clipped to [-1, 1]) and ``mask``."""
    values = np.clip(np.asarray(features, dtype=np.float32), -1.0, 1.0)
    return {"observation": values, "action_mask": mask}


def fraction(value: float, whole: float) -> float:
    """``value / whole``, in [-1, 1] (0 for an empty whole)."""
    return 0.0 if whole <= 0 else max(-1.0, min(1.0, value / whole))


def seat_order(agents: Sequence[str], agent: str) -> list[str]:
    """``agents`` as ``agent`` sees them: himself first, then the seats after his, around
    the table (an observation is the same whatever seat an agent holds)."""
    start = list(agents).index(agent)
    return [*agents[start:], *agents[:start]]


def rewards_by_place(ranks: Mapping[str, tuple[float, ...]]) -> dict[str, float]:
    """Each player's reward at the end, by place: ``(beaten - beaten by) / (n - 1)``,
    where a player beats those whose rank (a tuple, higher is better) is lower. Two seats:
    +1 for the winner, -1 for the loser, 0 each for a draw; more seats: +1 alone in first
    place, -1 alone in last, shared places in between."""
    others = len(ranks) - 1
    return {
        player: sum((rank > other) - (rank < other) for other in ranks.values()) / others
        for player, rank in ranks.items()
    }


class Seeds:
    """The seeds of an environment's matches: ``reset(seed=k)`` plays the match of seed
    ``k`` (the one a room with that seed plays); a reset without a seed draws the next
    match's seed from the last seed given (or from the system's entropy before any)."""

    def __init__(self) -> None:
        self._draw = random.Random()

    def next(self, seed: int | None) -> int:
        """The seed of the next match."""
        if seed is None:
            return self._draw.randrange(2**31)
        self._draw = random.Random(seed)
        return int(seed)


def new_match(game: Game, agents: Sequence[str], options: Mapping[str, Any], seed: int) -> Any:
    """A match of ``game`` for ``agents``, its options ``options`` (JSON, the players
    left out) and ``seed``. Raises :class:`~spacetable.core.match.InvalidOptions`."""
    match_type: type[Match[Any, Any]] | None = game.rules.match
    if match_type is None:
        raise ValueError(f"{game.rules.title} has no match to play")
    settings = match_type.options_from_json({**options, "players": list(agents)})
    return match_type(settings, seed)


def replayed(match: Match[Any, Any]) -> Match[Any, Any]:
    """``match`` played again from its record (options, seed, action log) by the rules."""
    return type(match).from_record(match.record())
