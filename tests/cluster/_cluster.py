"""A real cluster for tests: Redis, several ``spacetable serve --redis`` processes and
HAProxy in front of them with the shipped configuration, each on a free port, started and
stopped by the test (no fixed sleeps: each is polled until it answers)."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from spacetable.server.cluster.balancer import haproxy_config, server_names
from spacetable.server.cluster.node import address_of, owner_key
from spacetable.server.stopping import REPORT_SECONDS
from tests._forks import Process, spawn
from tests._server import ProcessServer, free_port, wait_until

#: Why the cluster tests cannot run here, or None.
MISSING = (
    None
    if shutil.which("redis-server") and shutil.which("haproxy")
    else "needs Debian's redis-server and haproxy (apt-get install redis-server haproxy; "
    ".ci/run installs them)"
)


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


class RedisServer:
    """A ``redis-server`` on a free port, with nothing saved to disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_until(lambda: port_open(self.port), "redis-server to listen")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


#: Seconds a worker has to end after SIGTERM before it is killed: past the time after
#: which a server that still runs prints its threads' stacks (server/stopping.py).
STOP_SECONDS = REPORT_SECONDS + 5.0
#: Where a worker killed after a stop that hung leaves what it wrote (not in the repository).
HUNG_STOPS = Path(__file__).resolve().parents[2] / "artifacts" / "hung-stops.log"


class Worker:
    """One ``spacetable serve --redis`` process on a port of its own (kept across
    restarts: the balancer's configuration names it), named ``name`` there (``s1``...)."""

    def __init__(
        self, port: int, db: str, redis_url: str, extra: tuple[str, ...], name: str = "s1"
    ) -> None:
        self.port = port
        self.name = name
        self.db = db
        self.redis_url = redis_url
        self.extra = extra
        self.server = ProcessServer(port, self._spawn())  # wait_ready() before using it
        self._told: Process | None = None  # the process tell_to_stop sent SIGTERM

    def _spawn(self) -> Process:
        return spawn(
            [
                *("serve", "--port", str(self.port)),
                *("--db", self.db, "--redis", self.redis_url),
                *("--runup-seconds", "0", "--unjoined-seconds", "600", *self.extra),
                *("--node-name", self.name),
            ]
        )

    def healthy(self) -> bool:
        return self.health() == 200

    def warm(self) -> bool:
        """Whether its ``/healthz`` says the bots' compiled code is loaded: until then a
        background load holds the process for seconds at a time, long enough for the
        balancer's health check to take it for down."""
        try:
            with urllib.request.urlopen(self.server.http + "/healthz", timeout=2) as answer:
                return bool(json.load(answer).get("bots") == "warm")
        except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
            return False

    def health(self) -> int | None:
        """The status of its ``/healthz`` (None: no answer)."""
        try:
            with urllib.request.urlopen(self.server.http + "/healthz", timeout=2) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as refused:
            with refused:
                return int(refused.code)
        except (urllib.error.URLError, ConnectionError):
            return None

    def wait_ready(self) -> None:
        process = self.server.process
        deadline = time.monotonic() + 180  # a fresh clone compiles numba's kernels first
        while not self.healthy():
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.stdout.read() if process.stdout else ""
                raise RuntimeError(f"spacetable serve did not start:\n{output}")
            time.sleep(0.1)

    def terminate(self) -> int:
        """SIGTERM, as a deploy does, and wait for the process to end; its exit code."""
        self.server.process.send_signal(signal.SIGTERM)
        return self.exited(60)

    def exited(self, timeout: float) -> int:
        """The process's exit code once it has ended, within ``timeout`` seconds; past
        that it is killed and the test fails with what it wrote (a server still alive 20 s
        after it was told to stop writes every thread's stack: server/stopping.py)."""
        process = self.server.process
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            output = process.stdout.read() if process.stdout else ""
            process.wait()
            raise AssertionError(f"{self.name} still ran after {timeout:g} s:\n{output}") from None

    def kill(self) -> None:
        """kill -9."""
        self.server.process.kill()
        self.server.process.wait(timeout=10)

    def restart(self) -> None:
        """Start a new process on the same port."""
        self.stop()
        self.server = ProcessServer(self.port, self._spawn())
        self.wait_ready()

    def tell_to_stop(self) -> None:
        """SIGTERM, without waiting: the process drains (1.5 s) and stops, while the
        others of the cluster are told too (:meth:`stop` then waits for it)."""
        process = self.server.process
        if process.poll() is None and self._told is not process:
            process.terminate()
            self._told = process

    def stop(self) -> None:
        """SIGTERM (unless :meth:`tell_to_stop` sent it), then kill -9 if the process
        still runs :data:`STOP_SECONDS` later, keeping what the process wrote in
        :data:`HUNG_STOPS` (its threads' stacks among it: a server still alive 20 s after
        SIGTERM prints them, server/stopping.py). A stop that hung is not a test's failure
        yet: its cause is not found (a module's teardown once took 21.9 s under the whole
        suite's load, 3.4 s alone)."""
        process = self.server.process
        if process.poll() is None:
            if self._told is not process:
                process.terminate()
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                output = process.stdout.read() if process.stdout else ""
                process.wait()
                HUNG_STOPS.parent.mkdir(parents=True, exist_ok=True)
                with HUNG_STOPS.open("a", encoding="utf-8") as log:
                    said = f"{self.name} still ran {STOP_SECONDS:g} s after SIGTERM; killed"
                    log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {said}. It wrote:\n{output}\n")
        if process.stdout:
            process.stdout.close()


class Balancer:
    """HAProxy with the shipped configuration, in front of ``ports``, listening on
    ``host`` (default: this machine's loopback)."""

    def __init__(self, ports: list[int], folder: Path, host: str = "127.0.0.1") -> None:
        self.port = free_port()
        self.config = folder / "haproxy.cfg"
        servers = [f"127.0.0.1:{port}" for port in ports]
        self.config.write_text(haproxy_config(f"{host}:{self.port}", servers))
        self.log = (folder / "haproxy.log").open("wb")
        self.process = subprocess.Popen(
            ["haproxy", "-db", "-f", str(self.config)], stdout=self.log, stderr=self.log
        )
        try:
            wait_until(lambda: port_open(self.port, host), "haproxy to listen")
        except TimeoutError:
            self.stop()
            log = self.config.parent / "haproxy.log"
            raise TimeoutError(f"haproxy did not start: {log.read_text()}") from None
        self.server = ProcessServer(self.port, self.process)  # type: ignore[arg-type]

    def serving(self, path: str) -> str:
        """The name of the process (``s1``, ``s2``...) the balancer sends ``path`` to."""
        request = urllib.request.Request(self.server.http + path)
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return str(answer.headers["X-Served-By"])
        except urllib.error.HTTPError as refused:  # a plain GET of a socket's path: 404
            with refused:
                return str(refused.headers["X-Served-By"])

    def serving_page(self) -> str:
        """The process that answered a page request (round robin)."""
        return self.serving("/healthz")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


class Cluster:
    """Redis, ``workers`` and the balancer."""

    def __init__(self, redis: RedisServer, workers: list[Worker], balancer: Balancer) -> None:
        self.redis = redis
        self.workers = workers
        self.balancer = balancer

    def owner(self, room: str) -> Worker:
        """The worker whose ownership lock of ``room`` is in Redis."""
        with redis.Redis(port=self.redis.port, single_connection_client=True) as client:
            holder = client.get(owner_key(room))
        assert isinstance(holder, bytes), f"no process owns room {room}"
        port = int(address_of(holder.decode()).rsplit(":", 1)[1])
        return next(w for w in self.workers if w.port == port)

    def balancer_sees_all(self) -> bool:
        """Whether HAProxy counts every worker up in both its backends: page requests reach
        each one (round robin), and a room socket that names its process goes to it. Each
        backend checks the processes' health on its own, so a process started again can be
        up for the pages and still down for the sockets for up to a check's interval."""
        seen = {self.balancer.serving_page() for _ in range(2 * len(self.workers))}
        if len(seen) != len(self.workers):
            return False
        names = server_names(len(self.workers))
        return all(self.balancer.serving(f"/ws/rooms/up?node={name}") == name for name in names)

    def worker(self, name: str) -> Worker:
        """The worker the balancer calls ``name`` (``s1`` is the first)."""
        return self.workers[int(name[1:]) - 1]


@contextmanager
def running_cluster(count: int = 2, *extra: str, db: str | None = None) -> Iterator[Cluster]:
    """Redis, ``count`` server processes sharing it and one database (``db``, a storage
    URL; default: an SQLite file of the run), and HAProxy in front of them; everything
    stopped after."""
    with tempfile.TemporaryDirectory(prefix="spacetable-cluster-") as name:
        folder = Path(name)
        db = db or f"sqlite:///{folder / 'matches.db'}"
        redis = RedisServer()
        redis.start()
        workers: list[Worker] = []
        balancer = None
        try:
            ports = [free_port() for _ in range(count)]
            for port, name in zip(ports, server_names(count), strict=True):
                # started together, then waited for
                workers.append(Worker(port, db, redis.url, extra, name))
            for worker in workers:
                worker.wait_ready()
                # Loaded, and so quick to answer: the balancer's health check (a 2 s
                # timeout, down after two misses) once took a loading process for down
                # and sent a socket naming it to the other (test_two_processes).
                wait_until(worker.warm, f"{worker.name}'s bots to load", 180)
            balancer = Balancer(ports, folder)
            wait_until(
                lambda: balancer is not None and _get_ok(balancer.server.http + "/healthz"),
                "haproxy to see the processes up",
            )
            cluster = Cluster(redis, workers, balancer)
            wait_until(cluster.balancer_sees_all, "haproxy to see every process up", 60)
            yield cluster
        finally:
            if balancer is not None:
                balancer.stop()
            for worker in workers:  # every one drains at once, not one after another
                worker.tell_to_stop()
            for worker in workers:
                worker.stop()
            redis.stop()


def _get_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, ConnectionError):
        return False


def move_clocks(workers: list[Worker], seconds: float) -> None:
    """Move the test clock (``serve --test-clock``) of each of ``workers`` ``seconds``
    forward: every room's timers now due run at once."""
    for worker in workers:
        worker.server.post("/api/test/clock", {"advance": seconds})  # an error raises
