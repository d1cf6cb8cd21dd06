"""What the referee's HTTP endpoints answer for a table or a photo settled by the worker
pool: the result, or the error that names what went wrong, with its status."""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.responses import JSONResponse, Response

from spacetable.i18n.phrase import phrase
from spacetable.server._referee_pool import RefereeBusy, RefereeGaveUp, UploadRefused


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
