"""The referee over HTTP: ``POST /api/resolve`` (a table in JSON, settled by the worker
pool), and what the referee's endpoints (this one and the photo's, ``http/photo.py``)
answer for a table or a photo: the result, or the error that names what went wrong, with
its status."""

from __future__ import annotations

from collections.abc import Awaitable

from fastapi import APIRouter, Request
from starlette.responses import JSONResponse, Response

from spacetable.i18n.phrase import phrase
from spacetable.lasers.tables import MAX_TABLE_BYTES
from spacetable.server.http.bodies import BodyRefused, json_body
from spacetable.server.http.deps import Referee
from spacetable.server.http.pages import reader_language
from spacetable.server.http.referee_pool import RefereeBusy, RefereeGaveUp, UploadRefused


async def referee_answer(work: Awaitable[bytes]) -> Response:
    """The JSON ``work`` gives, or its error: 400 for an upload refused (malformed, a bad
    table, no table in a photo; with ``says`` when the error is a phrase, for the client
    to write in the reader's language with shell/phrase.js), 422 when the referee ran out of time or
    memory, 503 (try again in a second) when every worker is busy."""
    try:
        answer = await work
    except UploadRefused as exc:
        body: dict[str, object] = {"error": str(exc)}
        if exc.says is not None:
            body["says"] = exc.says  # the error as a phrase (i18n/phrase.py)
        return JSONResponse(body, status_code=400)
    except RefereeGaveUp as exc:
        return JSONResponse({"error": str(exc), "says": exc.says.to_json()}, status_code=422)
    except RefereeBusy:
        said = phrase("the referee is busy with other tables: try again in a moment")
        return JSONResponse(
            {"error": said.text(), "says": said.to_json()},
            status_code=503,
            headers={"Retry-After": "1"},
        )
    return Response(answer, media_type="application/json")


#: ``POST /api/resolve``: a table (JSON) resolved by the referee's workers.
router = APIRouter()


@router.post("/api/resolve", response_model=None)
async def resolve_table(request: Request, referee: Referee) -> Response:
    try:
        body = await json_body(request, MAX_TABLE_BYTES)
    except BodyRefused as exc:
        return exc.response("error")
    # 400: malformed JSON, a bad table or turn, a limit broken.
    # The drawing in the page's language (?lang=, its cookie or Accept-Language).
    return await referee_answer(referee.resolve(body, reader_language(request)))
