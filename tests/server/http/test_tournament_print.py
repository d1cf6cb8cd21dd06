"""A tournament's printouts (``http/tournament_print.py``, issue 71 item 4): the
director's pairings PDF holds each table's players and code, and the byes; the standings
PDF anyone may read holds the ranks, names and tie-breaks; both in the reader's language.
The PDFs are read back with pypdfium2 (their text, as a printer would show it)."""

from __future__ import annotations

import threading
from typing import Any

import pypdfium2 as pdfium
import pytest
from fastapi.testclient import TestClient

from spacetable.server.http import tournament_print
from spacetable.server.http.password_work import PasswordWork
from tests.server.http._client import login
from tests.server.http.test_tournaments import client, create

__all__ = ["client"]


def text_of(pdf: bytes) -> str:
    """The text of every page of ``pdf``."""
    document = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def test_the_director_prints_the_pairings_with_codes_and_anyone_the_standings(
    client: TestClient,
) -> None:
    director = login(client, "Arbiter")
    tid = create(client, director, name="Soirée du club 71", venue="board", rounds=3)
    names = ["Vega", "Rigel", "Deneb", "Altair", "Mira"]
    heads = {n: login(client, n) for n in names}
    for n in names:
        assert client.post(f"/api/tournaments/{tid}/join", headers=heads[n]).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=director).status_code == 200
    codes = client.get(f"/api/tournaments/{tid}/codes", headers=director).json()["tables"]
    assert len(codes) == 2

    got = client.get(f"/api/tournaments/{tid}/pairings.pdf?round=1", headers=director)
    assert got.status_code == 200 and got.headers["content-type"] == "application/pdf"
    # (a header is ASCII: the file's name keeps the name's ASCII letters)
    assert got.headers["content-disposition"] == 'inline; filename="Soir-e-du-club-71-round-1.pdf"'
    text = text_of(got.content)
    assert "Soirée du club 71" in text and "Pairings of round 1 of 3" in text
    assert all(entry["code"] in text for entry in codes)
    assert all(name in text for name in names)  # four at tables, one with the bye
    assert "bye (1)" in text

    # The codes are the director's: a player may not print them.
    refused = client.get(f"/api/tournaments/{tid}/pairings.pdf", headers=heads["Vega"])
    assert refused.status_code == 403
    assert (
        client.get(f"/api/tournaments/{tid}/pairings.pdf?round=2", headers=director).status_code
        == 404
    )
    assert (
        client.get(f"/api/tournaments/{tid}/pairings.pdf?round=x", headers=director).status_code
        == 400
    )

    # One result, then the standings: anyone's, in French when asked.
    assert (
        client.post(
            f"/api/tournaments/{tid}/results",
            json={"round": 1, "table": 1, "result": "1-0"},
            headers=director,
        ).status_code
        == 204
    )
    standings = client.get(f"/api/tournaments/{tid}/standings.pdf?lang=fr")
    assert standings.status_code == 200
    text = text_of(standings.content)
    assert "Classement après la ronde 1 sur 3" in text
    lines = client.get(f"/api/tournaments/{tid}").json()["players"]
    first = lines[0]
    assert first["score"] == 1 and first["name"] in text.split("\n")[3]
    assert all(line["name"] in text for line in lines)


def test_a_printout_is_drawn_on_its_own_thread_and_refused_while_it_is_busy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """reportlab's drawing runs on the printouts' thread, never on the event loop nor its
    default executor (the rooms' joins and lookups); past its places, 503 naming it."""
    director = login(client, "Arbiter")
    tid = create(client, director, name="Club", venue="board", rounds=3)
    drawn_on: list[str] = []
    drawing = tournament_print.standings_pdf

    def watched(*args: Any) -> bytes:
        drawn_on.append(threading.current_thread().name)
        return drawing(*args)

    monkeypatch.setattr(tournament_print, "standings_pdf", watched)
    assert client.get(f"/api/tournaments/{tid}/standings.pdf").status_code == 200
    assert len(drawn_on) == 1 and drawn_on[0].startswith("printouts"), drawn_on
    busy = PasswordWork(threads=1, waiting=0, hold=0.0, held=0, name="printouts")
    gate = threading.Event()
    busy._pool.submit(gate.wait)  # its one thread taken
    assert busy._take()  # and its one place
    monkeypatch.setattr(tournament_print, "PRINTING", busy)
    try:
        refused = client.get(f"/api/tournaments/{tid}/standings.pdf")
        assert refused.status_code == 503 and "printer is busy" in refused.json()["detail"]
    finally:
        gate.set()
        busy.close()
