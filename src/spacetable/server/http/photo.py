"""The photo referee on the server: ``POST /api/referee/photo`` takes one photo of printed
cards on a table (JPEG, PNG or WebP as the request's body) and answers what ``spacetable
photo --json --resolve`` prints (docs/formats.md), plus what the browser needs to outline
each card on the photo: its corners in the image (``outline_px``) and the image's size.

The photo is read, measured and resolved in the referee's worker pool
(:mod:`.referee_pool`), never on the event loop: first decoded and measured within
:data:`PHOTO_SECONDS`, then resolved within the pool's budget. Nothing is stored; the
photo is gone when the answer is sent.

Hostile uploads are refused before they cost much: the body is capped at
:data:`MAX_PHOTO_BYTES` while it is read, the image's size is read from its header
(Pillow opens it lazily) and refused above :data:`MAX_PHOTO_PIXELS` before any pixel is
decoded (a decompression bomb: a small PNG of a huge blank image), a truncated or corrupt
file fails as it is decoded, and the worker's memory ceiling stops whatever is left.
"""

from __future__ import annotations

import asyncio
import base64
import io
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from PIL import Image, ImageOps, UnidentifiedImageError

from spacetable._userinput import InputError, clipped, parse_json
from spacetable.i18n import N_
from spacetable.i18n.phrase import Phrase, phrase
from spacetable.lasers.tables import MAX_TABLE_BYTES
from spacetable.photo.closecalls import Uncertainty, close_calls
from spacetable.registry import UnknownGame, game_for_ruleset, games, referee_for
from spacetable.server.http.bodies import body_within
from spacetable.server.http.deps import Referee
from spacetable.server.http.referee import referee_answer
from spacetable.server.http.referee_pool import RefereePool, UploadRefused, refused_upload

#: The largest photo accepted (bytes): a 12-megapixel phone JPEG is 3 to 8 MB.
MAX_PHOTO_BYTES = 20 << 20
#: The most pixels a photo may have (a 24-megapixel camera's): decoded, it must fit the
#: worker's memory with room for the detector's copies.
MAX_PHOTO_PIXELS = 25_000_000
#: Seconds a worker may spend decoding and measuring one photo (about 2 s for 12 megapixels
#: on one core; the rest is for a busy machine).
PHOTO_SECONDS = 30.0
#: Where the browser asks for the close calls of a photo's table again once a card was
#: moved (:func:`read_table_uncertainty`).
CLOSE_CALLS_PATH = "/api/referee/close-calls"
#: The largest uncertainty a card may be given there (mm, degrees).
MAX_SIGMA_MM = 50.0
MAX_SIGMA_DEG = 45.0
#: How OpenCV says it could not allocate memory.
_OUT_OF_MEMORY_WORDS = ("bad_alloc", "Insufficient memory", "Failed to allocate")
#: The image formats read, as Pillow names them, and the content types that declare them.
FORMATS = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WebP"}
CONTENT_TYPES = ("image/jpeg", "image/png", "image/webp")


class NotAPhoto(UploadRefused):
    """An upload that is no photo we read: not an image, another format, too many pixels,
    truncated or corrupt: its English text, and ``says`` (the phrase, as JSON) for the page
    to write in its reader's language. (No ``__init__`` of its own: it crosses from the
    worker's process pickled, rebuilt from its text, ``says`` restored with its state.)"""


def _not_a_photo(said: Phrase) -> NotAPhoto:
    """The refusal that says ``said``."""
    refused = NotAPhoto(said.text())
    refused.says = said.to_json()
    return refused


class _Refused(Exception):
    """A request refused before its photo reaches a worker: a status and a phrase (its
    English text is the message)."""

    def __init__(self, status: int, said: Phrase) -> None:
        super().__init__(said.text())
        self.status = status
        self.said = said

    def response(self) -> JSONResponse:
        """The answer: ``error`` in English and ``says``, the phrase (the page writes it
        in its reader's language). The connection closes after it."""
        body = {"error": str(self), "says": self.said.to_json()}
        return JSONResponse(body, status_code=self.status, headers={"Connection": "close"})


def _not_an_image() -> NotAPhoto:
    return _not_a_photo(phrase("this is not an image: send a photo as JPEG, PNG or WebP"))


def _too_many_pixels() -> NotAPhoto:
    return _not_a_photo(phrase("the photo has too many pixels: send a smaller one"))


def _opened(data: bytes) -> Image.Image:
    """The image in ``data``, opened from its header, no pixel decoded yet. Raises
    :class:`NotAPhoto` for another format than :data:`FORMATS` or more pixels than
    :data:`MAX_PHOTO_PIXELS`, and what Pillow raises for what it cannot open."""
    image = Image.open(io.BytesIO(data))
    if image.format not in FORMATS:
        raise _not_a_photo(phrase("a {format} image: send a photo as JPEG, PNG or WebP",
                               format=str(image.format)))  # fmt: skip
    width, height = image.size
    if width * height > MAX_PHOTO_PIXELS:
        raise _not_a_photo(
            phrase(
                "the photo is {width} x {height} pixels, more than {most} megapixels: "
                "send a smaller one",
                width=str(width),
                height=str(height),
                most=f"{MAX_PHOTO_PIXELS / 1e6:.0f}",
            )
        )
    return image


def check_photo_header(data: bytes) -> None:
    """Refuse from its header alone (no pixel decoded: a millisecond) what is surely no
    photo we read: not an image, another format, too many pixels (a decompression bomb).
    Raises :class:`NotAPhoto`. The server runs it on a thread before a photo waits for a
    worker, so that a burst of such files takes no worker's turn and no place in its
    queue; what it lets through (a file corrupt further in) the worker refuses."""
    try:
        _opened(data)
    except UnidentifiedImageError:
        raise _not_an_image() from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except NotAPhoto:
        raise
    except (OSError, SyntaxError, ValueError):
        return  # the worker decodes it and says what is wrong with it


def decode_photo(data: bytes) -> Any:
    """The photo as a grayscale numpy image, turned upright as its EXIF orientation says (a
    phone's portrait photo). Raises :class:`NotAPhoto` naming the problem: not an
    image of an accepted format, too many pixels, truncated or corrupt."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = _opened(data)
            image.load()
            upright = ImageOps.exif_transpose(image).convert("L")
    except UnidentifiedImageError:
        raise _not_an_image() from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, NotAPhoto):
            raise
        said = phrase("the photo cannot be read (truncated or corrupt?): {error}", error=str(exc))
        raise _not_a_photo(said) from None
    return np.asarray(upright, dtype=np.uint8)


def read_photo(data: bytes) -> tuple[dict[str, Any], Any, dict[str, Uncertainty]]:
    """In a worker: decode and measure a photo; its answer so far (``table``, ``cards``
    with their outlines, ``image``), the table as its game's referee checked it, and each
    card's uncertainty, for :func:`resolve_photo`. Raises :class:`UploadRefused`."""
    # OpenCV on demand: the server's own process never reads a photo (its workers' fork
    # server imports it, ``referee_pool.py``), and a server starts without it.
    import cv2

    from spacetable.photo.solve import PhotoError
    from spacetable.photo.table import photo_table

    gray = decode_photo(data)
    try:
        found = photo_table(gray)
    except cv2.error as exc:
        # OpenCV says it ran out of memory in its own words (C++'s std::bad_alloc, its
        # "Insufficient memory"): the worker's memory limit, said as Python says it.
        if any(words in str(exc) for words in _OUT_OF_MEMORY_WORDS):
            raise MemoryError(str(exc)) from None
        raise
    except PhotoError as exc:
        refused = UploadRefused(str(exc))
        # The sentence as a phrase, for the browser to write in the reader's language (it
        # crosses from the worker with the exception, as JSON).
        refused.says = phrase(exc.key, **exc.params).to_json()
        raise refused from None
    _, referee = referee_for(found.table)
    try:
        settled = referee.read(found.table)
    except referee.error as exc:
        raise UploadRefused(f"the cards as measured do not make a table: {exc}") from None
    cards = found.cards_json()
    for entry, card in zip(cards, found.cards, strict=True):
        entry["outline_px"] = [[round(x, 1), round(y, 1)] for x, y in card.outline_px]
    height, width = gray.shape[:2]
    answer = {"table": found.table, "cards": cards, "image": {"width": width, "height": height}}
    uncertainty = {
        card.key.card_id: Uncertainty(found.sigma_mm(card), found.sigma_deg(card))
        for card in found.cards
    }
    return answer, settled, uncertainty


#: The longest side (px) of the copy of a photo a tournament's table keeps.
KEPT_PHOTO_SIDE = 1280


def read_photo_kept(data: bytes) -> tuple[dict[str, Any], Any, dict[str, Uncertainty]]:
    """In a worker: :func:`read_photo`, its answer with ``kept``: a JPEG copy of the photo
    (upright, at most :data:`KEPT_PHOTO_SIDE` px a side), base64, for a tournament's table
    to keep (``http/tournament_photo.py``)."""
    answer, settled, uncertainty = read_photo(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        image = ImageOps.exif_transpose(_opened(data)).convert("RGB")
    image.thumbnail((KEPT_PHOTO_SIDE, KEPT_PHOTO_SIDE))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    answer["kept"] = base64.b64encode(out.getvalue()).decode("ascii")
    return answer, settled, uncertainty


def resolve_photo(
    answer: dict[str, Any], settled: Any, uncertainty: dict[str, Uncertainty]
) -> bytes:
    """In a worker: resolve a measured photo's table; the whole answer as JSON bytes, with
    ``close_calls`` and ``result`` (as ``spacetable photo --json --resolve``)."""
    _, referee = referee_for(answer["table"])
    try:
        resolution = referee.resolve(settled)
    except referee.error as exc:
        raise UploadRefused(str(exc)) from None
    calls = close_calls(settled.cards, resolution, uncertainty)
    answer["close_calls"] = [call.to_json() for call in calls]
    answer["result"] = referee.result_json(resolution)
    return orjson.dumps(answer)


def _sigma(card_id: str, entry: Any, name: str, most: float) -> float:
    value = entry.get(name) if isinstance(entry, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= most:
        raise UploadRefused(
            f"the uncertainty of {clipped(card_id)}: {name} must be a number from 0 to {most:g}"
        )
    return float(value)


def _close_calls_shape() -> str:
    """What :data:`CLOSE_CALLS_PATH` takes, naming the files of the games the photo
    referee reads (the registry's ``Game.photos``)."""
    files = " or ".join(
        f"a {entry.rules.title} {entry.rules.referee.kind}"
        for entry in games()
        if entry.photos and entry.rules.referee is not None
    )
    return (
        f'send {{"table": <{files}>, "uncertainty": '
        '{<card id>: {"sigma_mm": <mm>, "sigma_deg": <degrees>}, ...}}'
    )


def _reads_photos(ruleset: Any) -> bool:
    """Whether the game whose files name ``ruleset`` is one the photo referee reads."""
    try:
        return game_for_ruleset(ruleset).photos
    except UnknownGame:
        return False


def read_table_uncertainty(body: bytes) -> tuple[dict[str, Any], Any, dict[str, Uncertainty]]:
    """In a worker: a laser game's table file and its cards' uncertainty (as a photo
    measured them: ``sigma_mm``, ``sigma_deg``; a card not named is taken as exact), for
    :func:`resolve_photo`, which gives its close calls and battle. The browser sends them
    after a card of a photo's table was moved by hand. Raises :class:`UploadRefused`."""
    try:
        data = parse_json(body)
    except InputError as exc:
        raise refused_upload(exc) from None
    if not isinstance(data, dict) or set(data) != {"table", "uncertainty"}:
        raise UploadRefused(_close_calls_shape())
    table, given = data["table"], data["uncertainty"]
    if not isinstance(table, dict) or not _reads_photos(table.get("ruleset")):
        raise UploadRefused(_close_calls_shape())
    if not isinstance(given, dict):
        raise UploadRefused(_close_calls_shape())
    uncertainty = {
        str(card_id): Uncertainty(
            _sigma(str(card_id), entry, "sigma_mm", MAX_SIGMA_MM),
            _sigma(str(card_id), entry, "sigma_deg", MAX_SIGMA_DEG),
        )
        for card_id, entry in given.items()
    }
    try:
        _, referee = referee_for(table)
        settled = referee.read(table)
    except UnknownGame as exc:
        raise UploadRefused(str(exc)) from None
    except referee.error as exc:
        raise UploadRefused(str(exc)) from None
    return {"table": table}, settled, uncertainty


async def _json_body(request: Request) -> bytes:
    """A JSON body of at most :data:`MAX_TABLE_BYTES` (and a little for the uncertainty).
    Raises :class:`_Refused`: 415 unless declared ``application/json``, 413 above it."""
    declared = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if declared != "application/json":
        raise _Refused(
            415,
            phrase(
                "send JSON with Content-Type: application/json, not {type}", type=clipped(declared)
            )
            if declared
            else phrase(
                "send JSON with Content-Type: application/json: the request declares no type"
            ),
        )
    limit = 2 * MAX_TABLE_BYTES
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _Refused(413, phrase("the body is larger than {n} bytes", n=f"{limit:,}"))
    return bytes(body)


async def _photo_body(request: Request) -> bytes:
    """The photo in the request's body. Raises :class:`_Refused`: 413 above
    :data:`MAX_PHOTO_BYTES` (before the rest is read, when the request says its length),
    415 unless it is declared an image type we read (a form another site's page posts
    cannot declare one without the browser asking this server first), 400 if empty.

    A body of the wrong type is read (within the cap) before the 415: a server that
    answers and closes while a photo is still coming resets the connection, and the
    client sees a network error instead of the answer."""
    declared = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    too_large = _Refused(
        413,
        phrase("the photo is larger than {n} MB: send a smaller one", n=MAX_PHOTO_BYTES >> 20),
    )
    body = await body_within(request, MAX_PHOTO_BYTES, too_large)
    if declared not in CONTENT_TYPES:
        raise _Refused(
            415,
            phrase(
                "send the photo as the body with Content-Type image/jpeg, image/png or "
                "image/webp, not {type}",
                type=clipped(declared),
            )
            if declared
            else phrase(
                "send the photo as the body with Content-Type image/jpeg, image/png or "
                "image/webp: the request declares no type"
            ),
        )
    if not body:
        raise _Refused(400, phrase("the request holds no photo"))
    return body


async def _settled_photo(referee: RefereePool, body: bytes) -> bytes:
    """The answer to a photo: refused from its header on a thread (no worker's turn taken),
    else read in a worker of its own (what a large one took goes with it) and resolved."""
    await asyncio.to_thread(check_photo_header, body)
    return await referee.settle(
        PHOTO_SECONDS, read_photo, resolve_photo, body, what=N_("the photo"), fresh=True
    )


#: ``POST /api/referee/photo`` and ``POST /api/referee/close-calls`` (the close calls of a
#: photo's table again, after a card was moved), settled by the referee's workers.
router = APIRouter()


async def _settle(body: Awaitable[bytes], answer: Callable[[bytes], Awaitable[bytes]]) -> Response:
    """The answer to a request: its ``body`` taken (or refused as it came), then
    ``answer(body)``, the worker's."""
    try:
        taken = await body
    except _Refused as exc:
        # The rest of a refused body is never read: the connection closes after this.
        return exc.response()
    return await referee_answer(answer(taken))


def _close_calls(referee: RefereePool, body: bytes) -> Awaitable[bytes]:
    """The close calls of the table and uncertainty in ``body``, from a worker."""
    return referee.settle(
        PHOTO_SECONDS, read_table_uncertainty, resolve_photo, body, what=N_("the table")
    )


@router.post("/api/referee/photo", response_model=None)
async def read_table_photo(request: Request, referee: Referee) -> Response:
    # 400: no image, or no table in it (no markers, a card cut off).
    return await _settle(_photo_body(request), lambda body: _settled_photo(referee, body))


@router.post(CLOSE_CALLS_PATH, response_model=None)
async def close_calls_again(request: Request, referee: Referee) -> Response:
    # 400: malformed JSON, a bad table or uncertainty.
    return await _settle(_json_body(request), lambda body: _close_calls(referee, body))
