"""What moderators do, on every process of a cluster (issue 69 item 5; docs/moderation.md).

The mutes and bans themselves are rows of the database (``store/moderation.py``); this
module makes them hold at once everywhere:

* **A mute** refuses the account's chat in every room. A room asks
  :meth:`Moderation.is_muted` as each chat message arrives, on the room's loop: an answer
  from this process's copy of the mutes in force, never a database call. The copy is read
  from the database at start and again each time a mute changes anywhere (the moderator's
  process publishes ``moderation`` ``{"look": "mutes"}`` on the bus, ``meet/bus.py``; with
  ``--redis`` every process hears it), and every :data:`REFRESH_SECONDS` besides (the bus
  delivers at most once: a process that lost Redis for a moment catches up).
* **A ban** silences the account's room sockets still open, as a mute does, ends its
  sessions (the database's, in the ban's own transaction:
  no process can find them again), refuses its logins (``AccountStore.open_session``),
  removes its seeks and open challenges (MATCH's ``meet/challenges.py``
  ``drop_account``), and tells its open pages at once (the hub's ``end_sessions``:
  ``session_ended`` ``banned`` on every page's lobby socket, on any process).
* **Closing a room** is published on the bus (``{"close": room, "reason": ...}``): the
  process that holds the room tells its sockets (``room_closed``), closes them (4404: the
  pages do not reconnect) and forgets the room's stored rows; a room no process holds has
  its stored rows forgotten by the moderator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from spacetable.i18n import N_
from spacetable.server.meet.bus import Bus
from spacetable.server.meet.hub import PlayerHub
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.accounts import Account
from spacetable.server.store.moderation import Kind, ModerationStore
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger(__name__)

#: The bus channel of moderation.
CHANNEL = "moderation"
#: Seconds between two readings of the mutes in force besides the bus's news.
REFRESH_SECONDS = 30.0
#: The close code of a room's sockets when a moderator closed it (the pages' "no such
#: room": they do not reconnect).
CLOSED_CODE = 4404
#: What a room's players read when a moderator closed it.
CLOSED = N_("A moderator closed this room.")

#: Removes an account's seeks and open challenges, telling the other side (MATCH's
#: ``meet/challenges.py`` ``drop_account(services, key)``).
DropMeetings = Callable[[Any, str], Awaitable[None]]


def drop_meetings_hook() -> DropMeetings | None:
    """MATCH's ``meet/challenges.py`` ``drop_account``, if that module is there (looked up
    when a ban needs it: the two parts are built apart)."""
    try:
        module = importlib.import_module("spacetable.server.meet.challenges")
    except ImportError:
        return None
    found = getattr(module, "drop_account", None)
    return found if callable(found) else None


class Moderation:
    """This process's side of moderation: the mutes in force (a copy kept fresh through
    ``bus``), bans that reach every page, rooms closed wherever they are held."""

    def __init__(self, store: ModerationStore, bus: Bus, directory: RoomDirectory) -> None:
        self.store = store
        self.bus = bus
        self.directory = directory
        #: The keys of the accounts muted or banned (a banned player's room socket still
        #: open says nothing more either), and until when (``None``: for good).
        self._muted: dict[str, float | None] = {}
        self._refresh: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None

    async def start(self) -> None:
        """Read the mutes in force and listen to the bus (on the running loop)."""
        self._unsubscribe = self.bus.subscribe(CHANNEL, self._heard)
        await self.refresh()
        self._refresh = asyncio.create_task(self._refresh_forever())

    async def close(self) -> None:
        """Stop listening."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresh

    # -- mutes ------------------------------------------------------------------------------

    def is_muted(self, account: str) -> bool:
        """Whether the account ``account`` (its key) is muted (or banned) now: this
        process's copy, no database call (the rooms ask it on their loop)."""
        if account not in self._muted:
            return False
        until = self._muted[account]
        return until is None or until > self.store.wall()

    async def refresh(self) -> None:
        """Read the mutes and bans in force again (off the loop); the copy stays as it was
        while the database is away."""
        try:
            found = await asyncio.to_thread(self.store.sanctions)
        except StorageUnavailable as exc:
            log.warning("the mutes in force could not be read: %s", exc)
            return
        muted: dict[str, float | None] = {}
        for sanction in found:
            ends = muted.get(sanction.key, 0.0)
            muted[sanction.key] = (
                None if sanction.until is None or ends is None else max(ends, sanction.until)
            )
        self._muted = muted

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            await self.refresh()

    async def sanction(
        self, account: Account, kind: Kind, until: float | None, reason: str, actor: str
    ) -> None:
        """Mute or ban ``account`` (until ``until``, ``None``: for good), and make it hold
        at once on every process (see the module's docstring)."""
        await asyncio.to_thread(self.store.sanction, account, kind, until, reason, actor)
        await self.bus.publish(CHANNEL, {"look": "mutes"})

    async def lift(self, account: Account, kind: Kind, reason: str, actor: str) -> bool:
        """Unmute or unban ``account``: False if it was not muted (banned)."""
        lifted = await asyncio.to_thread(self.store.lift, account, kind, reason, actor)
        if lifted:
            await self.bus.publish(CHANNEL, {"look": "mutes"})
        return lifted

    # -- bans --------------------------------------------------------------------------

    async def banned(self, services: Any, hub: PlayerHub | None, account: Account) -> None:
        """What follows a ban written (:meth:`sanction`): the account's seeks and open
        challenges removed, and its open pages told at once."""
        drop = drop_meetings_hook()
        if drop is not None:
            try:
                await drop(services, account.key)
            except Exception:  # the ban stands; what could not be removed expires
                log.exception("a banned account's seeks and challenges were not removed")
        else:
            log.info("no meetings module: a banned account's seeks and challenges stay")
        if hub is not None:
            await hub.end_sessions(account.key, "banned")

    # -- rooms ----------------------------------------------------------------------------

    async def close_room(self, room_id: str, reason: str) -> None:
        """Close the room ``room_id`` wherever it is held (published on the bus), and
        forget its stored rows if no process holds it."""
        await self.bus.publish(CHANNEL, {"close": room_id, "reason": reason})
        live = self.directory.live
        if live is not None:
            with contextlib.suppress(StorageUnavailable):
                await asyncio.to_thread(live.forget, room_id)

    async def room_known(self, room_id: str) -> bool:
        """Whether a room ``room_id`` is open here or stored (held by some process, or
        waiting in storage)."""
        if self.directory.get(room_id) is not None:
            return True
        live = self.directory.live
        if live is None:
            return False
        return await asyncio.to_thread(live.ruleset, room_id) is not None

    async def _close_here(self, room_id: str) -> None:
        """Close the room ``room_id`` if this process holds it: its sockets are told, the
        room stops and forgets its stored rows, its sockets are closed."""
        room = self.directory.get(room_id)
        if room is None:
            return
        connections = list(room.connections)
        for connection in connections:
            said = connection.tr.gettext(CLOSED)
            connection.send_now(wire(to_page.RoomClosed(said)))
        room.expire()  # (the directory forgets it, and its stored rows)
        await room.close()
        for connection in connections:
            connection.hang_up(CLOSED_CODE, "closed by a moderator")
        log.info("room %s closed by a moderator", room_id)

    async def _heard(self, payload: Any) -> None:
        """News on the bus: look at the mutes again, or close a room held here."""
        if not isinstance(payload, dict):
            return
        if payload.get("look") == "mutes":
            await self.refresh()
        room = payload.get("close")
        if isinstance(room, str):
            await self._close_here(room)
