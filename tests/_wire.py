"""A transport that keeps what a protocol writes, for driving sans-I/O websocket code
in-process (the load clients, uvicorn's protocol) without a socket."""

from __future__ import annotations

import asyncio


class Wire(asyncio.Transport):
    """The far end of a protocol: keeps what it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = bytearray()
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def take(self) -> bytes:
        """What was written since the last call."""
        data = bytes(self.sent)
        self.sent.clear()
        return data
