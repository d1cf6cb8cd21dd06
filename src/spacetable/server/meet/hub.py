"""What the rest of the server asks of the players' sockets (``/ws/lobby``): who a
request's player is, whether he is online, and how a message reaches him on whichever
process his pages are connected to.

Every page a player opens (the lobby, a room, a profile...) keeps one lobby socket open;
the hub of each process holds that process's lobby sockets, and, in a cluster, the hubs
pass messages to each other through Redis, so that :meth:`PlayerHub.send` reaches a
player wherever his pages are.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

#: What a player is doing, as the online list shows it.
Status = Literal["lobby", "playing", "watching"]
#: Why a page's session ended (the ``session_ended`` message's ``reason``): ``ended``
#: (unsaid), ``logged_out``, ``banned``, ``deleted``.
EndReason = Literal["ended", "logged_out", "banned", "deleted"]


@dataclass(frozen=True, slots=True)
class Player:
    """The player behind a request or a socket: an account (``account`` is its name's key,
    ``key == account``) or a guest (``account`` is ``None``, ``key`` is ``guest:`` and a
    digest of the guest's cookie, never the cookie itself). ``name``: as shown."""

    key: str
    name: str
    account: str | None

    @property
    def guest(self) -> bool:
        """Whether the player has no account."""
        return self.account is None


@dataclass(frozen=True, slots=True)
class Presence:
    """One online registered player, as ``GET /api/online`` lists him."""

    name: str
    key: str
    status: Status
    game: str | None = None
    room: str | None = None


#: Called with a player's key when his last lobby socket closed on every process (a
#: real-time seek lives as long as its lobby socket).
Gone = Callable[[str], Awaitable[None]]


class PlayerHub(Protocol):
    """The lobby sockets of every process, as one (``meet/`` implements it)."""

    async def send(self, key: str, message: object) -> None:
        """Send ``message`` (a declaration of ``protocol/server_messages.py``) to every
        lobby socket of the player ``key`` (account key or guest key), on any process;
        nothing if he has none."""

    async def broadcast(self, message: object) -> None:
        """Send ``message`` to every lobby socket of every process."""

    async def end_sessions(self, account: str, reason: EndReason = "ended") -> None:
        """Tell every page of ``account`` (its key) on every process that its session
        ended (a ban, a deletion, a reset password: ``reason``) and close their lobby
        sockets; the pages reload logged out and say why."""

    def is_online(self, key: str) -> bool:
        """Whether the player ``key`` has a lobby socket open on some process (as this
        process last heard it: within about a second in a cluster)."""

    def online(self) -> tuple[list[Presence], int]:
        """The online registered players and the number of online guests."""

    def on_gone(self, listener: Gone) -> None:
        """Call ``listener`` with a player's key once he has no lobby socket left."""
