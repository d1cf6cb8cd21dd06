"""Swiss tournaments over HTTP (issue 71; docs/tournaments.md, its API section). Changes
need an account (401) and a page of this site (403); a bad field is 400 naming it, an
unknown game or option 422, a tournament that is not there 404, a step its state does not
allow 409, a director's step by anyone else 403. A refused request changes nothing.

* ``POST /api/tournaments`` ``{name, game, options?, seats?, rounds, turn_hours?, rated?,
  starts_at?, venue?}``: 201 ``{id}``; the caller directs it.
* ``GET /api/tournaments``: ``{upcoming, running, finished}``, each a list of summaries.
* ``GET /api/tournaments/{id}``: its standings and pairings (``meet/tournaments.py``'s
  ``view``).
* ``POST .../join``, ``.../withdraw``: the caller enters (until half the rounds are
  paired, with a half-point bye for each round paired before) or withdraws.
* The director's: ``.../start`` (pairs round 1), ``.../pair`` (the next round, once every
  game of the last has its result), ``.../results`` ``{round, table, result}`` (a result
  set or corrected), ``.../remove`` ``{name}`` (a player withdrawn).
* ``GET .../trf``: the FIDE TRF16 file of a two-seat tournament.
* ``GET .../codes``: the director's: each over-the-board table's code (for the printed
  pairings) and the report waiting on it.
* Over the board: ``POST .../tables/{round}/{table}/report`` ``{code, result,
  photo_match?}`` by a player of the table, ``.../confirm`` ``{code}`` by another: the
  result is recorded (with the report and its photo's match attached); ``.../dispute``
  ``{code}`` by another: the report is marked disputed, for the director to settle
  (``.../results``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import App, Services
from spacetable.server.http.seeks import Refused, json_object
from spacetable.server.meet import swiss
from spacetable.server.meet.hub import Player
from spacetable.server.meet.identity import player_of
from spacetable.server.meet.tournaments import (
    TournamentRefused,
    advance,
    pair_next,
    places_of,
    tournament_body,
    view,
)
from spacetable.server.store.tournaments import (
    Joined,
    Table,
    Tournament,
    TournamentPlayer,
    TournamentStore,
)

#: The tournament routes.
router = APIRouter()


def store_of(served: Services) -> TournamentStore:
    """The application's tournaments."""
    assert served.tournaments is not None, "create_app makes the tournaments"
    return served.tournaments


async def _account(request: Request, served: Services) -> Player:
    player = await player_of(request, served.accounts)
    if player.account is None:
        raise TournamentRefused(refusal("Log in to take part in a tournament."), 401)
    return player


async def _tournament(served: Services, tournament_id: str) -> Tournament:
    found = await asyncio.to_thread(store_of(served).get, tournament_id)
    if found is None:
        raise TournamentRefused(refusal("no tournament {id}", id=tournament_id[:40]), 404)
    return found


async def _director(request: Request, served: Services, tournament_id: str) -> Tournament:
    player = await _account(request, served)
    tournament = await _tournament(served, tournament_id)
    if tournament.director != player.key:
        raise TournamentRefused(refusal("only the tournament's director may do this"), 403)
    return tournament


def _field(body: Any, name: str) -> Any:
    if not isinstance(body, dict) or name not in body:
        raise TournamentRefused(refusal("{field}: missing", field=name))
    return body[name]


def _table_of(tables: list[Table], round_: int, table: int) -> Table:
    for t in tables:
        if t.round == round_ and t.table == table and t.source not in ("bye", "late"):
            return t
    raise TournamentRefused(
        refusal("round {round} has no table {table}", round=round_, table=table), 404
    )


async def _answer(work: Any) -> Any:
    try:
        return await work
    except Refused as exc:
        return exc.answer
    except TournamentRefused as exc:
        return refused(exc.args[0], exc.status)


@router.post("/api/tournaments", status_code=201, response_model=None)
async def create_tournament(request: Request, served: App) -> dict[str, Any] | JSONResponse:
    async def work() -> dict[str, Any]:
        player = await _account(request, served)
        body = await json_object(request, served)
        if not isinstance(body, dict):
            raise TournamentRefused(refusal("the body must be a JSON object"))
        made = tournament_body(body, player, store_of(served).wall())
        await asyncio.to_thread(store_of(served).create, made)
        return {"id": made.id}

    return await _answer(work())  # type: ignore[no-any-return]


@router.get("/api/tournaments")
async def list_tournaments(served: App) -> dict[str, list[dict[str, Any]]]:
    listed = await asyncio.to_thread(store_of(served).listing)
    out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    for tournament in listed:
        out[tournament.status].append(tournament.summary())
    return out


@router.get("/api/tournaments/{tournament_id}", response_model=None)
async def show_tournament(tournament_id: str, served: App) -> dict[str, Any] | JSONResponse:
    async def work() -> dict[str, Any]:
        tournament = await _tournament(served, tournament_id)
        store = store_of(served)
        players = await asyncio.to_thread(store.players, tournament_id)
        tables = await asyncio.to_thread(store.tables, tournament_id)
        return view(tournament, players, tables)

    return await _answer(work())  # type: ignore[no-any-return]


@router.post("/api/tournaments/{tournament_id}/join", response_model=None)
async def join(tournament_id: str, request: Request, served: App) -> dict[str, Any] | JSONResponse:
    async def work() -> dict[str, Any]:
        player = await _account(request, served)
        tournament = await _tournament(served, tournament_id)
        _joinable(tournament)
        shown = await asyncio.to_thread(served.ratings.shown, player.key, tournament.game)
        rating = round(float(shown["rating"])) if shown else 0
        try:
            number, missed = await asyncio.to_thread(
                store_of(served).join, tournament_id, player.key, player.name, rating
            )
        except Joined:
            raise TournamentRefused(refusal("you are already in this tournament"), 409) from None
        except LookupError:
            raise TournamentRefused(refusal("the tournament moved on: try again"), 409) from None
        return {"number": number, "byes": missed}

    return await _answer(work())  # type: ignore[no-any-return]


def _joinable(tournament: Tournament) -> None:
    if tournament.status == "finished":
        raise TournamentRefused(refusal("the tournament is finished"), 409)
    if tournament.status == "running" and 2 * tournament.round >= tournament.rounds:
        raise TournamentRefused(
            refusal(
                "players may join until half the rounds are paired ({round} of {rounds} are)",
                round=tournament.round,
                rounds=tournament.rounds,
            ),
            409,
        )


async def _entrant(served: Services, tournament_id: str, key: str) -> TournamentPlayer:
    for entrant in await asyncio.to_thread(store_of(served).players, tournament_id):
        if entrant.key == key:
            return entrant
    raise TournamentRefused(refusal("not a player of this tournament"), 404)


@router.post("/api/tournaments/{tournament_id}/withdraw", status_code=204, response_model=None)
async def withdraw(tournament_id: str, request: Request, served: App) -> Response:
    async def work() -> Response:
        player = await _account(request, served)
        await _tournament(served, tournament_id)
        entrant = await _entrant(served, tournament_id, player.key)
        await asyncio.to_thread(store_of(served).withdraw, tournament_id, entrant.number)
        return Response(status_code=204)

    return await _answer(work())  # type: ignore[no-any-return]


@router.post("/api/tournaments/{tournament_id}/remove", status_code=204, response_model=None)
async def remove(tournament_id: str, request: Request, served: App) -> Response:
    async def work() -> Response:
        await _director(request, served, tournament_id)
        name = _field(await json_object(request, served), "name")
        for entrant in await asyncio.to_thread(store_of(served).players, tournament_id):
            if entrant.name == name:
                await asyncio.to_thread(store_of(served).withdraw, tournament_id, entrant.number)
                return Response(status_code=204)
        raise TournamentRefused(refusal("not a player of this tournament"), 404)

    return await _answer(work())  # type: ignore[no-any-return]


@router.post("/api/tournaments/{tournament_id}/start", response_model=None)
async def start(tournament_id: str, request: Request, served: App) -> dict[str, Any] | JSONResponse:
    async def work() -> dict[str, Any]:
        tournament = await _director(request, served, tournament_id)
        store = store_of(served)
        if tournament.status != "upcoming":
            raise TournamentRefused(refusal("the tournament has started already"), 409)
        players = await asyncio.to_thread(store.players, tournament_id)
        if len(players) < 2:
            raise TournamentRefused(refusal("a tournament needs two players to start"), 409)
        if not await asyncio.to_thread(store.start, tournament_id):
            raise TournamentRefused(refusal("the tournament has started already"), 409)
        running = await _tournament(served, tournament_id)
        made = await pair_next(store, running, served, served.hub)
        return {"round": 1, "tables": len(made or [])}

    return await _answer(work())  # type: ignore[no-any-return]


@router.post("/api/tournaments/{tournament_id}/pair", response_model=None)
async def pair(tournament_id: str, request: Request, served: App) -> dict[str, Any] | JSONResponse:
    async def work() -> dict[str, Any]:
        tournament = await _director(request, served, tournament_id)
        if tournament.status != "running":
            raise TournamentRefused(refusal("the tournament is not running"), 409)
        if tournament.round >= tournament.rounds:
            raise TournamentRefused(refusal("every round is paired already"), 409)
        made = await pair_next(store_of(served), tournament, served, served.hub)
        if made is None:
            raise TournamentRefused(refusal("that round was paired meanwhile"), 409)
        return {"round": tournament.round + 1, "tables": len(made)}

    return await _answer(work())  # type: ignore[no-any-return]


@router.post("/api/tournaments/{tournament_id}/results", status_code=204, response_model=None)
async def correct(tournament_id: str, request: Request, served: App) -> Response:
    async def work() -> Response:
        await _director(request, served, tournament_id)
        body = await json_object(request, served)
        round_, number = _field(body, "round"), _field(body, "table")
        if type(round_) is not int or type(number) is not int:
            raise TournamentRefused(refusal("round and table: must be whole numbers"))
        store = store_of(served)
        table = _table_of(await asyncio.to_thread(store.tables, tournament_id), round_, number)
        places = places_of(_field(body, "result"), len(table.seats))
        await asyncio.to_thread(
            lambda: store.record(tournament_id, round_, number, places, "director", correct=True)
        )
        await advance(store, tournament_id, served, served.hub)
        return Response(status_code=204)

    return await _answer(work())  # type: ignore[no-any-return]


@router.get("/api/tournaments/{tournament_id}/trf", response_model=None)
async def trf(tournament_id: str, served: App) -> Response:
    async def work() -> Response:
        tournament = await _tournament(served, tournament_id)
        if tournament.seats != 2:
            raise TournamentRefused(refusal("a TRF holds two-player tournaments only"), 409)
        store = store_of(served)
        players = await asyncio.to_thread(store.players, tournament_id)
        tables = await asyncio.to_thread(store.tables, tournament_id)
        lines = swiss.trf(
            tournament.name,
            tournament.rounds,
            [swiss.Entrant(p.number, p.name, p.withdrawn, p.rating) for p in players],
            [swiss.Game(t.round, t.table, t.seats, t.places, t.source) for t in tables],
        )
        return Response("\n".join(lines) + "\n", media_type="text/plain; charset=utf-8")

    return await _answer(work())  # type: ignore[no-any-return]


async def _board_table(
    request: Request,
    served: Services,
    tournament_id: str,
    round_: int,
    number: int,
    accepting: bool = False,
) -> tuple[Player, TournamentPlayer, Table, dict[str, Any]]:
    # ``accepting`` a report a photo made (``http/tournament_photo.py``) needs no code: the
    # player is logged in and seated at the table, and the photo shows it.
    player = await _account(request, served)
    await _tournament(served, tournament_id)
    store = store_of(served)
    table = _table_of(await asyncio.to_thread(store.tables, tournament_id), round_, number)
    body = await json_object(request, served)
    if not isinstance(body, dict):
        raise TournamentRefused(refusal("the body must be a JSON object"))
    entrant = await _entrant(served, tournament_id, player.key)
    if entrant.number not in table.seats:
        raise TournamentRefused(refusal("you do not play at this table"), 403)
    by_photo = accepting and table.report is not None and "photo" in table.report
    if not by_photo and (table.code is None or body.get("code") != table.code):
        raise TournamentRefused(refusal("code: not this table's code"), 403)
    if table.places is not None:
        raise TournamentRefused(refusal("this table has its result already"), 409)
    return player, entrant, table, body


@router.post(
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/report",
    status_code=202,
    response_model=None,
)
async def report(
    tournament_id: str, round_: int, number: int, request: Request, served: App
) -> Response:
    async def work() -> Response:
        player, _, table, body = await _board_table(request, served, tournament_id, round_, number)
        places = places_of(_field(body, "result"), len(table.seats))
        kept: dict[str, Any] = {"by": player.name, "places": list(places)}
        if "photo_match" in body:
            photo = body["photo_match"]
            if not (isinstance(photo, str) and 0 < len(photo) <= 64):
                raise TournamentRefused(refusal("photo_match: must be a match id"))
            kept["photo_match"] = photo
        await asyncio.to_thread(store_of(served).set_report, tournament_id, round_, number, kept)
        return Response(status_code=202)

    return await _answer(work())  # type: ignore[no-any-return]


async def _reported(
    request: Request, served: Services, tournament_id: str, round_: int, number: int
) -> tuple[Player, dict[str, Any]]:
    """The player answering a table's report (he confirms or disputes it), and the
    report. Refused: no report (409), or he made it himself (403)."""
    player, _, table, _ = await _board_table(
        request, served, tournament_id, round_, number, accepting=True
    )
    if table.report is None:
        raise TournamentRefused(refusal("no result was reported at this table"), 409)
    if table.report.get("by") == player.name:
        raise TournamentRefused(refusal("another player of the table must confirm"), 403)
    return player, table.report


@router.post(
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/confirm",
    status_code=204,
    response_model=None,
)
async def confirm(
    tournament_id: str, round_: int, number: int, request: Request, served: App
) -> Response:
    async def work() -> Response:
        _, report = await _reported(request, served, tournament_id, round_, number)
        store = store_of(served)
        places = tuple(report["places"])
        await asyncio.to_thread(
            lambda: store.record(tournament_id, round_, number, places, "reported", report=report)
        )
        await advance(store, tournament_id, served, served.hub)
        return Response(status_code=204)

    return await _answer(work())  # type: ignore[no-any-return]


def _light(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """A report without a photo's copy and battle (``http/tournament_photo.py`` serves
    them; the page asks for this list every 15 s)."""
    if report is None:
        return None
    return {key: value for key, value in report.items() if key not in ("photo", "battle")}


@router.get("/api/tournaments/{tournament_id}/codes", response_model=None)
async def table_codes(tournament_id: str, request: Request, served: App) -> Any:
    async def work() -> dict[str, Any]:
        await _director(request, served, tournament_id)
        tables = await asyncio.to_thread(store_of(served).tables, tournament_id)
        return {
            "tables": [
                {"round": t.round, "table": t.table, "code": t.code, "report": _light(t.report)}
                for t in tables
                if t.code is not None
            ]
        }

    return await _answer(work())


@router.post(
    "/api/tournaments/{tournament_id}/tables/{round_}/{number}/dispute",
    status_code=204,
    response_model=None,
)
async def dispute(
    tournament_id: str, round_: int, number: int, request: Request, served: App
) -> Response:
    async def work() -> Response:
        player, report = await _reported(request, served, tournament_id, round_, number)
        kept = {**report, "disputed_by": player.name}
        await asyncio.to_thread(store_of(served).set_report, tournament_id, round_, number, kept)
        return Response(status_code=204)

    return await _answer(work())  # type: ignore[no-any-return]
