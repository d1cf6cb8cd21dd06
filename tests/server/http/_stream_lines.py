"""The bot streams' lines checked against the protocol's schema (``spacetable protocol
schema``: ``#/$defs/event_stream``, ``#/$defs/game_stream``; the room's own messages on a
game stream against ``#/$defs/server``), as the browser tests check a page's frames."""

from __future__ import annotations

from typing import Any

from tests.browser._frames import validators


def checked(line: dict[str, Any], stream: str) -> dict[str, Any]:
    """``line`` of the stream ``stream`` (``event_stream`` or ``game_stream``), once the
    schema takes it (an AssertionError naming what it refuses otherwise)."""
    kind = line.get("type")
    assert isinstance(kind, str), line
    side = stream if kind in validators(stream) else "server"
    found = validators(side).get(kind)
    assert found is not None, f"a {stream} line of no declared type: {line}"
    problems = [error.message for error in found.iter_errors(line)]
    assert not problems, f"the schema refuses a {stream} line {kind}: {problems[:3]}"
    return line
