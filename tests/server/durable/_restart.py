"""Servers that die and come back: ``spacetable serve`` on a database given by URL (SQLite
or PostgreSQL), killed with SIGKILL as a crash would, and started again on the same
database (and, for a browser's page to find it, the same port)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests._forks import spawn
from tests._postgres import postgres_schema
from tests._server import Client, ProcessServer, free_port, wait_serving


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A storage URL of ``kind`` ("sqlite": a file under ``tmp_path``; "postgresql": a
    schema of its own in the test database, skipped when none is set)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'rooms.db'}"
    else:
        with postgres_schema() as url:
            yield url


def start(
    db: str, *extra: str, port: int | None = None, room_seed: int | None = None
) -> ProcessServer:
    """``spacetable serve`` on ``db`` (placing rounds without a run-up, rooms that wait
    for their first player), once it answers."""
    port = port or free_port()
    seed = ("--room-seed", str(room_seed)) if room_seed is not None else ()
    process = spawn(
        ["serve", "--port", str(port), "--db", db,
         "--runup-seconds", "0", "--unjoined-seconds", "600", *seed, *extra]
    )  # fmt: skip
    return wait_serving(ProcessServer(port, process))


def kill(server: ProcessServer) -> str:
    """Kill the server's process at once (SIGKILL: nothing of it runs after); its output."""
    server.process.kill()
    server.process.wait()
    output = server.process.stdout.read() if server.process.stdout else ""
    if server.process.stdout:
        server.process.stdout.close()
    return output


def stop(server: ProcessServer) -> None:
    if server.process.poll() is None:
        kill(server)


@contextmanager
def servers() -> Iterator[list[ProcessServer]]:
    """The servers a test starts (append them): each killed at the end if still alive."""
    started: list[ProcessServer] = []
    try:
        yield started
    finally:
        for server in started:
            stop(server)


def token_of(client: Client) -> str:
    """The seat token the client was welcomed with as a player."""
    welcome = next(m for m in client.received if m["type"] == "welcome" and m["role"] == "player")
    token: str = welcome["token"]
    return token


def rejoined(server: ProcessServer, room: str, token: str) -> Client:
    """A new socket to ``room`` that takes its seat back with ``token``."""
    client = Client(server, room)
    client.send(type="rejoin", token=token)
    welcome = client.wait(
        lambda m: m["type"] == "error" or (m["type"] == "welcome" and m["role"] == "player")
    )
    assert welcome["type"] == "welcome", welcome
    return client


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test on SQLite and on PostgreSQL (when ``SPACETABLE_TEST_POSTGRES_URL`` is set)."""
    with database(request.param, tmp_path) as url:
        yield url
