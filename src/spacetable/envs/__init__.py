"""The four games as multi-agent reinforcement-learning environments (PettingZoo).

Needs the optional ``rl`` extra (``uv sync --extra rl``, or ``pip install
'spacetable[rl]'``): PettingZoo and Gymnasium. docs/environments.md tells how each game's
decisions are cut into discrete actions.

- :class:`LightSpeedEnv`, :class:`StellarEnv`: the laser games' placing round on a grid of
  poses, a round of placements a step (``ParallelEnv``).
- :class:`FtlEnv`: Faster Than Light's secret plots, a turn a step (``ParallelEnv``).
- :class:`HexFleetEnv`: the hex fleet's activations, one agent at a time (``AECEnv``).

Each plays its game's own match (the registry's entry, :mod:`spacetable.games`): the same
seed and the same actions give the same episode, and its action log replays through the
match to the same result. Observations are dicts of numpy arrays, ``observation`` and
``action_mask``; ``render_mode="svg"`` draws the match with :mod:`spacetable.render`.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium
    import pettingzoo as _pettingzoo
except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
    raise ImportError(
        "spacetable.envs needs the 'rl' extra: uv sync --extra rl (or pip install 'spacetable[rl]')"
    ) from exc

from spacetable.envs._base import MAX_CYCLES, RENDER_MODES
from spacetable.envs.ftl import FtlEnv
from spacetable.envs.hexfleet import HexFleetEnv
from spacetable.envs.lasers import Grid, LightSpeedEnv, StellarEnv

del _gymnasium, _pettingzoo

__all__ = [
    "MAX_CYCLES",
    "RENDER_MODES",
    "FtlEnv",
    "Grid",
    "HexFleetEnv",
    "LightSpeedEnv",
    "StellarEnv",
]
