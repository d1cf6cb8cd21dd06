"""Fixtures for the browser tests: a ``spacetable serve`` process on a free port with its own
SQLite file, Debian's Chromium driven by Playwright, pages that fail the test on any browser
console error, and screenshots kept under ``artifacts/screenshots/`` when asked for
(``SPACETABLE_SCREENSHOTS=1``).

Set ``SPACETABLE_CHROMIUM`` to use another Chromium binary; without one the tests skip.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, WebSocket

from tests._server import running_server
from tests.browser._diagnose import describe
from tests.browser._frames import REFUSED
from tests.browser._pages import EXPECTED_CONSOLE, PagePool, keep_traces, prepare_context

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
#: Whether the browser tests save the screenshots they take of their screens, for a person
#: to look at (``SPACETABLE_SCREENSHOTS=1``: docs/developing.md). No test reads them, and
#: each costs the browser about 0.05 CPU-s: some 590 a run, 30 CPU-s, taken for nobody.
SAVE_SCREENSHOTS = os.environ.get("SPACETABLE_SCREENSHOTS", "") not in ("", "0")


#: The session server's room seed (``--room-seed``), and each test's first room's: a test's
#: rooms are created with the seeds ROOM_SEED, ROOM_SEED + 1... in the order it creates
#: them (``room_seed(N)`` marks a test whose rooms start at N), whatever tests ran before.
ROOM_SEED = 1
#: The session server's bots think this share of a person's pause between two moves.
BOT_PACE = 0.25
#: The server's Stellar Conflict deployment countdown (s).
STELLAR_COUNTDOWN_S = 20.0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real browser against a real server")
    config.addinivalue_line(
        "markers", "room_seed(n): the seed of the test's first room on the session server"
    )
    config.addinivalue_line(
        "markers",
        "refused_frames: the test's pages send frames the protocol refuses on purpose "
        "(open_page does not fail it for them: tests/browser/_frames.py)",
    )


class RoomSeeds:
    """The seeds the running test's rooms are created with on the session server: its
    first room's (:data:`ROOM_SEED` or its ``room_seed`` mark), then one more for each room
    after it. Every ``POST /api/rooms`` to the session server, by a page or by
    :meth:`Server.api`, names its seed (the server takes it: it runs with ``--room-seed``),
    so a test's deals do not depend on the rooms that tests before it created."""

    def __init__(self) -> None:
        self.first = ROOM_SEED
        self.created = 0

    def start(self, first: int) -> None:
        """A test begins: its first room gets ``first``."""
        self.first, self.created = first, 0

    def seeded(self, body: Any) -> Any:
        """``body`` with the next seed, unless it names one (or is no JSON object)."""
        if not isinstance(body, dict) or "seed" in body:
            return body
        self.created += 1
        return {**body, "seed": self.first + self.created - 1}


ROOM_SEEDS = RoomSeeds()


@pytest.fixture(autouse=True)
def _room_seeds(request: pytest.FixtureRequest) -> None:
    mark = request.node.get_closest_marker("room_seed")
    ROOM_SEEDS.start(ROOM_SEED if mark is None else int(mark.args[0]))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


class Server:
    """The running server: its base URL and a JSON client for its API."""

    def __init__(self, base: str) -> None:
        self.base = base

    def api(self, path: str, body: Any = None) -> Any:
        """GET (or with ``body``, POST) ``path`` and decode the JSON answer. A room
        created here takes the test's next seed (:class:`RoomSeeds`) unless it names one."""
        if path == "/api/rooms" and body is not None:
            body = ROOM_SEEDS.seeded(body)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def advance(self, seconds: float) -> None:
        """Move the session server's clock ``seconds`` forward (it runs with
        ``--test-clock``): a plot timer or a countdown runs out at once, as after that
        long, instead of the test waiting for it."""
        self.api("/api/test/clock", {"advance": seconds})


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    """The server of this worker's browser tests (``spacetable serve`` in a thread of the
    test process, tests/_server.py), storing matches in a temporary SQLite file; each test
    plays in rooms of its own. The stop countdown is long enough for a slow machine: every
    test decides before it. Stellar Conflict's deployment countdown is 20 s: time to drag a
    few cards (a test that waits for its end moves the clock, :meth:`Server.advance`). Its
    bots think at a quarter of a person's pace (:data:`BOT_PACE`): a test waits for them
    only as long as its subject needs (a test about a bot's own pace, such as the
    newcomer's first match, has a server of its own)."""
    folder = tmp_path_factory.mktemp("server")
    options = [
        *("--stop-seconds", "15", "--countdown-seconds", str(STELLAR_COUNTDOWN_S)),
        # Timers run out when a test says so (Server.advance), not after real seconds.
        "--test-clock",
        *("--bot-pace", str(BOT_PACE)),
    ]
    # Chance is seeded: a selection of tests draws the same chits and decks every run.
    with running_server(folder / "matches.db", *options, room_seed=ROOM_SEED) as running:
        yield Server(running.http)


OpenPage = Callable[..., Page]


def room_socket(page: Page) -> WebSocket:
    """The page's last opened room websocket, to wait for what the page sends:
    ``with room_socket(page).expect_event("framesent", sent("draft")): ...`` (not its
    lobby socket, ``/ws/lobby``, which every page opens too and may open again later)."""
    opened: list[WebSocket] = getattr(page, "_spacetable_sockets", [])
    rooms = [socket for socket in opened if "/ws/rooms/" in socket.url]
    assert rooms, "the page opened no room websocket"
    return rooms[-1]


def handled(page: Page) -> None:
    """Return once the server has handled everything ``page`` sent on its room's socket (a
    draft typed a moment ago, say), so that a clock the test moves next cannot overtake
    it: a ``ping`` sent there after it is answered only then (a room handles one socket's
    messages in order, and its answers leave once what they changed is stored). The page's
    own pings count too (:data:`KEEP_SOCKETS_SCRIPT`): it waits until every ping is
    answered."""
    page.evaluate(
        """() => new Promise((resolve, reject) => {
          const open = window.spacetableSockets.filter(
            (s) => s.readyState === WebSocket.OPEN && s.url.includes("/ws/rooms/"));
          const socket = open.at(-1);
          if (!socket) { reject(new Error("the page has no open socket")); return; }
          socket.addEventListener("message", function answered() {
            if (socket.spacetablePongs < socket.spacetablePings) return;
            socket.removeEventListener("message", answered);
            resolve();
          });
          socket.addEventListener("close", () => reject(new Error("the socket closed unanswered")));
          socket.send(JSON.stringify({ type: "ping" }));
        })"""
    )


def sent(kind: str) -> Callable[[str | bytes], bool]:
    """A predicate of a sent frame: a JSON message of type ``kind``."""

    def matches(payload: str | bytes) -> bool:
        try:
            message = json.loads(payload)
        except ValueError:
            return False
        return isinstance(message, dict) and message.get("type") == kind

    return matches


def _unexpected(text: str) -> bool:
    return not any(expected in text for expected in EXPECTED_CONSOLE)


#: Run in every page before its own scripts: a ``POST /api/rooms`` the page sends to its own
#: server with a JSON object body that names no seed gets the test's next seed when that
#: server is the one the page was opened for (``open_page``'s: not a real server a test
#: sends it to by a full address)
#: (:class:`RoomSeeds`), asked of the test process through a binding. (A Playwright route
#: would do the same, but a route makes every request of the context pass through the
#: driver and turns the browser's cache off: each page would fetch every script again.)
SEED_ROOMS_SCRIPT = """
(() => {
  const send = window.fetch;
  window.fetch = async function (input, init) {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    const post = init && String(init.method || "GET").toUpperCase() === "POST";
    if (post && url.origin === location.origin && url.pathname === "/api/rooms"
        && typeof init.body === "string") {
      let body = null;
      try { body = JSON.parse(init.body); } catch (e) { body = null; }
      if (body !== null && typeof body === "object" && !Array.isArray(body) && !("seed" in body)) {
        init = { ...init, body: JSON.stringify(await window.spacetableSeeded(body, url.origin)) };
      }
    }
    return send.call(this, input, init);
  };
})();
"""


#: Run in every page before its own scripts: each websocket the page opens is kept in
#: ``window.spacetableSockets`` until it closes, counting the pings sent and the pongs
#: heard on it, for :func:`handled`.
KEEP_SOCKETS_SCRIPT = """
(() => {
  const PING = JSON.stringify({ type: "ping" });
  const PONG = JSON.stringify({ type: "pong" });
  const Native = window.WebSocket;
  window.spacetableSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.spacetablePings = 0;
      this.spacetablePongs = 0;
      window.spacetableSockets.push(this);
      this.addEventListener("message", (event) => {
        if (event.data === PONG) this.spacetablePongs += 1;
      });
      this.addEventListener("close", () => {
        const at = window.spacetableSockets.indexOf(this);
        if (at >= 0) window.spacetableSockets.splice(at, 1);
      });
    }

    send(data) {
      if (data === PING) this.spacetablePings += 1;
      return super.send(data);
    }
  };
})();
"""


@pytest.fixture(scope="session")
def page_pool(browser: Browser) -> Iterator[PagePool]:
    """This worker's pages, reused from test to test (tests/browser/_pages.py): a new
    context's renderer process costs about five times what loading a page costs."""

    def seeded(page: Page, body: Any, origin: str) -> Any:
        base = getattr(page, "_spacetable_base", None) or getattr(
            page.context, "_spacetable_base", None
        )
        if origin != base:  # another server's room (its own seeds, if any)
            return body
        return ROOM_SEEDS.seeded(body)

    def prepare(context: BrowserContext) -> None:
        scripts = SEED_ROOMS_SCRIPT + KEEP_SOCKETS_SCRIPT
        prepare_context(context, scripts, "spacetableSeeded", seeded)

    pool = PagePool(browser, prepare)
    yield pool
    pool.close()


@pytest.fixture
def open_page(
    page_pool: PagePool, server: Server, request: pytest.FixtureRequest
) -> Iterator[OpenPage]:
    """A factory of pages, each in its own browser context (its own cookies and storage,
    like another person's browser). Keyword arguments go to ``new_context``. Any console
    error or uncaught exception in any page fails the test. A room a page creates on the
    session server takes the test's next seed (:class:`RoomSeeds`). Any websocket frame a
    page sends or receives that the protocol's JSON Schema refuses fails the test too
    (tests/browser/_frames.py), unless it is marked ``refused_frames``. The pages come from
    the worker's pool, emptied, and go back to it after the test."""
    pages: list[Page] = []
    errors: list[str] = []
    request.node.stash[TEST_PAGES] = pages
    request.node.stash[TEST_POOL] = page_pool

    def open_one(path: str = "/", **options: Any) -> Page:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        page = page_pool.take(server.base, options, errors)
        pages.append(page)
        page.goto(path)  # (a path: from the test's server, PagePool.take)
        return page

    yield open_one
    unexpected = [text for text in errors if _unexpected(text)]
    if request.node.get_closest_marker("refused_frames") is not None:
        unexpected = [text for text in unexpected if not text.startswith(REFUSED)]
    traces = keep_traces(page_pool, request.node.nodeid, pages) if unexpected else []
    for page in pages:
        page_pool.give_back(page)
    assert not unexpected, f"browser console errors or refused frames: {unexpected}" + "".join(
        f"\nPlaywright trace: {path}" for path in traces
    )


#: The pages a test opened (:func:`open_page`), for its report if it fails.
TEST_PAGES = pytest.StashKey[list[Page]]()
#: The pool they came from, which keeps their traces if it fails.
TEST_POOL = pytest.StashKey[PagePool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A browser test that failed says what its pages showed (tests/browser/_diagnose.py)
    and keeps their Playwright traces (tests/browser/_pages.py: each action's page, its
    console and its network, for ``uv run playwright show-trace <file>``), whose paths its
    report names: a failure that comes once in a hundred runs is understood from its
    report, and CI's log says which file of its artifacts to open."""
    report: pytest.TestReport = yield
    pages = item.stash.get(TEST_PAGES, None)
    if report.when == "call" and report.failed and pages:
        report.sections.append(("pages at the failure", describe(pages)))
        traces = keep_traces(item.stash[TEST_POOL], item.nodeid, pages)
        if traces:
            shown = "\n".join(f"uv run playwright show-trace {path}" for path in traces)
            report.sections.append(("Playwright trace", shown))
    return report


def save_screenshot(target: Page | Locator, path: str | Path, *, full_page: bool = False) -> None:
    """A screenshot of ``target`` (a page, or one of its elements) at ``path``, when the run
    saves them (:data:`SAVE_SCREENSHOTS`)."""
    if not SAVE_SCREENSHOTS:
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if isinstance(target, Page):
        target.screenshot(path=str(path), full_page=full_page)
    else:
        target.screenshot(path=str(path))


Shot = Callable[[Page, str], None]


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Shot:
    """Save a screenshot as ``artifacts/screenshots/<test>-<name>.png`` (when the run
    saves them: :data:`SAVE_SCREENSHOTS`)."""

    def take(page: Page, name: str) -> None:
        save_screenshot(page, SCREENSHOTS / f"{request.node.name}-{name}.png")

    return take
