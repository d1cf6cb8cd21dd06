"""An over-the-board tournament table settled from a photo of its cards (issue 71 item 4;
docs/tournaments.md, "Over the board"). A player of the table sends the photo; the photo
referee reads it in its workers (``http/photo.py``: the same limits and refusals as
``POST /api/referee/photo``, never on the rooms' loop), the table's battle is resolved by
the exact referee, and the result is kept as the table's report, with a copy of the photo
and the battle, until another player of the table accepts it (``.../confirm``: no code
asked for a photo's report, the accepting player is logged in and seated) or disputes it.

* ``POST /api/tournaments/{id}/tables/{round}/{table}/photo``, the photo as the body
  (``image/jpeg``, ``image/png`` or ``image/webp``): 200 ``{by, result, places,
  close_calls, photo, battle}`` (``photo``, ``battle``: their addresses). Refused, nothing
  stored: 401 (no account), 403 (not a player of the table, another site's page), 404,
  409 (not an over-the-board table, a game whose photos are not read, a result
  recorded), 400 (no table in the photo, a photo of another game, or of another number of
  players), and what ``POST /api/referee/photo`` refuses (413, 415, 422, 503).
* ``GET .../photo``: the kept copy (JPEG, at most ``KEPT_PHOTO_SIDE`` px a side).
* ``GET .../battle``: the battle as the referee draws it (SVG, in the reader's language),
  resolved again from the kept table (the referee is exact: the same battle).

The photo's colours sit in seat order: the table's first seat plays the first colour of
the game's order found on the photo (red, blue, green, purple), and so on. The places
follow the battle's result as an online match's do (``store/ratings.py``'s ``ranks``).
"""

from __future__ import annotations

import asyncio
import base64
import re
import secrets
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from spacetable.i18n import N_
from spacetable.i18n.phrase import refusal
from spacetable.registry import UnknownGame, game, game_for_ruleset
from spacetable.server.http.deps import App, Referee, Services
from spacetable.server.http.pages import reader_language
from spacetable.server.http.photo import (
    PHOTO_SECONDS,
    _photo_body,
    _Refused,
    check_photo_header,
    read_photo_kept,
    resolve_photo,
)
from spacetable.server.http.referee import referee_answer
from spacetable.server.http.referee_pool import RefereePool
from spacetable.server.http.seeks import foreign
from spacetable.server.http.tournaments import (
    _account,
    _answer,
    _entrant,
    _table_of,
    _tournament,
    store_of,
)
from spacetable.server.meet.tournaments import TournamentRefused, photo_links, result_name
from spacetable.server.store.ratings import ranks
from spacetable.server.store.tournaments import Table, Tournament

#: The table's photo, its battle (``{round_}``, ``{number}``: the round and the table).
TABLE_PATH = "/api/tournaments/{tournament_id}/tables/{round_}/{number}"

#: How long a browser keeps a table's photo or battle (their addresses name the photo).
_KEPT = "private, max-age=3600"

#: The photo routes of the tournaments' tables.
router = APIRouter()


async def _read(referee: RefereePool, body: bytes) -> bytes:
    """The photo's answer (``http/photo.py``'s, with ``kept``: the copy to keep)."""
    await asyncio.to_thread(check_photo_header, body)
    return await referee.settle(
        PHOTO_SECONDS, read_photo_kept, resolve_photo, body, what=N_("the photo"), fresh=True
    )


def _places(answer: dict[str, Any], tournament: Tournament, table: Table) -> tuple[int, ...]:
    """The table's places by the photo's battle. Raises :class:`TournamentRefused` (400)
    for a photo of another game, or of another number of players than the table's."""
    ruleset = answer["table"].get("ruleset")
    wanted = game(tournament.game).rules
    try:
        shown = game_for_ruleset(ruleset).rules
    except UnknownGame:
        shown = None
    if shown is None or shown.key != wanted.key:
        raise TournamentRefused(
            refusal(
                "the photo shows a {shown} table: this tournament plays {wanted}",
                shown=shown.title if shown else str(ruleset)[:40],
                wanted=wanted.title,
            )
        )
    colours = [str(c) for c in answer["table"].get("players", [])]
    if len(colours) != len(table.seats):
        raise TournamentRefused(
            refusal(
                "the photo shows {count} players' cards: this table has {seats} players",
                count=len(colours),
                seats=len(table.seats),
            )
        )
    placed = ranks(colours, answer["result"])
    return tuple(placed.get(colour, len(colours)) for colour in colours)


def _kept_table(served: Services, tournament_id: str, round_: int, number: int) -> Any:
    """The table's report that a photo made (``None``: none)."""
    for table in store_of(served).tables(tournament_id):
        if table.round == round_ and table.table == number and table.report is not None:
            return table.report if "photo" in table.report else None
    return None


@router.post(TABLE_PATH + "/photo", response_model=None)
async def upload_photo(
    tournament_id: str,
    round_: int,
    number: int,
    request: Request,
    served: App,
    referee: Referee,
) -> Response:
    async def work() -> Response:
        # The whole photo is read first (within its limit): an answer while it is still
        # coming would reset the connection, and the page would see no reason.
        try:
            body = await _photo_body(request)
        except _Refused as exc:
            return exc.response()
        if (answer := foreign(request, served)) is not None:
            return answer  # another site's page
        player = await _account(request, served)
        tournament = await _tournament(served, tournament_id)
        if tournament.venue != "board":
            raise TournamentRefused(
                refusal("only an over-the-board table is settled from a photo"), 409
            )
        if not game(tournament.game).photos:
            raise TournamentRefused(
                refusal(
                    "the photo referee does not read {game} tables",
                    game=game(tournament.game).rules.title,
                ),
                409,
            )
        store = store_of(served)
        table = _table_of(await asyncio.to_thread(store.tables, tournament_id), round_, number)
        entrant = await _entrant(served, tournament_id, player.key)
        if entrant.number not in table.seats:
            raise TournamentRefused(refusal("you do not play at this table"), 403)
        if table.places is not None:
            raise TournamentRefused(refusal("this table has its result already"), 409)
        answered = await referee_answer(_read(referee, body))
        if answered.status_code != 200:
            return answered
        answer = orjson.loads(bytes(answered.body))
        places = _places(answer, tournament, table)
        version = secrets.token_hex(6)
        kept = {
            "by": player.name,
            "photo_id": version,
            "places": list(places),
            "photo": answer["kept"],
            "battle": {
                "table": answer["table"],
                "scores": answer["result"].get("scores"),
                "winner": answer["result"].get("winner"),
                "close_calls": answer["close_calls"],
            },
        }
        done = await asyncio.to_thread(store.set_report, tournament_id, round_, number, kept)
        if not done:
            raise TournamentRefused(refusal("this table has its result already"), 409)
        return JSONResponse(
            {
                "by": player.name,
                "result": result_name(places),
                "places": list(places),
                "close_calls": len(answer["close_calls"]),
                **photo_links(tournament_id, round_, number, version),
            }
        )

    return await _answer(work())  # type: ignore[no-any-return]


async def _kept(served: Services, tournament_id: str, round_: int, number: int) -> Any:
    kept = await asyncio.to_thread(_kept_table, served, tournament_id, round_, number)
    if kept is None:
        raise TournamentRefused(
            refusal("round {round} table {table} has no photo", round=round_, table=number), 404
        )
    return kept


@router.get(TABLE_PATH + "/photo", response_model=None)
async def table_photo(tournament_id: str, round_: int, number: int, served: App) -> Response:
    async def work() -> Response:
        kept = await _kept(served, tournament_id, round_, number)
        jpeg = base64.b64decode(kept["photo"])
        # Its address names it (``?v=``): a new photo comes under a new one.
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": _KEPT})

    return await _answer(work())  # type: ignore[no-any-return]


def _fitted(svg: str) -> str:
    """The referee's drawing at the size of the window it is opened in (it is drawn at
    the table's true size, in mm: far larger than a phone's screen)."""
    head, _, rest = svg.partition(">")
    head = re.sub(r'\s(width|height)="[^"]*"', r' \1="100%"', head)
    return f"{head}>{rest}"


@router.get(TABLE_PATH + "/battle", response_model=None)
async def table_battle(
    tournament_id: str,
    round_: int,
    number: int,
    request: Request,
    served: App,
    referee: Referee,
) -> Response:
    async def work() -> Response:
        kept = await _kept(served, tournament_id, round_, number)
        table = orjson.dumps(kept["battle"]["table"])
        answered = await referee_answer(referee.resolve(table, reader_language(request)))
        if answered.status_code != 200:
            return answered
        svg = _fitted(orjson.loads(bytes(answered.body))["svg"])
        return Response(
            svg,
            media_type="image/svg+xml",
            headers={
                "Cache-Control": _KEPT,
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            },
        )

    return await _answer(work())  # type: ignore[no-any-return]
