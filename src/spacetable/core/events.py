"""Events: what happened in a match, in the order a referee would announce it.

Each event is a small frozen value whose ``to_json`` gives a JSON object with a ``"type"``
tag, and :func:`decode_event` rebuilds it. Every game's events derive from :class:`Event`
(the laser battle's in :mod:`spacetable.lasers.events`, FTL's in
:mod:`spacetable.games.ftl.events`). The CLI narrates them, the SVG renderers draw them,
the browser animates them and storage keeps them for replays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: every event serialises to a JSON object with a ``"type"`` tag."""

    type_name: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """This event as a JSON-ready dict (tuples become lists)."""
        out: dict[str, Any] = {"type": self.type_name}
        for key, value in asdict(self).items():
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


def decode_event(data: dict[str, Any], types: Mapping[str, type[Event]], what: str = "") -> Event:
    """Rebuild an event of one of ``types`` (by ``type`` tag) from its :meth:`Event.to_json`
    output; JSON lists become tuples. ``what`` names the game in errors. Raises
    ``ValueError`` if the type is unknown or fields are missing."""
    cls = types.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown {what}{' ' if what else ''}event type {data.get('type')!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"{cls.type_name} event lacks {f.name!r}")
        value = data[f.name]
        kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**kwargs)
