"""What a room tells its sockets of itself: the ``room`` message (its seats and phase,
coalesced when they change fast) and the match's ``state``, as each socket's seat (or a
spectator) sees it, whole or as a patch (``sockets/state_patch.py``).

:class:`News` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the room's
task like the rest of it, that sees the room through a :class:`NewsRoom`.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.correspondence import Correspondence
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.sockets.connection import Connection
from spacetable.server.sockets.state_patch import StateSender

#: Seconds between two ``room`` messages of a room: seat changes within them are coalesced.
ROOM_BROADCAST_INTERVAL = 0.1


class NewsRoom(RoomContext, Protocol):
    """The room as its news see it: the context, and what the ``room`` message says."""

    @property
    def options(self) -> RoomOptions:
        """What the room plays."""
        ...

    @property
    def match_id(self) -> str | None:
        """The id of the match being played, or of the one last over."""
        ...

    @property
    def correspondence(self) -> Correspondence:
        """The turns' deadlines of a room played by correspondence."""
        ...

    @property
    def unrated(self) -> str | None:
        """Why the match last over between accounts is not rated (``"early"``: stopped
        before its first turn or round was over), or ``None``."""
        ...


class News:
    """The ``room`` and ``state`` messages of a room; ``pacing``: how its game is paced
    (the registry's word, which the ``room`` message carries)."""

    def __init__(self, room: NewsRoom, pacing: str) -> None:
        self._room = room
        self._pacing = pacing
        self._window_open = False  # a ``room`` message left less than an interval ago
        self._changed = False  # and the room changed since
        #: The states sent, numbered, whole or as patches.
        self.states = StateSender()

    def room_message(self) -> dict[str, Any]:
        """The ``room`` message: the room as it is now."""
        room = self._room
        news = to_page.RoomNews(
            id=room.id,
            ruleset=room.options.ruleset,
            pacing=self._pacing,
            options=room.options.to_json(),
            seats=[cast(to_page.SeatView, s.to_json()) for s in room.seats],
            phase=room.phase,
            match_id=room.match_id,
            # A room played by correspondence: its turn's deadline (rooms/correspondence.py).
            correspondence=room.correspondence.about(),
            # The match over is not rated, and why (store/ratings.py): "early".
            unrated=room.unrated if room.phase == "over" else None,
        )
        return wire(news)

    def broadcast_room(self, at_once: bool = False) -> None:
        """Tell everyone the room changed. Seat changes are coalesced, so that a player
        toggling "ready" as fast as he can costs the others one message per interval: the
        first change goes at once and opens a window of :data:`ROOM_BROADCAST_INTERVAL`;
        the changes within it leave as one message when it closes, the room as it is then.
        ``at_once`` (a match began or ended) sends it now, before the match's messages.
        The room's stored row is written again with the next write (``rooms/journal.py``)."""
        room = self._room
        room.changed()
        if self._window_open and not at_once:
            self._changed = True
            return
        self._changed = False
        room.broadcast(self.room_message())
        if not self._window_open:
            self._window_open = True
            room.clock.after(ROOM_BROADCAST_INTERVAL, self._close_window)

    def _close_window(self) -> None:
        """The window of :meth:`broadcast_room` closes: the room as it is now, if it
        changed within it (which opens the next window)."""
        self._window_open = False
        if self._changed:
            self.broadcast_room()

    def broadcast_state(self) -> None:
        """Send each connection the match as its player sees it: encoded once per view, as
        a patch from the state a connection has if it takes patches (``sockets/state_patch.py``)."""
        room = self._room
        if room.match is None:
            return
        now = room.now()
        self.states.broadcast(
            room.connections, self._view_of, lambda player: self._state(player, now)
        )

    def _view_of(self, connection: Connection) -> str | None:
        """Whose view of the match ``connection`` gets: its seat's player, or a spectator's."""
        return None if connection.seat is None else self._room.seats[connection.seat].name

    def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the whole state (joining, changing seat, asking: ``resync``)."""
        if self._room.match is None:  # none to send: the next match's first state goes whole
            connection.state_seq = connection.state_base = None
            return
        self.states.send(connection, self._state(self._view_of(connection), self._room.now()))

    def _state(self, player: str | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``player`` with the ``runup`` (null outside it)."""
        room = self._room
        match = room.match
        assert match is not None
        # At the end (a match its players stopped too, rooms/manners.py) the state is over.
        over = room.phase == "over"
        runup = match.runup(room.clock.now())
        if over:
            return match.stopped_state(player, now, runup)
        return match.state(player, now, runup)
