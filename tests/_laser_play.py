"""Playing a laser round over raw sockets, as the protocol tests and the multi-process
tests do: cards put down at random free spots (from a seeded generator) until the battle."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from spacetable.bots.lasers._view import random_free_pose, view_table
from tests._server import Client

Key = TypeVar("Key", bound=Hashable)


def free_spot(state: dict[str, Any], rng: random.Random) -> dict[str, float]:
    """A pose on the table of ``state`` where the card in hand touches no other card."""
    pose = random_free_pose(view_table(state), rng)
    assert pose is not None
    return {"x": pose.x, "y": pose.y, "rotation": pose.rotation_deg}


def play_to_the_battle(
    players: Mapping[Key, Client],
    first: Mapping[Key, dict[str, Any]],
    rng: random.Random,
    between: Callable[[], object] | None = None,
) -> dict[Key, dict[str, Any]]:
    """Each player, one message at a time in turn from ``first`` (the last message each has
    read), places every card at a free spot and discards at the stop, until all see the
    battle; their ``battle`` messages. ``between()`` is called once, after the first card."""
    pending = dict(first)
    battles: dict[Key, dict[str, Any]] = {}
    placed = 0
    while len(battles) < len(players):
        for key, client in players.items():
            message = pending[key]
            if key in battles:
                continue
            if message["type"] == "battle":
                battles[key] = message
                continue
            if message["type"] == "state" and message["hand"] is not None:
                me = message["player"]
                if message["phase"] == "fast":
                    client.send(type="place", **free_spot(message, rng))
                    placed += 1
                    if placed == 1 and between is not None:
                        between()
                elif message["phase"] == "stop" and not message["players"][me]["decided"]:
                    client.send(type="discard")
            pending[key] = client.wait(lambda m: m["type"] in ("state", "battle"))
    return battles
