"""Web origins: which pages may open this server's sockets and send its account requests
(the ``Origin`` header against the ``Host`` one, and ``spacetable serve --allow-origin``)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit


def origin(url: str) -> str:
    """The web origin of ``url`` (``scheme://host[:port]``, lower case, default port left
    out), as browsers send it in the ``Origin`` header. Raises ``ValueError`` unless
    ``url`` is an http(s) URL with a host and nothing after it but a ``/``."""
    parts = urlsplit(url.strip())
    port = parts.port  # ValueError for a port that is not a number
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an http:// or https:// address")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{url!r} is not an origin: give only scheme://host[:port]")
    default = 80 if parts.scheme == "http" else 443
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + ("" if port in (None, default) else f":{port}")


def same_origin(page: str, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a websocket opened by a page of origin ``page`` (its ``Origin`` header) to
    this server, reached as ``host`` (its ``Host`` header), may connect: the page is this
    server's own (same host and port, whatever the scheme: a proxy may add TLS), or one of
    the ``allowed`` origins."""
    try:
        page = origin(page)
    except ValueError:
        return False  # "null" (a sandboxed page, a file) or garbage
    if page in allowed:
        return True
    if host is None:
        return False
    scheme, _, address = page.partition("://")
    default = ":80" if scheme == "http" else ":443"
    host = host.strip().lower()
    return host in (address, address + default)
