"""``POST /api/test/clock``: move every room's clock forward (``spacetable serve
--test-clock`` only, for tests of the whole server, never a public one)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from spacetable._userinput import parse_json
from spacetable.server.http.bodies import BodyRefused, json_body, refused
from spacetable.server.http.deps import MovedClock

#: The most seconds one ``POST /api/test/clock`` moves the clock (a day).
MAX_CLOCK_MOVE_S = 86_400.0


#: ``POST /api/test/clock`` ``{"advance": seconds}``: move every room's clock forward
#: (``spacetable serve --test-clock`` only: the application includes this router only
#: then): a plot timer, a countdown or an absence's grace runs out at once, as it would
#: have after that many seconds.
router = APIRouter()


@router.post("/api/test/clock", include_in_schema=False, response_model=None)
async def move_clock(request: Request, clock: MovedClock) -> dict[str, Any] | JSONResponse:
    try:
        body = parse_json(await json_body(request, 1024))
    except BodyRefused as exc:
        return exc.response("detail")
    except ValueError as exc:
        return refused(exc.args[0] if exc.args else str(exc), 422)
    seconds = body.get("advance") if isinstance(body, dict) else None
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not 0 <= seconds <= MAX_CLOCK_MOVE_S
    ):
        # (English only: the tests' own address, no player reads it.)
        return refused("advance: give the seconds to move the clock, 0 to 86400", 422)
    clock.advance(float(seconds))  # the timers now due run on the loop's next turns
    return {"advanced": seconds}
