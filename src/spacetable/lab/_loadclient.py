"""The load clients of ``spacetable loadtest``: many seated players in one asyncio process.

Each room has four clients. Every client streams its hand pose at ``pose_hz`` while it
holds a card in the fast round and places a card every ``place_every`` seconds at a spot
of its own (the spots never touch: see :func:`seat_spots`). When someone places his last
card the others drop theirs at once, and after the battle every client asks for a rematch,
so rooms cycle through whole matches. To keep the battles of different rooms apart, each
room first places a random number of cards (0 to 9 per player) before the measurement.

Pose latency: a pose's ``x`` and ``y`` encode its sender's sequence number (the pose model
takes no extra fields), so a receiver finds the pose's send time in the sender's ring of
recent send times; the latency is the receive time minus that. Coalescing on the server
means a receiver only gets a sender's newest pose of each broadcast; those are the ones
measured. Placement latency: a ``place`` sent to its own ``placed`` broadcast (or
``refused``). Both clocks are this process's ``time.perf_counter``.

The clients must cost much less than the server they load, or their own delays would be
measured as the server's: each connection is a plain :class:`asyncio.Protocol` on the
sans-I/O client of ``websockets`` (:mod:`spacetable.lab._loadsocket`; no reader task, no
queues), messages are handled as they are parsed, and the pose stream runs on timer
callbacks (one per millisecond, shared) rather than one task per client.
"""

from __future__ import annotations

import asyncio
import gc
import math
import random
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from websockets.typing import BytesLike

from spacetable.lab._loadsocket import LoadSocket

#: Card and table sizes (mm) and the asteroid at the centre; see games/lightspeed.py.
CARD_W, CARD_L = 63.0, 88.0
TABLE_W, TABLE_H = 1200.0, 800.0
#: Pose sequence numbers wrap after this many poses per sender (about 19 hours at 10 Hz).
_X_SPAN, _Y_SPAN = 1000, 700
_RING = 1024  # send times kept per sender: a pose older than this many is not matched


def seat_spots(seats: int = 4) -> list[list[tuple[float, float]]]:
    """Legal, pairwise non-touching card centres (rotation 0) for each seat.

    A grid with 7 mm between columns and 12 mm between rows, inside the 1200 x 800 mm
    table, leaving out the spots near the asteroid card at the centre; seat ``s`` takes
    every ``seats``-th spot from ``s`` on (33 each for four seats, a match needs 10)."""
    spots: list[tuple[float, float]] = []
    for row in range(8):
        for col in range(17):
            x, y = -560.0 + 70.0 * col, -350.0 + 100.0 * row
            assert abs(x) + CARD_W / 2 < TABLE_W / 2 and abs(y) + CARD_L / 2 < TABLE_H / 2
            if abs(x) < CARD_W + 5.0 and abs(y) < CARD_L + 5.0:
                continue  # would touch or overlap the asteroid
            spots.append((x, y))
    return [spots[s::seats] for s in range(seats)]


def encode_pose(seq: int) -> tuple[float, float]:
    """The ``(x, y)`` (whole millimetres on the table) that stand for pose number ``seq``."""
    seq %= _X_SPAN * _Y_SPAN
    return float(seq % _X_SPAN - 500), float(seq // _X_SPAN - 350)


def decode_pose(x: float, y: float) -> int:
    """The pose number :func:`encode_pose` turned into ``(x, y)``."""
    return (round(y) + 350) * _X_SPAN + round(x) + 500


@dataclass(slots=True)
class Stats:
    """Everything the clients count and time, for one run."""

    sent: int = 0
    received: int = 0
    poses_sent: int = 0
    places_sent: int = 0
    refused: int = 0
    errors: int = 0
    matches: int = 0
    closed: int = 0
    #: The first few ``error`` messages the server sent (for the report).
    error_messages: list[str] = field(default_factory=list)
    #: Set when the run is over: connections closed after it are not counted as lost.
    finished: bool = False
    pose_ms: array[float] = field(default_factory=lambda: array("d"))
    place_ms: array[float] = field(default_factory=lambda: array("d"))
    lag_ms: array[float] = field(default_factory=lambda: array("d"))
    #: Latencies are kept only between these two perf_counter times (the measurement).
    window: tuple[float, float] = (float("inf"), float("inf"))
    #: ``sent``, ``received``, ``poses_sent``, ``places_sent`` during the window.
    counted: dict[str, int] = field(default_factory=dict)

    def counters(self) -> dict[str, int]:
        """The running message counters."""
        return {
            "sent": self.sent,
            "received": self.received,
            "poses_sent": self.poses_sent,
            "places_sent": self.places_sent,
        }

    def measuring(self, t: float) -> bool:
        """Whether an event at ``t`` falls inside the measurement window."""
        return self.window[0] <= t <= self.window[1]


class LoadRoom:
    """One room of four clients."""

    def __init__(self, index: int, room_id: str, preplace: int) -> None:
        self.index = index
        self.id = room_id
        self.preplace = preplace
        self.clients: list[LoadClient] = []
        self.by_player: dict[str, LoadClient] = {}


class LoadClient:
    """One seated player: a websocket whose messages are handled as they arrive."""

    def __init__(
        self,
        room: LoadRoom,
        seat: int,
        spots: list[tuple[float, float]],
        stats: Stats,
        rng: random.Random,
    ) -> None:
        self.room = room
        self.seat = seat
        self.spots = spots
        self.stats = stats
        self.rng = rng
        self.ws: LoadSocket | None = None
        self.player: str | None = None
        self.phase = "lobby"
        self.hand: str | None = None
        self.mine_on_table = 0
        self.seq = 0
        self.sent_seq = array("q", [-1]) * _RING
        self.sent_at = array("d", [0.0]) * _RING
        self.place_sent: float | None = None
        self.place_done: asyncio.Future[None] | None = None
        #: When (``time.perf_counter()``) the room's pose pulse beats next, as the last
        #: ``poses`` message said (``next``), or None before any.
        self.pulse: float | None = None
        self.welcomed = asyncio.Event()
        self.playing = asyncio.Event()

    # -- sending ------------------------------------------------------------------------

    def _send(self, text: str) -> None:
        assert self.ws is not None
        if self.ws.send(text):
            self.stats.sent += 1

    def send_pose(self) -> None:
        """Send the next pose of the stream (its x and y encode its number)."""
        seq = self.seq
        self.seq += 1
        x, y = encode_pose(seq)
        slot = seq % _RING
        self.sent_seq[slot] = seq
        self.sent_at[slot] = time.perf_counter()
        self._send(f'{{"type":"pose","x":{x},"y":{y},"rotation":{self.seat * 90.0}}}')
        self.stats.poses_sent += 1

    def can_place(self) -> bool:
        """Whether a placement may be sent now (fast round, a card in hand, none pending)."""
        return self.phase == "fast" and self.hand is not None and self.place_sent is None

    def place(self, kind: str = "place") -> asyncio.Future[None]:
        """Put the card in hand at this seat's next spot (``kind``: place or drop); the
        future is done when the ``placed`` or ``refused`` answer arrives."""
        x, y = self.spots[self.mine_on_table % len(self.spots)]
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.place_done = done
        self.place_sent = time.perf_counter()
        self._send(f'{{"type":"{kind}","x":{x},"y":{y},"rotation":0.0}}')
        if kind == "place":
            self.stats.places_sent += 1
        return done

    # -- receiving ----------------------------------------------------------------------

    def on_text(self, raw: BytesLike, now: float) -> None:
        """A message from the server, received at ``now``."""
        self.stats.received += 1
        self._handle(orjson.loads(raw), now)

    def on_lost(self) -> None:
        """The connection closed."""
        if not self.stats.finished:
            self.stats.closed += 1
        self._ack(None)

    def _ack(self, latency: float | None) -> None:
        stats = self.stats
        if latency is not None and self.place_sent is not None and stats.measuring(self.place_sent):
            stats.place_ms.append(latency * 1000.0)
        self.place_sent = None
        if self.place_done is not None and not self.place_done.done():
            self.place_done.set_result(None)
        self.place_done = None

    def _handle(self, message: dict[str, Any], now: float) -> None:
        kind = message["type"]
        if kind == "poses":
            beat = message.get("next")  # None from a server before the pulse (--vs)
            if beat is not None:
                self.pulse = now + beat / 1000.0
            self._on_poses(message["poses"], now)
        elif kind == "placed":
            if message["player"] == self.player:
                self.mine_on_table += 1
                if self.place_sent is not None:
                    self._ack(now - self.place_sent)
            statuses = message.get("players")
            if statuses is not None and self.player is not None:  # the round goes on
                self.hand = statuses[self.player]["holding"]
        elif kind == "state":
            self.phase = message["phase"]
            self.hand = message["hand"]
            self.mine_on_table = sum(1 for c in message["table"] if c.get("owner") == self.player)
            if self.phase == "fast" and self.hand is not None:
                self.playing.set()
        elif kind == "stop":
            self.phase = "stop"
            self._maybe_drop()
        elif kind == "refused":
            self.stats.refused += 1
            if self.place_sent is not None:
                self._ack(now - self.place_sent)
            self._maybe_drop()
        elif kind == "battle":
            self.phase = "over"
            self.hand = None
            if self.seat == 0 and self.stats.measuring(now):
                self.stats.matches += 1
            self._send('{"type":"rematch"}')
        elif kind == "welcome":
            if message["role"] == "player":
                self.player = message["player"]
                assert self.player is not None
                self.room.by_player[self.player] = self
                self.welcomed.set()
        elif kind == "error":
            self.stats.errors += 1
            if len(self.stats.error_messages) < 5:
                self.stats.error_messages.append(str(message.get("message")))

    def _maybe_drop(self) -> None:
        """After someone's stop, let the card in hand fall at once at the next spot."""
        if self.phase == "stop" and self.hand is not None and self.place_sent is None:
            self.hand = None  # answered by placed (or refused) and a new state
            self.place("drop")

    def _on_poses(self, poses: dict[str, dict[str, Any]], now: float) -> None:
        stats = self.stats
        by_player = self.room.by_player
        for player, pose in poses.items():
            if player == self.player:
                continue  # our own hand comes back too
            sender = by_player.get(player)
            if sender is None:
                continue
            seq = decode_pose(pose["x"], pose["y"])
            slot = seq % _RING
            if sender.sent_seq[slot] != seq:
                continue  # too old (or not ours): cannot be timed
            sent = sender.sent_at[slot]
            if stats.measuring(sent):
                stats.pose_ms.append((now - sent) * 1000.0)


@dataclass(frozen=True, slots=True)
class ClientPlan:
    """What the clients do: rooms, rates and the measurement's timing."""

    ws_url: str
    room_ids: list[str]
    seconds: float
    warmup: float
    pose_hz: float = 10.0
    place_every: float = 2.0
    seed: int = 1
    connect_concurrency: int = 64
    #: Each room's process by the balancer's name (``?node=``, as its page asks for it),
    #: or None: its sockets go by the room id's hash.
    room_nodes: Sequence[str | None] = ()


async def _open(client: LoadClient, url: str, gate: asyncio.Semaphore) -> None:
    """Connect, take a seat and say ready."""
    loop = asyncio.get_running_loop()
    async with gate:
        socket = LoadSocket(url, client.on_text, client.on_lost)
        await loop.create_connection(lambda: socket, socket.host, socket.port)
        await asyncio.wait_for(socket.opened, 60)
    client.ws = socket
    client._send(f'{{"type":"join","name":"p{client.seat}","seat":{client.seat}}}')
    await asyncio.wait_for(client.welcomed.wait(), 60)


async def _preplace(client: LoadClient) -> None:
    """Place this room's head start of cards, one after the other."""
    for _ in range(client.room.preplace):
        if not client.can_place():
            return
        await asyncio.wait_for(client.place(), 60)


class _Driver:
    """One client's pose stream and placements, on timer callbacks: a pose every
    ``1 / pose_hz`` seconds and a card every ``place_every`` seconds until ``end`` (loop
    time), each client at its own random phase until the room's pulse is known, then at
    the pulse's beats (:func:`next_pose_at`). ``done`` counts down the drivers left."""

    def __init__(
        self,
        client: LoadClient,
        plan: ClientPlan,
        ticker: _Ticker,
        span: tuple[float, float],
        done: _Countdown,
    ) -> None:
        start, end = span
        self.client, self.plan, self.end, self.done = client, plan, end, done
        self.loop = asyncio.get_running_loop()
        self.period = 1.0 / plan.pose_hz
        self.tick = start + client.rng.uniform(0.0, self.period)
        self.next_place = start + client.rng.uniform(0.0, plan.place_every)
        self.ticker = ticker
        ticker.call_at(self.tick, self.step)

    def step(self) -> None:
        """One tick: maybe a pose, maybe a card; then the next tick."""
        now = self.loop.time()
        if now >= self.end:
            self.done.count_down()
            return
        client, plan = self.client, self.plan
        if client.pulse is not None:  # aim at the room's pulse, as a page does
            pulse = client.pulse + (now - time.perf_counter())  # on the loop's clock
            self.tick = next_pose_at(now, pulse, self.period)
        else:
            self.tick += self.period
            if self.tick < now:  # fell behind (an overloaded client): do not burst
                self.tick = now + self.period
        if client.phase == "fast" and client.hand is not None:
            client.send_pose()
        if plan.place_every > 0 and now >= self.next_place and client.can_place():
            self.next_place = max(self.next_place + plan.place_every, now)
            client.place()
        self.ticker.call_at(self.tick, self.step)


def next_pose_at(last: float, pulse: float, period: float) -> float:
    """When a page sends its next pose after one sent at ``last``, the room's pose pulse
    beating at ``pulse`` (and every ``period`` before and after): the first beat at least
    half a period after ``last`` (``web/js/games/lasers/hand.js``, ``nextPoseAt``)."""
    return pulse + math.ceil((last + period / 2 - pulse) / period) * period


class _Ticker:
    """Timer callbacks grouped by the millisecond they are due in: one event-loop timer
    serves every client due in the same millisecond (hundreds of clients at 10 Hz would
    otherwise cost the loop a timer each per pose)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.due: dict[int, list[Callable[[], None]]] = {}

    def call_at(self, when: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` at loop time ``when`` (up to a millisecond later)."""
        slot = math.ceil(when * 1000.0)
        waiting = self.due.get(slot)
        if waiting is None:
            self.due[slot] = [callback]
            self.loop.call_at(slot / 1000.0, self._fire, slot)
        else:
            waiting.append(callback)

    def _fire(self, slot: int) -> None:
        for callback in self.due.pop(slot):
            callback()


class _Countdown:
    """A future that is done once :meth:`count_down` has been called ``n`` times."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if n == 0:
            self.finished.set_result(None)

    def count_down(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.finished.set_result(None)


async def _watch_lag(stats: Stats, end: float) -> None:
    """Record how late the event loop wakes up a 10 ms sleep (the clients' own delay)."""
    loop = asyncio.get_running_loop()
    while loop.time() < end:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        after = time.perf_counter()
        if stats.measuring(after):
            stats.lag_ms.append((after - before - 0.01) * 1000.0)


def _path(room: LoadRoom, nodes: Sequence[str | None]) -> str:
    """A room socket's path, with the room's process named for the balancer if known."""
    node = nodes[room.index] if room.index < len(nodes) else None
    return f"/ws/rooms/{room.id}" + (f"?node={node}" if node else "")


async def run_clients(plan: ClientPlan, on_measure: Callable[[bool], None] | None = None) -> Stats:
    """Run the plan: seat every client, give each room its head start, then load the
    server for ``warmup + seconds``, measuring during the last ``seconds``.

    ``on_measure(True)`` / ``on_measure(False)`` is called as the measurement starts and
    ends (the caller samples CPU times there)."""
    stats = Stats()
    rng = random.Random(plan.seed)
    spots = seat_spots()
    rooms = [LoadRoom(i, rid, rng.randrange(10)) for i, rid in enumerate(plan.room_ids)]
    gate = asyncio.Semaphore(plan.connect_concurrency)
    clients: list[LoadClient] = []
    for room in rooms:
        for seat in range(4):
            client = LoadClient(room, seat, spots[seat], stats, random.Random(rng.random()))
            room.clients.append(client)
            clients.append(client)
    try:
        await asyncio.gather(
            *(_open(c, plan.ws_url + _path(c.room, plan.room_nodes), gate) for c in clients)
        )
        for client in clients:
            client._send('{"type":"ready","ready":true}')
        await asyncio.wait_for(asyncio.gather(*(c.playing.wait() for c in clients)), 120)
        await asyncio.gather(*(_preplace(c) for c in clients))
        # What exists now lasts the whole run: keep it out of the garbage collector's full
        # passes, whose pauses would be measured as the server's latency.
        gc.collect()
        gc.freeze()

        loop = asyncio.get_running_loop()
        start = loop.time()
        measure_from = time.perf_counter() + plan.warmup
        stats.window = (measure_from, measure_from + plan.seconds)
        end = start + plan.warmup + plan.seconds
        driven = _Countdown(len(clients))
        ticker = _Ticker()
        for client in clients:
            _Driver(client, plan, ticker, (start, end), driven)
        lag = asyncio.create_task(_watch_lag(stats, end))
        await _measure(stats, on_measure)
        await asyncio.gather(driven.finished, lag)
    finally:
        stats.finished = True
        for client in clients:
            if client.ws is not None:
                client.ws.close()
    return stats


async def _measure(stats: Stats, on_measure: Callable[[bool], None] | None) -> None:
    """Sleep through the warmup, then count the messages of the measurement window."""
    await asyncio.sleep(max(0.0, stats.window[0] - time.perf_counter()))
    before = stats.counters()
    if on_measure is not None:
        on_measure(True)
    await asyncio.sleep(max(0.0, stats.window[1] - time.perf_counter()))
    if on_measure is not None:
        on_measure(False)
    after = stats.counters()
    stats.counted = {key: after[key] - before[key] for key in after}
