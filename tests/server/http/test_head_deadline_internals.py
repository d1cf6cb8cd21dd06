"""The uvicorn internals that the request head's deadline stands on
(``server/http/http_protocol.py``: a subclass of uvicorn's h11 protocol). Like
test_uvicorn_internals.py for the room sockets: moving the uvicorn pin fails here, naming
what changed, rather than leaving slow connections open."""

from __future__ import annotations

import asyncio
import inspect

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from spacetable.server.http.guards import Guards
from spacetable.server.http.http_protocol import GUARDS, HeadDeadlineProtocol
from tests._loops import run_apart
from tests._wire import Wire

#: uvicorn's hooks HeadDeadlineProtocol overrides, with their parameters' names.
OVERRIDDEN = {
    "connection_made": ["self", "transport"],
    "data_received": ["self", "data"],
    "on_response_complete": ["self"],
    "connection_lost": ["self", "exc"],
}


async def _no_app(scope: object, receive: object, send: object) -> None:
    raise AssertionError("no request is answered here")


def test_the_hooks_overridden_are_still_uvicorns_with_their_parameters() -> None:
    for name, parameters in OVERRIDDEN.items():
        found = list(inspect.signature(getattr(H11Protocol, name)).parameters)
        assert found == parameters, f"uvicorn's H11Protocol.{name} now takes {found}"


def test_the_head_is_timed_until_h11_has_read_it_whole() -> None:
    async def scenario() -> None:
        config = Config(_no_app)
        state = {GUARDS: Guards(head_seconds=60.0)}
        protocol = HeadDeadlineProtocol(config, ServerState(), state, asyncio.get_running_loop())
        protocol.connection_made(Wire())
        assert protocol.conn.their_state is h11.IDLE
        assert protocol._head_deadline is not None  # timed from the opening
        protocol.data_received(b"GET / HTTP/1.1\r\nHo")
        assert protocol.conn.their_state is h11.IDLE and protocol._head_deadline is not None
        protocol.data_received(b"st: localhost\r\n\r\n")
        assert protocol.conn.their_state is not h11.IDLE
        assert protocol._head_deadline is None  # the head is in: no deadline
        protocol.connection_lost(None)

    run_apart(scenario())
