"""What the HTTP routes work with, handed to them by FastAPI's dependencies.

The application (``server/app.py``) builds one :class:`Services` when it is created and
keeps it on ``app.state.services``; each route module (``http/accounts.py``,
``http/rooms.py``...) is an ``APIRouter`` whose routes are plain module-level functions
that name what they need with the ``Annotated`` types below (``accounts: Accounts``,
``clock: TestClock``...), each read from that one container by a small provider. A test
may build an application with other parts the same way (``create_app``'s arguments).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request

from spacetable.server.http.guards import Guards
from spacetable.server.http.password_gate import PasswordGate
from spacetable.server.http.referee_pool import RefereePool
from spacetable.server.meet.hub import PlayerHub
from spacetable.server.meet.moderation import Moderation
from spacetable.server.meet.relations import BlockNews
from spacetable.server.rooms.clock import MovableClock
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.meetings import MeetingStore
from spacetable.server.store.ratings import RatingBook
from spacetable.server.store.relations import RelationStore
from spacetable.server.store.storage import Storage
from spacetable.server.store.tournaments import TournamentStore

if TYPE_CHECKING:
    from spacetable.server.cluster.node import ClusterNode

#: Ends a deleted account's unfinished matches and frees its seats (``http/leaving.py``'s
#: ``leave_rooms``, given the directory): its key and session id, the matches resigned.
Leave = Callable[[str, str | None], Awaitable[int]]


@dataclass
class Drawn:
    """What the routes build once per application and keep: each language's games listing
    (JSON), each game's resources (JSON, by game, name and language) and the rules page's
    figures (SVG, by name and language). The registry is read at start, so none changes."""

    listings: dict[str, bytes] = field(default_factory=dict)
    resources: dict[tuple[str, str, str], bytes] = field(default_factory=dict)
    figures: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class Services:
    """Everything the HTTP routes reach, made once by ``create_app``: the finished matches'
    ``storage``, the room ``directory``, the cluster ``node`` (``None`` for a server
    alone), the ``accounts`` and their ``ratings``, a public server's ``guards``, the test
    ``clock`` (``None`` but with ``--test-clock``), the password checks' ``gate``, the
    ``referee``'s workers, the pages of other origins allowed to use the account routes
    (``allowed_origins``), how a deleted account leaves its rooms (``leave``), what is
    drawn once (``drawn``), the players' lobby sockets (``hub``) and the accounts' follows
    and blocks (``relations``)."""

    storage: Storage
    directory: RoomDirectory
    node: ClusterNode | None
    accounts: AccountStore
    ratings: RatingBook
    guards: Guards
    clock: MovableClock | None
    gate: PasswordGate
    referee: RefereePool
    allowed_origins: frozenset[str] = frozenset()
    leave: Leave | None = None
    drawn: Drawn = field(default_factory=Drawn)
    #: The players' lobby sockets on every process (``meet/hub.py``; ``None`` until the
    #: application's start made it).
    hub: PlayerHub | None = None
    #: Whom each account follows and blocks (``store/relations.py``; ``None``: an
    #: application built without, as some tests build one).
    relations: RelationStore | None = None
    #: Tells the rooms of every process that an account's blocks changed
    #: (``meet/relations.py``; ``None``: an application built without).
    block_news: BlockNews | None = None
    #: The seeks and challenges (``store/meetings.py``; ``None``: an application built
    #: without).
    meetings: MeetingStore | None = None
    #: Reports, moderators, mutes, bans and closed rooms (``meet/moderation.py``; ``None``:
    #: an application built without).
    moderation: Moderation | None = None
    #: Swiss tournaments (``store/tournaments.py``; ``None``: an application built without).
    tournaments: TournamentStore | None = None


def services(request: Request) -> Services:
    """The application's :class:`Services` (``app.state.services``)."""
    found: Services = request.app.state.services
    return found


def _storage(request: Request) -> Storage:
    return services(request).storage


def _directory(request: Request) -> RoomDirectory:
    return services(request).directory


def _accounts(request: Request) -> AccountStore:
    return services(request).accounts


def _ratings(request: Request) -> RatingBook:
    return services(request).ratings


def _guards(request: Request) -> Guards:
    return services(request).guards


def _clock(request: Request) -> MovableClock | None:
    return services(request).clock


def _movable_clock(request: Request) -> MovableClock:
    clock = services(request).clock
    assert clock is not None, "POST /api/test/clock is only routed with --test-clock"
    return clock


def _gate(request: Request) -> PasswordGate:
    return services(request).gate


def _referee(request: Request) -> RefereePool:
    return services(request).referee


def _drawn(request: Request) -> Drawn:
    return services(request).drawn


def _origins(request: Request) -> frozenset[str]:
    return services(request).allowed_origins


def _leave(request: Request) -> Leave | None:
    return services(request).leave


def _hub(request: Request) -> PlayerHub:
    hub = services(request).hub
    assert hub is not None, "the application's start makes the hub"
    return hub


def _relations(request: Request) -> RelationStore:
    relations = services(request).relations
    assert relations is not None, "create_app makes the relations"
    return relations


#: The whole container, for a route that needs several of its parts.
App = Annotated[Services, Depends(services)]
#: The finished matches' storage.
Matches = Annotated[Storage, Depends(_storage)]
#: The room directory.
Directory = Annotated[RoomDirectory, Depends(_directory)]
#: The accounts.
Accounts = Annotated[AccountStore, Depends(_accounts)]
#: The ratings.
Ratings = Annotated[RatingBook, Depends(_ratings)]
#: A public server's limits.
Limits = Annotated[Guards, Depends(_guards)]
#: The test clock, if the server has one.
TestClock = Annotated[MovableClock | None, Depends(_clock)]
#: The test clock of a server started with one.
MovedClock = Annotated[MovableClock, Depends(_movable_clock)]
#: The password checks' limits and threads.
Gate = Annotated[PasswordGate, Depends(_gate)]
#: The referee's workers.
Referee = Annotated[RefereePool, Depends(_referee)]
#: What is drawn once per application.
Cache = Annotated[Drawn, Depends(_drawn)]
#: The pages of other origins allowed to use the account routes.
Origins = Annotated[frozenset[str], Depends(_origins)]
#: How a deleted account leaves its rooms (``None``: it sits in none).
Leaving = Annotated[Leave | None, Depends(_leave)]
#: The players' lobby sockets on every process.
Hub = Annotated[PlayerHub, Depends(_hub)]
#: Whom each account follows and blocks.
Relations = Annotated[RelationStore, Depends(_relations)]
