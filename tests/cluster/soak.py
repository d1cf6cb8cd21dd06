"""Every room resumes after a kill -9 (issue 36 item 7), over a long run:
``nice -n 10 uv run --frozen python -m tests.cluster.soak --rooms 30 --kills 10``.

Starts Redis, two ``spacetable serve --redis`` processes and HAProxy (``_cluster.py``),
opens ``--rooms`` rooms, created on each process in turn, each game in turn: Light Speed
and FTL between two people, the hex fleet between a person and a bot or two people. Every
player is a real socket through the balancer, in a thread of his own, and plays as the
page does: ready in the lobby, a move whenever the match waits for one (a card down, a
plot, an activation), a rematch once the match is over; a socket that closes is opened
again with the seat's token (``rejoin``), as the page does. Then, ``--kills`` times,
after ``--interval`` seconds of play, one process (each in turn) is killed with SIGKILL
and started again at once on its port, and every room must resume within ``--bound``
seconds: each of its players whose socket closed has his seat back, and the match has
moved on since (an action acknowledged to everyone: a card placed, a turn resolved, a
hex action acted).

What a player saw acknowledged must survive: a card he saw placed is on the table of
every later state of that match, an FTL turn seen resolved is never plotted again, a hex
match's version never goes back. At the end every finished match is fetched from the
cluster and replayed from its stored actions (its result must be the stored one), and
every card a Light Speed player saw placed is in its stored actions.

It prints a summary: failovers, rooms, resume time p50/p99/max, the 4404 closes seen
(a room said missing), the rooms that never resumed (with what their players last
saw), the losses. Its exit status is 1 if a room did not resume, a 4404 came, or
something acknowledged was lost. Not a test (pytest does not collect it: it runs for
minutes); docs/scaling.md gives the figures of a run.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import random
import statistics
import sys
import threading
import time
import urllib.error
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, WebSocketException

from spacetable.games.ftl import FtlMatch
from spacetable.games.hexfleet import HexMatch
from spacetable.games.lightspeed import LightSpeedMatch
from tests._laser_play import free_spot
from tests._server import Client, Server, wait_until
from tests.cluster._cluster import MISSING, Cluster, Worker, running_cluster
from tests.cluster.test_failover import replays_exactly
from tests.server.rooms.test_server_hexfleet import active_ship, simple_action

#: The close code of a room said not to exist: the page gives up on it.
NO_SUCH_ROOM = 4404
#: What each room plays, in turn: (ruleset, its options, whether seat 2 is a bot).
KINDS: tuple[tuple[str, dict[str, Any], bool], ...] = (
    ("lightspeed", {}, False),
    ("ftl", {"ruleset": "ftl", "turn_limit": 6}, False),
    ("hexfleet", {"ruleset": "hexfleet", "scenario": "duel", "turn_limit": 3}, True),
    ("lightspeed", {}, False),
    ("ftl", {"ruleset": "ftl", "turn_limit": 6}, False),
    ("hexfleet", {"ruleset": "hexfleet", "scenario": "duel", "turn_limit": 3}, False),
)
MATCH_TYPES = {"lightspeed": LightSpeedMatch, "ftl": FtlMatch, "hexfleet": HexMatch}
#: The FTL orders a player picks from (his ship is named after him).
FTL_ORDERS = ("S1", "S2", "R+45", "R+90", "S1")
#: Seconds between two moves of one player (people do not play at machine speed).
PACE = 0.3
#: Messages kept per player for the report.
KEPT = 30
#: When the run began (monotonic): the report's times count from it.
STARTED = time.monotonic()


@dataclass
class Failover:
    """One kill -9: its number, the process killed and when (monotonic)."""

    index: int
    victim: str
    at: float
    restarted: float = 0.0


@dataclass
class RoomRecord:
    """What the players of one room saw, shared by their threads."""

    id: str
    kind: str
    owner: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Times (monotonic) of the actions acknowledged to everyone.
    progress: list[float] = field(default_factory=list)
    #: Finished matches: id -> the cards Light Speed players saw placed, (x, y) rounded.
    finished: dict[str, set[tuple[float, float]]] = field(default_factory=dict)
    losses: list[str] = field(default_factory=list)

    def moved(self, at: float) -> None:
        with self.lock:
            self.progress.append(at)  # every one: a few hundred thousand floats a run

    def progressed_after(self, at: float) -> float | None:
        """The first acknowledged action after ``at``, or None."""
        with self.lock:
            found = bisect.bisect_right(self.progress, at)
            return self.progress[found] if found < len(self.progress) else None


class Player:
    """One person at his page: a socket through the balancer, reopened when it closes."""

    def __init__(
        self, front: Server, room: RoomRecord, name: str, bot: bool, stop: threading.Event
    ) -> None:
        self.front = front
        self.room = room
        self.name = name
        self.bot = bot  # the host of a room against a bot seats it
        self.stop = stop
        self.rng = random.Random(f"{room.id}:{name}")
        self.client: Client | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.last: deque[str] = deque(maxlen=KEPT)
        #: (monotonic time, close code) of every close of its socket.
        self.closes: list[tuple[float, int | None]] = []
        #: Monotonic times its seat was taken back after a close.
        self.welcomes: list[float] = []
        self.connected = False
        self.pending: str | None = None  # the move sent, waiting for its answer
        self.acted_at = 0.0
        self.match_id: str | None = None
        self.placed: set[tuple[float, float]] = set()  # my cards down this match
        self.placed_ids: set[int] = set()
        self.ftl_resolved = 0  # the last FTL turn seen resolved this match
        self.ftl_plot: tuple[int, list[str]] | None = None  # my plot seen accepted
        self.hex_version = -1
        self.thread = threading.Thread(target=self.run, name=f"{room.id}:{name}", daemon=True)

    # -- the socket ---------------------------------------------------------------

    def join(self) -> None:
        client = Client(self.front, self.room.id)
        client.send(type="join", name=self.name)
        welcome = client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        self.client, self.token, self.seat = client, welcome["token"], welcome["seat"]
        self.connected = True

    def rejoin(self) -> None:
        """Take the seat back, as the page does after its socket closed."""
        delay = 0.4
        while not self.stop.is_set():
            try:
                client = Client(self.front, self.room.id)
                client.send(type="rejoin", token=self.token)
                answer = client.wait(
                    lambda m: m["type"] == "error" or m.get("role") == "player", timeout=20
                )
                self.note(answer)
                if answer["type"] == "welcome":
                    self.client = client
                    self.welcomes.append(time.monotonic())
                    self.connected = True
                    self.pending = None
                    for message in client.received:  # what came as it reconnected
                        if message is not answer:
                            self.heard(message)
                    del client.received[:]
                    return
                client.close()
            except ConnectionClosed as closed:
                self.closes.append((time.monotonic(), _code(closed)))
                self.log(f"closed {_code(closed)}")
            except (OSError, TimeoutError, InvalidHandshake, WebSocketException) as exc:
                self.log(f"no socket: {type(exc).__name__}")
            time.sleep(delay)  # the page waits before it tries again: nothing to await
            delay = min(5.0, delay * 2)

    def run(self) -> None:
        while not self.stop.is_set():
            client = self.client
            if client is None:
                self.rejoin()
                continue
            try:
                message = client.wait(lambda m: True, timeout=PACE)
            except TimeoutError:
                message = None
            except ConnectionClosed as closed:
                self.closes.append((time.monotonic(), _code(closed)))
                self.log(f"closed {_code(closed)}")
                self.client, self.connected = None, False
                continue
            del client.received[:]
            if message is not None:
                self.note(message)
                self.heard(message)
            try:
                self.play(client)
            except ConnectionClosed:
                continue  # the next wait says how it closed
        if self.client is not None:
            self.client.close()

    def note(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        detail = message.get("phase") or message.get("message") or message.get("action") or ""
        self.log(f"{kind} {detail}".strip())

    def log(self, what: str) -> None:
        """Keep ``what`` for the report, with the time since the run began."""
        self.last.append(f"{time.monotonic() - STARTED:.1f}s {what}")

    # -- what the player hears ------------------------------------------------------

    def heard(self, message: dict[str, Any]) -> None:
        kind, now = message["type"], time.monotonic()
        if kind == "room":
            if message.get("match_id") != self.match_id:
                self.match_id = message.get("match_id")
                self.new_match()
            self.answer_room(message)
        elif kind == "placed":
            self.room.moved(now)
            if message["player"] == self.name:
                card = message["card"]
                self.placed.add((round(card["x"], 2), round(card["y"], 2)))
                self.placed_ids.add(card["id"])
                self.pending = None
        elif kind in ("turn", "acted"):
            self.room.moved(now)
            if kind == "turn":
                self.ftl_resolved = max(self.ftl_resolved, message["turn"])
            elif message.get("player") == self.name:
                self.pending = None
        elif kind in ("battle", "result"):
            self.room.moved(now)
            with self.room.lock:
                cards = self.room.finished.setdefault(message["match_id"], set())
                if kind == "battle":
                    cards |= self.placed
            self.new_match()
        elif kind == "refused":
            self.pending = None
        elif kind == "state" and not message.get("folded") and message["player"] == self.name:
            if self.pending == "discard":
                self.pending = None
            self.check(message)

    def new_match(self) -> None:
        """Forget what was acknowledged in the match that ended."""
        self.placed, self.placed_ids, self.pending = set(), set(), None
        self.ftl_resolved, self.ftl_plot, self.hex_version = 0, None, -1

    def answer_room(self, room: dict[str, Any]) -> None:
        """Ready in the lobby (the host seats the bot first); a rematch once it is over."""
        client = self.client
        assert client is not None
        mine = next((s for s in room["seats"] if s["seat"] == self.seat), None)
        if mine is None:
            return
        if room["phase"] == "lobby" and not mine["ready"]:
            if self.bot and room["seats"][1]["kind"] == "empty":
                client.send(type="bot", seat=1, level="easy")
                return
            if all(s["kind"] != "empty" for s in room["seats"]):
                client.send(type="ready")
        elif room["phase"] == "over" and not mine.get("rematch"):
            client.send(type="rematch")

    def check(self, state: dict[str, Any]) -> None:
        """What this player saw acknowledged is still in the match's state."""
        lost = None
        if self.room.kind == "lightspeed" and state["phase"] in ("fast", "stop"):
            on_table = {card["id"] for card in state["table"]}
            if not self.placed_ids <= on_table:
                lost = f"cards {sorted(self.placed_ids - on_table)} gone from the table"
        elif self.room.kind == "ftl" and state["phase"] == "plot":
            if state["turn"] <= self.ftl_resolved:
                lost = f"turn {state['turn']} plotted again (turn {self.ftl_resolved} resolved)"
            elif (
                self.ftl_plot is not None
                and self.ftl_plot[0] == state["turn"]
                and (state["plot"] != self.ftl_plot[1])
            ):
                lost = f"plot {self.ftl_plot[1]} of turn {state['turn']} gone"
            if state["plot"] is not None:
                self.ftl_plot = (state["turn"], state["plot"])
                if self.pending == "plot":
                    self.pending = None
        elif self.room.kind == "hexfleet" and "version" in state:
            if state["version"] < self.hex_version:
                lost = f"version {state['version']} after {self.hex_version}"
            self.hex_version = max(self.hex_version, state["version"])
        if lost is not None:
            with self.room.lock:
                self.room.losses.append(f"{self.name}: {lost}")

    # -- what the player does ----------------------------------------------------------

    def play(self, client: Client) -> None:
        state = client.state
        now = time.monotonic()
        if state is None or state["player"] != self.name:
            return
        if self.pending is not None and now - self.acted_at < 10:
            return  # a move in flight (one lost with its socket is given up after 10 s)
        if now - self.acted_at < PACE:
            return
        move = self.move(state)
        if move is not None:
            client.send(**move)
            self.pending, self.acted_at = str(move["type"]), now

    def move(self, state: dict[str, Any]) -> dict[str, Any] | None:
        kind, me = self.room.kind, self.name
        if kind == "lightspeed":
            if state["phase"] == "fast" and state["hand"] is not None:
                return {"type": "place", **free_spot(state, self.rng)}
            if state["phase"] == "stop" and not state["players"][me]["decided"]:
                return {"type": "discard"}
        elif kind == "ftl":
            seat = state["players"].get(me, {})
            if state["phase"] == "plot" and seat.get("in_play") and state["plot"] is None:
                return {"type": "plot", "orders": [f"{me}:{self.rng.choice(FTL_ORDERS)}"]}
        elif kind == "hexfleet" and state["phase"] == "activation":
            ship = active_ship(state)
            if ship is not None and ship["owner"] == me:
                return {"type": "act", "action": simple_action(state)}
        return None


def _code(closed: ConnectionClosed) -> int | None:
    return None if closed.rcvd is None else closed.rcvd.code


# -- the run -------------------------------------------------------------------------


def open_rooms(cluster: Cluster, count: int, stop: threading.Event) -> list[Player]:
    """``count`` rooms created on each process in turn, each game in turn, their
    players seated through the balancer and their threads started."""
    front = cluster.balancer.server
    players: list[Player] = []
    for index in range(count):
        ruleset, options, bot = KINDS[index % len(KINDS)]
        owner = cluster.workers[index % len(cluster.workers)]
        room_id = owner.server.create_room(**options)
        room = RoomRecord(room_id, ruleset, owner.name)
        names = ("Ann",) if bot else ("Ann", "Bob")
        seated = [Player(front, room, name, bot, stop) for name in names]
        for player in seated:
            player.join()
        players.extend(seated)
    for player in players:
        player.thread.start()
    return players


def resumed(room: list[Player], failover: Failover) -> float | None:
    """When the room was playing again after ``failover``: every player whose socket
    closed since has his seat back, and an action was acknowledged after the last of
    them came back. None: not yet."""
    back = failover.at
    for player in room:
        closes = [t for t, _ in player.closes if t >= failover.at]
        if not closes:
            continue
        if not player.connected:
            return None
        came = [t for t in player.welcomes if t >= closes[-1]]
        if not came:
            return None
        back = max(back, came[0])
    return room[0].room.progressed_after(back)


def disturbed(room: list[Player], failover: Failover) -> bool:
    return any(t >= failover.at for player in room for t, _ in player.closes)


def keep_output(worker: Worker, logs: Path) -> None:
    """Copy the process's output to a file of ``logs`` (``s1-<pid>.log``), as it comes: a
    pipe nobody reads fills, and the process then blocks on its next log line."""
    process = worker.server.process
    assert process.stdout is not None
    path = logs / f"{worker.name}-{process.pid}.log"

    def copy() -> None:
        with path.open("w") as out:
            for line in process.stdout or ():
                out.write(f"{time.monotonic() - STARTED:.1f}s {line}")
                out.flush()

    threading.Thread(target=copy, name=f"output of {worker.name}", daemon=True).start()


def run(args: argparse.Namespace) -> int:
    stop = threading.Event()
    options = (
        *("--message-rate", "0", "--bot-pace", "0.05", "--room-seed", str(args.seed)),
        *("--abandon-seconds", "3600", "--grace-seconds", "3600"),
    )
    args.logs.mkdir(parents=True, exist_ok=True)
    with running_cluster(2, *options) as cluster:
        started = time.monotonic()
        for worker in cluster.workers:
            keep_output(worker, args.logs)
        players = open_rooms(cluster, args.rooms, stop)
        rooms = {
            room_id: list(group)
            for room_id, group in itertools.groupby(players, key=lambda p: p.room.id)
        }
        print(f"{len(rooms)} rooms, {len(players)} players: playing", flush=True)
        failovers: list[Failover] = []
        times: list[float] = []
        never: dict[str, tuple[int, list[Player]]] = {}
        undisturbed = 0
        for index in range(args.kills):
            _play_for(args.interval, rooms, stop)
            victim: Worker = cluster.workers[index % len(cluster.workers)]
            failover = Failover(index + 1, victim.name, time.monotonic())
            print(f"{failover.at - STARTED:.1f}s kill -9 of {victim.name}", flush=True)
            victim.kill()
            # Started again at once, as a supervisor does; the rooms need not wait for it.
            restart = threading.Thread(target=_restart, args=(cluster, victim, failover, args.logs))
            restart.start()
            failovers.append(failover)
            back = _wait_resumed(rooms, failover, args.bound)
            restart.join()
            took = []
            for room_id, room in rooms.items():
                if room_id not in back:
                    never.setdefault(room_id, (failover.index, room))
                elif disturbed(room, failover):
                    took.append(back[room_id] - failover.at)
                else:
                    undisturbed += 1
            late = set(rooms) - set(back)
            times.extend(took)
            slowest = max(took, default=0.0)
            print(
                f"kill -9 #{failover.index} of {victim.name}: back in {failover.restarted:.1f} s;"
                f" {len(took)} rooms resumed (slowest {slowest:.1f} s), {len(late)} not",
                flush=True,
            )
        _play_for(args.interval, rooms, stop)
        stop.set()
        for player in players:
            player.thread.join(timeout=30)
        checked, problems = _check_stored(cluster.balancer.server, rooms)
        minutes = (time.monotonic() - started) / 60
    return _report(args, rooms, failovers, times, never, undisturbed, checked, problems, minutes)


def _restart(cluster: Cluster, victim: Worker, failover: Failover, logs: Path) -> None:
    """A new process on the killed one's port, until the balancer sends it pages."""
    victim.restart()
    keep_output(victim, logs)
    wait_until(lambda: _sees_all(cluster), "the balancer to see it back", 180)
    failover.restarted = time.monotonic() - failover.at


def _sees_all(cluster: Cluster) -> bool:
    """Whether the balancer sends pages to both processes (a busy balancer that does not
    answer in time: not yet)."""
    try:
        return cluster.balancer_sees_all()
    except OSError:
        return False


def _play_for(seconds: float, rooms: dict[str, list[Player]], stop: threading.Event) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stop.is_set():
        time.sleep(0.5)  # the players play in their threads meanwhile


def _wait_resumed(
    rooms: dict[str, list[Player]], failover: Failover, bound: float
) -> dict[str, float]:
    """When each room played again after the kill, for those that did within ``bound``
    seconds (polled: the players' threads tell nothing to await)."""
    deadline = failover.at + bound
    while True:
        back = {room_id: resumed(room, failover) for room_id, room in rooms.items()}
        done = {room_id: at for room_id, at in back.items() if at is not None}
        # Settled: the sockets the kill closed have all seen it by then.
        settled = time.monotonic() > failover.at + 3
        if (settled and len(done) == len(rooms)) or time.monotonic() > deadline:
            return done
        time.sleep(0.2)


def _check_stored(front: Server, rooms: dict[str, list[Player]]) -> tuple[int, list[str]]:
    """Every finished match, replayed from its stored actions; every Light Speed card a
    player saw placed, in them."""
    checked, problems = 0, []
    for room_id, room in rooms.items():
        record = room[0].room
        for match_id, cards in record.finished.items():
            try:
                stored = front.stored_match(match_id)
                replays_exactly(stored, MATCH_TYPES[record.kind])
            except (AssertionError, urllib.error.URLError, ValueError) as exc:
                problems.append(f"room {room_id} match {match_id}: {exc!r}"[:300])
                continue
            placed = {
                (round(a["x"], 2), round(a["y"], 2))
                for a in stored["actions"]
                if a["type"] == "place"
            }
            if not cards <= placed:
                problems.append(f"room {room_id} match {match_id}: {cards - placed} not stored")
            checked += 1
        problems.extend(f"room {room_id}: {loss}" for loss in record.losses)
    return checked, problems


def _report(
    args: argparse.Namespace,
    rooms: dict[str, list[Player]],
    failovers: list[Failover],
    times: list[float],
    never: dict[str, tuple[int, list[Player]]],
    undisturbed: int,
    checked: int,
    problems: list[str],
    minutes: float,
) -> int:
    closes = Counter(code for room in rooms.values() for p in room for _, code in p.closes)
    missing = [
        (room_id, p.name)
        for room_id, room in rooms.items()
        for p in room
        if any(code == NO_SUCH_ROOM for _, code in p.closes)
    ]
    kinds = Counter(room[0].room.kind for room in rooms.values())
    restarts = [f.restarted for f in failovers]
    print()
    print(f"soak: {len(failovers)} kill -9 failovers, {len(rooms)} rooms ({dict(kinds)}),")
    print(f"      {sum(len(r) for r in rooms.values())} players, {minutes:.1f} minutes")
    if restarts:
        print(f"process back in the balancer: max {max(restarts):.1f} s after the kill")
    if times:
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        print(
            f"rooms resumed: {len(times)} (+{undisturbed} undisturbed); kill to playing again:"
            f" p50 {statistics.median(ordered):.2f} s, p99 {p99:.2f} s, max {ordered[-1]:.2f} s"
        )
    print(f"socket closes by code: {dict(sorted(closes.items(), key=str))}")
    print(f"4404 'no such room' closes: {len(missing)} {missing}")
    for room_id, name in missing:
        player = next(p for p in rooms[room_id] if p.name == name)
        print(f"  {room_id} {name}: {list(player.last)}")
    print(f"finished matches replayed from storage: {checked}")
    print(f"rooms never resumed within {args.bound:.0f} s: {len(never)}")
    for room_id, (index, room) in never.items():
        print(f"  {room_id} ({room[0].room.kind}, created on {room[0].room.owner}), kill #{index}:")
        for player in room:
            print(f"    {player.name}: connected={player.connected} last: {list(player.last)}")
    print(f"lost or not replaying: {len(problems)}")
    for problem in problems:
        print(f"  {problem}")
    return 1 if never or missing or problems else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--interval", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--bound", type=float, default=60.0, help="seconds to resume")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--logs", type=Path, default=Path("/tmp/spacetable-soak"), help="the processes' output"
    )
    args = parser.parse_args()
    if MISSING is not None:
        sys.exit(MISSING)
    sys.exit(run(args))


if __name__ == "__main__":
    main()
