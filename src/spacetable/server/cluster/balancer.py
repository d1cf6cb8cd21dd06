"""The HAProxy configuration for several processes (``deploy/haproxy.cfg``, and the one
``spacetable serve --workers N`` generates), from one template."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

TEMPLATE = resources.files("spacetable.server.cluster") / "haproxy.cfg.in"


def haproxy_config(bind: str, servers: Sequence[str]) -> str:
    """The configuration of an HAProxy listening at ``bind`` (``host:port``, or
    ``:port`` for every interface) in front of the processes at ``servers``
    (``host:port`` each)."""
    lines = "\n".join(
        f"    server s{index} {address} check" for index, address in enumerate(servers, 1)
    )
    return (
        TEMPLATE.read_text(encoding="utf-8")
        .replace("{bind}", bind)
        .replace("{pages}", lines)
        .replace("{sockets}", lines)
    )
