"""Bringing a room back from storage: the room a process died with, or one a restarted
server is asked for.

:func:`rebuild_room` makes a :class:`~spacetable.server.rooms.room.Room` from its stored row and
its match's actions (``store/live_store.py``): the same seats (a player's seat token takes his
seat back: the row keeps its digest), the same bots, and the match replayed from its seed,
action by action, through the room's own pacing, so that hands, plots (FTL's plotted
orders, still secret) and turns are where they were. Its clock resumes at the last
action's match time: a countdown running then (a deployment's, a plot timer) has the
seconds it had left, and a placing round begins with its 3-2-1 again, for the players to
find their cards. The clock resumes at the match time its process last said it held the
room (``store/live_store.py``: the heartbeat), or at the last action's if later: a countdown
running then (a deployment's, a plot timer) has what it had left at the crash, within a
heartbeat. What the players had beyond the actions comes back too (``rooms/extras.py``: a
draw offer, the players away and their timers, FTL plot drafts, the chat); only where a
hand hovered is not.
"""

from __future__ import annotations

from typing import Any

from spacetable.registry import UnknownGame
from spacetable.server.rooms.clock import RoomClock
from spacetable.server.rooms.extras import restore_extras
from spacetable.server.rooms.match import RoomOptions, Timing
from spacetable.server.rooms.room import Room
from spacetable.server.store.live_store import LiveRoom, LiveStore
from spacetable.server.store.save_queue import SaveQueue


class RebuildFailed(RuntimeError):
    """A stored room that cannot be played again: the message says why, for its
    players."""


def rebuild_room(
    stored: LiveRoom,
    saves: SaveQueue,
    timing: Timing,
    live: LiveStore,
    on_expired: Any = None,
    clock: RoomClock | None = None,
) -> Room:
    """The room ``stored`` describes, playing on where it stood. Raises
    :class:`RebuildFailed` naming the problem (a game this server does not have, a row or
    an action log that does not fit); nothing is left running then."""
    try:
        options = RoomOptions(stored.ruleset, stored.seats_count, dict(stored.game))
        options.entry  # noqa: B018 - UnknownGame for a ruleset this server lacks
    except UnknownGame as exc:
        raise RebuildFailed(f"this server cannot play it: {exc}") from None
    room = Room(
        stored.id, options, saves, timing, on_expired, clock=clock, seed=stored.seed, live=live
    )
    try:
        _restore(room, stored)
    except Exception as exc:  # a corrupt row must not take the server down
        room.discard()
        raise RebuildFailed(f"its stored state does not fit ({exc})") from exc
    room.journal.stored()  # the row is what was read
    return room


def _restore(room: Room, stored: LiveRoom) -> None:
    room.created = stored.created
    room.match_number = stored.match_number
    if len(stored.seats) != len(room.seats):
        raise ValueError(f"{len(stored.seats)} seats stored for {len(room.seats)}")
    for seat, data in zip(room.seats, stored.seats, strict=True):
        seat.restore(data)
    extras = stored.extras or {}
    room.chat.restore([(c.seq, c.entry) for c in stored.chat], extras)
    t_resume = None
    if stored.phase == "over":
        room.phase = "over"
        room.last_result = stored.last_result
        room.match_id = None if stored.last_result is None else stored.last_result.get("match_id")
    elif stored.phase == "playing":
        t_resume = _restore_match(room, stored)
    elif stored.phase != "lobby":
        raise ValueError(f"unknown phase {stored.phase!r}")
    room.lobby.restore()  # nobody is connected yet: each player's seat waits for him
    if t_resume is not None:
        restore_extras(room, extras, t_resume)


def _restore_match(room: Room, stored: LiveRoom) -> float | None:
    """Replay the match from its seed and actions, and set its clocks going again: the
    match time it resumes at (``None``: it was over)."""
    playing = stored.match
    if playing is None:
        raise ValueError("a match is being played, but none is stored")
    players = tuple(playing["players"])
    now = room.clock.now()
    match = room.match_class(room.options, players, room.timing, now, int(playing["seed"]))
    match.id = str(playing["id"])
    match.started_wall = float(playing["started_at"])
    decode = match.match.action_from_json
    t_last = 0.0
    for seq, row in enumerate(stored.actions):
        if row.seq != seq:
            raise ValueError(f"action {seq} is missing from the log")
        try:
            match.apply(decode(row.action))
        except ValueError as exc:  # MalformedAction, IllegalAction
            raise ValueError(f"action {seq} does not replay: {exc}") from None
        t_last = row.t
    # The match clock resumes where its process last held it (or the last action, later).
    t_resume = _resume_at(stored, t_last)
    match.started = now - t_resume
    over = match.phase == "over"
    room.resume(match, t_resume, acted=bool(stored.actions))
    return None if over else t_resume


def _resume_at(stored: LiveRoom, t_last: float) -> float:
    """The match time a rebuilt match resumes at: its last action's, or the match time
    its process last said it held the room, if later and of this match (no later than the
    wall time since the match began: a heartbeat of the match before is not)."""
    clock, alive_at, playing = stored.clock, stored.alive_at, stored.match
    if clock is None or alive_at is None or playing is None:
        return t_last
    if clock > alive_at - float(playing["started_at"]) + 0.5:
        return t_last  # written for an earlier match
    return max(t_last, clock)
