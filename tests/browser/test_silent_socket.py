"""A room socket that dies without a word is noticed: Ann's page reaches the server through
a TCP relay, which at some point stops passing anything on the connections it holds while
keeping them open, as when the server's machine vanishes or a phone changes networks (no
FIN, no RST: nothing tells the browser). Her page pings its quiet socket, gets no answer,
drops it and opens another one (the relay passes new connections), and is back in her
seat."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, WebSocket

from tests.browser._frames import check_frames
from tests.browser.conftest import SCREENSHOTS, Server, save_screenshot


class FreezingRelay:
    """A TCP relay on a free port of this machine to ``upstream`` (``host:port``) that can
    freeze the connections it holds: from :meth:`freeze` on, they pass nothing either way
    and stay open; connections opened after it pass as usual."""

    def __init__(self, upstream: str) -> None:
        self.host, port = upstream.rsplit(":", 1)
        self.upstream_port = int(port)
        self.loop = asyncio.new_event_loop()
        self.frozen = 0  # connections numbered below this pass nothing
        self.opened = 0
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []  # every connection's ends, to close
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", 0), self.loop
        ).result(10)
        self.port = self._server.sockets[0].getsockname()[1]

    def freeze(self) -> None:
        """Every connection open now passes nothing from now on."""
        self.frozen = self.opened

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        for writer in self._writers:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
        if self._server is not None:
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        number = self.opened
        self.opened += 1
        self._writers.append(writer)
        up_reader, up_writer = await asyncio.open_connection(self.host, self.upstream_port)
        self._writers.append(up_writer)
        await asyncio.gather(
            self._pump(number, reader, up_writer), self._pump(number, up_reader, writer)
        )

    async def _pump(
        self, number: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if number < self.frozen:
                    await asyncio.Event().wait()  # silent, and never closed
                writer.write(data)
                await writer.drain()
        writer.close()


@pytest.fixture
def relay(server: Server) -> Iterator[FreezingRelay]:
    started = FreezingRelay(urlsplit(server.base).netloc)
    started.start()
    yield started
    started.stop()


def test_a_page_whose_socket_goes_silent_opens_another_and_keeps_its_seat(
    server: Server, relay: FreezingRelay, browser: Browser
) -> None:
    room = server.api("/api/rooms", {"seats": 2})["id"]
    front = f"http://127.0.0.1:{relay.port}"
    context = browser.new_context(base_url=front, viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        # The page's clock is Playwright's: its time flows as usual until the test moves it.
        page.clock.install()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        sockets: list[WebSocket] = []
        # (its room's sockets: the lobby socket every page opens is not counted)
        page.on("websocket", lambda s: sockets.append(s) if "/ws/rooms/" in s.url else None)
        # (and its frames are checked against the protocol, tests/browser/_frames.py)
        page.on("websocket", lambda socket: check_frames(socket, lambda: errors))
        page.goto(f"/rooms/{room}")
        page.wait_for_selector("#seat-panel .take-seat")
        page.fill("#player-name", "Ann")
        page.click(".seat[data-seat='0'] .take-seat")
        page.wait_for_selector(".seat.mine[data-seat='0']", state="attached")
        assert page.get_attribute("#connection", "data-status") == "open"
        assert len(sockets) == 1

        relay.freeze()
        # Nothing tells the page: it finds out by pinging its quiet socket (after 10 s of
        # silence, 5 s for the answer), then opens another one. Its clock is moved past the
        # silence (the ping goes out), then past the answer's wait (the socket is dropped).
        with sockets[0].expect_event("framesent", lambda payload: '"ping"' in str(payload)):
            page.clock.fast_forward(11_000)
        page.clock.fast_forward(6_000)
        page.wait_for_selector("#connection[data-status='reconnecting']")
        page.wait_for_selector("#connection[data-status='open']")
        page.wait_for_selector(".seat.mine[data-seat='0']", state="attached")
        assert len(sockets) == 2
        save_screenshot(page, str(SCREENSHOTS / "test_silent_socket-back.png"))
    finally:
        context.close()
    assert not errors, errors
