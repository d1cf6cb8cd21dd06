"""The HAProxy configuration for several processes (``deploy/haproxy.cfg``, and the one
``spacetable serve --workers N`` generates), from one template."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

TEMPLATE = resources.files("spacetable.server.cluster") / "haproxy.cfg.in"


def haproxy_config(bind: str, servers: Sequence[str]) -> str:
    """The configuration of an HAProxy listening at ``bind`` (``host:port``, or
    ``:port`` for every interface) in front of the processes at ``servers``
    (``host:port`` each), named ``s1``, ``s2``... in that order (start each process with
    ``--node-name`` its name: a room's page then asks for its process by that name)."""
    names = server_names(len(servers))
    lines = "\n".join(
        f"    server {name} {address} check" for name, address in zip(names, servers, strict=True)
    )
    routes = "\n".join(
        f"    use-server {name} if {{ url_param(node) -m str {name} }}" for name in names
    )
    return (
        TEMPLATE.read_text(encoding="utf-8")
        .replace("{bind}", bind)
        .replace("{pages}", lines)
        .replace("{routes}", routes)
        .replace("{sockets}", lines)
    )


def server_names(count: int) -> list[str]:
    """The balancer's names for ``count`` processes: ``s1``, ``s2``..."""
    return [f"s{index}" for index in range(1, count + 1)]
