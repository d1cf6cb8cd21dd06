"""Talk at the table: the room's chat, its two channels, its limits and its log.

:class:`Chat` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the room's
task like the rest of it, that sees the room through its
:class:`~spacetable.server.rooms.context.RoomContext`. Two channels: the players'
(everyone in the room reads it) and the spectators' (read by spectators, and by the
players who opened it for their seat with ``open_chat``). Free text is at most
:data:`CHAT_LIMIT` characters; quick messages travel as ids (:data:`QUICK`), which each
page shows in its own words. Each socket may send :data:`CHAT_BURST` messages at once and
one every :data:`CHAT_INTERVAL` seconds after, measured on the room's clock; a message over
it is refused with how long to wait. What was said during a match is stored with it (its
``t``: match seconds); what is said in the lobby before, or after the end, is kept in the
room only (docs/protocol.md, "Chat"), and in its live rows while it lives
(``store/live_store.py``: a rebuilt room shows it again).

A logged-in reader never receives the lines of the accounts he blocks (issue 69 item 4):
the room reads his blocks as his socket arrives and again when he blocks someone
(:class:`BlocksChanged`, ``rooms/lookups.py``: on a thread), :meth:`Chat.hide` keeps them
for his socket, and neither a new line nor the history he is sent holds theirs.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, cast

from spacetable.i18n import N_
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.payloads import ChatLine
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.context import RoomContext
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection, message_frame
from spacetable.server.sockets.rate_limit import TokenBucket

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
#: The length of a message's ``speaker`` (hexadecimal digits of a digest).
SPEAKER_CHARS = 16

Channel = Literal["players", "spectators"]


@dataclass(frozen=True, slots=True)
class BlocksChanged:
    """The account of a socket blocks others than it did (posted into the room's queue by
    ``meet/relations.py``): the room reads his blocks again and sends him the chat anew."""


#: Hears of every message said, with its number in the room, to store it.
Said = Callable[[int, dict[str, Any]], None]


class Chat:
    """The room's ``chat`` and ``open_chat`` messages, the log it keeps, and what a match
    stores of it. ``said`` hears of each message before anyone reads it (the journal's)."""

    def __init__(self, room: RoomContext, said: Said) -> None:
        self._room = room
        self._said = said
        #: Every message said in the room, oldest first (each as sent to clients).
        self._log: list[dict[str, Any]] = []
        #: Where the running match's messages begin in :attr:`_log`.
        self._match_start = 0
        #: The seats whose players read the spectators' chat.
        self._open: set[int] = set()
        self._buckets: weakref.WeakKeyDictionary[Connection, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )
        #: The spectators' names in the chat ("spectator 1"...), given as each first
        #: speaks, by speaker (:meth:`speaker`): a spectator whose page reconnects keeps his.
        self._spectator_names: dict[str, str] = {}
        self._spectators_named = 0
        #: Who is who (:meth:`speaker`): each account, tab or seat token that spoke (as a
        #: digest), and the speaker it is.
        self._speakers: dict[str, str] = {}
        #: The speaker of each socket that named no tab and holds no seat: itself alone.
        self._socket_speakers: weakref.WeakKeyDictionary[Connection, str] = (
            weakref.WeakKeyDictionary()
        )
        #: The accounts each logged-in socket's reader blocks, as :meth:`_names_of` names
        #: them, digested (:meth:`_digest`): their lines are not sent to him.
        self._hidden: weakref.WeakKeyDictionary[Connection, frozenset[str]] = (
            weakref.WeakKeyDictionary()
        )
        #: Messages said in the room so far (a message's number in storage).
        self._count = 0
        #: The number of the running match's first message.
        self._match_seq = 0

    # -- messages in --------------------------------------------------------------------

    def admitted(self, connection: Connection) -> bool:
        """Whether the chat throttle lets one more message of ``connection`` through. Called
        as the message arrives (``Room.submit``), before the room's queue: a flooder hears
        "chat: too many messages, wait N s" (once per row of refusals) in the order of what
        he sent, before the socket's own limit, which allows more, drops his messages."""
        bucket = self._buckets.get(connection)
        now = self._room.clock.now()
        if bucket is None:
            bucket = self._buckets[connection] = TokenBucket.full(
                1 / CHAT_INTERVAL, CHAT_BURST, now
            )
        if bucket.take(now):
            return True
        if bucket.refused == 1:  # told once per row of refusals
            wait = math.ceil((1 - bucket.tokens) * CHAT_INTERVAL)
            connection.error(N_("chat: too many messages, wait {n} s"), n=wait)
        return False

    def held_back(self, connection: Connection) -> int | None:
        """Seconds until the throttle lets ``connection``'s next message through, when it
        refused the last one (a bot's chat over HTTP answers 429: ``rooms/bot_seat.py``);
        ``None`` when it let it through."""
        bucket = self._buckets.get(connection)
        if bucket is None or bucket.refused == 0:
            return None
        return max(1, math.ceil((1 - bucket.tokens) * CHAT_INTERVAL))

    def on_chat(self, connection: Connection | None, message: msg.Chat) -> None:
        """A ``chat`` message: said to those who read its channel, or refused."""
        assert connection is not None
        problem = self._problem(connection, message)
        if problem is not None:
            connection.error(N_("chat: {problem}"), problem=problem)
            return
        seat = connection.seat
        channel: Channel = message.channel or ("players" if seat is not None else "spectators")
        said = to_page.Chat(
            t=self._room.now() if self._room.phase == "playing" else None,
            seat=seat,
            name=self._name(connection),
            speaker=self.speaker(connection),
            channel=channel,
            text=None if message.quick is not None else (message.text or "").strip(),
            quick=message.quick,
        )
        entry = wire(said)
        self._log.append(entry)
        self._said(self._count, entry)  # stored before anyone reads it
        self._count += 1
        over = len(self._log) - (STORED + HISTORY)
        if over > 0:  # a long match's chat: the oldest go (the lobby's first)
            del self._log[:over]
            self._match_start = max(0, self._match_start - over)
        frame = message_frame(entry)
        for other in self._room.connections:
            if self._reads(other, channel) and said.speaker not in self._hidden_speakers(other):
                other.send_frame(frame)

    def on_open_chat(self, connection: Connection | None, message: msg.OpenChat) -> None:
        """An ``open_chat`` message: a player opens (or closes) the spectators' chat for
        his seat."""
        assert connection is not None
        self._room.changed()  # who reads the spectators' chat is stored with the room
        seat = connection.seat
        if seat is None:
            connection.error(N_("chat: spectators read the spectators' chat already"))
            return
        if message.open:
            self._open.add(seat)
        else:
            self._open.discard(seat)
        for other in self._room.connections:
            if other.seat == seat:
                self.send_history(other)

    def on_blocks_changed(self, connection: Connection | None, message: BlocksChanged) -> None:
        """The reader on ``connection`` blocks others than he did (the room read his
        blocks again before): his page is sent the chat anew, without their lines."""
        if connection is not None and connection in self._room.connections:
            self.send_history(connection)

    def _problem(self, connection: Connection, message: msg.Chat) -> str | None:
        """Why ``message`` cannot be said, in the writer's language (``None``: it can)."""
        tr = connection.tr
        if connection not in self._room.connections:
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
        if seat is not None and message.channel == "spectators" and seat not in self._open:
            return tr.gettext("open the spectators' chat first")
        return None

    # -- who reads what -----------------------------------------------------------------

    def _reads(self, connection: Connection, channel: Channel) -> bool:
        """Whether ``connection`` reads ``channel``."""
        seat = connection.seat
        return channel == "players" or seat is None or seat in self._open

    def hide(self, connection: Connection, blocked: Iterable[str]) -> None:
        """The reader on ``connection`` blocks the accounts named ``blocked`` (their names
        as shown): their lines are not sent to him from now on."""
        names = frozenset(self._digest(f"account:{name}") for name in blocked)
        if names:
            self._hidden[connection] = names
        else:
            self._hidden.pop(connection, None)

    def _hidden_speakers(self, connection: Connection) -> set[str]:
        """The speakers whose messages are kept from the reader on ``connection``: the
        accounts he blocks (each the speaker it is in this room: :meth:`speaker`)."""
        hidden = self._hidden.get(connection)
        if not hidden:
            return set()
        return {self._speakers.get(name, name) for name in hidden}

    def speaker(self, connection: Connection, *, note: bool = True) -> str:
        """Who says what ``connection`` says, as every message of his carries it
        (``speaker``), so that a reader's mute follows the person, not his seat or his
        name. The socket carries what names him: his account (logged in), the browser tab
        he writes from (the ``tab`` his page names as it connects, kept across reloads and
        reconnections), his seat's token; else it is itself alone. The first of them that spoke
        before gives the speaker he was then, and the others become his too: a player who
        closes his tab and opens the link again (another tab, the same token) is the one he
        was, and that new tab stays him when he leaves his seat to watch. Each is a digest
        of it with the room's id: it reveals neither tab nor token, and is the same after
        the room is rebuilt from storage (:meth:`snapshot` keeps who is who).
        ``note=False`` asks who he would be without noting anything (his ``welcome`` tells
        his page, which then knows his own messages from the others')."""
        names = [self._digest(name) for name in self._names_of(connection)]
        if not names:
            alone = self._socket_speakers.get(connection)
            if alone is None:
                alone = self._socket_speakers[connection] = f"socket:{secrets.token_hex(16)}"
            return self._digest(alone)
        speaker = next((self._speakers[n] for n in names if n in self._speakers), names[0])
        new = [name for name in names if name not in self._speakers]
        if new and note:
            self._speakers.update(dict.fromkeys(new, speaker))
            self._room.changed()  # (stored with the room: who is who after a rebuild)
        return speaker

    def _names_of(self, connection: Connection) -> list[str]:
        """What names the person on ``connection`` (:meth:`speaker`), most lasting first:
        his account, his tab, his seat's token."""
        names = []
        if connection.account is not None:
            names.append(f"account:{connection.account}")
        if connection.tab is not None:
            names.append(f"tab:{connection.tab}")
        if connection.seat is not None and self._room.seats[connection.seat].token:
            names.append(f"token:{self._room.seats[connection.seat].token}")
        return names

    def _digest(self, name: str) -> str:
        """``name`` (:meth:`_names_of`) as a speaker: a digest of it with the room's id."""
        return hashlib.sha256(f"{self._room.id}\n{name}".encode()).hexdigest()[:SPEAKER_CHARS]

    def _name(self, connection: Connection) -> str:
        """The name a message from ``connection`` is signed with: its seat's player, or for
        a spectator (who gave no name) "spectator N", N counted in the room, the same for
        one speaker (:meth:`speaker`) however often he reconnects."""
        if connection.seat is not None:
            return self._room.seats[connection.seat].name or f"player {connection.seat + 1}"
        speaker = self.speaker(connection)
        name = self._spectator_names.get(speaker)
        if name is None:
            self._spectators_named += 1
            self._room.changed()
            name = self._spectator_names[speaker] = f"spectator {self._spectators_named}"
        return name

    def send_history(self, connection: Connection) -> None:
        """What ``connection`` may read of the room's chat, the newest :data:`HISTORY`
        (``chat_history``: the page replaces what it showed), and whether its seat reads
        the spectators' chat."""
        hidden = self._hidden_speakers(connection)
        readable = [
            m
            for m in self._log
            if self._reads(connection, m["channel"]) and m.get("speaker") not in hidden
        ]
        seat = connection.seat
        connection.send(
            wire(
                to_page.ChatHistory(
                    cast("list[ChatLine]", readable[-HISTORY:]), seat is None or seat in self._open
                )
            )
        )

    # -- what a match stores --------------------------------------------------------------

    def match_begins(self) -> None:
        """A match begins: its chat starts here (the lobby's before it is not stored). The
        room's log keeps only what the newcomers are shown."""
        del self._log[:-HISTORY]
        self._match_start = len(self._log)
        self._match_seq = self._count

    def of_match(self) -> list[dict[str, Any]]:
        """The messages said during the match that just ended, as stored: ``t`` (match
        seconds), ``seat``, ``name``, ``channel``, ``text`` and ``quick`` (not ``speaker``:
        a mute is for the room while it lives)."""
        said = self._log[self._match_start :]
        kept = [{k: v for k, v in m.items() if k not in ("type", "speaker")} for m in said]
        return kept[-STORED:]

    # -- what the room stores while it lives ------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The chat's places, as the room's stored ``extras`` keep them (its messages are
        stored one by one, as said): the seats that read the spectators' chat, the number
        of the running match's first message, the spectators named so far, who is who
        (:meth:`speaker`)."""
        return {
            "chat_open": sorted(self._open),
            "chat_match_start": self._match_seq,
            "spectators_named": self._spectators_named,
            "spectator_names": dict(self._spectator_names),
            "speakers": dict(self._speakers),
        }

    def restore(self, said: list[tuple[int, dict[str, Any]]], extras: dict[str, Any]) -> None:
        """Take back the chat of a room rebuilt from storage: ``said``, the stored messages
        (number, message) oldest first, and the places :meth:`snapshot` gave."""
        self._log = [entry for _, entry in said]
        self._count = said[-1][0] + 1 if said else 0
        start = int(extras.get("chat_match_start") or 0)
        self._match_seq = start
        self._match_start = sum(1 for seq, _ in said if seq < start)
        self._open = {int(seat) for seat in extras.get("chat_open") or ()}
        self._spectators_named = int(extras.get("spectators_named") or 0)
        names = extras.get("spectator_names")
        if isinstance(names, dict):
            self._spectator_names = {str(k): str(v) for k, v in names.items()}
        speakers = extras.get("speakers")
        if isinstance(speakers, dict):
            self._speakers = {str(k): str(v) for k, v in speakers.items()}
