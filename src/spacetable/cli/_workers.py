"""``spacetable serve --workers N``: N server processes on this machine behind HAProxy,
sharing a Redis (docs/scaling.md).

The processes listen on the N ports after ``--port`` (8001, 8002... for 8000); HAProxy
listens on ``--port`` with the configuration of ``deploy/`` written for those ports.
Without ``--redis``, a ``redis-server`` of its own is started on a free port (nothing
saved to disk). A process that exits (``kill -TERM`` one for a rolling restart: it drains
first) is started again on its port; Ctrl+C or SIGTERM stops everything.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

from spacetable.cli._common import fail
from spacetable.server.cluster.balancer import haproxy_config, server_names

#: The options ``--workers`` sets itself for each process (the others are passed on).
OWN_OPTIONS = ("--workers", "--port", "--redis", "--advertise", "--node-name")
#: Seconds a process has to start (a first start compiles numba's kernels).
START_SECONDS = 180.0


def passed_on(argv: list[str]) -> list[str]:
    """The ``spacetable serve`` arguments in ``argv`` (what follows ``serve``) other than
    :data:`OWN_OPTIONS` and their values."""
    args = argv[argv.index("serve") + 1 :] if "serve" in argv else []
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in OWN_OPTIONS:
            skip = "=" not in arg
            continue
        kept.append(arg)
    return kept


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _wait_listening(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not _listening(port):
        if process.poll() is not None or time.monotonic() > deadline:
            fail(f"{what} did not start on port {port}")
        time.sleep(0.1)  # another process: nothing to await


class Workers:
    """The processes, HAProxy and perhaps Redis of one ``serve --workers`` run."""

    def __init__(self, count: int, host: str, port: int, redis: str | None) -> None:
        self.host = host
        self.ports = [port + 1 + index for index in range(count)]
        # Each process's name in HAProxy's configuration, which it gives its rooms' pages.
        self.names = dict(zip(self.ports, server_names(count), strict=True))
        self.port = port
        self.redis = redis
        self.folder = Path(tempfile.mkdtemp(prefix="spacetable-workers-"))
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.others: list[subprocess.Popen[bytes]] = []  # redis-server, haproxy
        self.stopping = False

    def run(self, args: list[str]) -> None:
        """Start everything, keep the processes running until told to stop."""
        haproxy = shutil.which("haproxy")
        if haproxy is None:
            fail("--workers needs HAProxy: apt-get install haproxy (docs/scaling.md)")
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._stop)
        try:
            if self.redis is None:
                self.redis = self._start_redis()
            for port in self.ports:
                self.children[port] = self._spawn(port, args)
            for port, child in self.children.items():
                _wait_listening(port, child, f"the server process on port {port}")
            config = self.folder / "haproxy.cfg"
            servers = [f"127.0.0.1:{port}" for port in self.ports]
            config.write_text(haproxy_config(f"{self.host}:{self.port}", servers))
            balancer = subprocess.Popen([haproxy, "-db", "-f", str(config)])
            self.others.append(balancer)
            _wait_listening(self.port, balancer, "HAProxy")
            shown = "localhost" if self.host in ("127.0.0.1", "0.0.0.0") else self.host
            print(
                f"spacetable is running: open http://{shown}:{self.port}/  "
                f"({len(self.ports)} processes on ports {self.ports[0]}-{self.ports[-1]} "
                f"behind HAProxy, Redis at {self.redis.split('@')[-1]})",
                flush=True,
            )
            self._supervise(args, balancer)
        finally:
            self._stop_all()

    def _start_redis(self) -> str:
        binary = shutil.which("redis-server")
        if binary is None:
            fail(
                "--workers needs Redis: give --redis URL, or install redis-server "
                "(apt-get install redis-server) and one is started for the run"
            )
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        process = subprocess.Popen(
            [
                *(binary, "--port", str(port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
            ],
            stdout=subprocess.DEVNULL,
        )
        self.others.append(process)
        _wait_listening(port, process, "redis-server")
        return f"redis://127.0.0.1:{port}/0"

    def _spawn(self, port: int, args: list[str]) -> subprocess.Popen[bytes]:
        assert self.redis is not None
        command = [sys.executable, "-m", "spacetable", "serve", *args]
        command += ["--port", str(port), "--redis", self.redis]
        command += ["--advertise", f"127.0.0.1:{port}", "--node-name", self.names[port]]
        return subprocess.Popen(command, stdout=subprocess.DEVNULL)

    def _supervise(self, args: list[str], balancer: subprocess.Popen[bytes]) -> None:
        """Start again any process that exits, until told to stop."""
        while not self.stopping:
            if balancer.poll() is not None:
                print("HAProxy stopped: stopping", file=sys.stderr)
                return
            for port, child in list(self.children.items()):
                if child.poll() is not None and not self.stopping:
                    print(f"the process on port {port} exited: starting it again", flush=True)
                    self.children[port] = self._spawn(port, args)
            time.sleep(0.2)  # polling child processes: nothing to await here

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def _stop_all(self) -> None:
        """Each server process drains (SIGTERM) and stops, then HAProxy, then Redis."""
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        _end(list(self.children.values()))
        for process in self.others:
            if process.poll() is None:
                process.terminate()
        _end(self.others)
        shutil.rmtree(self.folder, ignore_errors=True)


#: The longest the processes told to stop have, together, before those left are killed (s).
STOP_SECONDS = 30.0


def _end(processes: list[subprocess.Popen[bytes]]) -> None:
    """Wait for ``processes`` to exit, all of them within one :data:`STOP_SECONDS`, then
    kill those left: a stop takes that long at most, however many processes hang (each
    waited its own 30 s before, one after the other: a test's 60 s ran out on two)."""
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.poll() is None:
            # Its own report (server/stopping.py) says where it hung, above this line.
            print(
                f"process {process.pid} did not stop within {STOP_SECONDS:g} s: killed",
                file=sys.stderr,
                flush=True,
            )
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
