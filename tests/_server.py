"""A real ``spacetable serve`` process for tests, and a small websocket client."""

from __future__ import annotations

import copy
import functools
import json
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import typer
from typer import _click as click  # typer's own click
from typer.core import TyperGroup
from websockets.sync.client import ClientConnection, connect

from spacetable.cli import app
from spacetable.cli.serve import prepared
from tests._forks import Process, spawn
from tests._ports import free_port as free_port  # (where the tests have found it)

ROOT = Path(__file__).resolve().parent.parent


class Server:
    """A running server: its base URLs and a few HTTP helpers."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.http + path, timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(
            self.http + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def create_room(self, **options: Any) -> str:
        room: str = self.post("/api/rooms", {"seats": 2, **options})["id"]
        return room

    def stored_match(self, match_id: str) -> dict[str, Any]:
        """The stored match (the server's answer waits while it is on its way to the
        database, so a match_id just heard of is answered at once)."""
        match: dict[str, Any] = self.get(f"/api/matches/{match_id}")
        return match


class ProcessServer(Server):
    """A server that is a ``spacetable serve`` process of its own (:func:`server_process`)."""

    def __init__(self, port: int, process: Process) -> None:
        super().__init__(port)
        self.process = process


def wait_serving(server: ProcessServer) -> ProcessServer:
    """Return ``server`` once its process answers HTTP; raise with its output if the
    process ends or does not answer within 180 s (generous: a fresh clone compiles the
    numba kernels as the first server starts, and a busy machine slows that down; the
    loop returns as soon as the server answers)."""
    process = server.process
    deadline = time.monotonic() + 180
    while True:
        try:
            server.get("/api/rooms")
            return server
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()  # its output ends: read it without waiting forever
                output = process.stdout.read() if process.stdout else ""
                process.communicate()  # reaped and its pipe closed: no ResourceWarning
                # left to fail whichever test the garbage collector next runs in
                raise RuntimeError(f"spacetable serve did not start:\n{output}") from None
            # Not awaitable: another process, which says nothing until its port answers.
            time.sleep(0.1)


def serve_args(port: int, db: Path, extra: Sequence[str], room_seed: int | None) -> list[str]:
    """The arguments of ``spacetable serve`` for a test server: SQLite at ``db``, placing
    rounds that start at once (no 3-2-1 run-up) unless ``extra`` names ``--runup-seconds``
    (the last one given counts), unjoined rooms kept. With ``room_seed`` the first room
    created plays its matches from that seed, the next from the seed plus 1, and so on."""
    seeded = ["--room-seed", str(room_seed)] if room_seed is not None else []
    return [
        *("--port", str(port), "--db", f"sqlite:///{db}", "--runup-seconds", "0"),
        # Tests may create a room well before they join it on a busy machine.
        *("--unjoined-seconds", "600"),
        *seeded,
        *extra,
    ]


@contextmanager
def running_server(db: Path, *extra: str, room_seed: int | None = None) -> Iterator[Server]:
    """Run what ``spacetable serve`` runs with these options (:func:`serve_args`) in a
    thread of this process, on a port of its own; stop it after. Its HTTP and websockets
    are real (clients connect to the port); only the process is this one, which has
    imported everything already, so a server starts in milliseconds. The few tests of the
    process itself use :func:`server_process`."""
    listening = socket.create_server(("127.0.0.1", 0))
    port: int = listening.getsockname()[1]
    command = _serve_command()
    with command.make_context("serve", serve_args(port, db, extra, room_seed)) as parsed:
        server = prepared(parsed.params)
    failures: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[listening])
        except BaseException as exc:  # reported to the test below
            failures.append(exc)

    thread = threading.Thread(target=run, name=f"spacetable serve :{port}", daemon=True)
    thread.start()
    try:
        # Started: its lifespan (storage, the referee's pool) has run and the loop accepts
        # requests. On a machine the suite saturates that may take seconds; what is awaited
        # is the server saying so (or its thread ending), not a request's timeout.
        while not server.started:
            if not thread.is_alive():
                raise AssertionError(f"the server on port {port} did not start: {failures!r}")
            time.sleep(0.01)
        yield Server(port)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listening.close()
    assert not thread.is_alive(), f"the server on port {port} did not stop"
    assert not failures, f"the server on port {port} failed: {failures!r}"


@functools.cache
def _serve_command() -> click.Command:
    """``spacetable serve`` as typer builds it, to parse a test server's options exactly as
    the command does (ranges, defaults)."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    found = group.commands["serve"]
    return cast(click.Command, getattr(found, "loaded", found))


@contextmanager
def server_process(db: Path, *extra: str, room_seed: int | None = None) -> Iterator[ProcessServer]:
    """Start a ``spacetable serve`` process on a free port with SQLite at ``db``, as
    :func:`running_server` runs one in a thread; stop it after. For the tests of what only
    a process shows: its memory and open files, a kill. (The process is forked from the
    worker's fork server, which has done the imports: tests/_forks.py.)"""
    port = free_port()
    process = spawn(["serve", *serve_args(port, db, extra, room_seed)])
    server = wait_serving(ProcessServer(port, process))
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def wait_until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``check`` (another process's state, a database row: nothing to await) until it
    holds; a TimeoutError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Client:
    """One websocket client of a room, keeping every message it received.

    Like the browser, it keeps the match state: a ``placed`` message that carries the
    players' statuses (a card down mid-round) stands for a new ``state``, which the
    client puts in its stream right after it, marked ``"folded": True``. With ``patches``
    it asks for ``state_patch`` messages, as the room page does, and applies each to its
    ``state`` (with ``apply``, an RFC 6902 implementation)."""

    def __init__(
        self,
        server: Server,
        room: str,
        *,
        patches: Callable[[Any, list[dict[str, Any]]], Any] | None = None,
        headers: dict[str, str] | None = None,
        query: str = "",
    ) -> None:
        """``query``: more of the socket's query string (``node=s1``)."""
        params = ["patches=1"] if patches is not None else []
        params += [query] if query else []
        query = "?" + "&".join(params) if params else ""
        self.socket: ClientConnection = connect(
            f"{server.ws}/ws/rooms/{room}{query}", legacy=True, additional_headers=headers
        )
        self._apply = patches
        self._base: dict[str, Any] | None = None  # the last state the server sent
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self._folded: deque[dict[str, Any]] = deque()

    def send(self, **message: Any) -> None:
        self.socket.send(json.dumps(message))

    def send_raw(self, text: str) -> None:
        self.socket.send(text)

    def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The next message (from now) that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            if self._folded:
                message = self._folded.popleft()
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = [m["type"] for m in self.received[-10:]]
                    raise TimeoutError(f"no matching message; last received: {kinds}")
                message = json.loads(self.socket.recv(timeout=left))
                self._fold(message)
            self.received.append(message)
            if predicate(message):
                return message

    def _fold(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            self.state = self._base = message
        elif message["type"] == "state_patch" and self._apply is not None:
            # A patch starts from the server's last state, not from a folded ``placed``.
            base = self._base
            assert base is not None and base["seq"] == message["from"], "a gap"
            self.state = self._base = self._apply(copy.deepcopy(base), message["patch"])
            self.state["seq"] = message["to"]
        elif message["type"] == "placed" and "players" in message and self.state is not None:
            me = self.state["player"]
            players = message["players"]
            self.state = {
                **self.state,
                "table": [*self.state["table"], message["card"]],
                "players": players,
                "hand": None if me is None else players[me]["holding"],
                "t": message["t"],
                "version": message["version"],
                "folded": True,
            }
            self._folded.append(self.state)

    def wait_type(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == kind, timeout)

    def close(self) -> None:
        self.socket.close()


def seated(server: Server, room: str, name: str, seat: int | None = None) -> Client:
    """A client that joined ``room`` as ``name`` (in ``seat``, or the first free one)."""
    client = Client(server, room)
    client.send(type="join", name=name, seat=seat)
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    return client
