"""A server told to stop stops, whatever its clients do (a real process: its signals are
the subject). An upload whose body never came whole held ``spacetable serve`` after its
SIGTERM for ever: uvicorn waited for the request without a bound, and the rooms' shutdown
never ran (server/stopping.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from spacetable.server.stopping import GRACE_SECONDS
from tests._server import (
    ROOT,
    ProcessServer,
    free_port,
    seated,
    serve_args,
    server_process,
    wait_serving,
    wait_until,
)


def read(server_port: int, client_port: int) -> bool:
    """Whether the server took everything the client sent on that connection (the
    kernel's receive queue of its end is empty: /proc/net/tcp), so that its request is
    under way: what a stop must not wait for without end."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues = fields[1], fields[2], fields[4]
        if (
            int(local.split(":")[1], 16) == server_port
            and int(remote.split(":")[1], 16) == client_port
        ):
            return int(queues.split(":")[1], 16) == 0
    return False


def test_a_stop_does_not_wait_for_ever_on_an_upload_that_never_ends(tmp_path: Path) -> None:
    with server_process(tmp_path / "matches.db") as server:
        stalled = socket.create_connection(("127.0.0.1", server.port))
        head = (
            "POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        stalled.sendall(head.encode())
        client_port = stalled.getsockname()[1]
        wait_until(lambda: read(server.port, client_port), "the server to read the upload's head")
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(timeout=GRACE_SECONDS + 30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the server did not stop after its SIGTERM") from None
        finally:
            stalled.close()
        assert code == -signal.SIGTERM
        assert server.process.stdout is not None
        assert "timeout graceful shutdown exceeded" in server.process.stdout.read()


@pytest.mark.parametrize("bot", [False, True], ids=["idle", "a bot's turn due"])
def test_ctrl_c_while_a_fresh_install_compiles_the_bots_stops_at_once_and_quietly(
    tmp_path: Path, bot: bool
) -> None:
    # A fresh install: the numba kernels' cache is empty, so the server compiles them as it
    # warms the bots (seconds to a minute). Ctrl+C then waited for the whole compile (48 s
    # on a laptop) and, past 20 s, printed every thread's stack; so it did when a bot's
    # move came meanwhile (it waited for the compile on a worker thread). An exec'd
    # process: the fork server's children have the kernels loaded already (tests/_forks.py).
    port = free_port()
    args = serve_args(port, tmp_path / "matches.db", ("--bot-pace", "0.01"), None)
    process = subprocess.Popen(
        [sys.executable, "-m", "spacetable", "serve", *args],
        cwd=ROOT,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "kernels")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        server = wait_serving(ProcessServer(port, process))
        assert server.get("/healthz")["bots"] == "warming"  # compiling, with the cache empty
        if bot:  # a match against a greedy bot, whose first card is due at once
            player = seated(server, server.create_room(), "Ann")
            player.send(type="bot", seat=1, level="medium")
            player.send(type="ready")
            player.wait(lambda m: m["type"] == "state")
            player.close()
        process.send_signal(signal.SIGINT)
        try:
            # (a bound against a hung test, not a timing: a stop takes about a second)
            _, errors = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            raise AssertionError("Ctrl+C waited for the bots' compile") from None
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == 0
    assert "Traceback" not in errors
    assert errors.strip() == "", errors
