"""Load benchmark of the game server: ``spacetable loadtest`` calls :func:`run_loadtest`.

It starts a real ``spacetable serve`` process pinned to one core (core 0), and from this
process, pinned to another core (core 1), seats ``rooms`` rooms of four websocket clients
on loopback (``spacetable.lab._loadclient``): each streams its hand pose as often as a
page does (:data:`PAGE_POSE_HZ`) and places a card every two seconds, playing whole matches
and rematches. The report gives the messages per second into and out of the server, the
p50/p99 latency of a pose (sent by one client, received by each other client of its room)
and of a placement's answer, the server's and the clients' CPU use, and whether the target
is met. It warns when the clients were too busy, or their event loop too late, for the
latencies to be the server's alone (:func:`skew_warnings`).

With ``workers`` above 1 the server is ``spacetable serve --workers N`` instead: N
processes sharing a Redis of their own behind HAProxy with the shipped configuration
(``cli/_workers.py``), none pinned, the clients reaching every room through HAProxy.
Rooms are created round robin, and each room's sockets name its process (``?node=``, as
its page does), so the balancer sends them straight there; with ``by_hash`` they go by
the hash of the room id instead, as a client that does not know the room's process does,
so about half of them are relayed by a process that does not own the room. The report
then adds the work per server CPU-second (rooms and messages per CPU-second of the N
processes together, the figure to compare with one process alone) and the CPU that
HAProxy and Redis took beside them.

With a ``source`` tree the server runs that tree's code (another commit's worktree:
``loadtest --vs``, :mod:`spacetable.lab.loadvs`); the report names the package the server
imports (``server_code``).

Poses are coalesced by the server (:mod:`spacetable.server.rooms.room`): a room gathers the
poses that arrive close together and sends them as one ``poses`` message. The time a pose
waits there is part of the measured pose latency. A run passes when the p99 latency of
poses and of placement answers are both below the threshold (50 ms: the issue's target)
and no connection was lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spacetable.lab._loadclient import ClientPlan, Stats, run_clients

#: The goal of the issue: this many rooms with both p99 latencies under the threshold.
TARGET_ROOMS = 150
THRESHOLD_MS = 50.0
#: How many poses a second a page streams while its player moves the card in hand
#: (``POSE_INTERVAL_MS`` in ``web/js/games/lasers/hand.js``, which tests/lab checks).
PAGE_POSE_HZ = 10.0
SERVER_CORE, CLIENT_CORE = 0, 1
_CPUCLOCK_SCHED = 2


@dataclass(frozen=True, slots=True)
class LoadSettings:
    """One run's knobs."""

    rooms: int
    seconds: float = 15.0
    warmup: float = 3.0
    pose_hz: float = PAGE_POSE_HZ
    place_every: float = 2.0
    threshold_ms: float = THRESHOLD_MS
    seed: int = 1
    pin: bool = True
    #: Server processes: 1 is ``spacetable serve`` alone; more, ``serve --workers N``.
    workers: int = 1
    #: With workers: the sockets go by the room id's hash (about half relayed), not
    #: straight to the room's process.
    by_hash: bool = False
    #: The source tree the server runs instead of this code (``loadtest --vs``: another
    #: commit's worktree): its ``src`` comes first on the server's ``PYTHONPATH``, with the
    #: same interpreter and installed dependencies. None: this code. The load clients are
    #: this code either way.
    source: Path | None = None


# -- the server process ------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _free_ports(count: int) -> int:
    """A port such that it and the ``count`` ports after it are free (the balancer's and
    its processes', ``serve --workers``)."""
    for _ in range(100):
        base = _free_port()
        if base + count < 65536 and all(port_free(base + i) for i in range(1, count + 1)):
            return base
    raise RuntimeError(f"found no {count + 1} free ports in a row")


def port_free(port: int) -> bool:
    """Whether a process of this machine could listen on ``port`` of 127.0.0.1 now."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and theirs, from /proc (those alive now)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


#: The programs that run beside the server processes (``serve --workers``).
BESIDE = frozenset({"haproxy", "redis-server"})


def _program(pid: int) -> str:
    """The name of the program process ``pid`` runs (``comm``), or "" if it is gone."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as comm:
            return comm.read().strip()
    except OSError:
        return ""


def _cores() -> set[int]:
    return set(os.sched_getaffinity(0))


def _can_pin() -> bool:
    """Whether both cores exist here (a one-core machine runs unpinned)."""
    return {SERVER_CORE, CLIENT_CORE} <= _cores()


def process_cpu_seconds(pid: int) -> float:
    """The CPU time of process ``pid`` so far (all its threads, ended ones too), to the
    nanosecond: the kernel's CPU-time clock of that process (what ``clock_getcpuclockid(3)``
    names; Python has no call for it). /proc/<pid>/stat counts whole ticks of 10 ms: a
    server's worker that spent 6 ms in a short run could show none. Raises ``OSError``
    when the process is gone."""
    # Linux's clock id of a process: the complement of its pid, shifted past the clock's
    # kind (CPUCLOCK_SCHED, the precise sum of its threads' run times).
    return time.clock_gettime(((~pid) << 3) | _CPUCLOCK_SCHED)


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_command(port: int, db: Path, workers: int = 1) -> list[str]:
    """The command line of the server: ``spacetable serve`` with this interpreter."""
    return [
        sys.executable,
        "-m",
        "spacetable",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
        # The clients place at once: no 3-2-1 before the round.
        "--runup-seconds",
        "0",
        *(("--workers", str(workers)) if workers > 1 else ()),
    ]


def server_env(source: Path | None, environ: Mapping[str, str]) -> dict[str, str]:
    """The server's environment: ``environ``, with ``source``'s ``src`` first on
    ``PYTHONPATH`` when the server runs another tree's code. ``PYTHONPATH`` comes before
    the site-packages, where the editable install of this code puts its own ``src``."""
    env = dict(environ)
    if source is not None:
        paths = [str(source / "src"), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
        env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def imported_from(env: Mapping[str, str], cwd: Path | None) -> str:
    """The directory of the ``spacetable`` package that this interpreter imports with
    ``env`` in ``cwd``, as the server's ``python -m spacetable`` does (both put ``cwd``
    first on the path): which tree serves."""
    found = subprocess.run(
        [sys.executable, "-c", "import spacetable; print(spacetable.__file__)"],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return str(Path(found.stdout.strip()).parent)


class ServerProcess:
    """A ``spacetable serve`` process on a free port with a throwaway SQLite file (with
    ``workers`` above 1: ``serve --workers N``, its processes, Redis and HAProxy), running
    this code or, with ``source``, that tree's (:attr:`LoadSettings.source`)."""

    def __init__(
        self, workdir: Path, pin: bool, workers: int = 1, source: Path | None = None
    ) -> None:
        self.workers = workers
        self.port = _free_port() if workers == 1 else _free_ports(workers)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = workdir / "server.log"
        env = server_env(source, os.environ)
        #: The directory of the ``spacetable`` package the server imports.
        self.code = imported_from(env, source)
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                server_command(self.port, workdir / "load.db", workers),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                cwd=source,
            )
        if pin and workers == 1:  # threads the server starts later inherit this
            os.sched_setaffinity(self.process.pid, {SERVER_CORE})

    def wait_ready(self, timeout: float = 300.0) -> None:
        """Wait until the server answers HTTP and its start-up work (loading the bots'
        compiled resolver) is done, i.e. its CPU use has settled. On a fresh clone that
        work compiles the resolver first: minutes on a busy machine."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.get("/api/rooms")
                break
            except (urllib.error.URLError, ConnectionError):
                self._check_alive(deadline)
                time.sleep(0.1)
        while True:
            before = self.cpu_seconds()
            time.sleep(0.5)
            if self.cpu_seconds() - before < 0.05 * self.workers:
                return
            self._check_alive(deadline)

    def _check_alive(self, deadline: float) -> None:
        if self.process.poll() is not None or time.monotonic() > deadline:
            said = self.log.read_text()
            if self.process.poll() is not None and "address already in use" in said:
                raise PortTaken(self.port)
            raise RuntimeError(f"spacetable serve did not start:\n{said}")

    def get(self, path: str) -> Any:
        """GET a JSON route."""
        with urllib.request.urlopen(self.http + path, timeout=30) as response:
            return json.load(response)

    def create_room(self) -> tuple[str, str | None]:
        """Open a four-seat room; its id, and its process's name in the balancer (None
        for a process alone)."""
        request = urllib.request.Request(
            self.http + "/api/rooms",
            data=b'{"seats": 4}',
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            room = json.load(response)
            return str(room["id"]), room.get("node")

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (with workers: its processes', together)."""
        return self.split_cpu_seconds()[0]

    def split_cpu_seconds(self) -> tuple[float, float]:
        """The CPU time so far of the server's processes, and of what runs beside them
        (HAProxy and Redis, with workers; 0 without)."""
        server = process_cpu_seconds(self.process.pid)
        beside = 0.0
        for pid in descendants(self.process.pid):
            try:
                spent = process_cpu_seconds(pid)
            except OSError:
                continue  # gone meanwhile
            if _program(pid) in BESIDE:
                beside += spent
            else:
                server += spent
        return server, beside

    def stop(self) -> None:
        """Terminate the server (kill it if it does not stop)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class PortTaken(RuntimeError):
    """The server's port, free when it was chosen, was taken before the server listened
    on it (by another program, or by an outgoing connection given it as its own)."""


#: How many times a server is started on new ports when its own were taken meanwhile.
PORT_TRIES = 3


@contextlib.contextmanager
def running_server(
    pin: bool, workers: int = 1, source: Path | None = None
) -> Iterator[ServerProcess]:
    """A started and settled server, stopped afterwards. Its ports are chosen free, then
    bound by the server a moment later: one taken meanwhile is chosen again (up to
    :data:`PORT_TRIES` times), as a busy machine's outgoing connections may take one."""
    with tempfile.TemporaryDirectory(prefix="spacetable-load-") as tmp:
        for attempt in range(1, PORT_TRIES + 1):
            server = ServerProcess(Path(tmp), pin, workers, source)
            try:
                server.wait_ready()
                break
            except PortTaken:
                server.stop()
                if attempt == PORT_TRIES:
                    raise
            except BaseException:
                server.stop()
                raise
        try:
            yield server
        finally:
            server.stop()


@contextlib.contextmanager
def _pinned(core: int | None) -> Iterator[None]:
    """Run this thread (the clients' event loop) on ``core``, then restore its cores."""
    if core is None:
        yield
        return
    before = _cores()
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


# -- one run ------------------------------------------------------------------------------


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop's event loop where it is installed (a dependency but on Windows), else asyncio's."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def percentiles(values: Sequence[float]) -> dict[str, float | int | None]:
    """``count``, ``p50``, ``p90``, ``p99`` and ``max`` of ``values`` (ms, rounded to 0.1);
    ``None`` for each statistic when there are no values."""
    ordered = sorted(values)
    n = len(ordered)

    def at(q: float) -> float | None:
        return None if n == 0 else round(ordered[min(n - 1, int(q * n))], 1)

    return {"count": n, "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0)}


def run_loadtest(settings: LoadSettings) -> dict[str, Any]:
    """Start a server, load it as ``settings`` say, and report (see the module doc)."""
    if settings.rooms < 1 or settings.seconds <= 0 or settings.warmup < 0:
        raise ValueError("rooms must be >= 1, seconds > 0 and warmup >= 0")
    if settings.workers < 1:
        raise ValueError("workers must be >= 1")
    pin = settings.pin and _can_pin() and settings.workers == 1
    with running_server(pin, settings.workers, settings.source) as server:
        rooms = [server.create_room() for _ in range(settings.rooms)]
        plan = ClientPlan(
            ws_url=server.ws,
            room_ids=[room for room, _ in rooms],
            room_nodes=() if settings.by_hash else [node for _, node in rooms],
            seconds=settings.seconds,
            warmup=settings.warmup,
            pose_hz=settings.pose_hz,
            place_every=settings.place_every,
            seed=settings.seed,
        )
        marks: dict[bool, tuple[float, float, float, float]] = {}

        def on_measure(starting: bool) -> None:
            spent, beside = server.split_cpu_seconds()
            marks[starting] = (time.perf_counter(), spent, _own_cpu_seconds(), beside)

        def clients() -> Stats:
            with (
                _pinned(CLIENT_CORE if pin else None),
                asyncio.Runner(loop_factory=_loop_factory()) as runner,
            ):
                return runner.run(run_clients(plan, on_measure))

        # A thread of their own: the clients' event loop starts even when the caller's
        # thread already runs one (a notebook, or a test session with Playwright's).
        with concurrent.futures.ThreadPoolExecutor(1, "loadtest-clients") as pool:
            stats = pool.submit(clients).result()
        alive = server.process.poll() is None
    report = _report(settings, stats, marks, pin, alive)
    report["server_code"] = server.code
    report["warnings"] = skew_warnings(report)
    return report


def _report(
    settings: LoadSettings,
    stats: Stats,
    marks: dict[bool, tuple[float, float, float, float]],
    pinned: bool,
    server_alive: bool,
) -> dict[str, Any]:
    (t0, server0, client0, beside0), (t1, server1, client1, beside1) = marks[True], marks[False]
    wall = t1 - t0
    server_cpu = max(server1 - server0, 1e-9)
    pose = percentiles(stats.pose_ms)
    place = percentiles(stats.place_ms)
    ok = (
        server_alive
        and pose["p99"] is not None
        and place["p99"] is not None
        and pose["p99"] < settings.threshold_ms
        and place["p99"] < settings.threshold_ms
        and stats.closed == 0
    )
    counted = stats.counted
    return {
        "rooms": settings.rooms,
        "clients": 4 * settings.rooms,
        "seconds": round(wall, 2),
        "warmup_s": settings.warmup,
        "pose_hz": settings.pose_hz,
        "place_every_s": settings.place_every,
        "messages_in_per_s": round(counted["sent"] / wall, 1),
        "messages_out_per_s": round(counted["received"] / wall, 1),
        "poses_sent_per_s": round(counted["poses_sent"] / wall, 1),
        "places_sent_per_s": round(counted["places_sent"] / wall, 1),
        "pose_latency_ms": pose,
        "place_latency_ms": place,
        "client_loop_lag_ms": percentiles(stats.lag_ms),
        "matches_finished": stats.matches,
        "refused": stats.refused,
        "errors": stats.errors,
        "error_messages": stats.error_messages,
        "connections_lost": stats.closed,
        "workers": settings.workers,
        "sockets_by_hash": settings.by_hash,
        "server_cpu_percent": round(100.0 * (server1 - server0) / wall, 1),
        "balancer_redis_cpu_percent": round(100.0 * (beside1 - beside0) / wall, 1),
        "client_cpu_percent": round(100.0 * (client1 - client0) / wall, 1),
        # The work per server CPU-second: what one core does, whatever else the machine
        # runs (a loaded machine gives the server less of its cores, not less per second).
        "rooms_per_cpu_second": round(settings.rooms * wall / server_cpu, 1),
        "messages_per_cpu_second": round((counted["sent"] + counted["received"]) / server_cpu, 1),
        "pinned": {"server_core": SERVER_CORE, "client_core": CLIENT_CORE} if pinned else None,
        "threshold_ms": settings.threshold_ms,
        "criterion": f"pose and place p99 < {settings.threshold_ms:g} ms, no connection lost",
        "ok": ok,
        "target_rooms": TARGET_ROOMS,
        "target_met": ok and settings.rooms >= TARGET_ROOMS,
    }


def find_max(
    base: LoadSettings,
    start: int = 50,
    step: int = 50,
    limit: int = 1000,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run ``start``, ``start + step``, ... rooms (a fresh server each time) until a run
    misses the criterion or ``limit`` is passed; report every run and the largest room
    count that met it (``None`` if even the first did not)."""
    runs: list[dict[str, Any]] = []
    best: int | None = None
    rooms = start
    while rooms <= limit:
        report = run_loadtest(dataclasses.replace(base, rooms=rooms))
        runs.append(report)
        if progress is not None:
            progress(report)
        if not report["ok"]:
            break
        best = rooms
        rooms += step
    return {
        "max_rooms": best,
        "criterion": runs[-1]["criterion"] if runs else None,
        "target_rooms": TARGET_ROOMS,
        "target_met": best is not None and best >= TARGET_ROOMS,
        "runs": runs,
    }


#: Above this share of its core (percent) the load client skews what it measures. A
#: callback waits for the work queued before it, and in a queue served by one worker
#: the mean wait grows as u / (1 - u) service times at utilisation u: one at 50%, four at
#: 80%, nine at 90%. Past 80% the client's own waits grow faster than the load does.
CLIENT_CORE_LIMIT = 80.0
#: The client's event-loop lag p99 may be at most this share of the p99 budget. Each
#: latency is timed when the client's loop gets to the message, so a loop late by L ms
#: at p99 can add up to L ms to the p99s measured: past a tenth of the budget, a run
#: within 10% of the threshold may pass or miss because of the client alone.
LAG_SHARE = 0.10


def skew_warnings(report: Mapping[str, Any]) -> list[str]:
    """What in a run's ``report`` says the load client skewed the latencies it measured:
    its process above :data:`CLIENT_CORE_LIMIT` of its core, or its event loop's lag p99
    above :data:`LAG_SHARE` of the budget (``threshold_ms``). Empty when neither."""
    warnings = []
    core = report["client_cpu_percent"]
    if core > CLIENT_CORE_LIMIT:
        warnings.append(
            f"the load client used {core:.0f}% of its core (above {CLIENT_CORE_LIMIT:.0f}%): "
            "its own queueing is counted in the latencies measured; run fewer rooms, or "
            "on a quieter machine"
        )
    lag = report["client_loop_lag_ms"]["p99"]
    bound = LAG_SHARE * report["threshold_ms"]
    if lag is not None and lag > bound:
        warnings.append(
            f"the load client's event loop ran {lag:.1f} ms late at p99 (above {bound:g} ms, "
            f"{LAG_SHARE:.0%} of the {report['threshold_ms']:g} ms budget): the p99s "
            "measured may hold up to that much of the client's own delay"
        )
    return warnings


def summary_line(report: dict[str, Any]) -> str:
    """One human line for a run (it names the pose rate when it is not a page's)."""
    pose, place = report["pose_latency_ms"], report["place_latency_ms"]
    lag = report["client_loop_lag_ms"]["p99"]
    lag_shown = "-" if lag is None else f"{lag:.1f}"
    rate = report.get("pose_hz", PAGE_POSE_HZ)
    rate_shown = "" if rate == PAGE_POSE_HZ else f" ({rate:g} poses/s)"
    return (
        f"{report['rooms']:4d} rooms{rate_shown}  in {report['messages_in_per_s']:8,.0f}/s  "
        f"out {report['messages_out_per_s']:8,.0f}/s  "
        f"pose p50/p99 {pose['p50']}/{pose['p99']} ms  "
        f"place p50/p99 {place['p50']}/{place['p99']} ms  "
        f"server {report['server_cpu_percent']:.0f}%  client {report['client_cpu_percent']:.0f}% "
        f"(lag p99 {lag_shown} ms)  "
        f"msgs/server-CPU-s {report['messages_per_cpu_second']:,.0f}  "
        f"rooms/server-core {report['rooms_per_cpu_second']:,.0f}  "
        f"{'ok' if report['ok'] else 'MISSED'}"
    )
