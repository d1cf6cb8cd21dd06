"""The uvicorn internals that the room websockets' protocol stands on.

``server/http/ws_protocol.py`` subclasses uvicorn's sans-I/O websocket protocol
(``WebSocketsSansIOProtocol``): it overrides some of its hooks, calls others, and reads and
sets its attributes, none of which are uvicorn's public API. pyproject.toml pins uvicorn
to the minor version the subclass was written against; these tests check that every such
internal is still there, with the signature it had, and still called when it was, so that
moving the pin fails here, naming what changed, rather than in a room.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import tomllib
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import pytest
from packaging.requirements import Requirement
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import CloseCode, Frame
from websockets.http11 import Request, Response
from websockets.uri import parse_uri

from spacetable.server.http.ws_protocol import GameWebSocketProtocol
from tests._loops import run_apart
from tests._paths import ROOT
from tests._wire import Wire

#: The uvicorn minor version GameWebSocketProtocol was written against.
WRITTEN_AGAINST = "0.54"
PYPROJECT = ROOT / "pyproject.toml"
INSTALLED = version("uvicorn")

#: The hooks GameWebSocketProtocol overrides, with their parameters as it expects them.
OVERRIDDEN = {
    "__init__": "(self, config, server_state, app_state, _loop=None)",
    "handle_connect": "(self, event)",
    "send_receive_event_to_app": "(self)",
    "handle_ping": "(self)",
    "handle_parser_exception": "(self)",
    "keepalive_timeout": "(self)",
    "connection_lost": "(self, exc)",
    "data_received": "(self, data)",
}
#: uvicorn's methods it calls without overriding them.
CALLED = {"start_keepalive": "(self)", "data_received": "(self, data)"}
#: uvicorn's attributes it reads or sets, as a protocol has them once connected.
ATTRIBUTES = (
    "conn",  # websockets' ServerProtocol
    "app_state",
    "loop",
    "transport",
    "frames",
    "close_sent",
    "disconnected",
    "handshake_initiated",
    "handshake_complete",
    "close_timer",
    "client",  # the peer's (host, port): the address the socket limits count (http/guards.py)
)
#: The attributes GameWebSocketProtocol adds to each protocol.
SUBCLASS_ATTRIBUTES = {
    "game",
    "room",
    "limits",
    "counted",
    "relay",
    "finding",
    "early",
    "frame_reader",
    "session_id",
}


def _pin() -> Requirement:
    """uvicorn's requirement in pyproject.toml."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    return next(Requirement(r) for r in project["dependencies"] if Requirement(r).name == "uvicorn")


def changed(what: str) -> str:
    """The failure message: what changed, and what the subclass was written against."""
    return (
        f"uvicorn {INSTALLED} changed an internal that server/http/ws_protocol.py relies on: "
        f"{what}. GameWebSocketProtocol was written against uvicorn {WRITTEN_AGAINST}.x "
        f"(pyproject.toml: {_pin()}): adapt it to the new internals, then move the pin "
        "and WRITTEN_AGAINST together."
    )


def _shape(function: Callable[..., Any]) -> str:
    """A function's parameters as written, without their annotations."""
    parameters = [
        p.replace(annotation=inspect.Parameter.empty)
        for p in inspect.signature(function).parameters.values()
    ]
    return str(inspect.Signature(parameters))


def test_the_installed_uvicorn_is_the_one_pinned_and_written_against() -> None:
    pin = _pin()
    major, minor = WRITTEN_AGAINST.split(".")
    assert pin.specifier.contains(f"{WRITTEN_AGAINST}.0") and not pin.specifier.contains(
        f"{major}.{int(minor) + 1}.0"
    ), f"pyproject.toml pins {pin}: it should allow {WRITTEN_AGAINST}.x releases only"
    assert INSTALLED in pin.specifier, f"uvicorn {INSTALLED} is installed, pyproject pins {pin}"
    assert INSTALLED.startswith(f"{WRITTEN_AGAINST}."), (
        f"uvicorn {INSTALLED} is installed, but GameWebSocketProtocol was written against "
        f"{WRITTEN_AGAINST}.x: once the other tests here pass, set WRITTEN_AGAINST"
    )


@pytest.mark.parametrize(("name", "shape"), [*OVERRIDDEN.items(), *CALLED.items()])
def test_each_method_used_is_still_there_with_its_parameters(name: str, shape: str) -> None:
    method = WebSocketsSansIOProtocol.__dict__.get(name)
    assert callable(method), changed(f"WebSocketsSansIOProtocol.{name} is gone")
    assert _shape(method) == shape, changed(
        f"WebSocketsSansIOProtocol.{name} now takes {_shape(method)}, not {shape}"
    )


def test_the_subclass_overrides_only_what_it_knows_it_overrides() -> None:
    """A name the subclass adds (``close``, ``write_frame``, ``room``...) that uvicorn's
    protocol starts to define too would silently replace uvicorn's."""
    ours = {name for name in vars(GameWebSocketProtocol) if not name.startswith("__")}
    clashing = {name for name in ours if hasattr(WebSocketsSansIOProtocol, name)}
    assert clashing == set(OVERRIDDEN) - {"__init__"}, changed(
        "WebSocketsSansIOProtocol now defines "
        + ", ".join(sorted(clashing - set(OVERRIDDEN)))
        + " too, which GameWebSocketProtocol defines for itself"
        if clashing - set(OVERRIDDEN)
        else f"the overridden hooks are {sorted(clashing)}, not {sorted(OVERRIDDEN)}"
    )


# -- how uvicorn's protocol calls the hooks ---------------------------------------------------


class _Recorder(WebSocketsSansIOProtocol):
    """uvicorn's protocol with the hooks GameWebSocketProtocol overrides recording how
    they are called; the handshake accepted in place, as GameWebSocketProtocol does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[tuple[str, Any]] = []

    def handle_connect(self, event: Request) -> None:
        self.calls.append(("connect", event))
        self.response = self.conn.accept(event)
        self.handshake_initiated = self.handshake_complete = True
        self.conn.send_response(self.response)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.start_keepalive()

    def send_receive_event_to_app(self) -> None:
        self.calls.append(("message", b"".join(self.frames)))
        self.frames = []

    def handle_ping(self) -> None:
        self.calls.append(("ping", b"".join(self.conn.data_to_send())))

    def handle_parser_exception(self) -> None:
        self.calls.append(("parser exception", self.conn.close_sent))
        super().handle_parser_exception()


async def _no_app(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("nothing here goes to ASGI")


def _connected() -> tuple[_Recorder, Wire, ClientProtocol]:
    """A recorder that has accepted a websocket client's opening handshake."""
    config = Config(_no_app, ws_ping_interval=20.0, ws_per_message_deflate=False)
    protocol = _Recorder(config, ServerState(), {"key": "value"}, asyncio.get_running_loop())
    wire = Wire()
    protocol.connection_made(wire)
    client = ClientProtocol(parse_uri("ws://127.0.0.1:9/ws/rooms/x"))
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    client.receive_data(wire.take())
    assert isinstance(client.events_received()[0], Response)
    return protocol, wire, client


def _sent_by(client: ClientProtocol) -> bytes:
    return b"".join(client.data_to_send())


def test_a_connected_protocol_has_the_attributes_the_subclass_uses() -> None:
    async def scenario() -> None:
        protocol, wire, _ = _connected()
        missing = [name for name in ATTRIBUTES if not hasattr(protocol, name)]
        assert not missing, changed(f"a connected protocol has no {', '.join(missing)}")
        assert protocol.transport is wire, changed("self.transport is not the transport")
        assert protocol.app_state == {"key": "value"}, changed("self.app_state is not the state")
        assert protocol.loop is asyncio.get_running_loop(), changed("self.loop is not the loop")
        assert hasattr(protocol.conn, "max_message_size"), changed(
            "self.conn (websockets' ServerProtocol) has no max_message_size"
        )
        assert protocol.ping_timer is not None, changed("start_keepalive() schedules no ping")
        protocol.ping_timer.cancel()
        # What the subclass adds to each protocol must not be uvicorn's already.
        ours = GameWebSocketProtocol(protocol.config, ServerState(), {}, protocol.loop)
        added = set(vars(ours)) - set(vars(protocol)) - {"calls"}
        assert added == SUBCLASS_ATTRIBUTES, changed(
            "uvicorn's protocol now sets "
            + ", ".join(sorted(SUBCLASS_ATTRIBUTES - added))
            + " itself, which GameWebSocketProtocol sets for its own use"
        )

    run_apart(scenario())


def test_the_opening_handshake_goes_to_handle_connect() -> None:
    async def scenario() -> None:
        protocol, _, _ = _connected()
        kinds = [kind for kind, _ in protocol.calls]
        assert kinds == ["connect"], changed(f"a handshake made the calls {kinds}")
        request = protocol.calls[0][1]
        assert isinstance(request, Request) and request.path == "/ws/rooms/x", changed(
            f"handle_connect(event) is given {request!r}, not the websockets Request"
        )

    run_apart(scenario())


def test_a_whole_message_goes_to_send_receive_event_to_app_in_self_frames() -> None:
    async def scenario() -> None:
        protocol, _, client = _connected()
        client.send_text(b'{"type":"ready"}', fin=False)
        client.send_continuation(b',"x":1', fin=True)
        client.send_text(b"second")
        wire_bytes = _sent_by(client)
        for at in range(0, len(wire_bytes), 5):  # five bytes at a time
            protocol.data_received(wire_bytes[at : at + 5])
        messages = [data for kind, data in protocol.calls if kind == "message"]
        assert messages == [b'{"type":"ready"},"x":1', b"second"], changed(
            f"messages reached send_receive_event_to_app as {messages}"
        )

    run_apart(scenario())


def test_a_ping_goes_to_handle_ping_with_its_pong_queued() -> None:
    async def scenario() -> None:
        protocol, _, client = _connected()
        client.send_ping(b"hi")
        protocol.data_received(_sent_by(client))
        pongs = [data for kind, data in protocol.calls if kind == "ping"]
        assert len(pongs) == 1 and pongs[0], changed(
            "a ping did not reach handle_ping with its pong in conn.data_to_send()"
        )
        client.receive_data(pongs[0])
        (pong,) = client.events_received()
        assert isinstance(pong, Frame) and pong.data == b"hi", changed(
            f"the pong queued for a ping is {pong!r}"
        )

    run_apart(scenario())


def test_a_message_past_max_message_size_goes_to_handle_parser_exception() -> None:
    async def scenario() -> None:
        protocol, wire, client = _connected()
        protocol.conn.max_message_size = 1000
        client.send_text(b"x" * 600, fin=False)
        client.send_continuation(b"x" * 600, fin=True)
        protocol.data_received(_sent_by(client))
        failures = [close for kind, close in protocol.calls if kind == "parser exception"]
        codes = [close.code for close in failures]
        assert codes == [CloseCode.MESSAGE_TOO_BIG], changed(
            f"a message past conn.max_message_size gave handle_parser_exception {failures}"
        )
        assert not [kind for kind, _ in protocol.calls if kind == "message"]
        assert protocol.close_sent and wire.closing, changed(
            "handle_parser_exception() no longer sends the close and closes the transport"
        )

    run_apart(scenario())


def test_keepalive_timeout_closes_with_1011() -> None:
    async def scenario() -> None:
        protocol, wire, client = _connected()
        protocol.keepalive_timeout()
        client.receive_data(wire.take())
        assert protocol.close_sent and wire.closing, changed(
            "keepalive_timeout() no longer sends a close and closes the transport"
        )
        assert client.close_rcvd is not None and client.close_rcvd.code == 1011, changed(
            f"keepalive_timeout() closes with {client.close_rcvd}"
        )

    run_apart(scenario())


def test_the_answer_to_our_close_cancels_close_timer_and_closes() -> None:
    """GameWebSocketProtocol.close sends a close, sets close_sent and arms close_timer to
    abort the socket; uvicorn's protocol ends it when the client answers."""

    async def scenario() -> None:
        protocol, wire, client = _connected()
        protocol.conn.send_close(1000, "bye")
        protocol.transport.write(b"".join(protocol.conn.data_to_send()))
        protocol.close_sent = True
        timer = protocol.close_timer = protocol.loop.call_later(60, lambda: None)
        client.receive_data(wire.take())  # the client answers the close
        protocol.data_received(_sent_by(client))
        assert timer.cancelled() and protocol.close_timer is None, changed(
            "the client's answer to a close no longer cancels self.close_timer"
        )
        assert wire.closing, changed("the client's answer to a close no longer closes")

    run_apart(scenario())


def test_connection_lost_marks_the_protocol_disconnected() -> None:
    async def scenario() -> None:
        protocol, _, _ = _connected()
        protocol.connection_lost(None)
        assert protocol.disconnected, changed("connection_lost() no longer sets disconnected")
        assert protocol.ping_timer is None, changed("connection_lost() leaves the ping timer")

    run_apart(scenario())


def test_a_keepalive_ping_leaves_the_process_s_random_generator_alone() -> None:
    # A ping's payload came from the random module's global generator, which a test in the
    # same process (Hypothesis) saw move and failed on; it comes from one of its own.
    async def scenario() -> None:
        protocol, wire, client = _connected()
        assert protocol.ping_timer is not None
        protocol.ping_timer.cancel()
        before = random.getstate()
        protocol.send_keepalive_ping()
        assert random.getstate() == before
        client.receive_data(wire.take())
        assert protocol.pending_ping_payload is not None  # the ping went, with its payload
        assert protocol.pong_timer is not None
        protocol.pong_timer.cancel()

    run_apart(scenario())
