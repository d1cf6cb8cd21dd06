"""A room's journal, its storage while it lives: nobody hears of an action, a seat change
or a result before it is stored, so that the room can be rebuilt from storage after its
process died.

:class:`Journal` is a part of a :class:`~spacetable.server.rooms.room.Room`, seeing it through
a :class:`JournalRoom`. The room's task handles its messages (those already waiting, in
one batch) with the journal's outbox holding every frame (``sockets/connection.py``:
:class:`~spacetable.server.sockets.connection.Outbox`), then awaits :meth:`Journal.write`: the
new actions and the room's row
(``store/live_store.py``), written on a thread in one transaction, or a finished match with the
room marked over (``store/save_queue.py``). Only then does the outbox send what it held. While
the database cannot be reached the room waits for it, trying again with a growing pause,
and its players are told why the table stands still (a ``notice`` message); nothing is
sent that is not stored, so nothing the players saw is lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.match import RoomMatch, RoomOptions
from spacetable.server.sockets.connection import Outbox
from spacetable.server.store.live_store import (
    LiveRoom,
    LiveStore,
    StaleWriter,
    StoredAction,
    StoredChat,
)
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import StorageUnavailable, StoredMatch

log = logging.getLogger("spacetable.rooms")

#: The most messages a room handles before it stores what they changed (one write for
#: the lot: a room that receives several actions in one tick pays one transaction).
BATCH_LIMIT = 32
#: Seconds a result waits for storage before the players are told that it does.
RESULT_NOTICE_AFTER = 1.0
#: The pauses between two tries of a write the database refused (s): doubling, bounded.
FIRST_RETRY = 0.25
LONGEST_RETRY = 5.0

#: Player-facing words (kept together for translation).
NOTICES = {
    "down": (
        "The match store cannot be reached: the table waits for it, and the last move "
        "counts once it is saved."
    ),
    "result": "The match is over: its result shows once the match store has saved it.",
    "back": "The match store is back: play on.",
    "lost": "This match's result could not be stored (the server log says why).",
    "moved": "This room is now played by another server: reconnecting.",
}


class JournalRoom(RoomContext, Protocol):
    """The room as its journal sees it: the context, and what its stored row holds."""

    @property
    def options(self) -> RoomOptions:
        """What the room plays."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed of the room's first match."""
        ...

    @property
    def created(self) -> float:
        """When the room was created (wall time)."""
        ...

    @property
    def last_result(self) -> dict[str, Any] | None:
        """The ``result`` of the match last over."""
        ...

    def extras(self) -> dict[str, Any]:
        """What the players have beyond the actions (``rooms/extras.py``)."""
        ...

    def expire(self) -> None:
        """The room closes in this process."""
        ...


class Journal:
    """What the room stores as it lives, and when its players hear of it: the journal
    writes before the room tells. With no ``live`` store a room keeps nothing as it
    lives, but a finished match is still stored (``saves``) before anyone hears of it."""

    def __init__(self, room: JournalRoom, saves: SaveQueue, live: LiveStore | None) -> None:
        self._room = room
        self._saves = saves
        self.live = live
        #: Holds what the room sends until what it tells is stored.
        self.outbox = Outbox()
        #: Whether another process took the room (its stored rows are that one's now).
        self.moved = False
        #: The actions applied since the last write, in order.
        self._unstored: list[StoredAction] = []
        #: The chat messages said since the last write, in order.
        self._unstored_chat: list[StoredChat] = []
        #: Whether the room's row changed since the last write (a new room's has).
        self._dirty = live is not None
        #: A finished match to store before anyone hears of its end.
        self._result_due: StoredMatch | None = None
        self._told_down = False  # the players were told the store is unreachable

    @property
    def result_due(self) -> bool:
        """Whether a finished match waits to be stored (the room handles nothing more
        before it is)."""
        return self._result_due is not None

    def note_action(self, match: RoomMatch, t: float) -> None:
        """The match logged an action at match time ``t``: it is stored with the next
        write, with the seconds its countdown has left."""
        if self.live is None:
            return
        deadline = match.deadline
        left = None if deadline is None else round(deadline - t, 3)
        seq = len(match.actions) - 1
        self._unstored.append(
            StoredAction(self._room.match_number, seq, t, match.actions[-1], left)
        )

    def note_chat(self, seq: int, entry: dict[str, Any]) -> None:
        """A chat message was said: it is stored with the next write."""
        if self.live is not None:
            self._unstored_chat.append(StoredChat(seq, entry))

    def changed(self) -> None:
        """The room's row changed (its seats, what the players have beyond the actions):
        it is written with the next write."""
        self._dirty = self.live is not None

    def stored(self) -> None:
        """The room's row is what storage holds (a room just rebuilt from it)."""
        self._dirty = False

    def store_result(self, stored: StoredMatch) -> None:
        """Store ``stored`` (a finished match) before the players hear of its end."""
        self._result_due = stored

    def _row(self) -> LiveRoom:
        """The room as stored while it lives."""
        room = self._room
        match = room.match
        playing = None
        if match is not None:
            playing = {
                "id": match.id,
                "seed": match.seed,
                "players": list(match.match.players),
                "started_at": match.started_wall,
            }
        return LiveRoom(
            id=room.id,
            ruleset=room.options.ruleset,
            seats_count=room.options.seats,
            game=dict(room.options.game),
            seed=room.seed,
            phase=room.phase,
            seats=[seat.snapshot() for seat in room.seats],
            match_number=room.match_number,
            match=playing,
            last_result=room.last_result,
            created=room.created,
            extras=room.extras(),
            alive_at=time.time(),
            clock=None if match is None else room.now(),
        )

    async def write(self) -> None:
        """Store what the messages just handled changed (the outbox holds what they
        sent): the new actions and the room's row, or the finished match. Returns once
        stored, however long the database takes."""
        result, self._result_due = self._result_due, None
        live = self.live
        room_id = self._room.id
        if live is None:
            if result is not None:
                await self._await_result(result, None)
            return
        actions, self._unstored = self._unstored, []
        chat, self._unstored_chat = self._unstored_chat, []
        if result is not None:
            finished = self._room.match_number
            self._dirty = False
            write = live.writer(self._row(), room_id, actions, finished=finished, chat=chat)
            await self._await_result(result, write)
            return
        if not (actions or chat or self._dirty):
            return
        row = self._row() if self._dirty else None
        self._dirty = False
        if not (actions or chat):
            await self._write_row(live, row)
            return
        await self._write_live(live, row, actions, chat)

    async def _write_row(self, live: LiveStore, row: LiveRoom | None) -> None:
        """Store the room's row alone (seats, options): once. The lobby does not wait for
        a database that is away: the row goes with the next write that succeeds (a room
        rebuilt before then has its seats as they were stored)."""
        try:
            await live.store(row, self._room.id, [])
        except StorageUnavailable as exc:
            log.warning("room %s: its seats are not stored yet: %s", self._room.id, exc)
            self._dirty = True

    async def _write_live(
        self,
        live: LiveStore,
        row: LiveRoom | None,
        actions: list[StoredAction],
        chat: list[StoredChat],
    ) -> None:
        room_id = self._room.id
        pause = FIRST_RETRY
        while True:
            try:
                await live.store(row, room_id, actions, chat)
                break
            except StorageUnavailable as exc:
                log.warning(
                    "room %s: cannot store, trying again in %.1f s: %s", room_id, pause, exc
                )
                self._tell_down("down")
                await asyncio.sleep(pause)
                pause = min(2 * pause, LONGEST_RETRY)
            except StaleWriter:
                log.exception("room %s: another process stores this room's actions", room_id)
                self._gone_elsewhere()
                return
        self._tell_back()

    def _gone_elsewhere(self) -> None:
        """Another process stores this room's actions: this one lets the room go, and
        its sockets are closed with 1012 (their pages reconnect to the room's new home)."""
        self.outbox.held = None
        self.moved = True
        for connection in list(self._room.connections):
            connection.send_now(wire(to_page.Notice("moved", NOTICES["moved"])))
            # "Service restart": the page reconnects, and reaches the room's new owner.
            connection.hang_up(1012, "the room moved to another server: reconnecting")
        self._room.expire()

    async def _await_result(self, result: StoredMatch, also: Any) -> None:
        future = self._saves.store(result, also)
        try:
            stored = await asyncio.wait_for(asyncio.shield(future), RESULT_NOTICE_AFTER)
        except TimeoutError:
            self._tell_down("result")
            stored = await future
        if stored:
            self._tell_back()
        else:
            self._tell_all("lost")

    def _tell_down(self, why: str) -> None:
        if not self._told_down:
            self._told_down = True
            self._tell_all(why)

    def _tell_back(self) -> None:
        if self._told_down:
            self._told_down = False
            self._tell_all("back")

    def _tell_all(self, notice: str) -> None:
        """A notice for everyone at once, past the outbox: news of the storage itself."""
        message = wire(to_page.Notice(notice, NOTICES[notice]))  # type: ignore[arg-type]
        for connection in self._room.connections:
            connection.send_now(message)
