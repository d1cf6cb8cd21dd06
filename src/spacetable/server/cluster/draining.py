"""A graceful stop for one process of a cluster (issue 21 item 3): SIGTERM first marks it
draining, so that its health check fails and the balancer stops sending it anything,
and only then lets uvicorn stop as usual.

uvicorn, told to stop, closes its listening socket at once, closes every websocket with
1012 ("service restart": the pages reconnect, through the balancer, to another process)
and runs the application's shutdown, where the rooms stop, store what they must and
release their ownership locks in Redis (``app.py``), so that the next process takes them
over at once.
"""

from __future__ import annotations

import signal
import time
from types import FrameType

import uvicorn

from spacetable.server.cluster.node import ClusterNode
from spacetable.server.stopping import GameServer


class DrainingServer(GameServer):
    """uvicorn's server that, at SIGTERM, fails ``node``'s health check for
    ``drain_seconds`` (the balancer's checks: 2 failures, 500 ms apart) before it stops.
    A second SIGTERM, or SIGINT, stops it at once."""

    def __init__(self, config: uvicorn.Config, node: ClusterNode, drain_seconds: float) -> None:
        super().__init__(config)
        self.node = node
        self.drain_seconds = drain_seconds
        self._drain_until: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """A signal to stop: SIGTERM drains first (once)."""
        if sig == signal.SIGTERM and not self.node.draining and self.drain_seconds > 0:
            self.arm_report()
            self.node.draining = True
            self._drain_until = time.monotonic() + self.drain_seconds
            return
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        """uvicorn's tick (every 0.1 s): once the drain is over, stop as at SIGTERM."""
        if self._drain_until is not None and time.monotonic() >= self._drain_until:
            self._drain_until = None
            super().handle_exit(signal.SIGTERM, None)
        return await super().on_tick(counter)
