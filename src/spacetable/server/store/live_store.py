"""Live rooms as they happen, so that a room outlives the process that holds it.

Two tables beside the finished ``matches`` (``storage.py``), in the same database:

* ``live_rooms``: one row a room, written when it opens and again whenever its seats,
  options or phase change: what it plays, the seed of its matches, its seats (names, bots
  and their levels, each player's seat token as a SHA-256 digest), and the match being
  played (its number, id, seed, players and start) or the last result.
  Its ``extras`` hold what the players had beyond the actions (``rooms/extras.py``: a
  draw offer, who is away and since when, FTL plot drafts, the chat's places); its
  ``alive_at`` and ``clock`` are the wall time its process last said it lived and the
  match time then (:meth:`LiveStore.beat`, every :data:`HEARTBEAT_SECONDS`): a rebuilt
  room's countdown resumes from there, and a room nobody has held for a while is swept.
  Its ``deadline`` (indexed) is the wall time a correspondence turn runs out, copied from
  the extras when the row is written: :meth:`LiveStore.due` finds the rooms whose turn
  ran out with no process holding them (``rooms/deadlines.py``).
* ``room_actions``: every action of the match being played, in order, with its match
  time and the seconds its countdown (a deployment's, a plot timer) still had then. The
  primary key (room, match number, seq) makes a second writer of the same room fail
  instead of interleaving its actions: a room's actions have one author.
* ``room_chat``: what was said in the room, one row a message, in order.
* ``live_room_accounts``: the registered players seated in each correspondence room, one
  row a player, indexed by account: a player's My games (:meth:`LiveStore.correspondence`,
  polled by every signed-in lobby) reads his rooms, not every live room. Written only when
  a room's set changes (and at a room's first write in a process).

A room writes here before anyone hears of what it stores (``rooms/room.py``: durable before
acknowledged); :mod:`~spacetable.server.rooms.rebuild` reads it back. A room that closes
takes its rows with it; a finished match's actions leave with the match's own save; a
room whose process died and that nobody came back to within the room's idle time is swept
(:meth:`LiveStore.sweep`).
"""

from __future__ import annotations

import json
from typing import Any, cast

import sqlalchemy
from sqlalchemy import Table, Text, bindparam, delete, func, or_, select, update
from sqlalchemy.orm import Session

from spacetable.server.store.driver_sql import driver, driver_errors
from spacetable.server.store.group_commit import GroupCommit, Write
from spacetable.server.store.live_rows import (
    AccountRow,
    ActionRow,
    Base,
    ChatRow,
    LiveRoom,
    LiveRoomRow,
    StoredAction,
    StoredChat,
    action_values,
    add_live_columns,
    chat_values,
    live_room,
    room_values,
    seated_accounts,
    stored_deadline,
    waits_for_players,
)
from spacetable.server.store.live_writes import StaleWriter, first_actions, write_rows
from spacetable.server.store.storage import Storage, create_tables, reaching

__all__ = [
    "CHAT_LOADED",
    "HEARTBEAT_SECONDS",
    "LiveRoom",
    "LiveStore",
    "StaleWriter",
    "StoredAction",
    "StoredChat",
    "stored_deadline",
]

#: Seconds between two heartbeats of a process's open rooms (:meth:`LiveStore.beat`): a
#: countdown rebuilt after a crash has at most this much more than it had.
HEARTBEAT_SECONDS = 1.0


class LiveStore:
    """Reads and writes live rooms in ``storage``'s database (each call one transaction;
    blocking: a room calls it on a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: The process's one writer of live rooms (:meth:`store`).
        self.group = GroupCommit(
            self.write_many,
            lambda write: self.write_many([write]),
            StaleWriter,
            inline=storage.engine.dialect.name == "sqlite",
        )
        #: Each room's seated accounts as this process last wrote them (``write_rows``).
        self._accounts: dict[str, frozenset[str]] = {}
        with reaching():
            create_tables(storage.engine, Base.metadata, add_live_columns)

    def write(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        chat: list[StoredChat] | None = None,
    ) -> None:
        """Store ``room`` (when it changed), its new ``actions`` and what was said
        (``chat``) together. Raises StaleWriter if one of the actions is stored already
        (another process plays the room), StorageUnavailable if the database cannot be
        reached."""
        self.write_many([(room, room_id, actions, chat or [])])

    def write_many(self, writes: list[Write]) -> None:
        """Several rooms' :meth:`write` in one transaction (:meth:`store` groups them):
        their rows, actions and chat as three statements, whatever the number of rooms.
        Raises StaleWriter if any one is refused (nothing is stored then)."""
        rows = [room_values(room) for room, _, _, _ in writes if room is not None]
        actions = [action_values(room_id, a) for _, room_id, done, _ in writes for a in done]
        chat = [chat_values(room_id, c) for _, room_id, _, said in writes for c in said]
        firsts = [first for _, room_id, done, _ in writes for first in first_actions(room_id, done)]
        seated = {row["id"]: seated_accounts(row["game"], row["seats"]) for row in rows}
        changed = {r: a for r, a in seated.items() if self._accounts.get(r) != a}
        engine = self.storage.engine
        with reaching(), driver_errors(engine.dialect):  # the pool's or the driver's
            connection = engine.raw_connection()
        try:
            with driver_errors(engine.dialect):
                cursor = connection.cursor()
                write_rows(cursor, engine.dialect, rows, actions, chat, firsts, changed)
                connection.commit()
        except driver(engine.dialect).IntegrityError as exc:
            room = f"room {writes[0][1]}: " if len(writes) == 1 else ""
            raise StaleWriter(f"{room}{exc}") from exc
        finally:
            # Back to the pool, which rolls back a failed write's statements (and drops
            # a connection that cannot: the database went away under it).
            connection.close()
        self._accounts |= changed

    def close(self) -> None:
        """Let the group commit's thread end once the writes it holds are in."""
        self.group.close()

    async def store(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        chat: list[StoredChat] | None = None,
    ) -> None:
        """:meth:`write`, from a room's event loop: committed with the other rooms' writes
        of the moment (``group_commit.py``); returns once it is in. Raises as
        :meth:`write`."""
        await self.group.write((room, room_id, actions, chat or []))

    def writer(
        self,
        room: LiveRoom | None,
        room_id: str,
        actions: list[StoredAction],
        *,
        finished: int | None = None,
        chat: list[StoredChat] | None = None,
    ) -> Any:
        """What :meth:`write` does, as a function of a session (``Storage.save`` runs it
        in the transaction that stores a finished match): with ``finished``, that match's
        actions leave the table (they are in the stored match now)."""

        def write(session: Session) -> None:
            rows = [] if room is None else [room_values(room)]
            done = [action_values(room_id, a) for a in actions]
            said = [chat_values(room_id, c) for c in chat or ()]
            connection = session.connection()
            dialect = connection.dialect
            try:
                with driver_errors(dialect):  # on the session's transaction
                    cursor = connection.connection.cursor()
                    # The seated accounts wait for the room's next write (:meth:`write_many`).
                    firsts = first_actions(room_id, actions)
                    write_rows(cursor, dialect, rows, done, said, firsts, {})
            except driver(dialect).IntegrityError as exc:
                raise StaleWriter(f"room {room_id}: {exc}") from exc
            if finished is not None:
                session.execute(
                    delete(ActionRow).where(
                        ActionRow.room_id == room_id, ActionRow.match_number == finished
                    )
                )

        return write

    def load(self, room_id: str) -> LiveRoom | None:
        """The room with this id and its current match's actions, or ``None``. Raises
        StorageUnavailable. (A room read back may have been played elsewhere since this
        process last wrote it: its first write here writes its seated accounts again.)"""
        self._accounts.pop(room_id, None)
        with reaching(), Session(self.storage.engine) as session:
            row = session.get(LiveRoomRow, room_id)
            if row is None:
                return None
            query = (
                select(ActionRow)
                .where(ActionRow.room_id == room_id, ActionRow.match_number == row.match_number)
                .order_by(ActionRow.seq)
            )
            actions = [
                StoredAction(a.match_number, a.seq, a.t, a.action, a.left)
                for a in session.scalars(query)
            ]
            said = (
                select(ChatRow)
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.seq.desc())
                .limit(CHAT_LOADED)
            )
            chat = [StoredChat(c.seq, c.entry) for c in session.scalars(said)][::-1]
            return live_room(row, actions, chat)

    def ruleset(self, room_id: str) -> str | None:
        """The ruleset of the stored room with this id, or ``None``. Raises
        StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session:
            found = session.scalar(select(LiveRoomRow.ruleset).where(LiveRoomRow.id == room_id))
            return None if found is None else str(found)

    def forget(self, room_id: str) -> None:
        """The room closed: its rows go. Raises StorageUnavailable."""
        with reaching(), Session(self.storage.engine) as session, session.begin():
            _delete_rooms(session, [room_id])
        self._accounts.pop(room_id, None)

    def beat(self, clocks: dict[str, float | None], now: float) -> None:
        """The rooms of ``clocks`` are held by this process at wall time ``now``, each
        at the match time given (``None``: no match). Raises StorageUnavailable."""
        if not clocks:
            return
        rows = [{"room": room, "at": now, "t": t} for room, t in clocks.items()]
        table = cast(Table, LiveRoomRow.__table__)
        statement = (
            update(table)
            .where(table.c.id == bindparam("room"))
            .values(alive_at=bindparam("at"), clock=bindparam("t"))
        )
        with reaching(), Session(self.storage.engine) as session, session.begin():
            session.connection().execute(statement, rows)

    def sweep(self, before: float, keep: set[str]) -> list[str]:
        """Forget the stored rooms nobody has held since wall time ``before`` (their
        process died and nobody came back to them), but those of ``keep`` (open here);
        their ids. A room written by an older release, never marked alive, counts from
        its creation. Raises StorageUnavailable."""
        held = func.coalesce(LiveRoomRow.alive_at, LiveRoomRow.created)
        with reaching(), Session(self.storage.engine) as session, session.begin():
            columns = (LiveRoomRow.id, LiveRoomRow.game, LiveRoomRow.phase, LiveRoomRow.seats)
            found = session.execute(select(*columns).where(held < before))
            stale = [
                room
                for room, game, phase, seats in found
                if room not in keep and not waits_for_players(game, phase, seats)
            ]
            _delete_rooms(session, stale)
        for room in stale:
            self._accounts.pop(room, None)
        return stale

    def due(self, by: float, limit: int = 500, skip: frozenset[str] = frozenset()) -> list[str]:
        """The stored rooms whose correspondence turn runs out by wall time ``by``, the
        soonest first (at most ``limit``), but those of ``skip`` (rooms that cannot be
        rebuilt: they would fill every batch): one query on the indexed ``deadline``.
        Raises StorageUnavailable."""
        query = select(LiveRoomRow.id).where(LiveRoomRow.deadline <= by)
        if skip:
            query = query.where(LiveRoomRow.id.not_in(sorted(skip)))
        query = query.order_by(LiveRoomRow.deadline).limit(limit)
        with reaching(), Session(self.storage.engine) as session:
            return [str(room) for room in session.scalars(query)]

    def seated_rooms(self, account: str) -> list[LiveRoom]:
        """The stored rooms, correspondence or real time, where ``account`` (a name's key)
        holds a seat, without their actions or chat (a deletion frees them:
        ``http/leaving.py``). A scan of the rooms' seats, as written (a key beyond ASCII
        escaped), checked seat by seat. Raises StorageUnavailable."""
        seats = sqlalchemy.cast(LiveRoomRow.seats, Text)
        written = {account, json.dumps(account)[1:-1]}
        named = [seats.like(f"%{name}%", escape="#") for name in written]
        query = select(LiveRoomRow).where(or_(*named))
        with reaching(), Session(self.storage.engine) as session:
            return [
                live_room(row)
                for row in session.scalars(query)
                if any(isinstance(s, dict) and s.get("account") == account for s in row.seats or ())
            ]

    def correspondence(self, account: str) -> list[LiveRoom]:
        """The stored rooms played by correspondence whose match is not over and where
        ``account`` (a name's key: ``store/accounts.py``) holds a seat, without their
        actions or chat (``GET /api/me/games``): those ``live_room_accounts`` names him in,
        checked against their seats. Raises StorageUnavailable."""
        found = []
        his = select(AccountRow.room_id).where(AccountRow.account == account)
        query = select(LiveRoomRow).where(LiveRoomRow.id.in_(his), LiveRoomRow.phase != "over")
        with reaching(), Session(self.storage.engine) as session:
            rows = session.scalars(query)
            for row in rows:
                if not waits_for_players(row.game, row.phase, row.seats):
                    continue
                if not any(seat.get("account") == account for seat in row.seats or ()):
                    continue
                found.append(live_room(row))
        return found


#: The most messages a room's chat loads back (the room keeps no more: ``rooms/chat.py``).
CHAT_LOADED = 2100


def _delete_rooms(session: Session, rooms: list[str]) -> None:
    for chunk in range(0, len(rooms), 500):
        ids = rooms[chunk : chunk + 500]
        session.execute(delete(ActionRow).where(ActionRow.room_id.in_(ids)))
        session.execute(delete(ChatRow).where(ChatRow.room_id.in_(ids)))
        session.execute(delete(AccountRow).where(AccountRow.room_id.in_(ids)))
        session.execute(delete(LiveRoomRow).where(LiveRoomRow.id.in_(ids)))
