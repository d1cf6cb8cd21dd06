"""Talk at the table: the room's chat, its two channels, its limits and its log.

:class:`RoomChat` is a mixin of :class:`~spacetable.server.rooms.Room`, run on the room's
task like the rest of it. Two channels: the players' (everyone in the room reads it) and
the spectators' (read by spectators, and by the players who opened it for their seat with
``open_chat``). Free text is at most :data:`CHAT_LIMIT` characters; quick messages travel
as ids (:data:`QUICK`), which each page shows in its own words. Each socket may send
:data:`CHAT_BURST` messages at once and one every :data:`CHAT_INTERVAL` seconds after,
measured on the room's clock; a message over it is refused with how long to wait. What
was said during a match is stored with it (its ``t``: match seconds); what is said in the
lobby before, or after the end, is kept in the room only (docs/protocol.md, "Chat"), and
in its live rows while it lives (``live_store.py``: a rebuilt room shows it again).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any, Literal

from spacetable.i18n import N_
from spacetable.server import protocol as msg
from spacetable.server._clock import RoomClock
from spacetable.server._connection import Connection, message_frame
from spacetable.server._rate_limit import TokenBucket
from spacetable.server._seats import Seat

#: The longest free-text message, in characters.
CHAT_LIMIT = 200
#: The quick messages' ids, and their English words (the pages have their own).
QUICK = {
    "gg": "Good game",
    "wp": "Well played",
    "oops": "Oops",
    "thinking": "Thinking...",
    "rematch": "Rematch?",
}
#: Chat messages one socket may send at once.
CHAT_BURST = 5.0
#: Seconds between two chat messages, sustained, once the burst is spent.
CHAT_INTERVAL = 1.5
#: The messages of the room's log sent to someone who arrives (the newest).
HISTORY = 100
#: The most messages a match stores (a long match's chat is cut, oldest first).
STORED = 2000

Channel = Literal["players", "spectators"]


class RoomChat:
    """The room's ``chat`` and ``open_chat`` messages, the log it keeps, and what a match
    stores of it."""

    # The room's state (rooms.py) that the chat reads.
    seats: list[Seat]
    connections: set[Connection]
    phase: Literal["lobby", "playing", "over"]
    clock: RoomClock

    if TYPE_CHECKING:

        def _now(self) -> float: ...
        def _note_chat(self, seq: int, entry: dict[str, Any]) -> None: ...
        def _extras_changed(self) -> None: ...

    def _chat_init(self) -> None:
        """The chat's state (called by ``Room.__init__``)."""
        #: Every message said in the room, oldest first (each as sent to clients).
        self.chat_log: list[dict[str, Any]] = []
        #: Where the running match's messages begin in :attr:`chat_log`.
        self._chat_match_start = 0
        #: The seats whose players read the spectators' chat.
        self.chat_open: set[int] = set()
        self._chat_buckets: weakref.WeakKeyDictionary[Connection, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )
        #: The spectators' names in the chat ("spectator 1"...), given as each first speaks.
        self._spectator_names: weakref.WeakKeyDictionary[Connection, str] = (
            weakref.WeakKeyDictionary()
        )
        self._spectators_named = 0
        #: Messages said in the room so far (a message's number in storage: _durable.py).
        self._chat_said = 0
        #: The number of the running match's first message.
        self._chat_match_seq = 0

    # -- messages in --------------------------------------------------------------------

    def _chat_admitted(self, connection: Connection) -> bool:
        """Whether the chat throttle lets one more message of ``connection`` through. Called
        as the message arrives (``Room.submit``), before the room's queue: a flooder hears
        "chat: too many messages, wait N s" (once per row of refusals) in the order of what
        he sent, before the socket's own limit, which allows more, drops his messages."""
        bucket = self._chat_buckets.get(connection)
        now = self.clock.now()
        if bucket is None:
            bucket = self._chat_buckets[connection] = TokenBucket.full(
                1 / CHAT_INTERVAL, CHAT_BURST, now
            )
        if bucket.take(now):
            return True
        if bucket.refused == 1:  # told once per row of refusals
            wait = math.ceil((1 - bucket.tokens) * CHAT_INTERVAL)
            connection.error(N_("chat: too many messages, wait {n} s"), n=wait)
        return False

    def _on_chat_message(self, connection: Connection, message: msg.Chat | msg.OpenChat) -> None:
        if isinstance(message, msg.OpenChat):
            self._extras_changed()  # who reads the spectators' chat (_room_extras.py)
            self._open_chat(connection, message.open)
        else:
            self._chat(connection, message)

    def _chat(self, connection: Connection, message: msg.Chat) -> None:
        problem = self._chat_problem(connection, message)
        if problem is not None:
            connection.error(N_("chat: {problem}"), problem=problem)
            return
        seat = connection.seat
        channel: Channel = message.channel or ("players" if seat is not None else "spectators")
        entry = {
            "type": "chat",
            "t": self._now() if self.phase == "playing" else None,
            "seat": seat,
            "name": self._chat_name(connection),
            "channel": channel,
            "text": None if message.quick is not None else (message.text or "").strip(),
            "quick": message.quick,
        }
        self.chat_log.append(entry)
        self._note_chat(self._chat_said, entry)  # stored before anyone reads it
        self._chat_said += 1
        over = len(self.chat_log) - (STORED + HISTORY)
        if over > 0:  # a long match's chat: the oldest go (the lobby's first)
            del self.chat_log[:over]
            self._chat_match_start = max(0, self._chat_match_start - over)
        frame = message_frame(entry)
        for other in self.connections:
            if self._reads(other, channel):
                other.send_frame(frame)

    def _chat_problem(self, connection: Connection, message: msg.Chat) -> str | None:
        """Why ``message`` cannot be said, in the writer's language (``None``: it can)."""
        tr = connection.tr
        if connection not in self.connections:
            return tr.gettext("watch or take a seat first")
        if (message.text is None) == (message.quick is None):
            return tr.gettext("give either 'text' or 'quick'")
        if message.quick is not None and message.quick not in QUICK:
            return tr.gettext(
                "no quick message {quick}: one of {known}",
                quick=repr(message.quick),
                known=", ".join(QUICK),
            )
        if message.text is not None:
            text = message.text.strip()
            if not text:
                return tr.gettext("the message is empty")
            if len(text) > CHAT_LIMIT:
                return tr.gettext(
                    "a message is at most {limit} characters (this one has {n})",
                    limit=CHAT_LIMIT,
                    n=len(text),
                )
        seat = connection.seat
        if seat is None and message.channel == "players":
            return tr.gettext("spectators cannot write in the players' chat")
        if seat is not None and message.channel == "spectators" and seat not in self.chat_open:
            return tr.gettext("open the spectators' chat first")
        return None

    def _open_chat(self, connection: Connection, open_: bool) -> None:
        seat = connection.seat
        if seat is None:
            connection.error(N_("chat: spectators read the spectators' chat already"))
            return
        if open_:
            self.chat_open.add(seat)
        else:
            self.chat_open.discard(seat)
        for other in self.connections:
            if other.seat == seat:
                self._send_chat_history(other)

    # -- who reads what -----------------------------------------------------------------

    def _reads(self, connection: Connection, channel: Channel) -> bool:
        """Whether ``connection`` reads ``channel``."""
        seat = connection.seat
        return channel == "players" or seat is None or seat in self.chat_open

    def _chat_name(self, connection: Connection) -> str:
        """The name a message from ``connection`` is signed with: its seat's player, or for
        a spectator (who gave no name) "spectator N", N counted in the room."""
        if connection.seat is not None:
            return self.seats[connection.seat].name or f"player {connection.seat + 1}"
        name = self._spectator_names.get(connection)
        if name is None:
            self._spectators_named += 1
            self._extras_changed()
            name = self._spectator_names[connection] = f"spectator {self._spectators_named}"
        return name

    def _send_chat_history(self, connection: Connection) -> None:
        """What ``connection`` may read of the room's chat, the newest :data:`HISTORY`
        (``chat_history``: the page replaces what it showed), and whether its seat reads
        the spectators' chat."""
        readable = [m for m in self.chat_log if self._reads(connection, m["channel"])]
        seat = connection.seat
        connection.send(
            {
                "type": "chat_history",
                "messages": readable[-HISTORY:],
                "open": seat is None or seat in self.chat_open,
            }
        )

    # -- what a match stores --------------------------------------------------------------

    def _chat_match_begins(self) -> None:
        """A match begins: its chat starts here (the lobby's before it is not stored). The
        room's log keeps only what the newcomers are shown."""
        del self.chat_log[:-HISTORY]
        self._chat_match_start = len(self.chat_log)
        self._chat_match_seq = self._chat_said

    def _chat_of_match(self) -> list[dict[str, Any]]:
        """The messages said during the match that just ended, as stored: ``t`` (match
        seconds), ``seat``, ``name``, ``channel``, ``text`` and ``quick``."""
        said = self.chat_log[self._chat_match_start :]
        return [{k: v for k, v in m.items() if k != "type"} for m in said][-STORED:]
