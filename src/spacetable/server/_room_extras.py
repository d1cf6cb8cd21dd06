"""What the players of a room had beyond the match's actions, stored with the room and
given back to a rebuilt one (issue 21: a rebuilt room is the same room).

:func:`extras_of` reads it from a living room, as the ``extras`` of its stored row
(``live_store.py``): the draw offer waiting for answers and the offers declined, the
players away (since when, whether the others may choose yet, whether they chose to wait),
the players of a 3-4 player match who resigned, each FTL player's plot draft (secret like
his plot, which is stored too), and the chat's places (the seats that read the
spectators' chat, where the match's messages begin). :func:`restore_extras` puts it back
into a room rebuilt from its seed and actions, with the timers of an absence running on
from the match time the room resumes at: the grace and the abandon timer have what they
had left, not all of it again.
"""

from __future__ import annotations

from typing import Any, Protocol

from spacetable.server._chat import Chat
from spacetable.server._clock import RoomClock
from spacetable.server._connection import Connection
from spacetable.server._lobby import Abandoned
from spacetable.server._manners import GraceOver, _DrawOffer
from spacetable.server._plots import PlotsMatch
from spacetable.server._room_match import RoomMatch, Timing
from spacetable.server._seats import Seat


class Room(Protocol):
    """What of a :class:`~spacetable.server.rooms.Room` its extras are (not imported:
    the room stores them)."""

    seats: list[Seat]
    timing: Timing
    clock: RoomClock
    match: RoomMatch | None
    match_number: int
    _draw: _DrawOffer | None
    _declined: dict[int, int]
    _absent: dict[int, tuple[float, bool]]
    _waited: set[int]
    _resigned: list[str]
    chat: Chat

    def submit(self, connection: Connection | None, message: Any) -> None: ...


def extras_of(room: Room) -> dict[str, Any]:
    """What ``room``'s players had beyond the actions, as JSON."""
    draw = room._draw
    match = room.match
    drafts = match.drafts if isinstance(match, PlotsMatch) else {}
    return {
        "draw": None if draw is None else {"by": draw.by, "waiting": sorted(draw.waiting)},
        "declined": {str(seat): version for seat, version in room._declined.items()},
        "absent": {
            str(seat): {"since": since, "open": open_, "waited": seat in room._waited}
            for seat, (since, open_) in room._absent.items()
        },
        "resigned": list(room._resigned),
        "drafts": {player: list(orders) for player, orders in drafts.items()},
        **room.chat.snapshot(),
    }


def restore_chat(
    room: Room, said: list[tuple[int, dict[str, Any]]], extras: dict[str, Any]
) -> None:
    """Give ``room`` back its chat: ``said``, the stored messages (seq, message) oldest
    first, and the chat's places in ``extras``."""
    room.chat.restore(said, extras)


def restore_extras(room: Room, extras: dict[str, Any], t_resume: float) -> None:
    """Give the match of ``room`` (rebuilt, nobody connected yet, its clock resuming at
    match time ``t_resume``) back what its players had beyond the actions: call after
    every human seat's abandon timer was started (:func:`_room_rebuild._away`)."""
    match = room.match
    if match is None:
        return
    draw = extras.get("draw")
    if draw is not None:
        room._draw = _DrawOffer(int(draw["by"]), {int(seat) for seat in draw["waiting"]})
    room._declined = {int(seat): int(v) for seat, v in (extras.get("declined") or {}).items()}
    room._resigned = [str(player) for player in extras.get("resigned") or ()]
    if isinstance(match, PlotsMatch):
        drafts = extras.get("drafts") or {}
        match.drafts = {str(p): tuple(str(o) for o in orders) for p, orders in drafts.items()}
    timing = room.timing
    for key, away in (extras.get("absent") or {}).items():
        seat = room.seats[int(key)]
        if seat.kind != "human":
            continue
        since, open_ = float(away["since"]), bool(away["open"])
        room._absent[seat.index] = (since, open_)
        gone_for = max(0.0, t_resume - since)
        if not open_:
            room.clock.after(
                max(0.0, timing.grace_seconds - gone_for),
                room.submit,
                None,
                GraceOver(seat.index, seat.absences, room.match_number),
            )
        seat.cancel_abandon()
        if away.get("waited"):
            room._waited.add(seat.index)  # the others chose to wait: no bot takes the seat
        else:
            seat.abandon_timer = room.clock.after(
                max(0.0, timing.abandon_seconds - gone_for),
                room.submit,
                None,
                Abandoned(seat.index, seat.absences),
            )
