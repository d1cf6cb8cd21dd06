"""Rooms made for players who already agreed to play (issue 69): a pairing of the pool,
an accepted challenge, and later a tournament's round.

:func:`open_seated_room` opens a room on this process, with the options checked as
``POST /api/rooms`` checks them (:func:`~spacetable.server.rooms.options.room_options`),
whose seats are already held by its players: nobody else can sit there. An account's seat
is his as any seat of his is (a seat follows its account: his pages take it back as they
open the room, on any device); a guest's is held by a seat token, which
:func:`open_room_seats` returns for his page (the ``paired`` message carries it: the page
keeps it as it keeps any seat token, ``web/js/shell/seattokens.js``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.i18n.phrase import refusal
from spacetable.registry import game as game_entry
from spacetable.registry import games
from spacetable.server.meet.hub import Player
from spacetable.server.rooms.directory import RoomDirectory
from spacetable.server.rooms.lobby import GivenSeat
from spacetable.server.rooms.match import CASUAL_OPTION, RoomOptions
from spacetable.server.rooms.options import room_options

if TYPE_CHECKING:
    from spacetable.server.cluster.node import ClusterNode
    from spacetable.server.store.ratings import RatingBook

__all__ = ["SeatedRoom", "SeatingServices", "open_room_seats", "open_seated_room", "seated_options"]


class SeatingServices(Protocol):
    """What opening a seated room needs of the application's services (``http/deps.py``'s
    ``Services`` has them)."""

    @property
    def directory(self) -> RoomDirectory:
        """This process's rooms."""
        ...

    @property
    def node(self) -> ClusterNode | None:
        """The cluster node (``None``: a server alone)."""
        ...

    @property
    def ratings(self) -> RatingBook:
        """The accounts' ratings (shown beside their seats)."""
        ...


@dataclass(frozen=True, slots=True)
class SeatedRoom:
    """A room made for its players: its ``id``, and the seat token of each guest among
    them, by his key (an account's seat needs none: it is his account's)."""

    id: str
    tokens: dict[str, str]


def playable_games() -> list[str]:
    """The keys of the games a room can be opened for."""
    return [entry.rules.key for entry in games() if entry.rules.playable]


def seated_options(
    game: str, options: dict[str, Any] | None, seats: int, turn_hours: float | None
) -> RoomOptions:
    """The room options of ``game`` with ``seats`` seats, the game's own ``options`` (as a
    ``POST /api/rooms`` body has them; no ``ruleset``: the game's first) and ``turn_hours``
    (``None``: played live), checked as ``POST /api/rooms`` checks them. Raises
    ``ValueError`` naming the problem (an unknown game, an unknown option, a game not
    played by correspondence...)."""
    known = playable_games()
    if game not in known:
        raise ValueError(
            refusal(
                "game: must be one of {games}, got {value}",
                games=", ".join(known),
                value=repr(game)[:40],
            )
        )
    body: dict[str, Any] = dict(options or {})
    rulesets = game_entry(game).rules.rulesets
    body.setdefault("ruleset", rulesets[0])
    if body["ruleset"] not in rulesets:
        raise ValueError(
            refusal(
                "options.ruleset: must be one of {rulesets}, got {value}",
                rulesets=", ".join(rulesets),
                value=repr(body["ruleset"])[:40],
            )
        )
    body["seats"] = seats
    if turn_hours is not None:
        body[CORRESPONDENCE_OPTION] = turn_hours
    else:
        body.pop(CORRESPONDENCE_OPTION, None)
    return room_options(body)


async def open_room_seats(
    services: SeatingServices,
    options: RoomOptions,
    players: list[Player],
    *,
    rated: bool,
) -> SeatedRoom:
    """Open a room of ``options`` on this process whose seats, in order, are held by
    ``players`` (as many as its seats), registered in the cluster before its id is handed
    out. ``rated``: whether the match counts for the accounts' ratings (a casual room's
    is noted, never rated: ``RoomOptions.casual``). Raises ``RoomsFull``."""
    game = options.entry.rules.key
    if not rated:
        options = replace(options, game={**options.game, CASUAL_OPTION: True})

    def read() -> tuple[list[dict[str, Any] | None], set[str]]:
        keys = [p.account for p in players if p.account is not None]
        return [
            None if p.account is None else services.ratings.shown(p.account, game) for p in players
        ], services.ratings.bots.bots_among(keys)

    ratings, bots = await asyncio.to_thread(read)
    room = services.directory.create(options)
    people = [
        GivenSeat(p.name, p.account, r, p.account in bots)
        for p, r in zip(players, ratings, strict=True)
    ]
    tokens = room.lobby.give_seats(people)
    if services.node is not None:
        await services.node.adopt(room)  # known to every process before anyone opens it
    guests = {p.key: token for p, token in zip(players, tokens, strict=True) if p.guest}
    return SeatedRoom(room.id, guests)


async def open_seated_room(
    services: SeatingServices,
    game: str,
    options: dict[str, Any] | None,
    players: list[Player],
    *,
    rated: bool,
    turn_hours: float | None,
) -> str:
    """Open a room of ``game`` (its ``options`` as a ``POST /api/rooms`` body has them)
    with one seat for each of ``players``, already theirs (:func:`open_room_seats`), and
    return its id. Raises ``ValueError`` naming a bad option, ``RoomsFull``."""
    checked = seated_options(game, options, len(players), turn_hours)
    return (await open_room_seats(services, checked, players, rated=rated)).id
