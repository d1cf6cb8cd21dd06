"""Playing a laser round over raw sockets, as the protocol tests and the multi-process
tests do: cards put down at random free spots (from seeded generators) until the battle."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
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
    first: Mapping[Key, dict[str, Any]] | None = None,
    between: Callable[[], object] | None = None,
    seed: int = 7,
) -> dict[Key, dict[str, Any]]:
    """Each player places every card at a free spot, or discards when stopped, until all
    see the battle; their ``battle`` messages. A player starts from his message in
    ``first`` (else his next ``state``); the n-th player draws his spots from
    ``random.Random(seed + n)``; ``between()`` is called once, after the first card.

    Each player plays in a thread of his own, as a person at his own screen: waiting for
    one's next message never holds up another (a player with nothing left to do waits
    while the other must still discard, whatever the deal). A player has one move in
    flight at a time and waits for its answer (his card down, his discard counted, or a
    refusal) before the next, as the page does: a state that shows the other's card down
    while his own is on its way still shows his card in hand, and playing it again from
    there was refused, answered, refused again (a loop that fed the rate limit when the
    machine was slow). After a refusal he plays again from the latest state he has, which
    holds everything the server did before refusing (a spot taken meanwhile, a stop)."""
    once = threading.Lock()
    called = [between is None]

    def placed() -> None:
        with once:
            if not called[0] and between is not None:
                called[0] = True
                between()

    def answered(client: Client, kind: str, me: str) -> dict[str, Any]:
        """The answer to the move ``kind`` just sent: the battle, its refusal, or its
        effect (my card down; my discard counted)."""

        def answer(m: dict[str, Any]) -> bool:
            if m["type"] == "battle" or (m["type"] == "refused" and m["action"] == kind):
                return True
            if kind == "place":
                return bool(m["type"] == "placed" and m["player"] == me)
            return m["type"] == "state" and bool(m["players"][me]["decided"])

        return client.wait(answer)

    def play(key: Key, client: Client, rng: random.Random) -> dict[str, Any]:
        message = (first or {}).get(key) or client.wait_type("state")
        me = message["player"]
        while message["type"] != "battle":
            state = client.state if client.state is not None else message
            if state["hand"] is not None and state["phase"] == "fast":
                client.send(type="place", **free_spot(state, rng))
                message = answered(client, "place", me)
                if message["type"] != "refused":
                    placed()
            elif state["phase"] == "stop" and not state["players"][me]["decided"]:
                client.send(type="discard")
                message = answered(client, "discard", me)
            else:
                message = client.wait(lambda m: m["type"] in ("state", "battle"))
        return message

    with ThreadPoolExecutor(len(players)) as pool:
        futures = {
            key: pool.submit(play, key, client, random.Random(seed + index))
            for index, (key, client) in enumerate(players.items())
        }
        return {key: future.result() for key, future in futures.items()}
