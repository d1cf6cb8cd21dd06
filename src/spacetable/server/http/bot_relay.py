"""A bot's game request that reached a process of a cluster which does not hold its room,
passed on to the process that does (``http/bot_games.py``; docs/bots.md).

The room lives in one process (``cluster/relay.py`` says why); a bot's stream or move may
reach any process. That process sends the same request to the owner (its address from
Redis: ``ClusterNode.locate``), with the same token, marked :data:`RELAYED` (an owner that
no longer holds the room answers 421 instead of passing it on again), and streams the
owner's answer back as it comes: a move's JSON, or a game stream's lines.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import Request, Response
from fastapi.responses import StreamingResponse

#: The header of a request one process passed on to another.
RELAYED = "x-spacetable-relayed"
#: Seconds to reach the owner and hear its answer's head.
CONNECT_SECONDS = 5.0
#: The request headers passed on (the token, the body's type).
_PASSED = ("authorization", "content-type", "accept-language")
#: The answer headers passed back.
_BACK = ("content-type", "cache-control", "retry-after")


class OwnerAway(OSError):
    """The owner did not answer (gone, stopping): the request may be sent again."""


async def relay(request: Request, address: str, body: bytes) -> Response:
    """Send ``request`` (its ``body`` read already) to the process at ``address``
    (``host:port``) and answer what it answers, streamed. Raises :class:`OwnerAway`."""
    host, _, port = address.rpartition(":")
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, int(port)), CONNECT_SECONDS
        )
    except (OSError, TimeoutError, ValueError) as exc:
        raise OwnerAway(str(exc)) from exc
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    lines = [f"{request.method} {target} HTTP/1.1", f"host: {address}", "connection: close"]
    lines += [f"{name}: {request.headers[name]}" for name in _PASSED if name in request.headers]
    lines += [f"content-length: {len(body)}", f"{RELAYED}: 1"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    try:
        status, headers = await asyncio.wait_for(_head(reader), CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        writer.close()
        raise OwnerAway(str(exc)) from exc
    back = {name: headers[name] for name in _BACK if name in headers}
    media = back.pop("content-type", None)
    chunked = headers.get("transfer-encoding", "").lower() == "chunked"
    length = None if chunked else int(headers.get("content-length", "0"))
    return StreamingResponse(
        _body(reader, writer, chunked, length), status_code=status, media_type=media, headers=back
    )


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The answer's status and headers (names in lower case)."""
    status_line = (await reader.readline()).decode("latin-1")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise ValueError(f"not an HTTP answer: {status_line[:40]!r}")
    headers: dict[str, str] = {}
    while (line := (await reader.readline()).decode("latin-1").strip()) != "":
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def _body(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    chunked: bool,
    length: int | None,
) -> AsyncIterator[bytes]:
    """The answer's body as it comes; the owner's connection closed at its end, or when
    the bot goes (the owner's stream then ends as if the bot had gone from there)."""
    try:
        if not chunked:
            if length:
                yield await reader.readexactly(length)
            return
        while True:
            size = int((await reader.readline()).split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                return
            chunk = await reader.readexactly(size)
            await reader.readexactly(2)  # the chunk's CRLF
            yield chunk
    except (asyncio.IncompleteReadError, ConnectionError):
        return  # the owner went away: the stream ends, the bot opens it again
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
