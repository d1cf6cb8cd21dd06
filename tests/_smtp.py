"""A real SMTP server for the e-mail tests (aiosmtpd, on a thread of the test's process):
every mail it receives is kept, parsed, in :attr:`Inbox.mails`, and awaited with
:meth:`Inbox.wait_for` (polled, with a deadline: never a fixed sleep)."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests._ports import free_port

#: The longest a test waits for a mail (seconds): a mail that has not come by then is a
#: failure, not luck.
WAIT_SECONDS = 10.0


class Inbox:
    """What the SMTP server received: each mail as sent (``raw``) and parsed (``mails``)."""

    def __init__(self) -> None:
        self.raw: list[bytes] = []
        self.mails: list[EmailMessage] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data: bytes = envelope.content
        parsed = email.message_from_bytes(data, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        with self._lock:
            self.raw.append(data)
            self.mails.append(parsed)
        return "250 OK"

    def wait_for(self, count: int, seconds: float = WAIT_SECONDS) -> list[EmailMessage]:
        """The mails, once there are at least ``count`` (polled; fails after ``seconds``)."""
        deadline = time.monotonic() + seconds
        while True:
            with self._lock:
                if len(self.mails) >= count:
                    return list(self.mails)
            assert time.monotonic() < deadline, f"{len(self.mails)} mails came, not {count}"
            time.sleep(0.01)


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, str]]:
    """A running SMTP server: its inbox and its URL for ``--smtp``."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def body_of(message: EmailMessage) -> str:
    """The mail's text."""
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def link_in(message: EmailMessage) -> str:
    """The one link the mail's text holds."""
    links: list[str] = re.findall(r"https?://\S+", body_of(message))
    assert len(links) == 1, links
    return links[0]
