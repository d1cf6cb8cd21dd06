"""``POST /api/referee/photo`` after bad photos: a burst of decompression bombs, a photo of
noise that takes hundreds of megabytes to read, a progressive JPEG, each gets one 4xx
naming why, and the next good photo is read as if they had never come (docs/print-and-photo.md,
Limits). A worker that ran out of memory is not kept: each photo is read in a worker of
its own, with its own memory limit."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from PIL import Image

from spacetable._time_limit import OutOfMemory, Workers
from spacetable.server.http import photo
from spacetable.server.http.photo import PHOTO_SECONDS
from spacetable.server.http.referee_pool import MAX_PENDING, PHOTO_MODULES
from tests import _photo_shots as shots
from tests._server import Server, running_server
from tests.server.hostile.test_http import post

PHOTO = "/api/referee/photo"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "matches.db") as running:
        yield running


def _noise_jpeg(width: int, height: int, seed: int, **options: object) -> bytes:
    """Gray noise as a JPEG: every pixel a candidate edge for the marker detector (a gray
    image keeps a 24.9-megapixel one under the 20 MB body limit, and cheap to make)."""
    pixels = np.random.default_rng(seed).integers(0, 256, (height, width), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=75, **options)
    return out.getvalue()


def _bomb_png(width: int = 100_000, height: int = 100_000) -> bytes:
    """A PNG whose header says ``width`` x ``height`` pixels, in a few dozen bytes: a
    1-pixel PNG with its header's size (and checksum) rewritten."""
    out = io.BytesIO()
    Image.new("L", (1, 1)).save(out, "PNG")
    data = bytearray(out.getvalue())
    start = data.index(b"IHDR")
    data[start + 4 : start + 12] = struct.pack(">II", width, height)
    header = bytes(data[start : start + 17])
    data[start + 17 : start + 21] = struct.pack(">I", zlib.crc32(header))
    return bytes(data)


def _refused_naming_why(status: int, answer: dict[str, object]) -> None:
    assert 400 <= status < 500, (status, answer)
    assert isinstance(answer.get("error"), str) and answer["error"], answer
    assert isinstance(answer.get("says"), dict), answer  # the reason as a phrase


def test_bad_photos_each_get_a_4xx_and_the_next_good_photo_is_read(server: Server) -> None:
    # 16 decompression bombs at once, twice the referee's queue: each is refused from its
    # header, none waits for a worker, so none is turned away busy.
    bomb = _bomb_png()
    assert len(bomb) < 100
    with ThreadPoolExecutor(2 * MAX_PENDING) as uploads:
        answers = list(
            uploads.map(lambda _: post(server, PHOTO, bomb, "image/png"), range(2 * MAX_PENDING))
        )
    for status, answer in answers:
        _refused_naming_why(status, answer)
        assert "too many pixels" in str(answer["error"])
    noise = _noise_jpeg(5770, 4315, seed=1)  # 24.9 megapixels
    assert len(noise) < 20 << 20
    progressive = _noise_jpeg(4000, 3000, seed=2, progressive=True)  # 12 megapixels
    for bad in (noise, progressive):
        _refused_naming_why(*post(server, PHOTO, bad, "image/jpeg"))
    status, answer = post(server, PHOTO, shots.photo_bytes(), "image/png")
    assert status == 200, answer
    assert {row["id"] for row in answer["table"]["cards"]} == {
        card.key.card_id for card in shots.shot().cards
    }


def test_a_photo_that_runs_out_of_memory_is_said_so_and_the_next_worker_is_fresh() -> None:
    """What the pool does when a photo takes more than its memory (here a small limit, so
    that it happens at once): the reader's OpenCV says ``std::bad_alloc``, or its worker
    dies; either way the call says :class:`OutOfMemory` (the endpoint's 422), and the next
    photo is read in a fresh worker with all of its memory. The workers have OpenCV
    imported before the call, as the server's do: mapping its library alone would take
    more than this limit."""
    progressive = _noise_jpeg(4000, 3000, seed=2, progressive=True)
    with Workers(
        fork_server=True, preload=PHOTO_MODULES, memory_bytes=64 << 20, max_tasks=1
    ) as workers:
        with pytest.raises(OutOfMemory):
            workers.call(PHOTO_SECONDS, photo.read_photo, progressive)
        answer, _, _ = workers.call(PHOTO_SECONDS, photo.read_photo, shots.photo_bytes())
    assert len(answer["table"]["cards"]) == 6
