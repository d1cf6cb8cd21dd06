"""Who is online, on every process (issue 69 item 1).

Each process knows its own part (a :class:`Share`): the players whose lobby sockets it
holds, and what the accounts in its rooms are doing (:func:`room_statuses`: seated in a
room whose match is not over: ``playing``; a spectator's socket: ``watching``). In a
cluster each process writes its share to Redis every second, as the lobby's entries are
(``cluster/node.py``): the key ``spacetable:presence:<node>`` with a short time to live
(:data:`PRESENCE_TTL_MS`, so a killed process's players leave the list within it), and
its node in the sorted set ``spacetable:presence-nodes`` scored by when it lapses. Every
process reads the others' shares at the same pace (:class:`PresenceBoard`) and merges
them with its own (:func:`merge`): a player is online if a lobby socket of his is open on
some process; his status is the best any process saw (``playing`` beats ``watching``
beats ``lobby``), wherever his room is.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from spacetable.server.meet.hub import Presence, Status
from spacetable.server.rooms.room import Room
from spacetable.server.store.accounts import name_key

if TYPE_CHECKING:
    import redis.asyncio as aioredis

#: The Redis keys' prefix (``cluster/node.py``'s).
PREFIX = "spacetable:"
#: How long a process's share lasts in Redis unless written again (ms).
PRESENCE_TTL_MS = 3000
#: The most players the online list names (the guests are counted whatever their number).
MAX_LISTED = 300

#: A status with its game and room (``None`` in the lobby).
Doing = tuple[Status, str | None, str | None]
_RANK: dict[Status, int] = {"lobby": 0, "watching": 1, "playing": 2}
_LOBBY: Doing = ("lobby", None, None)


def better(a: Doing | None, b: Doing) -> Doing:
    """The one of ``a`` and ``b`` the online list shows: playing, else watching."""
    return b if a is None or _RANK[b[0]] > _RANK[a[0]] else a


def room_statuses(rooms: Iterable[Room]) -> dict[str, Doing]:
    """What the accounts in ``rooms`` are doing, by account key: ``playing`` for a seat
    an account holds in a room whose match is not over (connected or not: the seat is
    his), ``watching`` for an account's socket in a room that holds no seat of it."""
    found: dict[str, Doing] = {}
    for room in rooms:
        game = room.options.entry.rules.key
        seated: set[Any] = set()
        for seat in room.seats:
            seated |= seat.connections
            if seat.account is not None and room.phase != "over":
                found[seat.account] = better(found.get(seat.account), ("playing", game, room.id))
        for connection in room.connections:
            if connection.account is not None and connection not in seated:
                key = name_key(connection.account)
                found[key] = better(found.get(key), ("watching", game, room.id))
    return found


@dataclass(slots=True)
class Share:
    """One process's part of who is online: the accounts with a lobby socket here (key:
    name), the guests with one (their keys), and what the accounts in its rooms do."""

    players: dict[str, str] = field(default_factory=dict)
    guests: set[str] = field(default_factory=set)
    rooms: dict[str, Doing] = field(default_factory=dict)

    def to_json(self) -> bytes:
        """The share as Redis keeps it."""
        return orjson.dumps(
            {"players": self.players, "guests": list(self.guests), "rooms": self.rooms}
        )

    @classmethod
    def from_json(cls, raw: bytes | str) -> Share:
        """A share written by :meth:`to_json` (what is not well formed is left out)."""
        data = orjson.loads(raw)
        players = {str(k): str(v) for k, v in dict(data.get("players", {})).items()}
        guests = {str(g) for g in data.get("guests", [])}
        rooms: dict[str, Doing] = {}
        for key, doing in dict(data.get("rooms", {})).items():
            if isinstance(doing, list) and len(doing) == 3 and doing[0] in _RANK:
                rooms[str(key)] = (doing[0], doing[1], doing[2])
        return cls(players, guests, rooms)

    def holds(self, key: str) -> bool:
        """Whether a lobby socket of the player ``key`` is open in this share."""
        return key in self.players or key in self.guests


def merge(shares: Iterable[Share]) -> tuple[list[Presence], int]:
    """Who is online according to every process's share: the registered players (by
    name, case aside; at most :data:`MAX_LISTED`) with their best status, and the number
    of guests."""
    players: dict[str, str] = {}
    guests: set[str] = set()
    doing: dict[str, Doing] = {}
    for share in shares:
        players.update(share.players)
        guests |= share.guests
        for key, what in share.rooms.items():
            doing[key] = better(doing.get(key), what)
    # Only the first names are made records (thousands of players online: a refresh took
    # tens of milliseconds of the rooms' loop sorting records it then dropped).
    first = heapq.nsmallest(MAX_LISTED, players.items(), key=_by_name)
    listed = [Presence(name, key, *doing.get(key, _LOBBY)) for key, name in first]
    return listed, len(guests)


def _by_name(item: tuple[str, str]) -> tuple[str, str]:
    return item[1].casefold(), item[1]


def presence_json(players: list[Presence], guests: int) -> dict[str, Any]:
    """The online list as ``GET /api/online`` and the ``online`` message give it."""
    return {
        "players": [
            {"name": p.name, "status": p.status, "game": p.game, "room": p.room} for p in players
        ],
        "guests": guests,
    }


class PresenceBoard:
    """The shares of a cluster's processes in Redis (``redis``, the cluster node's
    client): this process's written as ``node_id``'s, the others' read."""

    def __init__(self, redis: aioredis.Redis, node_id: str, ttl_ms: int = PRESENCE_TTL_MS) -> None:
        self.redis = redis
        self.node_id = node_id
        self.ttl_ms = ttl_ms
        self._key = f"{PREFIX}presence:{node_id}"
        self._nodes = f"{PREFIX}presence-nodes"

    async def publish(self, share: Share) -> None:
        """Write this process's share (for :attr:`ttl_ms`). Raises ``RedisError`` or
        ``OSError`` when Redis does not answer."""
        lapses = time.time() * 1000 + self.ttl_ms
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key, share.to_json(), px=self.ttl_ms)
            pipe.zadd(self._nodes, {self.node_id: lapses})
            await pipe.execute()

    async def others(self) -> list[Share]:
        """The other live processes' shares. Raises ``RedisError`` or ``OSError`` when
        Redis does not answer."""
        now_ms = time.time() * 1000
        await self.redis.zremrangebyscore(self._nodes, "-inf", now_ms)
        nodes = [_text(n) for n in await self.redis.zrange(self._nodes, 0, -1)]
        nodes = [n for n in nodes if n != self.node_id]
        if not nodes:
            return []
        shares = []
        for raw in await self.redis.mget([f"{PREFIX}presence:{n}" for n in nodes]):
            if raw is not None:
                shares.append(Share.from_json(raw))
        return shares

    async def withdraw(self) -> None:
        """Remove this process's share (it stops): its players leave the list at once."""
        await self.redis.delete(self._key)
        await self.redis.zrem(self._nodes, self.node_id)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
