"""A public server's guards (docs/protocol.md, "Limits"): the host names it answers to,
where a request really comes from behind a balancer, how many rooms one client may
create, and how many room sockets one client and one room may hold.

Where a request comes from: the peer's address, unless the peer is a trusted proxy
(``--trusted-proxy``; default this machine's own), whose ``X-Forwarded-For`` then names
the client. HAProxy adds its own line after any the client sent, and a relaying process
of a cluster names its browser's address: the last address not itself a proxy's is the
client's, so a header a client forges is never the one counted.

These are the answers to hostile probes of one process: a page on another domain that
resolves to this server (DNS rebinding) passed the websocket ``Origin`` check, because it
compared the page's origin with the request's own ``Host``; one client filled the room cap
in seconds; one client could open sockets without end. The request head's deadline that
closes slow-trickling connections is in ``http/http_protocol.py``. Pure: the clocks are
given.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

#: The names of this machine, always answered: a rebinding page is served from a name of
#: the attacker's, never from these.
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: Bind addresses that listen on every interface: the server cannot know its public names.
ANY_ADDRESS = frozenset({"0.0.0.0", "::", ""})


def host_name(header: str | None) -> str | None:
    """The host name of a ``Host`` header, lower case, without its port or a final dot
    (``"[::1]:8000"`` -> ``"::1"``), or None if there is none."""
    if header is None:
        return None
    value = header.strip().lower()
    if value.startswith("["):  # an IPv6 literal, maybe with a port
        end = value.find("]")
        return value[1:end] if end > 0 else None
    name = value.rsplit(":", 1)[0] if value.count(":") == 1 else value
    return name.rstrip(".") or None


def is_local(address: str | None) -> bool:
    """Whether ``address`` (an IP address) is this machine's (loopback)."""
    if not address:
        return False
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


#: The proxies believed by default: this machine's (the balancer of ``deploy/``, and the
#: other processes of a cluster on the same machine, which relay sockets).
LOOPBACK = ("127.0.0.0/8", "::1/128")


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The peers whose ``X-Forwarded-For`` is believed (``--trusted-proxy``): a balancer,
    the other processes of a cluster (a relayed socket names its browser's address)."""

    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

    @classmethod
    def of(cls, given: Iterable[str] = ()) -> TrustedProxies:
        """The proxies named (addresses or networks, ``10.0.0.0/24``; ``none``: not even
        this machine), or this machine's own when none is named. Raises ValueError
        naming an address that is not one."""
        names = [name.strip() for name in given if name.strip()]
        if not names:
            names = list(LOOPBACK)
        if [name.lower() for name in names] == ["none"]:
            return cls(())
        networks = []
        for name in names:
            try:
                networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                raise ValueError(f"{name!r} is not an IP address or network") from None
        return cls(tuple(networks))

    def trusts(self, address: str | None) -> bool:
        """Whether ``address`` is one of the trusted proxies."""
        if not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


#: This machine's own proxies (the default of ``--trusted-proxy``).
DEFAULT_PROXIES = TrustedProxies.of()


def client_address(
    peer: str | None,
    forwarded_for: Iterable[str] = (),
    proxies: TrustedProxies | None = None,
) -> str:
    """Who sent a request: the peer's address, or, when the peer is a trusted proxy
    (default: this machine's, as the balancer of ``deploy/``), the address the proxies
    say it came from: in every ``X-Forwarded-For`` line (``forwarded_for``, in order),
    the last address that is not itself a trusted proxy. A proxy adds the address it
    saw after whatever the client sent: a client-supplied header is never the one
    believed, and an untrusted peer's is not read at all."""
    proxies = proxies or DEFAULT_PROXIES
    if not proxies.trusts(peer):
        return peer or "unknown"
    named = [a.strip() for line in forwarded_for for a in line.split(",") if a.strip()]
    for address in reversed(named):
        if not proxies.trusts(address):
            return address
    return named[0] if named else peer or "unknown"


def forwarded_https(peer: str | None, forwarded_proto: str, proxies: TrustedProxies) -> bool:
    """Whether a trusted proxy (the peer) says the browser reached it over HTTPS: its
    ``X-Forwarded-Proto`` (``forwarded_proto``), whose last value is the proxy's own. An
    untrusted peer's is not read (uvicorn's reading of these headers is off: cli/serve.py)."""
    if not proxies.trusts(peer):
        return False
    return forwarded_proto.split(",")[-1].strip().lower() == "https"


@dataclass(frozen=True, slots=True)
class HostNames:
    """The host names the server answers to (``None``: any, for a server listening on
    every interface with no ``--host-name``)."""

    names: frozenset[str] | None

    @classmethod
    def for_server(cls, bind: str, names: Iterable[str] = ()) -> HostNames:
        """The names of a server bound to ``bind`` and told ``names`` (``--host-name``):
        those and this machine's own; with no names, this machine's own names if it
        listens on one address, or any name if it listens on every interface."""
        given = {n for n in (host_name(name) for name in names) if n}
        if given:
            return cls(frozenset(given) | LOCAL_NAMES)
        if bind.strip("[]") in ANY_ADDRESS:
            return cls(None)
        return cls(LOCAL_NAMES | {host_name(bind) or bind})

    def allows(self, host_header: str | None) -> bool:
        """Whether a request with this ``Host`` header is for this server."""
        if self.names is None:
            return True
        return host_name(host_header) in self.names


class RoomCreations(Protocol):
    """How many rooms one client may create: :class:`CreationLimit`, counted in this
    process, or, in a cluster (``--redis``), ``http/shared_limit.py``'s, counted in Redis
    for every process at once. Both refuse alike (the same rate, the same wait)."""

    #: Rooms a minute from one client, and at once (0: no limit).
    per_minute: float

    async def take(self, client: str, now: float) -> float:
        """Take one room for ``client`` at time ``now`` (seconds, on the server's clock):
        0 if it may create it, else the seconds until it may."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


@dataclass(slots=True)
class CreationLimit:
    """At most ``per_minute`` rooms a minute from one client, ``per_minute`` at once
    (a token bucket per address); this machine's own clients are not limited. 0: no
    limit."""

    per_minute: float
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    #: Buckets kept at most; the full ones are forgotten first.
    MAX_CLIENTS = 10_000

    def wait(self, client: str, now: float) -> float:
        """Take one room for ``client`` at time ``now`` (seconds): 0 if it may create it,
        else the seconds until it may."""
        if self.per_minute <= 0 or is_local(client):
            return 0.0
        rate = self.per_minute / 60.0
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.MAX_CLIENTS:
                self._forget_full(now)
            bucket = self._buckets[client] = _Bucket(self.per_minute, now)
        bucket.tokens = min(self.per_minute, bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / rate

    async def take(self, client: str, now: float) -> float:
        """:meth:`wait`, as a :class:`RoomCreations` (this process's count only)."""
        return self.wait(client, now)

    def _forget_full(self, now: float) -> None:
        rate = self.per_minute / 60.0
        for client, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.at) * rate >= self.per_minute:
                del self._buckets[client]


@dataclass(slots=True)
class SocketCounts:
    """Room sockets open per client (at most ``per_client``, this machine's own clients
    not counted) and per room (at most ``per_room``); 0: no limit."""

    per_client: int
    per_room: int
    _clients: dict[str, int] = field(default_factory=dict)
    _rooms: dict[str, int] = field(default_factory=dict)

    def open(self, client: str, room_id: str) -> str | None:
        """Count a new socket of ``client`` to ``room_id``; or, over a limit, count
        nothing and say which limit."""
        counted = not is_local(client)
        if counted and self.per_client and self._clients.get(client, 0) >= self.per_client:
            return f"at most {self.per_client} room connections from one address"
        if self.per_room and self._rooms.get(room_id, 0) >= self.per_room:
            return f"at most {self.per_room} connections to one room"
        if counted:
            self._clients[client] = self._clients.get(client, 0) + 1
        self._rooms[room_id] = self._rooms.get(room_id, 0) + 1
        return None

    def close(self, client: str, room_id: str) -> None:
        """Forget a socket :meth:`open` counted."""
        for counts, key in ((self._clients, client), (self._rooms, room_id)):
            if key in counts:
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]


@dataclass(slots=True)
class Guards:
    """Everything above, for one server (``spacetable serve`` options)."""

    hosts: HostNames = field(default_factory=lambda: HostNames(None))
    rooms: RoomCreations = field(default_factory=lambda: CreationLimit(0))
    sockets: SocketCounts = field(default_factory=lambda: SocketCounts(0, 0))
    #: Seconds a client has to send a whole request head (line and headers); 0: forever.
    head_seconds: float = 0.0
    #: Whose ``X-Forwarded-For`` is believed (``--trusted-proxy``).
    proxies: TrustedProxies = field(default_factory=lambda: DEFAULT_PROXIES)
