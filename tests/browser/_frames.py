"""Every websocket frame a test's pages send and receive, checked against the protocol's
JSON Schema (``spacetable protocol schema``: ``$defs/client`` for what a page sends,
``$defs/server`` for what it receives; issue 68 item 4).

The schema is compiled once per worker process, one validator per message type (the branch
of the ``oneOf`` whose ``type`` is that tag, with the schema's ``$defs`` beside it): a frame
is checked against its own branch, not tried against all of them. A message a game types
(a ``state``, a ``result``, an ``acted`` frame: ``$defs/games``) is checked against its
game's alone, told by its ``ruleset``: the branch with that game's part joined in, closed
and its references inlined (about 0.15 ms a state instead of 1 ms through the branch's
``oneOf`` of every game); a ruleset no game declares goes through the branch.

A frame the schema refuses (no JSON object, an unknown ``type``, a missing, renamed or
undeclared field) becomes a line in the page's error list, which fails the test as a
console error does (``open_page``, ``borrowed_page``), naming the frame's direction, type
and the schema's error path.

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


def _inlined(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` with every ``$ref`` into ``schema`` replaced by what it points to, and a
    nullable type (``anyOf`` of bare types) said as one ``type`` list: the same meaning,
    a fraction of the validator's work (the protocol's definitions are not recursive)."""
    if isinstance(value, list):
        return [_inlined(v, schema) for v in value]
    if not isinstance(value, dict):
        return value
    if "$ref" in value:
        target: Any = schema
        for part in value["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        rest = {k: v for k, v in value.items() if k != "$ref"}
        return _inlined({**target, **rest}, schema)
    out = {k: _inlined(v, schema) for k, v in value.items()}
    options = out.get("anyOf")
    if options and all(set(o) == {"type"} and isinstance(o["type"], str) for o in options):
        del out["anyOf"]
        out["type"] = [o["type"] for o in options]
    return out


def _by_game(branch: dict[str, Any], schema: dict[str, Any]) -> dict[str | None, Any]:
    """The branch of a message its games type, one closed schema a ruleset (``None``: a
    frame with no ruleset, as ``acted`` is), each game's part joined in."""
    found: dict[str | None, Any] = {}
    for option in branch.get("oneOf", ()):
        if "$ref" in option:  # a game's keys in place (a state, an acted frame)
            game = _inlined(option, schema)
            own = {
                "type": "object",
                "properties": {**branch["properties"], **game["properties"]},
                "required": [*branch["required"], *game.get("required", ())],
                "additionalProperties": False,
            }
            rulesets = game["properties"].get("ruleset", {}).get("enum") or [None]
        elif "enum" in option.get("properties", {}).get("ruleset", {}):  # a game's object
            own = {k: v for k, v in branch.items() if k not in ("oneOf", "unevaluatedProperties")}
            own["properties"] = {**branch["properties"], **option["properties"]}
            rulesets = option["properties"]["ruleset"]["enum"]
        else:
            continue  # a game none declares: through the branch
        compiled = Draft202012Validator({"$schema": schema["$schema"], **_inlined(own, schema)})
        found.update(dict.fromkeys(rulesets, compiled))
    return found


@functools.cache
def games_validators(side: str) -> dict[str, dict[str | None, Any]]:
    """For each message type of ``side`` its games type, one validator a ruleset."""
    schema = protocol_schema()
    typed = {}
    for branch in schema["$defs"][side]["oneOf"]:
        by_game = _by_game(branch, schema)
        if by_game:
            typed[branch["properties"]["type"]["const"]] = by_game
    return typed


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
    by_game = games_validators(side).get(kind) if isinstance(kind, str) else None
    if by_game is not None and isinstance(message, dict):
        ruleset = message.get("ruleset")
        validator = by_game.get(ruleset if isinstance(ruleset, str) else None, validator)
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
