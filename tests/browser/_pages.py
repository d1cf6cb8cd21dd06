"""A worker's pool of browser pages, each alone in its browser context.

A new browser context with a page starts a Chromium renderer process: about 0.5 CPU-second
before the page loads anything, against about 0.1 for loading the same room page in a tab
that already exists (measured on a 2-core machine: a new context 0.81 CPU-s a room page, a
reused tab 0.07-0.12). The browser tests open more than a thousand pages, so a page a test
is done with goes back to the pool, emptied, and the next test that asks for a page with
the same context options gets it.

Pages are pooled by what only a new context can set (touch, a phone's pointer, the
locale...): the viewport's size and a preference for reduced motion are set on the page
as it is taken (``set_viewport_size``, ``emulate_media``), so that a laptop test's tab
serves the next phone-sized test too.

Emptied means as a new context would be for what the site can see: the document is
replaced by ``about:blank`` (its sockets and timers end with it), the cookies are cleared,
and ``localStorage`` and ``sessionStorage`` of every origin the tab visited are cleared
(``sessionStorage`` belongs to the tab, so a reused tab would otherwise keep its socket's
tab id). What a reset cannot undo is refused instead: a test that adds an init script, a
route, an exposed function, a CDP session, a listener, emulation or permissions to a page
or its context marks it changed (the Playwright methods below are wrapped), and a changed
page is closed with its context rather than reused.

Each context records a Playwright trace (``context.tracing``: the actions, console and
network; ``SPACETABLE_TRACES=dom`` adds the DOM snapshots), one chunk a test: the chunk
starts as a test takes the page and is dropped as the page comes back, unless the test
failed: then :meth:`PagePool.keep_trace` writes it under ``test-results/traces/``
(``SPACETABLE_TRACES=0``: no tracing).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Error, Page, WebSocket

from tests.browser._diagnose import forget_frames, keep_frames
from tests.browser._frames import check_frames

#: Idle pages a worker keeps at most (each an idle renderer of a few tens of megabytes).
#: Six made a run of tests/browser open 79 contexts, twelve 61 (some 0.8 CPU-s each).
POOL_LIMIT = 12
#: How long emptying a page may take before it is closed instead (ms).
RESET_TIMEOUT_MS = 5_000

_CHANGED = "_spacetable_changed"
#: Set on a context while its trace records a chunk (a test holds its page).
_TRACING = "_spacetable_tracing"

#: What the pooled contexts record for the traces a failed test keeps
#: (``SPACETABLE_TRACES``): ``actions`` (the default: each action, the console and the
#: network), ``dom`` (each action's DOM before and after too, for the trace viewer to show
#: the page: some 20% more CPU for the browser tests, 40% more time on a loaded machine,
#: docs/performance.md), ``0`` nothing.
TRACES_KIND = os.environ.get("SPACETABLE_TRACES", "actions")
TRACING = TRACES_KIND != "0"
#: Where a failed test's traces go (``SPACETABLE_TRACES_DIR``, or ``test-results/traces``
#: at the top of the repository): ``uv run playwright show-trace <file>`` replays one.
TRACES = Path(
    os.environ.get("SPACETABLE_TRACES_DIR")
    or Path(__file__).resolve().parents[2] / "test-results" / "traces"
)
#: What a trace records: never the screencast's frames, which cost more than all the rest.
TRACE_OPTIONS: dict[str, Any] = {
    "snapshots": TRACES_KIND == "dom",
    "screenshots": False,
    "sources": False,
}

#: Console lines that are not errors of the page: the API answers a bad table with 400 and
#: the page shows the server's message itself.
EXPECTED_CONSOLE = ("the server responded with a status of 400",)

#: Methods after which a page or context is not what a new one would be.
_PAGE_CHANGES = (
    "add_init_script",
    "add_locator_handler",
    "emulate_media",
    "expose_binding",
    "expose_function",
    "on",
    "once",
    "route",
    "route_from_har",
    "route_web_socket",
    "set_extra_http_headers",
)
_CONTEXT_CHANGES = (
    *(name for name in _PAGE_CHANGES if name not in ("add_locator_handler", "emulate_media")),
    "grant_permissions",
    "new_cdp_session",
    "set_geolocation",
    "set_offline",
)

_page_on: Callable[..., Any] = Page.on
_emulate_media: Callable[..., Any] = Page.emulate_media
_context_script: Callable[..., Any] = BrowserContext.add_init_script
_context_binding: Callable[..., Any] = BrowserContext.expose_binding


def _marking(original: Callable[..., Any]) -> Callable[..., Any]:
    def changed(self: Any, *args: Any, **kwargs: Any) -> Any:
        setattr(self, _CHANGED, True)
        return original(self, *args, **kwargs)

    changed.__name__ = original.__name__
    changed.__doc__ = original.__doc__
    return changed


for _name in _PAGE_CHANGES:
    setattr(Page, _name, _marking(getattr(Page, _name)))
for _name in _CONTEXT_CHANGES:
    setattr(BrowserContext, _name, _marking(getattr(BrowserContext, _name)))


_goto: Callable[..., Any] = Page.goto

#: A context's viewport when its options name none (Playwright's default).
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
#: Options a page takes after its context is made; the rest make the pool's key.
_PAGE_OPTIONS = ("viewport", "reduced_motion")
#: Context options whose value here is the default: left out of the key.
_DEFAULTS: dict[str, Any] = {"is_mobile": False, "has_touch": False}


def _kind(options: dict[str, Any]) -> str:
    """The pool's key for a context with ``options``: what a page cannot change later."""
    kept = {
        name: value
        for name, value in options.items()
        if name not in _PAGE_OPTIONS and not (name in _DEFAULTS and value == _DEFAULTS[name])
    }
    if "viewport" in options and options["viewport"] is None:
        kept["viewport"] = None  # the window's size: a context of its own
    return json.dumps(kept, sort_keys=True, default=repr)


def _goto_on_base(page: Page, url: str, **kwargs: Any) -> Any:
    """``page.goto`` for pooled pages: a path is one of the test's server (the page's
    ``_spacetable_base``, or its context's for another page of it), as a context's
    ``base_url`` would make it."""
    base = getattr(page, "_spacetable_base", None) or getattr(
        page.context, "_spacetable_base", None
    )
    if base is not None and url.startswith("/") and not url.startswith("//"):
        url = base + url
    return _goto(page, url, **kwargs)


setattr(Page, "goto", _goto_on_base)  # noqa: B010  (mypy: no method assignment)

#: How often ``wait_for_function`` tries its condition when the test names no ``polling``
#: (ms). Playwright's default tries it on every animation frame, which keeps the waiting
#: page drawing 60 frames a second: a tenth of a core, against a fiftieth at this period
#: (measured on a still page). The tests wait on conditions that hold until they are seen.
POLLING_MS = 50

_wait_for_function: Callable[..., Any] = Page.wait_for_function


def _wait_polling(page: Page, expression: str, **kwargs: Any) -> Any:
    """``page.wait_for_function`` that tries its condition every :data:`POLLING_MS`
    unless told otherwise."""
    kwargs.setdefault("polling", POLLING_MS)
    return _wait_for_function(page, expression, **kwargs)


setattr(Page, "wait_for_function", _wait_polling)  # noqa: B010

_new_page: Callable[..., Any] = BrowserContext.new_page


def _new_page_sized(context: BrowserContext) -> Page:
    """``context.new_page()`` for pooled contexts: the page has the viewport the test asked
    for (the context was perhaps made with another, :meth:`PagePool.take`)."""
    page: Page = _new_page(context)
    viewport = getattr(context, "_spacetable_viewport", None)
    if viewport is not None and page.viewport_size != viewport:
        page.set_viewport_size(viewport)
    return page


setattr(BrowserContext, "new_page", _new_page_sized)  # noqa: B010


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    return f"{parts.scheme}://{parts.netloc}"


class PagePool:
    """Pages for a worker's tests, kept between tests by their context options."""

    def __init__(self, browser: Browser, prepare: Callable[[BrowserContext], None]) -> None:
        """``prepare(context)`` is run once on each new context (its init scripts)."""
        self.browser = browser
        self.prepare = prepare
        self.idle: OrderedDict[int, tuple[str, Page]] = OrderedDict()

    def take(self, base: str, options: dict[str, Any], errors: list[str]) -> Page:
        """A page in a context of its own with these options, its console errors and
        uncaught exceptions going to ``errors`` until it is given back. A path it is sent
        to (``page.goto("/rooms/x")``) is one of the server at ``base``: pooled pages
        serve any test server (a context's own base URL cannot change), so a tab that
        played on one module's server is reused by the next module's tests."""
        key = _kind(options)
        page = None
        for ident, (held, candidate) in self.idle.items():
            if held == key:
                del self.idle[ident]
                page = candidate
                break
        if page is None:
            page = self._new(options)
        elif TRACING:  # this test's chunk of the context's trace
            page.context.tracing.start_chunk()
            setattr(page.context, _TRACING, True)
        # The page's own options, as a new context with these options would have them.
        viewport = options.get("viewport", DEFAULT_VIEWPORT)
        if viewport is not None and page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        page.context._spacetable_viewport = viewport  # type: ignore[attr-defined]
        motion = options.get("reduced_motion", "no-preference")
        if getattr(page, "_spacetable_motion", "no-preference") != motion:
            _emulate_media(page, reduced_motion=motion)
            page._spacetable_motion = motion  # type: ignore[attr-defined]
        page._spacetable_base = base  # type: ignore[attr-defined]
        # (and for the context's other pages)
        page.context._spacetable_base = base  # type: ignore[attr-defined]
        page._spacetable_key = key  # type: ignore[attr-defined]
        page._spacetable_errors = errors  # type: ignore[attr-defined]
        page._spacetable_sockets = []  # type: ignore[attr-defined]  # (room_socket)
        page._spacetable_origins = set()  # type: ignore[attr-defined]
        forget_frames(page)
        page.set_default_timeout(15_000)  # (navigations too: a test may raise it)
        return page

    def _new(self, options: dict[str, Any]) -> Page:
        context = self.browser.new_context(**options)
        if TRACING:  # (its first chunk starts now)
            context.tracing.start(**TRACE_OPTIONS)
            setattr(context, _TRACING, True)
        self.prepare(context)
        page = context.new_page()
        page._spacetable_motion = options.get("reduced_motion", "no-preference")  # type: ignore[attr-defined]

        def console(message: ConsoleMessage) -> None:
            sink = getattr(page, "_spacetable_errors", None)
            if sink is not None and message.type == "error":
                sink.append(message.text)

        def uncaught(error: Error) -> None:
            sink = getattr(page, "_spacetable_errors", None)
            if sink is not None:
                sink.append(f"uncaught: {error}")

        def opened(socket: WebSocket) -> None:
            page._spacetable_sockets.append(socket)  # type: ignore[attr-defined]
            keep_frames(page, socket)
            check_frames(socket, lambda: getattr(page, "_spacetable_errors", None))

        def navigated(frame: Any) -> None:
            origin = _origin(frame.url)
            if frame == page.main_frame and origin is not None:
                page._spacetable_origins.add(origin)  # type: ignore[attr-defined]

        _page_on(page, "console", console)
        _page_on(page, "pageerror", uncaught)
        _page_on(page, "websocket", opened)
        _page_on(page, "framenavigated", navigated)
        return page

    def give_back(self, page: Page) -> None:
        """Empty the page and keep it for a later test, or close it if it cannot be."""
        page._spacetable_errors = None  # type: ignore[attr-defined]
        context = page.context
        if page.is_closed() or getattr(page, _CHANGED, False) or getattr(context, _CHANGED, False):
            self._close(context)
            return
        try:
            if getattr(context, _TRACING, False):  # the test passed: its chunk is dropped
                setattr(context, _TRACING, False)
                context.tracing.stop_chunk()
            for other in context.pages:
                if other != page:
                    other.close()
            self._empty(page)
        except Error:
            self._close(context)
            return
        self.idle[id(page)] = (page._spacetable_key, page)  # type: ignore[attr-defined]
        while len(self.idle) > POOL_LIMIT:
            _, (_, oldest) = self.idle.popitem(last=False)
            self._close(oldest.context)

    def _empty(self, page: Page) -> None:
        clear = "() => { localStorage.clear(); sessionStorage.clear(); }"
        origins: set[str] = page._spacetable_origins  # type: ignore[attr-defined]
        here = _origin(page.url)
        for origin in sorted(origins, key=lambda o: o != here):  # the current one first
            if _origin(page.url) != origin:  # a document of that origin, to reach its storage
                page.goto(origin + "/robots.txt", timeout=RESET_TIMEOUT_MS)
            page.evaluate(clear)
        page.goto("about:blank", timeout=RESET_TIMEOUT_MS)
        page.context.clear_cookies()

    @staticmethod
    def keep_trace(page: Page, path: Path) -> Path | None:
        """Write what ``page``'s context recorded since the test took it (a trace for
        ``playwright show-trace``) to ``path``; ``None`` if it recorded none (tracing off,
        the context closed, or kept already)."""
        context = page.context
        if not getattr(context, _TRACING, False):
            return None
        setattr(context, _TRACING, False)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            context.tracing.stop_chunk(path=str(path))
        except Error:  # the browser or the context went away with the failure
            return None
        return path

    @staticmethod
    def _close(context: BrowserContext) -> None:
        with contextlib.suppress(Error):  # already gone with its browser
            context.close()

    def close(self) -> None:
        """Close every idle page (the worker's tests are over)."""
        while self.idle:
            _, (_, page) = self.idle.popitem()
            self._close(page.context)


def not_reused(page: Page) -> None:
    """Close ``page``'s context after the test instead of pooling it: for a change the
    wrapped methods above do not see (Playwright's fake clock, ``page.clock.install``)."""
    setattr(page.context, _CHANGED, True)


def paused_clock(page: Page) -> None:
    """Give ``page`` Playwright's fake clock, paused at the machine's time: its timers,
    animation frames and ``Date`` move only when the test moves them (``clock.run_for``).
    An installed clock that is not paused follows the machine's, so that a busy machine's
    second between two of the test's calls moves the page's timers too. The page is not
    pooled after the test (:func:`not_reused`)."""
    not_reused(page)
    now = datetime.datetime.now(datetime.UTC)
    page.clock.install(time=now)
    page.clock.pause_at(now + datetime.timedelta(seconds=1))


def prepare_context(
    context: BrowserContext, script: str, name: str, function: Callable[..., Any]
) -> None:
    """Give a pooled context an init script and a binding its pages may call (what every
    test's pages share), without marking it changed. The binding is called with the page
    that called it first: ``function(page, *args)``."""
    _context_binding(context, name, lambda source, *args: function(source["page"], *args))
    _context_script(context, script)


class PageErrors(list[str]):
    """A borrowed page's console errors and uncaught exceptions, without the console lines
    that are not the page's (:data:`EXPECTED_CONSOLE`, as ``open_page`` leaves them out)."""

    def append(self, text: str) -> None:
        if not any(expected in text for expected in EXPECTED_CONSOLE):
            super().append(text)


@contextlib.contextmanager
def borrowed_page(
    pool: PagePool, base: str, options: dict[str, Any]
) -> Iterator[tuple[Page, PageErrors]]:
    """A page of the pool in a context with ``options`` (as ``new_context`` takes them),
    on the server at ``base``, and the list its errors go to (the test asserts it empty):
    for a test on a server of its own, where ``open_page`` serves the session server's.
    The page goes back to the pool, emptied, at the end."""
    errors = PageErrors()
    page = pool.take(base, options, errors)
    try:
        yield page, errors
    finally:
        pool.give_back(page)


def trace_paths(test_id: str, count: int) -> list[Path]:
    """Where the traces of test ``test_id``'s ``count`` pages go (:data:`TRACES`): a file
    named after the test (``tests-browser-test_x.py-test_y.zip``), then ``-2``, ``-3``..."""
    name = re.sub(r"[^\w.\[\]-]+", "-", test_id).strip("-")[:150]
    return [TRACES / f"{name}{'' if n == 1 else f'-{n}'}.zip" for n in range(1, count + 1)]


def keep_traces(pool: PagePool, test_id: str, pages: list[Page]) -> list[Path]:
    """Keep the traces of a failed test's ``pages`` (one a context), those written."""
    contexts: dict[int, Page] = {}
    for page in pages:
        contexts.setdefault(id(page.context), page)
    kept = []
    for page, path in zip(contexts.values(), trace_paths(test_id, len(contexts)), strict=True):
        written = pool.keep_trace(page, path)
        if written is not None:
            kept.append(written)
    return kept
