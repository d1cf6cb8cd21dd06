"""Bots, one package per game, behind one interface: ``choose(view, rng) -> action``.

Each package reads alike: its ``__init__`` exports ``LEVELS`` (weakest first, as the game's
registry entry offers them) and ``make_bot(level)``; a module per bot; ``arena.py`` plays
the game's seeded duels (:mod:`spacetable.core.duels`); private modules below the bots
hold what they share (reading the view, ...).

- :mod:`spacetable.bots.lasers`: Light Speed and Stellar Conflict (one placing round);
- :mod:`spacetable.bots.ftl`: Faster Than Light;
- :mod:`spacetable.bots.hexfleet`: the hex fleet.

A bot sees exactly what a person in its seat sees (the match's ``view(player)``) and plays
through the same match machine. Its actions carry ``t = 0``; whoever drives the match (the
server's room, or an arena) stamps the real time. Chance comes only from the
``random.Random`` passed in.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar

Action_co = TypeVar("Action_co", covariant=True)


class Bot(Protocol[Action_co]):
    """Anything that picks an action of one game from a seat's view."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Action_co:
        """The action to play now, for ``view["player"]`` who must act."""
        ...
