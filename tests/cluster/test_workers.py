"""``spacetable serve --workers 2``: two processes on the next ports behind HAProxy, with a
redis-server of its own; a process that exits is started again; SIGTERM stops it all."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from spacetable.cli._workers import passed_on
from tests._ports import free_run
from tests._server import ROOT, Server, wait_until
from tests.cluster._cluster import MISSING, port_open


def test_the_options_of_each_process_leave_out_those_workers_sets() -> None:
    argv = ["spacetable", "serve", "--workers", "2", "--port=8000", "--db", "x", "--redis", "r"]
    assert passed_on(argv) == ["--db", "x"]


def pids_serving(port: int) -> list[int]:
    """The processes whose command line is ``spacetable serve ... --port PORT``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (
            b"serve" in args
            and b"--port" in args
            and args[args.index(b"--port") + 1] == (str(port).encode())
        ):
            found.append(int(entry.name))
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[int]:
    if MISSING is not None:
        pytest.skip(MISSING)
    port = free_run(3)  # the balancer's, then each worker's after it
    folder = tmp_path_factory.mktemp("workers")
    db = folder / "matches.db"
    errors = folder / "stderr.txt"
    with errors.open("wb") as stderr:  # the processes keep their own copy
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "spacetable", "serve", "--workers", "2"),
                *("--port", str(port), "--db", f"sqlite:///{db}", "--runup-seconds", "0"),
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        up = "the balancer of --workers (or the supervisor's exit)"
        wait_until(lambda: port_open(port) or process.poll() is not None, up, 180)
        if process.poll() is not None:
            pytest.fail(f"serve --workers exited: {errors.read_text(errors='replace')}")
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    for each in (port, port + 1, port + 2):
        assert not port_open(each), f"port {each} still open after SIGTERM"
    # Every process stopped of itself: none printed its threads (a stop that hung for
    # 20 s, server/stopping.py) or was killed by the supervisor.
    said = errors.read_text(errors="replace")
    assert "Timeout (" not in said and "did not stop" not in said, said


def test_two_workers_behind_the_balancer_share_one_lobby(site: int) -> None:
    front, first, second = (Server(site + i) for i in range(3))
    rooms = {front.create_room() for _ in range(4)}  # round robin: on both processes
    for server in (front, first, second):

        def listed(server: Server = server) -> bool:
            return rooms <= {room["id"] for room in server.get("/api/rooms")}

        wait_until(listed, "every room in every lobby", 5)


def test_a_worker_that_exits_is_started_again(site: int) -> None:
    first, second = (Server(site + i) for i in (1, 2))
    (pid,) = pids_serving(site + 2)
    subprocess.run(["kill", "-TERM", str(pid)], check=True)  # a rolling restart's step
    wait_until(lambda: pids_serving(site + 2) not in ([], [pid]), "a new process", 30)
    wait_until(lambda: port_open(site + 2), "the new process to listen", 180)
    # The new process is in the cluster: it lists the other process's rooms.
    room = first.create_room()
    wait_until(lambda: room in {r["id"] for r in second.get("/api/rooms")}, "the lobby", 10)
