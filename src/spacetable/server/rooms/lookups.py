"""What a room asks of the accounts' database, asked on a thread: never on the event loop,
which runs every room of the process and their sockets.

Three things at a table depend on the accounts (issue 37, docs/accounts.md): whether the
name a guest asks for is a registered player's (he then sits as ``name (guest)``), the
rating shown beside a registered player's seat, and whom a logged-in reader blocks (his
chat hides their lines: :meth:`Lookups.blocked`, read as his socket arrives and when he
blocks someone, issue 69). A ``join`` is looked up before the
room handles it (:meth:`Lookups.vet`: the room's task awaits the thread, the loop runs the
other rooms meanwhile, and nothing else of this room is handled in between), and the
seats' ratings are read again once a rated match is stored (:meth:`Lookups.refresh`).

:class:`Lookups` is a part of a :class:`~spacetable.server.rooms.room.Room`, seeing it
through a :class:`LookupsRoom`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.accounts import name_key
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger("spacetable.rooms")


@dataclass(frozen=True, slots=True)
class VettedJoin:
    """A ``join`` with what the accounts said of it (what the lobby handles)."""

    join: msg.Join
    #: A guest's: whether the name he asked for is a registered player's.
    registered: bool = False
    #: A registered player's: his rating in the room's game (``None``: not rated yet).
    rating: dict[str, Any] | None = None
    #: A registered player's: whether his account is a bot account (issue 72).
    bot_account: bool = False


class LookupsRoom(RoomContext, Protocol):
    """The room as its look-ups see it: the context, and the accounts' answers (each a
    database query: called on a thread)."""

    @property
    def options(self) -> RoomOptions:
        """What the room plays."""
        ...

    def registered(self, name: str) -> bool:
        """Whether ``name`` is a registered player's (compared after NFKC, case folded)."""
        ...

    def rating_of(self, account: str, game: str) -> dict[str, Any] | None:
        """The rating shown beside the seat of ``account`` (its name's key) in ``game``."""
        ...

    def bot_account_of(self, account: str) -> bool:
        """Whether ``account`` (its name's key) is a bot account (its seat says BOT)."""
        ...

    def unrated_of(self, match_id: str) -> str | None:
        """Why the stored match ``match_id`` was not rated, or ``None`` (rated, or not known)."""
        ...

    def blocked_by(self, account: str) -> list[str]:
        """The names of the accounts ``account`` (its name's key) blocks (issue 69)."""
        ...

    @property
    def match_id(self) -> str | None:
        """The id of the match being played, or of the one last over."""
        ...

    #: Why the match last over between accounts is not rated, or ``None``.
    unrated: str | None


def asked_name(wanted: str, seat: int) -> str:
    """The name a guest asks to sit under at seat ``seat``: his own, or ``player N``."""
    return wanted.strip() or f"player {seat + 1}"


class Lookups:
    """The accounts' answers a room needs, each asked on a thread."""

    def __init__(self, room: LookupsRoom) -> None:
        self._room = room

    async def vet(self, connection: Connection | None, join: msg.Join) -> VettedJoin:
        """``join`` with what the accounts say of it: a registered player's rating, or
        whether the name a guest asks for is registered. A database that cannot answer
        seats the guest as a guest (``name (guest)``: nobody takes a registered name
        unchecked) and the player without his rating."""
        room = self._room
        account = connection.account if connection is not None else None
        if room.phase != "lobby":
            return VettedJoin(join)  # refused anyway: nothing to ask
        try:
            if account is not None:
                game, key = room.options.entry.rules.key, name_key(account)

                def read() -> tuple[dict[str, Any] | None, bool]:
                    return room.rating_of(key, game), room.bot_account_of(key)

                rating, bot = await asyncio.to_thread(read)
                return VettedJoin(join, rating=rating, bot_account=bot)
            free = [s.index for s in room.seats if s.kind == "empty"]
            seat = join.seat if join.seat is not None else (free[0] if free else 0)
            taken = await asyncio.to_thread(room.registered, asked_name(join.name, seat))
            return VettedJoin(join, registered=taken)
        except StorageUnavailable as exc:  # the join goes on, on the safe side
            log.warning("room %s: the accounts did not answer for a join: %s", room.id, exc)
        except Exception:  # a bug: the same, and the log says where
            log.exception("room %s: the accounts did not answer for a join", room.id)
        return VettedJoin(join, registered=True)

    async def blocked(self, connection: Connection) -> list[str] | None:
        """The names of the accounts the reader on ``connection`` blocks (his chat hides
        their lines: ``rooms/chat.py``); ``None`` for a guest's socket, or when the
        database cannot answer (what his chat hid stays hidden)."""
        room = self._room
        if connection.account is None:
            return None
        try:
            return await asyncio.to_thread(room.blocked_by, name_key(connection.account))
        except StorageUnavailable as exc:
            log.warning("room %s: the blocks of a reader could not be read: %s", room.id, exc)
        except Exception:
            log.exception("room %s: the blocks of a reader could not be read", room.id)
        return None

    async def refresh(self) -> None:
        """Read the ratings of the seats' accounts again (a rated match was just
        stored): the seats show the new ones."""
        room = self._room
        game = room.options.entry.rules.key
        held = [seat for seat in room.seats if seat.account is not None]
        keys = [seat.account for seat in held if seat.account is not None]
        if not keys:
            return

        match_id = room.match_id

        def read() -> tuple[list[dict[str, Any] | None], str | None]:
            why = room.unrated_of(match_id) if match_id is not None else None
            return [room.rating_of(key, game) for key in keys], why

        try:
            ratings, why = await asyncio.to_thread(read)
        except StorageUnavailable as exc:  # the seats keep the ratings they showed
            log.warning("room %s: the seats' new ratings could not be read: %s", room.id, exc)
            return
        except Exception:
            log.exception("room %s: the seats' new ratings could not be read", room.id)
            return
        for seat, rating in zip(held, ratings, strict=True):
            seat.show_rating(rating)
        if why is not None:  # the store's word: stopped early, or played too often together
            room.unrated = why
