"""A public server's defences (issue 21, item 6), each attacked on a real ``spacetable
serve``: a flood of room creations from one address, rooms nobody joins, a page of another
domain that resolves to the server (DNS rebinding), connections that trickle their request
head, and more sockets than one address or one room may hold. Each attack is refused the
way docs/protocol.md ("Limits") says, and the server keeps answering others meanwhile
(their round trips are printed beside a baseline; with -s they show)."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from tests._server import Server, running_server
from tests.server.hostile.test_sockets import raw_socket

#: Addresses a balancer on this machine says the requests come from (X-Forwarded-For is
#: believed only from this machine: docs/protocol.md, "Limits").
MALLORY, ALICE = "203.0.113.7", "198.51.100.4"


def post_room(server: Server, forwarded_for: str | None = None) -> tuple[int, dict[str, Any]]:
    """POST /api/rooms as sent by a balancer for ``forwarded_for``: the status and body."""
    headers = {"content-type": "application/json"}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    request = urllib.request.Request(
        server.http + "/api/rooms", data=b'{"seats": 2}', headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        body = json.load(exc)
        body["retry_after"] = exc.headers.get("Retry-After")
        return exc.code, body


def round_trip(server: Server) -> float:
    """Seconds one lobby request takes."""
    started = time.perf_counter()
    server.get("/api/rooms")
    return time.perf_counter() - started


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    options = ("--rooms-per-minute", "5", "--sockets-per-client", "3", "--sockets-per-room", "5")
    with running_server(db, *options, "--head-seconds", "1") as running:
        yield running


def test_one_address_creating_rooms_in_a_flood_is_refused_and_others_are_not(
    guarded: Server,
) -> None:
    baseline = round_trip(guarded)
    answers = [post_room(guarded, MALLORY) for _ in range(12)]
    assert [status for status, _ in answers[:5]] == [200] * 5
    refused = answers[5:]
    assert {status for status, _ in refused} == {429}
    body = refused[0][1]
    assert "too many rooms created from your address (at most 5 a minute)" in body["detail"]
    # ... and its phrase, which the lobby writes in its reader's language.
    french = Phrase.from_json(body["says"]).text(translator("fr"))
    assert french.startswith("trop de salles créées depuis votre adresse (au plus 5 par minute)")
    assert int(body["retry_after"]) >= 1
    # Another address, and this machine itself, still create rooms.
    assert post_room(guarded, ALICE)[0] == 200
    assert post_room(guarded)[0] == 200
    meanwhile = round_trip(guarded)
    print(f"lobby round trip: {baseline * 1000:.1f} ms before, {meanwhile * 1000:.1f} ms after")


def test_a_room_nobody_joins_closes_within_its_minute_and_a_joined_one_stays(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path / "m.db", "--unjoined-seconds", "1") as server:
        joined = server.create_room()
        sock, status = raw_socket(server, f"/ws/rooms/{joined}")
        assert status.startswith("HTTP/1.1 101"), status
        lonely = server.create_room()
        # Poll the lonely room's page until it is gone (its second is up by then, and so
        # is the joined room's, which was created before it).
        deadline = time.monotonic() + 60
        while _page_status(server, lonely) == 200:
            assert time.monotonic() < deadline, "the unjoined room never closed"
            time.sleep(0.1)  # another process's timer: polled, there is nothing to await
        assert _page_status(server, lonely) == 404
        assert _page_status(server, joined) == 200
        sock.close()


def _page_status(server: Server, room: str) -> int:
    try:
        with urllib.request.urlopen(f"{server.http}/rooms/{room}", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def _get(server: Server, path: str, host: str) -> tuple[int, str]:
    """GET ``path`` with this ``Host`` header: the status and body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.decode("latin-1").partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_a_page_of_another_domain_resolving_here_is_refused(guarded: Server) -> None:
    # DNS rebinding: evil.example now resolves to 127.0.0.1, so its page's requests carry
    # Host: evil.example:PORT and its sockets the same Origin; both were let through.
    evil = f"evil.example:{guarded.port}"
    status, body = _get(guarded, "/api/rooms", evil)
    assert status == 400
    assert "does not answer to the host name 'evil.example:" in body
    room = guarded.create_room()
    sock, line = raw_socket(guarded, f"/ws/rooms/{room}", origin=f"http://{evil}", host_header=evil)
    sock.close()
    assert line.startswith("HTTP/1.1 400"), line
    # The server's own names still work.
    for own in (f"localhost:{guarded.port}", f"127.0.0.1:{guarded.port}", f"[::1]:{guarded.port}"):
        assert _get(guarded, "/api/rooms", own)[0] == 200, own


def test_host_name_lets_a_public_name_through(tmp_path: Path) -> None:
    with running_server(tmp_path / "m.db", "--host-name", "play.example.org") as server:
        assert _get(server, "/api/rooms", "play.example.org")[0] == 200
        assert _get(server, "/api/rooms", "evil.example")[0] == 400


def test_connections_that_trickle_their_request_head_are_closed(guarded: Server) -> None:
    baseline = round_trip(guarded)
    trickling = []
    for _ in range(40):
        sock = socket.create_connection(("127.0.0.1", guarded.port), timeout=30)
        sock.sendall(b"GE")  # and never the rest
        trickling.append(sock)
    silent = socket.create_connection(("127.0.0.1", guarded.port), timeout=30)
    meanwhile = round_trip(guarded)
    answers = []
    for sock in [*trickling, silent]:
        data = b""
        while chunk := sock.recv(4096):  # blocks until the server closes it (30 s at most)
            data += chunk
        answers.append(data.partition(b"\r\n")[0])
        sock.close()
    assert set(answers) == {b"HTTP/1.1 408 Request Timeout"}
    print(f"lobby round trip: {baseline * 1000:.1f} ms, {meanwhile * 1000:.1f} ms under 41")


def test_one_address_and_one_room_hold_only_so_many_sockets(guarded: Server) -> None:
    room = guarded.create_room()
    path = f"/ws/rooms/{room}"
    mallory = {"X-Forwarded-For": MALLORY}
    held = [raw_socket(guarded, path, headers=mallory) for _ in range(3)]
    assert all(line.startswith("HTTP/1.1 101") for _, line in held)
    extra, line = raw_socket(guarded, path, headers=mallory)
    body = extra.recv(4096).decode()
    extra.close()
    assert line.startswith("HTTP/1.1 429"), line
    assert "at most 3 room connections from one address" in body
    # This machine's own sockets are not counted per address, but the room holds five.
    held += [raw_socket(guarded, path) for _ in range(2)]
    assert all(line.startswith("HTTP/1.1 101") for _, line in held)
    full, line = raw_socket(guarded, path)
    body = full.recv(4096).decode()
    full.close()
    assert line.startswith("HTTP/1.1 429"), line
    assert "at most 5 connections to one room" in body
    # A socket that leaves makes room for another.
    sock, _ = held.pop()
    sock.close()
    deadline = time.monotonic() + 30
    while True:
        again, line = raw_socket(guarded, path)
        if line.startswith("HTTP/1.1 101"):
            break
        again.close()
        assert time.monotonic() < deadline, line
        time.sleep(0.1)  # the server hears of the close on its own time: polled
    again.close()
    for sock, _ in held:
        sock.close()
