"""The bots' warm-up: each game's compiled code loaded as the server starts, off the event
loop, in a thread the server's stop does not wait for; a bot's move awaits its own game's
warm-up on the loop before it thinks on a worker thread.

On a fresh install the laser bots' warm-up compiles the numba kernels, for up to a
minute. A Ctrl+C in that minute waited for the rest of the compile (48 s on a laptop):
the warm-up ran on the loop's executor, whose threads asyncio's end and the interpreter's
both join, and a compile cannot be interrupted. It now runs in a daemon thread
(:func:`~spacetable.server.stopping.in_daemon_thread`). A bot's move that came meanwhile
held the stop the same way: it thought on the executor, where it waited for the compile
(numba compiles under one lock). A bot now waits for its game's warm-up first
(:func:`warmed`), on the loop, where a stop simply cancels the wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Iterable

from spacetable.registry import Bots
from spacetable.server.stopping import in_daemon_thread

#: Each running server's warm-ups (by its event loop): a future per game's bots (by
#: ``id``), done once that game's warm-up is over (or failed: its bots then load what
#: they need themselves).
_WARMING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Future[None]]]
_WARMING = weakref.WeakKeyDictionary()


def warm_in_background(kinds: Iterable[Bots]) -> asyncio.Future[None]:
    """Warm up each of ``kinds`` (the games' bots) in turn, in a daemon thread; a future of
    the running loop for the whole (its exception: the first warm-up that failed). A stop
    need not wait for it: cancel the future, and the thread ends with the process."""
    loop = asyncio.get_running_loop()
    warming = [bots for bots in kinds if bots.warm_up is not None]
    gates = {id(bots): loop.create_future() for bots in warming}
    _WARMING[loop] = gates

    def open_gate(gate: asyncio.Future[None]) -> None:
        if not gate.done():
            gate.set_result(None)

    def opened(gate: asyncio.Future[None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped
            loop.call_soon_threadsafe(open_gate, gate)

    def warm_all() -> None:
        try:
            for bots in warming:
                bots.warm()
                opened(gates[id(bots)])
        finally:  # one failed: every bot goes on (and loads what it needs itself)
            for gate in gates.values():
                opened(gate)

    return in_daemon_thread(warm_all, "warming the bots")


async def warmed(bots: Bots) -> None:
    """Return once the warm-up of ``bots`` (a game's) is over, at once if there is none
    under way (a room outside a server: tests)."""
    gate = _WARMING.get(asyncio.get_running_loop(), {}).get(id(bots))
    if gate is not None and not gate.done():
        await asyncio.wait({gate})
