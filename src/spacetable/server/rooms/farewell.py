"""An account that is deleted leaves every room it sits in for good (issue 67 item 1,
docs/accounts.md "Deleting your account").

The deletion (``http/leaving.py``) posts an :class:`AccountGone` into each room where the
account holds a seat; the room's task handles it like any message (:func:`account_gone`):

- a match being played is resigned by the account's seats, through the manners' own
  resignation (``rooms/manners.py``): with one opponent the match ends ``resigned`` (stored
  and rated at store time like any resigned match: ``store/ratings.py``, its replay the
  seed, the actions up to then and that ending); with more, a bot plays the seat on to the
  end (docs/rulings.md), as for any player who resigns;
- every seat the account held is freed: emptied, or the bot's that plays it on; its token
  and its account are forgotten, so neither the old browser's token nor a new account of
  the same name takes it back, and a match over offers no rematch with a seat empty
  (``rooms/lobby.py``);
- the account's sockets watch from now on, as a guest would.

The marker's ``done`` is answered once what it changed is stored (the room's next write:
``Room.after_write``), with the number of matches it resigned. In a cluster the process
that deletes the account reaches a room another process holds through a socket of its
own, opened with the account's session (``cluster/relay.py``'s ``connect_owner``), which
sends ``forsake`` (:func:`forsake`): the same departure, answered ``forsaken``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from spacetable.i18n import N_
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.lobby import Lobby
from spacetable.server.rooms.manners import Manners
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.accounts import name_key


@dataclass(frozen=True, slots=True)
class AccountGone:
    """The account ``account`` (a name's key) is being deleted (posted into the room's
    queue): it resigns and leaves. ``done`` gets the number of matches it resigned here,
    once that is stored."""

    account: str
    done: asyncio.Future[int] = field(compare=False)


class FarewellRoom(RoomContext, Protocol):
    """The room as a leaving account sees it: the context, its manners and lobby."""

    @property
    def manners(self) -> Manners:
        """Resigning (``rooms/manners.py``)."""
        ...

    @property
    def lobby(self) -> Lobby:
        """Watching and the host (``rooms/lobby.py``)."""
        ...

    def broadcast_room(self, at_once: bool = False) -> None:
        """The seats changed: everyone hears of the room again."""
        ...

    def after_write(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once what changed is stored."""
        ...


def seated(room: FarewellRoom, account: str) -> bool:
    """Whether ``account`` (a name's key) holds a seat in ``room``."""
    return any(seat.account == account for seat in room.seats)


def involved(room: FarewellRoom, account: str) -> bool:
    """Whether ``account`` (a name's key) holds a seat in ``room`` or watches it from a
    socket of its session (which could sit down as the account once it is deleted)."""
    return seated(room, account) or any(
        c.account is not None and name_key(c.account) == account for c in room.connections
    )


def account_gone(room: FarewellRoom, message: AccountGone) -> None:
    """Handle :class:`AccountGone` on the room's task (see the module's docstring)."""

    def told(resigned: int) -> None:
        if not message.done.done():
            message.done.set_result(resigned)

    _leave(room, message.account, told)


def forsake(room: FarewellRoom, connection: Connection | None) -> None:
    """A socket's ``forsake`` (``sockets/protocol.py``): its account leaves the room as a
    deleted one does, in a cluster's other process (``http/leaving.py``); the socket is
    answered ``forsaken`` with the matches resigned, once stored."""
    if connection is None:
        return
    if connection.account is None:
        connection.error(N_("log in first: a guest has no account to take out of this room"))
        return
    _leave(
        room,
        name_key(connection.account),
        lambda resigned: connection.send(wire(to_page.Forsaken(resigned=resigned))),
    )


def _leave(room: FarewellRoom, key: str, told: Callable[[int], None]) -> None:
    """The account ``key`` resigns and leaves; ``told`` once that is stored."""
    seats = [seat for seat in room.seats if seat.account == key]
    resigned = 0
    for seat in seats:
        held = seat.kind == "human" or seat.stand_in
        if room.phase == "playing" and room.match is not None and held:
            room.manners.resign(seat)
            resigned += 1
        if seat.account != key:
            continue  # (a seat a resignation already let go of)
        watching = seat.let_go()
        for connection in watching:
            connection.seat = None  # (not an absence: nobody waits for him)
        for connection in watching:
            room.lobby.watch(connection)
        if room.phase == "playing" and seat.kind == "bot":
            # A bot plays the seat on for good (a match of three or four): nobody's now.
            seat.nobodys()
        else:
            # The board of the match just over still names his side.
            seat.empty(keep_name=room.phase == "over")
    for connection in room.connections:
        if connection.account is not None and name_key(connection.account) == key:
            connection.account = None  # a guest's socket from now on: its session is gone
    room.lobby.settle_host()  # (the host left: the next person seated)
    room.changed()
    room.broadcast_room(at_once=True)
    room.after_write(lambda: told(resigned))
