"""A deleted account leaves its rooms first (issue 67 item 1, docs/accounts.md "Deleting
your account"): every unfinished match it sits in ends, resigned, and every seat it holds
is freed, before the account is erased (``http/accounts.py``'s delete route).

The rooms it sits in: those open in this process with one of its seats, and those storage
holds with one (``store/live_store.py``: :meth:`LiveStore.seated_rooms`; every stored room,
correspondence or real time, also those no process holds now). Each is opened as a socket
would open it (the ``opener``: this process's directory, which rebuilds a stored room, or
in a cluster the node, which takes the room's lock first) and handed an
:class:`~spacetable.server.rooms.farewell.AccountGone`; the room resigns for the account
through its own resignation and answers once that is stored (rated at store time, replayed
from seed and actions like any resigned match) and its players have been told.

A room another process of a cluster holds is reached as the relay reaches it
(``cluster/relay.py``): a socket of this process to the owner, opened with the account's
session cookie, sits in the account's seat there and sends ``forsake``; the owner does the
same departure (``rooms/farewell.py``) and answers ``forsaken`` once it is stored. A room
that cannot be reached (its owner away, Redis away, storage away) refuses the deletion
(:class:`RoomsElsewhere`, 503), nothing deleted, and the player tries again; the rooms
reached before are left already (docs/accounts.md says so).

Before the player confirms, the delete page lists what would end
(its :data:`router`):

* ``GET /api/accounts/me/unfinished``: ``{"matches": [{"room", "game", "opponents",
  "correspondence"}...]}``, the matches being played where the account holds a seat; 401
  without a session.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Accounts, Directory
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.farewell import AccountGone, involved, seated
from spacetable.server.rooms.room import Room
from spacetable.server.store.accounts import SESSION_COOKIE

log = logging.getLogger("spacetable.rooms")

#: Seconds a room has to resign for a leaving account and store it.
LEAVE_SECONDS = 30.0

#: Opens a room as a socket would (``RoomDirectory.get_or_rebuild``, ``ClusterNode.locate``).
Opener = Callable[[str], Awaitable[object]]


class RoomsElsewhere(RuntimeError):
    """Some of the account's rooms could not be reached (their owner, Redis or the database
    away; a room moving between processes): their ids. The account is not deleted (the
    rooms reached are left already)."""


async def leave_rooms(
    directory: RoomDirectory, opener: Opener, account: str, session: str | None = None
) -> int:
    """End every unfinished match ``account`` (a name's key) sits in, as a resignation, and
    free every seat it holds, each stored before this returns: the number of matches it
    resigned. A room another process of a cluster holds is reached through a socket to it
    opened with the account's ``session`` (its id). Raises :class:`RoomsElsewhere` for
    rooms it could not reach (the others are left already), StorageUnavailable."""
    ids = {room.id for room in directory.rooms() if involved(room, account)}
    live = directory.live
    if live is not None:
        ids |= {room.id for room in await asyncio.to_thread(live.seated_rooms, account)}
    resigned = 0
    missed: list[str] = []
    for room_id in sorted(ids):
        try:
            room = await opener(room_id)
        except Exception as exc:  # storage, Redis, a room that cannot be rebuilt
            log.warning("room %s: a deleted account's seat is not freed: %r", room_id, exc)
            missed.append(room_id)
            continue
        if room is None:
            continue  # gone since (closed, its rows forgotten)
        address = getattr(room, "address", None)  # (a cluster's Elsewhere: cluster/node.py)
        if isinstance(address, str) and session is not None:
            try:
                resigned += await _leave_elsewhere(address, room_id, session)
            except Exception as exc:  # the owner unreachable, slow, or gone meanwhile
                log.warning(
                    "room %s on %s: a deleted account is not let out: %r", room_id, address, exc
                )
                missed.append(room_id)
            continue
        if not isinstance(room, Room) or room.expired:
            missed.append(room_id)  # it is moving between processes
            continue
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        room.submit(None, AccountGone(account, done))
        try:
            resigned += await asyncio.wait_for(done, LEAVE_SECONDS)
        except TimeoutError:
            missed.append(room_id)
    if missed:
        raise RoomsElsewhere(missed)
    return resigned


def _title(ruleset: str) -> str:
    try:
        return game_for_ruleset(ruleset).rules.title
    except UnknownGame:
        return ruleset


def _entry(
    room_id: str, ruleset: str, game: Mapping[str, Any], seats: list[Any], account: str
) -> dict[str, Any] | None:
    """A match being played with a seat of ``account``'s, as the delete page lists it."""
    mine = [s for s in seats if s.get("account") == account]
    if not any(s.get("kind") == "human" or s.get("stand_in") for s in mine):
        return None
    others = [str(s.get("name")) for s in seats if s not in mine and s.get("kind") != "empty"]
    return {
        "room": room_id,
        "game": _title(ruleset),
        "opponents": others,
        "correspondence": game.get("turn_hours") is not None,
    }


async def unfinished(directory: RoomDirectory, account: str) -> list[dict[str, Any]]:
    """The matches being played where ``account`` (a name's key) holds a seat: those a
    deletion would end (this process's open rooms as they are, the others as stored)."""
    found: dict[str, dict[str, Any] | None] = {}
    for room in directory.rooms():
        if room.phase == "playing" and seated(room, account):
            seats = [s.snapshot() for s in room.seats]
            options = room.options
            found[room.id] = _entry(room.id, options.ruleset, options.game, seats, account)
    if directory.live is not None:
        for kept in await asyncio.to_thread(directory.live.seated_rooms, account):
            if kept.id not in found and directory.get(kept.id) is None and kept.phase == "playing":
                found[kept.id] = _entry(kept.id, kept.ruleset, kept.game, kept.seats, account)
    return [entry for _, entry in sorted(found.items()) if entry is not None]


#: ``GET /api/accounts/me/unfinished``: what deleting the account would end.
router = APIRouter()


@router.get("/api/accounts/me/unfinished", response_model=None)
async def mine(
    request: Request, accounts: Accounts, directory: Directory
) -> dict[str, Any] | JSONResponse:
    account = await asyncio.to_thread(accounts.session_account, request.cookies.get(SESSION_COOKIE))
    if account is None:
        return refused(refusal("You are not logged in."), 401)
    return {"matches": await unfinished(directory, account.key)}


async def _leave_elsewhere(address: str, room_id: str, session: str) -> int:
    """Let the account out of room ``room_id``, held by the process at ``address``: a socket
    of its own to the owner with the account's session (the relay's ``connect_owner``),
    which sits in the account's seat and sends ``forsake``; the matches resigned, once the
    owner has stored them (its ``forsaken``)."""
    from spacetable.server.cluster.relay import connect_owner
    from spacetable.server.protocol.client_messages import Forsake

    async with asyncio.timeout(LEAVE_SECONDS):
        upstream = await connect_owner(address, room_id, "127.0.0.1", session=session)
        try:
            await upstream.send(Forsake(type="forsake").model_dump_json())
            async for frame in upstream:
                message = json.loads(frame)
                if message.get("type") == "forsaken":
                    return int(message["resigned"])
                if message.get("type") == "error":  # (the session ended meanwhile)
                    raise ConnectionError(f"the room's owner refused: {message.get('message')}")
            raise ConnectionError("the room's owner closed the socket before answering")
        finally:
            await upstream.close()
