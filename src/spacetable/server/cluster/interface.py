"""The cluster as the rest of the server sees it, without Redis: the lifespan-state key of
this process's :class:`~spacetable.server.cluster.node.ClusterNode`, the answers
:class:`Moving` and :class:`Elsewhere` of its room lookup, and the errors a call to it
may raise. A server that is one process (no ``--redis``) imports this module, not Redis
(``spacetable serve`` starts the sooner; docs/performance.md, "Starting a command")."""

from __future__ import annotations

from dataclasses import dataclass

#: The lifespan-state key under which the application shares its ``ClusterNode``.
CLUSTER = "spacetable.cluster"


@dataclass(frozen=True, slots=True)
class Moving:
    """A room whose lock is still this process's though the room left it a moment ago:
    another process stored its actions (``journal.py``: the room "moved"), or it closed.
    The next renewal releases the lock (or it lapses), and the room is found or rebuilt
    then: its sockets wait for that, or reconnect; they are never told that the room does
    not exist (4404), which a page takes for good."""


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A room owned by another live process, reached at ``address`` (``host:port``)."""

    address: str
    node_id: str


def cluster_errors() -> tuple[type[Exception], ...]:
    """What a call to the cluster raises when Redis is away: ``except cluster_errors():``
    (an ``except`` clause's expression is read only once something was raised, so a
    process without a cluster never imports Redis for it)."""
    from redis.exceptions import RedisError

    return (RedisError, OSError)
