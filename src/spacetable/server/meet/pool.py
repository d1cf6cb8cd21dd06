"""The pairing pool (issue 69 item 2): every :data:`TICK_SECONDS` on the server's clock,
the waiting seeks (``store/meetings.py``) are grouped into tables and each table gets a
room whose seats are already its players' (``meet/seating.py``); each player is sent
``paired`` on his lobby socket, wherever it is.

Which seeks sit together (:func:`tables`):

- the same game, seat count (a 3-seat seek waits for two others of 3 seats), pace
  (``turn_hours``, the same hours) and rated flag;
- never a player with himself, never two players of whom either blocks the other
  (``store/relations.py``'s ``blocking_pairs``);
- each player's rating inside every other's range (``range``: absolute ratings, either
  end open);
- the ratings of a table no further apart than the allowed gap, which widens with the
  wait: :func:`allowed_gap` of the longest wait at the table, :data:`BASE_GAP` rating
  points at once and :data:`GAP_PER_MINUTE` more each minute (ratings are openskill
  ordinals, ``mu - 3 sigma``: a new player's is 0, a strong one's 30 or more; guests are
  0);
- of the tables possible, the closest ratings first (the smallest spread; then the
  longest wait), each seek in one table at most.

Every process of a cluster runs a pool over the same seeks. A process claims a table's
seeks by deleting them in one transaction that must find them all
(``MeetingStore.claim``): of two processes that chose the same seek, one opens the room and
the other pairs nobody that round; a seek is never paired twice. Each round also keeps
the real-time seeks of the players online alive (a seek whose player has no lobby socket
lapses: ``SEEK_LAPSE_SECONDS``) and closes the challenges whose time ran out
(``meet/challenges.py``). A player paired into a real-time room has his other real-time
seeks removed (he plays one live game at a time); his correspondence seeks wait on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence

from spacetable.server.meet.hub import Player, PlayerHub
from spacetable.server.meet.identity import GUEST_PREFIX
from spacetable.server.meet.seating import SeatingServices, open_room_seats, seated_options
from spacetable.server.protocol.lobby_messages import Paired
from spacetable.server.rooms.clock import LoopClock, RoomClock
from spacetable.server.store.meetings import MeetingStore, Seek
from spacetable.server.store.storage import StorageUnavailable

log = logging.getLogger("spacetable.meet")

#: How often the pool pairs (seconds on the server's clock).
TICK_SECONDS = 2.0
#: The rating gap allowed between seeks that just came (openskill ordinal points).
BASE_GAP = 2.0
#: How much the allowed gap widens each minute of waiting.
GAP_PER_MINUTE = 6.0
#: Beyond this many seeks of one kind, tables are looked for among seeks next to each
#: other by rating only (every combination would cost too much a round: 1000 seeks of
#: two seats took 3.1 s, on the event loop).
_ALL_COMBINATIONS = 24
#: Of many seeks, how many next by rating each may be paired with (a few blocked or out
#: of range are skipped over).
_NEIGHBOURS = 8


def allowed_gap(waited: float) -> float:
    """The rating gap allowed at a table whose longest wait is ``waited`` seconds."""
    return BASE_GAP + GAP_PER_MINUTE * max(0.0, waited) / 60.0


def _kind(seek: Seek) -> tuple[str, int, float | None, bool]:
    return (seek.game, seek.seats, seek.turn_hours, seek.rated)


def _fits(table: Sequence[Seek], now: float, blocked: set[frozenset[str]]) -> bool:
    """Whether the seeks of ``table`` may sit together (the module's rules)."""
    players = {seek.player for seek in table}
    if len(players) < len(table):
        return False
    ratings = [seek.rating for seek in table]
    waited = now - min(seek.created_at for seek in table)
    if max(ratings) - min(ratings) > allowed_gap(waited):
        return False
    for one, other in itertools.permutations(table, 2):
        if frozenset((one.player, other.player)) in blocked:
            return False
        if one.range_min is not None and other.rating < one.range_min:
            return False
        if one.range_max is not None and other.rating > one.range_max:
            return False
    return True


def _candidates(seeks: list[Seek], size: int) -> Iterable[tuple[Seek, ...]]:
    """The tables of ``size`` to consider among ``seeks`` (sorted by rating): every
    combination of a few; of many, each seek with its :data:`_NEIGHBOURS` next by rating
    (a pair), or runs of seeks next to each other (a table of three or four)."""
    if len(seeks) <= _ALL_COMBINATIONS:
        return itertools.combinations(seeks, size)
    if size == 2:
        return (
            (one, other)
            for i, one in enumerate(seeks)
            for other in seeks[i + 1 : i + 1 + _NEIGHBOURS]
        )
    return (tuple(seeks[i : i + size]) for i in range(len(seeks) - size + 1))


def tables(seeks: Iterable[Seek], now: float, blocked: set[frozenset[str]]) -> list[list[Seek]]:
    """The tables the pool opens now among ``seeks`` (the module's rules), each a list of
    seeks in the order they came; a seek, and a player, in one table at most."""
    kinds: dict[tuple[str, int, float | None, bool], list[Seek]] = defaultdict(list)
    for seek in seeks:
        kinds[_kind(seek)].append(seek)
    chosen: list[list[Seek]] = []
    seated: set[str] = set()
    for (_, size, _, _), group in sorted(kinds.items(), key=lambda kind: str(kind[0])):
        if len(group) < size:
            continue
        group.sort(key=lambda seek: (seek.rating, seek.created_at))
        found = [table for table in _candidates(group, size) if _fits(table, now, blocked)]
        found.sort(
            key=lambda t: (
                max(s.rating for s in t) - min(s.rating for s in t),
                min(s.created_at for s in t),
            )
        )
        for table in found:
            if any(seek.player in seated for seek in table):
                continue
            seated.update(seek.player for seek in table)
            chosen.append(sorted(table, key=lambda seek: (seek.created_at, seek.id)))
    return chosen


#: What else the pool's round does (the challenges' expiry: ``meet/challenges.py``).
Sweep = Callable[[], Awaitable[None]]


class Pool:
    """The pairing pool of this process: :meth:`start` runs a round every
    :data:`TICK_SECONDS` on ``clock`` (the test clock's, in tests; default: the loop's)."""

    def __init__(
        self,
        meetings: MeetingStore,
        blocking_pairs: Callable[[Iterable[str]], set[frozenset[str]]],
        hub: PlayerHub,
        services: SeatingServices,
        clock: RoomClock | None = None,
    ) -> None:
        self._meetings = meetings
        self._blocking_pairs = blocking_pairs
        self._hub = hub
        self._services = services
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        #: Run at each round after the pairing (the challenges' expiry).
        self.sweeps: list[Sweep] = []

    def start(self) -> None:
        """Begin the rounds (on the running loop), and drop a player's real-time seeks
        once he has no lobby socket left."""
        if self._clock is None:
            self._clock = LoopClock(asyncio.get_running_loop())
        self._hub.on_gone(self._gone)
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop the rounds."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _gone(self, key: str) -> None:
        with contextlib.suppress(StorageUnavailable):
            await asyncio.to_thread(self._meetings.drop_live_seeks, key)

    async def _sleep(self, seconds: float) -> None:
        assert self._clock is not None
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self._clock.after(seconds, _wake, woken)
        try:
            await woken
        finally:
            timer.cancel()

    async def _run(self) -> None:
        while True:
            await self._sleep(TICK_SECONDS)
            try:
                await self.round()
            except StorageUnavailable as exc:
                log.warning("the pairing pool skipped a round: %s", exc)
            except Exception:
                log.exception("the pairing pool's round failed")

    async def round(self) -> list[str]:
        """One round: keep the online players' seeks alive, open the tables, run the
        sweeps. Returns the rooms opened."""
        meetings = self._meetings
        live = await asyncio.to_thread(meetings.live_players)
        online = [key for key in live if self._hub.is_online(key)]
        await asyncio.to_thread(meetings.keep_alive, online)
        waiting = await asyncio.to_thread(meetings.waiting)
        accounts = {seek.player for seek in waiting if not _guest(seek.player)}
        blocked = await asyncio.to_thread(self._blocking_pairs, accounts) if accounts else set()
        opened = []
        for table in tables(waiting, meetings.wall(), blocked):
            room = await self._open(table)
            if room is not None:
                opened.append(room)
        for sweep in self.sweeps:
            await sweep()
        return opened

    async def _open(self, table: list[Seek]) -> str | None:
        """Claim the table's seeks and open its room; tell its players."""
        if not await asyncio.to_thread(self._meetings.claim, [seek.id for seek in table]):
            return None  # another process took one of them first (or it was cancelled)
        first = table[0]
        players = [Player(s.player, s.name, None if _guest(s.player) else s.player) for s in table]
        try:
            options = seated_options(first.game, None, first.seats, first.turn_hours)
            made = await open_room_seats(self._services, options, players, rated=first.rated)
        except Exception:
            log.exception("the pool could not open a room for %s", [s.id for s in table])
            await asyncio.to_thread(self._meetings.put_back, table)  # they wait on
            return None
        log.info("paired %d seeks of %s into room %s", len(table), first.game, made.id)
        if first.realtime:  # a player at a live table plays no other live game meanwhile
            for seek in table:
                await asyncio.to_thread(self._meetings.drop_live_seeks, seek.player)
        for seek in table:
            token = made.tokens.get(seek.player)
            await self._hub.send(seek.player, Paired(made.id, first.game, seek.id, token))
        return made.id


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


def _guest(key: str) -> bool:
    return key.startswith(GUEST_PREFIX)
