"""The JSON API's request bodies and refusals: a body read up to a limit, refused before
it is parsed when it is not JSON or too large (:class:`BodyRefused`), and a refused
request's answer (:func:`refused`), in English and as a phrase for the page."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from spacetable._userinput import clipped
from spacetable.i18n.phrase import says

#: The header that closes the connection after an answer.
CLOSE = {"Connection": "close"}


class BodyRefused(Exception):
    """A JSON API request refused before its body is parsed: ``status`` and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def response(self, key: str) -> JSONResponse:
        """The answer, with the message under ``key``. The connection is closed after it:
        the rest of the body is never read (uvicorn would otherwise drain it)."""
        return JSONResponse({key: str(self)}, status_code=self.status, headers=CLOSE)


async def json_body(request: Request, limit: int) -> bytes:
    """The body of a JSON API request, at most ``limit`` bytes.

    Raises :class:`BodyRefused`: 415 unless the body is declared ``application/json``
    (a form or ``text/plain`` post, which another site's page may send without asking),
    413 when it is larger than ``limit``, refused before the rest is read."""
    declared_type = request.headers.get("content-type", "")
    if declared_type.split(";", 1)[0].strip().lower() != "application/json":
        raise BodyRefused(
            415, f"send JSON with Content-Type: application/json, not {clipped(declared_type)}"
        )
    return await body_within(
        request, limit, BodyRefused(413, f"the body is larger than {limit:,} bytes")
    )


async def body_within(request: Request, limit: int, too_large: Exception) -> bytes:
    """The body of ``request``, at most ``limit`` bytes. Raises ``too_large`` when the
    request says it is longer, before any of it is read, or once what came is longer."""
    declared_length = request.headers.get("content-length", "")
    if len(declared_length) > 12 or (declared_length.isdigit() and int(declared_length) > limit):
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def refused(said: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    """A refused request's answer: ``detail`` in English, and ``says``, its phrase for the
    page to write in its reader's language, when ``said`` is a phrase."""
    phrase = says(said)
    body = {"detail": str(said)} | ({"says": phrase} if phrase is not None else {})
    return JSONResponse(body, status_code=status, headers=headers)
