"""A server told to stop stops, whatever its clients do (a real process: its signals are
the subject). An upload whose body never came whole held ``spacetable serve`` after its
SIGTERM for ever: uvicorn waited for the request without a bound, and the rooms' shutdown
never ran (server/stopping.py)."""

from __future__ import annotations

import signal
import socket
import subprocess
from pathlib import Path

from spacetable.server.stopping import GRACE_SECONDS
from tests._server import server_process, wait_until


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
