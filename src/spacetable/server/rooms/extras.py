"""What the players of a room had beyond the match's actions, stored with the room and
given back to a rebuilt one (issue 21: a rebuilt room is the same room).

:func:`extras_of` gathers it from the parts of a living room, as the ``extras`` of its
stored row (``store/live_store.py``): each part's :meth:`snapshot` (the manners': the draw offer
waiting for answers and the offers declined, the players away, the players of a 3-4 player
match who resigned; the chat's places), and each FTL player's plot draft (secret like his
plot, which is stored too). :func:`restore_extras` gives a room rebuilt from its seed and
actions back to each part (:meth:`restore`), with the timers of an absence running on
from the match time the room resumes at.
"""

from __future__ import annotations

from typing import Any, Protocol

from spacetable.server.rooms.chat import Chat
from spacetable.server.rooms.correspondence import Correspondence
from spacetable.server.rooms.manners import Manners
from spacetable.server.rooms.match import RoomMatch
from spacetable.server.rooms.plots import PlotsMatch


class Room(Protocol):
    """What of a :class:`~spacetable.server.rooms.room.Room` its extras are (not imported:
    the room stores them)."""

    @property
    def match(self) -> RoomMatch | None: ...
    @property
    def chat(self) -> Chat: ...
    @property
    def manners(self) -> Manners: ...
    @property
    def correspondence(self) -> Correspondence: ...


def extras_of(room: Room) -> dict[str, Any]:
    """What ``room``'s players had beyond the actions, as JSON."""
    match = room.match
    drafts = match.drafts if isinstance(match, PlotsMatch) else {}
    return {
        **room.manners.snapshot(),
        "drafts": {player: list(orders) for player, orders in drafts.items()},
        **room.chat.snapshot(),
        "correspondence": room.correspondence.snapshot(),
    }


def restore_extras(room: Room, extras: dict[str, Any], t_resume: float) -> None:
    """Give the match of ``room`` (rebuilt, nobody connected yet, its clock resuming at
    match time ``t_resume``) back what its players had beyond the actions: call after
    every human seat's abandon timer was started (``Lobby.restore``)."""
    match = room.match
    if match is None:
        return
    room.manners.restore(extras, t_resume)
    room.correspondence.restore(extras.get("correspondence"))
    if isinstance(match, PlotsMatch):
        drafts = extras.get("drafts") or {}
        match.drafts = {str(p): tuple(str(o) for o in orders) for p, orders in drafts.items()}
