"""The reinforcement-learning environments (spacetable.envs): PettingZoo's API, seed and
render tests, exact replays, and each game's discretisation."""
