"""Hostile HTTP requests against a real server (issue 9, findings 1, 2 and the POST half of
7): every upload of the probes is answered with a 4xx naming the problem, never a 500 or a
crash; the server stays up and answers the next request; an upload that would take
seconds is resolved away from the rooms, within a time budget; bodies and headers are
bounded; JSON APIs take only JSON."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable._time_limit import wall_limit
from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from tests._server import ProcessServer, Server, server_process, wait_until
from tests.server.hostile._tables import HOSTILE, fig1, heavy_table

#: The referee's time budget for this server (the default is 5 s).
BUDGET_S = 2.0
#: Bytes the probes sent in one body or one header.
HUNDRED_MB = 100 * 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with server_process(db, "--resolve-seconds", str(BUDGET_S)) as running:
        yield running


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[ProcessServer]:
    """A server of its own, whose peak memory no earlier test has raised, once its bots
    are loaded (a warm-up in the background: on a busy machine it could end during a test
    and raise the peak by what it loads, about 70 MB)."""
    with server_process(tmp_path / "matches.db") as running:
        wait_until(lambda: running.get("/healthz")["bots"] == "warm", "the bots' warm-up")
        yield running


def post(
    server: Server,
    path: str,
    body: bytes | str,
    content_type: str = "application/json",
    timeout: float = 60,
) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as it is; the status and the decoded JSON answer."""
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(
        server.http + path, data=data, headers={"content-type": content_type}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


def assert_still_serving(server: Server) -> None:
    """The server (its process, if it has one of its own) lives, and resolves the
    rulebook's table at once."""
    assert not isinstance(server, ProcessServer) or server.process.poll() is None
    status, answer = post(server, "/api/resolve", json.dumps(fig1()))
    assert status == 200, answer
    assert answer["result"]["scores"] == {"red": 4, "blue": 2}


def peak_memory_mb(server: ProcessServer) -> float:
    """The server process's peak resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(row for row in status.splitlines() if row.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def stream(server: Server, head: bytes, chunks: Iterator[bytes]) -> tuple[int | None, int]:
    """Send a request's ``head`` then ``chunks`` on a raw socket until the server stops
    reading (it may close the connection); the answer's status, if one arrived, and the
    bytes sent."""
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        try:
            sock.sendall(head)
            for chunk in chunks:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server answered and closed while we were still sending
            pass
        try:
            answer = sock.recv(4096)
        except OSError:  # closed with our bytes unread: a reset instead of the answer
            return None, sent
    status_line = answer.split(b"\r\n", 1)[0].split()
    return (int(status_line[1]) if len(status_line) > 1 else None), sent


def test_the_rulebook_table_is_resolved_and_drawn(server: ProcessServer) -> None:
    status, answer = post(server, "/api/resolve", json.dumps(fig1()))
    assert status == 200
    assert answer["result"]["winner"] == "red"
    assert answer["svg"].startswith("<svg")
    assert answer["table"]["players"] == ["red", "blue"]


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_upload_is_refused_with_its_problem_named(server: ProcessServer, name: str) -> None:
    text, fragment = HOSTILE[name]
    status, answer = post(server, "/api/resolve", text)
    assert status == 400, answer
    assert fragment in answer["error"]
    assert_still_serving(server)


def test_a_file_is_refused_for_what_it_holds_however_short_the_budget(tmp_path: Path) -> None:
    # The budget counts only the resolving: reading and checking an upload is not timed
    # by it, so a file over the limits is refused as such on a machine however busy (a
    # loaded machine once answered "took longer than 2 s to resolve" to 20,000 lasers).
    with server_process(tmp_path / "matches.db", "--resolve-seconds", "0.001") as server:
        for name, (text, fragment) in HOSTILE.items():
            status, answer = post(server, "/api/resolve", text)
            assert (status, fragment in answer["error"]) == (400, True), (name, answer)
        # The budget is real: a table that has to be resolved runs out of it.
        status, answer = post(server, "/api/resolve", json.dumps(heavy_table()))
        assert status == 422, answer
        assert "longer than 0.001 s to resolve" in answer["error"]
        # The page writes it in its reader's language: the answer holds it as a phrase.
        said = Phrase.from_json(answer["says"])
        assert said.text() == answer["error"]
        assert said.text(translator("fr")) == (
            "la bataille\u00a0: plus de 0.001\u00a0s à la résolution, refusé"
        )


def test_a_byte_order_mark_is_accepted(server: ProcessServer) -> None:
    status, answer = post(server, "/api/resolve", b"\xef\xbb\xbf" + json.dumps(fig1()).encode())
    assert status == 200, answer


def test_a_table_over_the_time_budget_is_refused_and_the_rooms_keep_answering(
    server: ProcessServer,
) -> None:
    def lobby_round_trip() -> float:
        start = time.perf_counter()
        server.get("/api/rooms")
        return time.perf_counter() - start

    baseline = max(lobby_round_trip() for _ in range(20))
    answers: list[tuple[int, dict[str, Any]]] = []
    upload = threading.Thread(
        target=lambda: answers.append(post(server, "/api/resolve", json.dumps(heavy_table())))
    )
    upload.start()
    worst = 0.0
    answered = 0
    while upload.is_alive():  # bounded: the upload ends with the budget
        worst = max(worst, lobby_round_trip())
        answered += 1
        upload.join(timeout=0.02)  # the next round trip in 20 ms, or the upload's answer
    [(status, answer)] = answers
    assert status == 422, answer
    assert f"longer than {BUDGET_S:g} s" in answer["error"]
    # Resolved on the event loop, the table would freeze the lobby for the whole budget (of
    # processor time, so at least as long on the wall): one round trip would last it all
    # and the lobby would answer once or twice while it runs. How much faster than that
    # a round trip is depends on the machine's load: printed, not asserted.
    print(
        f"lobby round trips during the upload: {answered}, worst {worst:.3f} s "
        f"(alone: {baseline:.3f} s)"
    )
    assert answered >= 5
    assert worst < BUDGET_S
    assert_still_serving(server)


def test_uploads_past_the_queue_are_turned_away_busy(tmp_path: Path) -> None:
    # One worker, 8 tables waiting at most, each stopped after 0.5 s: of 12 heavy tables
    # sent at once, those that find the queue full are answered 503 at once. The last of
    # the queue is answered once the seven before it are stopped, each within its wall
    # backstop (a niced worker on a busy machine may need it): the clients wait that long.
    patience = 9 * wall_limit(0.5)
    with server_process(tmp_path / "matches.db", "--resolve-seconds", "0.5") as server:
        body = json.dumps(heavy_table())
        answers: list[tuple[int, dict[str, Any]]] = []
        uploads = [
            threading.Thread(
                target=lambda: answers.append(post(server, "/api/resolve", body, timeout=patience))
            )
            for _ in range(12)
        ]
        for upload in uploads:
            upload.start()
        for upload in uploads:
            upload.join()
        statuses = [status for status, _ in answers]
        assert set(statuses) == {422, 503}
        assert statuses.count(422) >= 8  # (more if the first ended before the last came)
        busy = next(answer for status, answer in answers if status == 503)
        assert "busy" in busy["error"]
        assert Phrase.from_json(busy["says"]).text(translator("fr")) == (
            "l'arbitre est occupé par d'autres tables\u00a0: réessayez dans un instant"
        )
        # The server lives and answers. (Not a table: on a machine the rest of the suite
        # keeps busy, the referee's worker, at a lower priority, can take more than this
        # server's 0.5 s of wall time for any table; the module's server, with a 2 s
        # budget, checks that a table is resolved after each attack.)
        assert server.process.poll() is None
        assert isinstance(server.get("/api/rooms"), list)


@pytest.mark.parametrize("path", ["/api/resolve", "/api/rooms"])
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_json_apis_refuse_other_content_types(
    server: ProcessServer, path: str, content_type: str
) -> None:
    # A page of any site may send these cross-origin without asking the server first.
    body = json.dumps(fig1() if path == "/api/resolve" else {"seats": 2})
    rooms = len(server.get("/api/rooms"))
    status, answer = post(server, path, body, content_type)
    assert status == 415
    assert "application/json" in (answer.get("error") or answer["detail"])
    assert len(server.get("/api/rooms")) == rooms


def test_json_with_a_charset_is_accepted(server: ProcessServer) -> None:
    status, answer = post(
        server, "/api/rooms", json.dumps({"seats": 2}), "application/json; charset=utf-8"
    )
    assert status == 200, answer


def test_a_declared_100_mb_body_is_refused_before_it_is_sent(server: ProcessServer) -> None:
    head = (
        "POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {HUNDRED_MB}\r\n\r\n"
    ).encode()
    status, sent = stream(server, head, iter(()))
    assert (status, sent) == (413, 0)
    assert_still_serving(server)


def test_a_streamed_100_mb_body_is_cut_off(fresh_server: ProcessServer) -> None:
    server = fresh_server
    head = (
        b"POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b" " * (1 << 16)
    chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
    before = peak_memory_mb(server)
    status, sent = stream(server, head, (chunk for _ in range(HUNDRED_MB // len(piece))))
    assert status in (413, None)  # the answer, or a reset that overtook it
    assert sent < HUNDRED_MB
    # Read whole, the body took hundreds of MB of the server's memory.
    assert peak_memory_mb(server) - before < 50
    assert_still_serving(server)


def test_a_100_mb_header_is_cut_off(fresh_server: ProcessServer) -> None:
    server = fresh_server
    head = b"GET /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
    before = peak_memory_mb(server)
    status, sent = stream(server, head, (b"a" * (1 << 16) for _ in range(HUNDRED_MB >> 16)))
    assert status in (400, 431, None)
    assert sent < HUNDRED_MB
    assert peak_memory_mb(server) - before < 50
    assert_still_serving(server)
