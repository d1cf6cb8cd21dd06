"""Highest number's bot: picks at random, from the match's seeded generator."""

from __future__ import annotations

import random
from typing import Any

from tests.highest.rules import Pick

#: The bot levels, in order of strength.
LEVELS = ("random",)


class RandomPicker:
    """Picks any number from 1 to the top."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Pick:
        """A pick for the player of ``view``."""
        return Pick(view["player"], (str(rng.randint(1, view["top"])),), 0.0)


def make_bot(level: str) -> RandomPicker:
    """The bot of ``level`` (only ``random``)."""
    return RandomPicker()
