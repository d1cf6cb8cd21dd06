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
from tests._server import server_process


def test_a_stop_does_not_wait_for_ever_on_an_upload_that_never_ends(tmp_path: Path) -> None:
    with server_process(tmp_path / "matches.db") as server:
        stalled = socket.create_connection(("127.0.0.1", server.port))
        head = (
            "POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        stalled.sendall(head.encode())
        # Accepted after that connection, answered: the server reads the stalled upload.
        assert server.get("/api/rooms") == []
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
