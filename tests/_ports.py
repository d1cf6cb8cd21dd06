"""Ports for the test processes to listen on, that nothing else takes meanwhile.

A port the kernel hands out for ``bind(0)`` comes from its ephemeral range
(``/proc/sys/net/ipv4/ip_local_port_range``, 32768-60999 here), the same range every
outgoing connection of the machine takes its local port from. A test that picked one and
started a server on it a moment later could find it taken by some connection meanwhile: a
run lost both tests of ``serve --workers`` so (its workers' ports were never bound before
the process started, and one was a connection's local port). The ports here come from
below that range instead, where no connection takes one: each xdist worker its own slice
(``gw0``, ``gw1``, ...), handed out in turn so that a port a test let go (a process it
killed and starts again on the same port) is not handed out again soon, each checked free
by binding it. (Two runs on one machine at once share the slices: the check by binding
and each run's own starting point keep them apart.) Where the kernel's range leaves no room
below it, the kernel picks.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from spacetable.lab.loadtest import port_free

#: Ports below the kernel's ephemeral range used for the tests, split between workers.
SPAN = 8000
#: The most workers that get slices of their own (more share them, by their number).
SLICES = 8


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _slice() -> range | None:
    low = _ephemeral_low()
    start = max(1024, low - SPAN)
    if low - start < SPAN:
        return None  # no room below the kernel's range: let the kernel pick
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    index = int(worker) % SLICES if worker.isdigit() else 0
    size = SPAN // SLICES
    return range(start + index * size, start + (index + 1) * size)


_SLICE = _slice()
#: The slice's ports in turn, from a point of its own for each process (from the operating
#: system's randomness, not the random module's: two runs on one machine at once do not
#: walk the same ports in step, and no test's draws move).
_NEXT: Iterator[int] | None = None
if _SLICE is not None:
    _START = int.from_bytes(os.urandom(2), "big") % len(_SLICE)
    _NEXT = itertools.cycle([*_SLICE[_START:], *_SLICE[:_START]])


def free_run(count: int = 1) -> int:
    """A port such that it and the ``count - 1`` after it are free (the first of them)."""
    if _SLICE is None or _NEXT is None:
        for _ in range(50):  # the kernel's pick, and the ports after it if they bind now
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                base = int(sock.getsockname()[1])
            if base + count <= 65536 and all(port_free(base + i) for i in range(count)):
                return base
        raise RuntimeError(f"no run of {count} free ports")
    for _ in range(len(_SLICE)):
        base = next(_NEXT)
        if base + count > _SLICE.stop:
            continue  # a run does not wrap around the slice's end
        if all(port_free(base + i) for i in range(count)):
            for _ in range(count - 1):
                next(_NEXT)  # the run's other ports are not handed out next
            return base
    raise RuntimeError(f"no run of {count} free ports in {_SLICE}")


def free_port() -> int:
    """A free port to listen on."""
    return free_run(1)
