"""A room's seats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.bots import Bot
from spacetable.server._connection import Connection


@dataclass(slots=True)
class Seat:
    """A place at the table: empty, a person (held by ``token``) or a bot."""

    index: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str = ""
    level: str | None = None
    token: str | None = None
    ready: bool = False
    rematch: bool = False
    connections: set[Connection] = field(default_factory=set)
    bot: Bot | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as shown to everyone (never the token)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "connected": self.kind == "bot" or bool(self.connections),
            "ready": self.ready or self.kind == "bot",
        }
