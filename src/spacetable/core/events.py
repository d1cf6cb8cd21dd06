"""Events: what happened in a match, in the order a referee would announce it.

Each event is a small frozen value whose ``to_json`` gives a JSON object with a ``"type"``
tag, and :func:`decode_event` rebuilds it. Every game's events derive from :class:`Event`
(the laser battle's in :mod:`spacetable.lasers.events`, FTL's in
:mod:`spacetable.games.ftl.events`). The CLI narrates them, the SVG renderers draw them,
the browser animates them and storage keeps them for replays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from spacetable.core.records import rebuild, record_json, tagged

__all__ = ["Event", "Point", "decode_event", "tagged"]

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: every event serialises to a JSON object with a ``"type"`` tag. A game
    declares each of its events once, as a subclass decorated with
    ``@tagged("its-type")`` (:func:`spacetable.core.records.tagged`)."""

    type_name: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """This event as a JSON-ready dict (tuples become lists)."""
        return record_json(self)


def decode_event(data: dict[str, Any], types: Mapping[str, type[Event]], what: str = "") -> Event:
    """Rebuild an event of one of ``types`` (by ``type`` tag) from its :meth:`Event.to_json`
    output; JSON lists become tuples. ``what`` names the game in errors. Raises
    ``ValueError`` if the type is unknown or fields are missing."""
    cls = types.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown {what}{' ' if what else ''}event type {data.get('type')!r}")
    return rebuild(cls, data)
