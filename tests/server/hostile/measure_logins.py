"""What a flood of log-ins costs the rooms (docs/accounts.md, issue 67 item 3):
``uv run python -m tests.server.hostile.measure_logins``.

Starts ``spacetable serve`` (argon2 at its real cost), signs up :data:`FLOOD` accounts,
then times a room's create + open socket + join (and ``GET /api/session``) idle, and again
while :data:`FLOOD` clients log in over and over, each to its own account from its own
address. Reports the medians, their ratio, and how the flood's log-ins were answered.
By default a client refused 503 sends again at once (a hostile flood); with ``POLITE=1``
it waits the ``Retry-After`` first, as a person reading the page's refusal would.
``SPACETABLE_SERVE`` names another command to start the server with (an older checkout's
``python -m spacetable``, to compare).
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

from tests._server import Client, Server, free_port, wait_until

#: Parallel log-ins of the flood.
FLOOD = 20
#: Rooms timed, idle and under the flood.
TIMES = 60
PASSWORD = "correct horse"


def post(server: Server, path: str, body: object, address: str | None = None) -> tuple[int, float]:
    """The status of a ``POST`` and its ``Retry-After`` (0 if none)."""
    headers = {"content-type": "application/json"}
    if address is not None:
        headers["x-forwarded-for"] = address
    request = urllib.request.Request(server.http + path, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return int(answer.status), 0.0
    except urllib.error.HTTPError as refused:
        with refused:
            return int(refused.code), float(refused.headers["Retry-After"] or 0)


def room_joined(server: Server) -> float:
    """A room created, its socket opened and a seat joined: the seconds it took."""
    start = time.perf_counter()
    room = server.create_room()
    client = Client(server, room)
    client.send(type="join", name="Ann")
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player", timeout=120)
    spent = time.perf_counter() - start
    client.close()
    return spent


def session_read(server: Server, cookie: str) -> float:
    start = time.perf_counter()
    request = urllib.request.Request(server.http + "/api/session", headers={"cookie": cookie})
    with urllib.request.urlopen(request, timeout=120) as answer:
        answer.read()
    return time.perf_counter() - start


def medians(server: Server, cookie: str) -> tuple[float, float]:
    rooms = [room_joined(server) for _ in range(TIMES)]
    sessions = [session_read(server, cookie) for _ in range(TIMES)]
    return statistics.median(rooms) * 1000, statistics.median(sessions) * 1000


def main() -> None:
    command = shlex.split(os.environ.get("SPACETABLE_SERVE", f"{sys.executable} -m spacetable"))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "matches.db"
        process = subprocess.Popen(
            [
                *(*command, "serve", "--port", str(port), "--db", f"sqlite:///{db}"),
                *("--runup-seconds", "0", "--unjoined-seconds", "600"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        server = Server(port)
        try:
            wait_until(lambda: _answers(server), "the server", 180)
            request = urllib.request.Request(
                server.http + "/api/accounts",
                json.dumps({"name": "measurer", "password": PASSWORD}).encode(),
                {"content-type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=60) as answer:
                cookie = str(answer.headers["set-cookie"]).split(";", 1)[0]
            for n in range(FLOOD):
                post(server, "/api/accounts", {"name": f"flood{n}", "password": PASSWORD})
            room_joined(server)  # (the first room loads what rooms need)
            idle = medians(server, cookie)
            stop = threading.Event()
            answers: Counter[int] = Counter()

            polite = os.environ.get("POLITE") == "1"

            def flood(n: int) -> None:
                body = {"name": f"flood{n}", "password": PASSWORD}
                while not stop.is_set():
                    status, retry = post(server, "/api/session", body, f"10.0.0.{n + 1}")
                    answers[status] += 1
                    if polite and retry:
                        stop.wait(retry)

            threads = [threading.Thread(target=flood, args=(n,)) for n in range(FLOOD)]
            for thread in threads:
                thread.start()
            try:
                flooded = medians(server, cookie)
            finally:
                stop.set()
                for thread in threads:
                    thread.join()
        finally:
            process.terminate()
            process.wait(timeout=60)
    print(f"create + open + join: idle {idle[0]:.1f} ms, {FLOOD} log-ins {flooded[0]:.1f} ms "
          f"({flooded[0] / idle[0]:.1f}x)")  # fmt: skip
    print(f"GET /api/session: idle {idle[1]:.1f} ms, {FLOOD} log-ins {flooded[1]:.1f} ms "
          f"({flooded[1] / idle[1]:.1f}x)")  # fmt: skip
    print(f"the flood's log-ins answered: {dict(sorted(answers.items()))}")


def _answers(server: Server) -> bool:
    try:
        server.get("/api/rooms")
        return True
    except (urllib.error.URLError, ConnectionError):
        return False


if __name__ == "__main__":
    main()
