"""What a failed browser test's pages showed, in its report.

A browser test that fails one run in a hundred on a loaded machine cannot be rerun until it
fails again under a debugger: its report has to say what happened. Each pooled page keeps
its room socket's last frames, both ways (:func:`keep_frames`), and when a test's call
fails, :func:`describe` writes each of its pages' address, ``<body>`` data (phase, turn,
seat, player), connection badge and status line, and those frames into the report
("pages at the failure").
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from playwright.sync_api import Error, Page, WebSocket

#: Frames kept per page, the newest last (sent and received together, in order).
FRAMES_KEPT = 40
#: Characters of a frame shown (a whole state is kilobytes).
FRAME_CHARS = 240

_FRAMES = "_spacetable_frames"

#: The page's own account of itself, read in the page.
_PAGE_STATE = """() => {
  const text = (selector) => document.querySelector(selector)?.innerText?.trim() ?? null;
  return {
    body: { ...document.body?.dataset },
    connection: text(".connection, #connection"),
    status: text("#status"),
    notices: [...document.querySelectorAll("[role=alert], .notice, .error")]
      .filter((node) => node.checkVisibility?.() ?? true)
      .map((node) => node.innerText.trim()).filter(Boolean).slice(-5),
  };
}"""


#: A kept line: an arrow and a frame as it came, or a line of its own with no frame
#: (``(line, None)``). A frame is read and cut only for a report: most never are.
Kept = tuple[str, str | bytes | None]


def keep_frames(page: Page, socket: WebSocket) -> None:
    """Keep ``socket``'s frames on ``page`` (a ring of :data:`FRAMES_KEPT`)."""
    frames: deque[Kept] = getattr(page, _FRAMES, None) or deque(maxlen=FRAMES_KEPT)
    setattr(page, _FRAMES, frames)
    frames.append((f"-- socket opened: {socket.url}", None))

    def keep(arrow: str) -> Any:
        def kept(payload: str | bytes) -> None:
            frames.append((arrow, payload))

        return kept

    socket.on("framesent", keep("->"))
    socket.on("framereceived", keep("<-"))
    socket.on("close", lambda _socket: frames.append(("-- socket closed", None)))


def _line(kept: Kept) -> str:
    arrow, payload = kept
    return arrow if payload is None else f"{arrow} {_frame(payload)}"


def _frame(payload: str | bytes) -> str:
    """A frame in a line: a room message as its phase and seats (who sits, is ready and
    connected), a state as its turn and phase, anything else cut at :data:`FRAME_CHARS`."""
    if isinstance(payload, bytes):
        return f"<{len(payload)} bytes>"
    try:
        message = json.loads(payload)
    except ValueError:
        return payload[:FRAME_CHARS]
    if isinstance(message, dict) and message.get("type") == "room":
        seats = [
            f"{s.get('name') or '-'}:{s.get('kind')}"
            + "".join(f" {flag}" for flag in ("ready", "connected") if s.get(flag))
            for s in message.get("seats", [])
            if isinstance(s, dict)
        ]
        return f"room phase={message.get('phase')} seats={seats}"
    if isinstance(message, dict) and message.get("type") in ("state", "state_patch"):
        found = message.get("state")
        state: dict[str, Any] = found if isinstance(found, dict) else {}
        keys = {k: state.get(k) for k in ("phase", "turn") if k in state}
        return f"{message['type']} {json.dumps(keys)} ({len(payload)} chars)"
    return payload[:FRAME_CHARS]


def forget_frames(page: Page) -> None:
    """Forget the frames of the test before (a pooled page is handed on)."""
    frames: deque[Kept] | None = getattr(page, _FRAMES, None)
    if frames is not None:
        frames.clear()


def describe(pages: list[Page]) -> str:
    """Each page's address, own account and last socket frames, for a failure's report."""
    parts: list[str] = []
    for number, page in enumerate(pages, 1):
        parts.append(f"page {number}: {page.url if not page.is_closed() else '(closed)'}")
        if not page.is_closed():
            try:
                state = page.evaluate(_PAGE_STATE)
            except Error as error:  # the page is gone, or navigating
                state = {"unreadable": str(error).splitlines()[0]}
            parts.append("  " + json.dumps(state, ensure_ascii=False))
        frames: deque[Kept] = getattr(page, _FRAMES, None) or deque()
        parts.extend(f"  {_line(kept)}" for kept in frames)
    return "\n".join(parts)
