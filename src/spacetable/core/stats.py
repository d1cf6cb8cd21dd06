"""Statistics the studies share: win rates with their confidence intervals."""

from __future__ import annotations

import math

#: z for a two-sided 95 % interval.
Z_95 = 1.959963984540054


def wilson(points: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (default 95 %) for a win rate of ``points`` out of
    ``games`` (draws may count half a point). Raises ``ValueError`` if ``games`` is not
    positive or ``points`` lies outside ``0..games``."""
    if games <= 0:
        raise ValueError(f"a win rate needs at least one game, got {games}")
    if not 0 <= points <= games:
        raise ValueError(f"{points} points do not fit in {games} games")
    rate = points / games
    z2 = z * z
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games**2))
    return max(0.0, centre - half), min(1.0, centre + half)
