"""A room's seats and the websockets connected to it."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import WebSocket

from spacetable.bots import Bot


class Connection:
    """One websocket; outgoing messages are queued and written by their own task so a
    slow client never holds up the room."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.closed = False
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for this client."""
        self.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        """Queue an already-encoded message."""
        if not self.closed:
            self._out.put_nowait(text)

    def close(self) -> None:
        """Stop writing (the socket is gone)."""
        if not self.closed:
            self.closed = True
            self._out.put_nowait(None)

    async def _write(self) -> None:
        while (text := await self._out.get()) is not None:
            try:
                await self.websocket.send_text(text)
            except Exception:  # any send failure means the client is gone
                self.closed = True
                return


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
