"""The push requests' connections (``meet/push.py``): the address a request reaches is
checked as its socket connects, not only when its host name was looked up.

A push endpoint's host is resolved and every address checked public before each send
(:func:`~spacetable.server.meet.push.endpoint_problem`), but the HTTP client resolves the
name again to connect: a name whose answer changes between the two (DNS rebinding) would
reach a private address all the same. :class:`PublicOnly`, mounted for ``https://`` on a
send's session, refuses a connection whose peer is not a public address before anything
is sent on it (urllib3's connection, the one requests opens, with its ``_new_conn``
checked)."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError


def public(address: str) -> bool:
    """Whether ``address`` (an IP address, IPv6 scope allowed) is a public one: not
    private, loopback, link-local, multicast, reserved or unspecified (an IPv4 address
    mapped in IPv6 judged as itself)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


class _PublicConnection(HTTPSConnection):
    """An HTTPS connection that closes its socket, before TLS and before any byte of the
    request, when its peer is not a public address."""

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        peer = str(sock.getpeername()[0])
        if not public(peer):
            sock.close()
            raise NewConnectionError(
                self, f"the push endpoint's host {self.host} reached a non-public address"
            )
        return sock


class _PublicPool(HTTPSConnectionPool):
    ConnectionCls = _PublicConnection


class PublicOnly(HTTPAdapter):
    """A requests adapter whose HTTPS connections reach public addresses only."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        """The pool manager, its HTTPS pools making :class:`_PublicConnection`\\ s."""
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            **self.poolmanager.pool_classes_by_scheme,
            "https": _PublicPool,
        }
