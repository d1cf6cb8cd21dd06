"""Every websocket frame a test's pages send and receive, checked against the protocol's
JSON Schema (``spacetable protocol schema``: ``$defs/client`` for what a page sends,
``$defs/server`` for what it receives; issue 68 item 4).

The schema is compiled once per worker process, one validator per message type (the branch
of the ``oneOf`` whose ``type`` is that tag, with the schema's ``$defs`` beside it): a frame
is checked against its own branch, not tried against all of them. A frame the schema refuses
(no JSON object, an unknown ``type``, a missing, renamed or undeclared field) becomes a line
in the page's error list, which fails the test as a console error does (``open_page``,
``borrowed_page``), naming the frame's direction, type and the schema's error path.

A test that makes a page send a frame the protocol refuses on purpose marks itself
``@pytest.mark.refused_frames``: ``open_page`` leaves its refusals out (none does today:
the hostile frames are sent by Python socket clients, tests/server/hostile).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from playwright.sync_api import WebSocket

from spacetable.server.protocol.schema import protocol_schema

#: A refusal's line begins with it.
REFUSED = "protocol: "
#: A frame's direction: what the page sends is a client message, what it receives a server's.
SENT, RECEIVED = "sent", "received"
_SIDE = {SENT: "client", RECEIVED: "server"}
#: At most this many characters of a refused frame in its error line.
SHOWN = 300


@functools.cache
def validators(side: str) -> dict[str, Any]:
    """One compiled validator per message type of ``side`` (``client`` or ``server``)."""
    schema = protocol_schema()
    defs = schema["$defs"]
    by_type: dict[str, Any] = {}
    for branch in defs[side]["oneOf"]:
        tag = branch["properties"]["type"]["const"]
        alone = {"$schema": schema["$schema"], "$defs": defs, **branch}
        by_type[tag] = Draft202012Validator(alone)
    return by_type


def refusal(direction: str, payload: str | bytes) -> str | None:
    """Why the protocol refuses a frame the page ``direction`` (:data:`SENT` or
    :data:`RECEIVED`), or ``None`` if it takes it."""
    side = _SIDE[direction]
    shown = repr(payload[:SHOWN])
    if isinstance(payload, bytes):
        return f"{REFUSED}a binary frame {direction} ({side} side): {shown}"
    try:
        message = json.loads(payload)
    except ValueError:
        return f"{REFUSED}a frame {direction} that is no JSON ({side} side): {shown}"
    kind = message.get("type") if isinstance(message, dict) else None
    validator = validators(side).get(kind) if isinstance(kind, str) else None
    if validator is None:
        return f"{REFUSED}a frame {direction} of no {side} message type ({kind!r}): {shown}"
    error = next(iter(validator.iter_errors(message)), None)
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "(the message)"
    return (
        f"{REFUSED}a {kind!r} frame {direction} is refused by $defs/{side} at {where}: "
        f"{error.message[:SHOWN]} -- frame: {shown}"
    )


def check_frames(socket: WebSocket, sink: Callable[[], list[str] | None]) -> None:
    """Check every frame on ``socket`` as it comes; a refusal goes to the list ``sink()``
    returns then (the page's errors of the running test; none between two tests)."""

    def checking(direction: str) -> Callable[[str | bytes], None]:
        def check(payload: str | bytes) -> None:
            errors = sink()
            if errors is None:
                return
            refused = refusal(direction, payload)
            if refused is not None:
                errors.append(refused)

        return check

    socket.on("framesent", checking(SENT))
    socket.on("framereceived", checking(RECEIVED))
