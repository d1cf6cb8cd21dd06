"""A tournament's printouts (issue 71 item 4; docs/tournaments.md): the PDFs a director
prints for a club night, in the reader's language (``?lang=``, the ``lang`` cookie or
``Accept-Language``), A4.

* ``GET /api/tournaments/{id}/pairings.pdf?round=N`` (the director's: it holds each
  over-the-board table's code): the round's tables (the last paired when ``round`` is
  not given), each with its players in seat order (starting numbers and names), the
  table's code and its result so far, then the byes.
* ``GET /api/tournaments/{id}/standings.pdf`` (anyone's): rank, starting number, name,
  points, Buchholz and Sonneborn-Berger.

A round that is not paired is 404, a ``round`` that is not a whole number 400.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence

from fastapi import APIRouter, Request, Response

from spacetable.i18n import Translator, translator
from spacetable.i18n.phrase import refusal
from spacetable.server.http.deps import App
from spacetable.server.http.pages import reader_language
from spacetable.server.http.password_work import PasswordsBusy, PasswordWork
from spacetable.server.http.tournaments import (
    _answer,
    _director,
    _tournament,
    store_of,
)
from spacetable.server.meet import swiss
from spacetable.server.meet.tournaments import TournamentRefused, result_name
from spacetable.server.store.tournaments import Table, Tournament, TournamentPlayer

#: The printout routes.
router = APIRouter()

#: The printouts' own thread (reportlab draws a page in milliseconds, a long tournament's
#: pages in tens: never on the rooms' event loop, nor on the default executor their joins
#: and lookups use), with 4 more waiting at most; past that a printout is refused (503).
PRINTING = PasswordWork(threads=1, waiting=4, held=4, name="printouts")


async def _printed(draw: Callable[..., bytes], *args: object) -> bytes:
    """``draw(*args)`` on the printouts' thread; refused while it is busy."""
    try:
        return await PRINTING.run(draw, *args)
    except PasswordsBusy:
        said = refusal("The printer is busy: try again in a moment.")
        raise TournamentRefused(said, 503) from None


_FONT, _BOLD = "Helvetica", "Helvetica-Bold"
#: A millimetre in PDF points (reportlab's ``mm``: reportlab itself is imported when a
#: printout is first asked for, not as the server starts).
mm = 72 / 25.4
_MARGIN = 18 * mm
_LINE = 7 * mm
#: Between the names of a table's players: an en dash.
_BETWEEN = " \u2013 "


def _pdf(
    title: str, subtitle: str, columns: Sequence[tuple[str, float]], rows: list[list[str]]
) -> bytes:
    """A4 pages: ``title`` and ``subtitle`` on top, then a table of ``columns`` (heading,
    left edge in mm from the margin) and its ``rows``, the heading repeated on each page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=True)
    canvas.setTitle(title)
    width, height = A4

    def heading() -> float:
        y = height - _MARGIN
        canvas.setFont(_BOLD, 16)
        canvas.drawString(_MARGIN, y, title[:70])
        canvas.setFont(_FONT, 11)
        canvas.drawString(_MARGIN, y - 7 * mm, subtitle)
        y -= 17 * mm
        canvas.setFont(_BOLD, 11)
        for words, x in columns:
            canvas.drawString(_MARGIN + x * mm, y, words)
        canvas.line(_MARGIN, y - 2 * mm, width - _MARGIN, y - 2 * mm)
        canvas.setFont(_FONT, 11)
        return y - _LINE

    edges = [x for _, x in columns] + [(width - 2 * _MARGIN) / mm]
    y = heading()
    for row in rows:
        if y < _MARGIN:
            canvas.showPage()
            y = heading()
        for cell, x, end in zip(row, edges, edges[1:], strict=False):
            room = (end - x) * mm - 2 * mm  # a cell too wide is cut short: "…"
            while len(cell) > 1 and canvas.stringWidth(cell, _FONT, 11) > room:
                cell = cell[:-2] + "…"
            canvas.drawString(_MARGIN + x * mm, y, cell)
        y -= _LINE
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _named(players: list[TournamentPlayer]) -> dict[int, str]:
    return {p.number: f"{p.number}. {p.name}" for p in players}


def pairings_pdf(
    tr: Translator,
    tournament: Tournament,
    players: list[TournamentPlayer],
    tables: list[Table],
    round_: int,
) -> bytes:
    """The pairings of round ``round_`` as a PDF (see the module)."""
    names = _named(players)
    rows = []
    byes = []
    for table in (t for t in tables if t.round == round_):
        seated = [names[n] for n in table.seats]
        if table.source in (swiss.BYE, swiss.LATE):
            points = "1" if table.source == swiss.BYE else "½"
            byes.append(
                [tr.gettext("bye ({points})", points=points), _BETWEEN.join(seated), "", ""]
            )
            continue
        result = result_name(table.places)
        rows.append(
            [
                str(table.table),
                _BETWEEN.join(seated),
                table.code or "",
                "" if result is None else result.replace("1/2", "½"),
            ]
        )
    columns = [
        (tr.gettext("Table"), 0.0),
        (tr.gettext("Players"), 16.0),
        (tr.gettext("Code"), 120.0),
        (tr.gettext("Result"), 145.0),
    ]
    subtitle = tr.gettext(
        "Pairings of round {round} of {rounds}", round=round_, rounds=tournament.rounds
    )
    return _pdf(tournament.name, subtitle, columns, rows + byes)


def _number(tr: Translator, value: float) -> str:
    """``value`` the reader's way, to two decimals at most (``0,67`` in French)."""
    return tr.number(round(value, 2), "0.##")


def standings_pdf(
    tr: Translator, tournament: Tournament, players: list[TournamentPlayer], tables: list[Table]
) -> bytes:
    """The standings as a PDF (see the module)."""
    entrants = [swiss.Entrant(p.number, p.name, p.withdrawn, p.rating) for p in players]
    games = [swiss.Game(t.round, t.table, t.seats, t.places, t.source) for t in tables]
    rows = [
        [
            str(line.rank),
            str(line.number),
            line.name + (f" ({tr.gettext('withdrawn')})" if line.withdrawn else ""),
            _number(tr, line.score),
            _number(tr, line.buchholz),
            _number(tr, line.sonneborn_berger),
        ]
        for line in swiss.standings(entrants, games)
    ]
    columns = [
        ("#", 0.0),
        (tr.gettext("No."), 10.0),
        (tr.gettext("Player"), 22.0),
        (tr.gettext("Points"), 100.0),
        ("Buchholz", 120.0),
        ("S-B", 145.0),
    ]
    subtitle = tr.gettext(
        "Standings after round {round} of {rounds}",
        round=tournament.round,
        rounds=tournament.rounds,
    )
    return _pdf(tournament.name, subtitle, columns, rows)


def _filename(tournament: Tournament, what: str) -> str:
    # (a header is ASCII: "Soirée du club" is "Soir-e-du-club")
    safe = "".join(c if c.isascii() and c.isalnum() else "-" for c in tournament.name)
    safe = safe[:40].strip("-")
    return f'inline; filename="{safe or "tournament"}-{what}.pdf"'


@router.get("/api/tournaments/{tournament_id}/pairings.pdf", response_model=None)
async def pairings(tournament_id: str, request: Request, served: App) -> Response:
    async def work() -> Response:
        tournament = await _director(request, served, tournament_id)
        asked = request.query_params.get("round")
        if asked is not None and not asked.isdigit():
            raise TournamentRefused(refusal("round: must be a whole number"))
        round_ = tournament.round if asked is None else int(asked)
        if not 1 <= round_ <= tournament.round:
            raise TournamentRefused(refusal("round {round} is not paired", round=round_), 404)
        store = store_of(served)
        players = await asyncio.to_thread(store.players, tournament_id)
        tables = await asyncio.to_thread(store.tables, tournament_id)
        tr = translator(reader_language(request))
        pdf = await _printed(pairings_pdf, tr, tournament, players, tables, round_)
        disposition = _filename(tournament, f"round-{round_}")
        return Response(
            pdf, media_type="application/pdf", headers={"Content-Disposition": disposition}
        )

    return await _answer(work())  # type: ignore[no-any-return]


@router.get("/api/tournaments/{tournament_id}/standings.pdf", response_model=None)
async def standings(tournament_id: str, request: Request, served: App) -> Response:
    async def work() -> Response:
        tournament = await _tournament(served, tournament_id)
        store = store_of(served)
        players = await asyncio.to_thread(store.players, tournament_id)
        tables = await asyncio.to_thread(store.tables, tournament_id)
        tr = translator(reader_language(request))
        pdf = await _printed(standings_pdf, tr, tournament, players, tables)
        disposition = _filename(tournament, "standings")
        return Response(
            pdf, media_type="application/pdf", headers={"Content-Disposition": disposition}
        )

    return await _answer(work())  # type: ignore[no-any-return]
