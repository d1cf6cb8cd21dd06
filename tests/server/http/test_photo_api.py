"""``POST /api/referee/photo``: a photo of printed cards read, measured and resolved on a
real server, and every kind of bad upload refused with an error naming the problem while
the server goes on serving."""

from __future__ import annotations

import http.client
import io
import json
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import orjson
import pytest
from PIL import Image

from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from spacetable.photo.table import photo_table
from spacetable.server.http.photo import MAX_PHOTO_BYTES, decode_photo
from tests import _photo_shots as shots
from tests._server import Server, running_server
from tests.server.hostile.test_http import assert_still_serving, post, stream

PHOTO = "/api/referee/photo"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "matches.db") as running:
        yield running


@pytest.fixture(scope="module")
def photo() -> bytes:
    return shots.photo_bytes()


def test_a_photo_gives_the_table_its_cards_outlined_close_calls_and_the_battle(
    server: Server, photo: bytes
) -> None:
    status, answer = post(server, PHOTO, photo, "image/png")
    assert status == 200, answer
    # The same table as the photo referee's own reading of the same pixels (the CLI's).
    expected = photo_table(decode_photo(photo))
    assert answer["table"] == expected.table
    assert answer["cards"] == [
        {**card, "outline_px": answer["cards"][i]["outline_px"]}
        for i, card in enumerate(expected.cards_json())
    ]
    truth = {card.key.card_id for card in shots.shot().cards}
    assert {row["id"] for row in answer["table"]["cards"]} == truth
    assert answer["image"] == {"width": shots.SIZE[0], "height": shots.SIZE[1]}
    for card in answer["cards"]:
        corners = card["outline_px"]
        assert len(corners) == 4
        assert all(0 <= x < shots.SIZE[0] and 0 <= y < shots.SIZE[1] for x, y in corners)
    assert answer["result"]["scores"]
    assert len(answer["close_calls"]) >= 1  # this layout has one (tests/_photo_shots.py)
    call = answer["close_calls"][0]
    assert call["kind"] in {"hit or miss", "shield or bare edge"}
    assert len(call["outcomes"]) >= 2


def test_a_jpeg_from_a_phone_is_read_too(server: Server) -> None:
    jpeg = shots.encoded(shots.shot().image, "JPEG", quality=92)
    status, answer = post(server, PHOTO, jpeg, "image/jpeg")
    assert status == 200, answer
    assert len(answer["table"]["cards"]) == 6


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (shots.no_markers_bytes, "no card markers found in the photo"),
        (shots.cut_off_bytes, "card red-intruder is cut off at the photo's edge"),
        (shots.same_marker_twice_bytes, "two cards carry the same marker"),
    ],
    ids=["no markers", "a card cut off", "the same marker twice"],
)
def test_photos_that_give_no_table_get_a_400_naming_why(
    server: Server, make: object, message: str
) -> None:
    assert callable(make)
    status, answer = post(server, PHOTO, make(), "image/png")
    assert status == 400, answer
    assert message in answer["error"]
    # The same error as a phrase (its English message and places), for the browser to
    # write in the reader's language.
    says = answer["says"]
    assert says["message"].format(**says["params"]) == answer["error"]


def _bomb() -> bytes:
    """A 40,000 x 40,000 pixel PNG (1.6 gigapixels) of a few kilobytes."""
    out = io.BytesIO()
    Image.new("1", (40_000, 40_000)).save(out, "PNG")
    return out.getvalue()


def _big() -> bytes:
    """A 6,000 x 5,000 pixel PNG: 30 megapixels, more than a photo needs."""
    out = io.BytesIO()
    Image.new("L", (6_000, 5_000)).save(out, "PNG")
    return out.getvalue()


def _truncated() -> bytes:
    jpeg = shots.encoded(shots.shot().image, "JPEG", quality=90)
    return jpeg[: len(jpeg) // 2]


def _gif() -> bytes:
    out = io.BytesIO()
    Image.new("L", (64, 64)).save(out, "GIF")
    return out.getvalue()


@pytest.mark.parametrize(
    ("make", "content_type", "message"),
    [
        (lambda: os.urandom(50_000), "image/jpeg", "this is not an image"),
        (_truncated, "image/jpeg", "cannot be read (truncated or corrupt?)"),
        (_bomb, "image/png", "too many pixels"),
        (_big, "image/png", "6000 x 5000 pixels, more than 25 megapixels"),
        (_gif, "image/png", "a GIF image: send a photo as JPEG, PNG or WebP"),
    ],
    ids=["random bytes", "a truncated JPEG", "a decompression bomb", "too many pixels", "a GIF"],
)
def test_hostile_or_broken_images_get_a_400_and_the_server_goes_on(
    server: Server, make: object, content_type: str, message: str
) -> None:
    assert callable(make)
    status, answer = post(server, PHOTO, make(), content_type)
    assert status == 400, answer
    assert message in answer["error"]
    assert_still_serving(server)


def test_a_photo_too_large_is_refused_before_it_is_sent(server: Server) -> None:
    head = (
        f"POST {PHOTO} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
        f"Content-Length: {MAX_PHOTO_BYTES + 1}\r\n\r\n"
    ).encode()
    status, sent = stream(server, head, iter(()))
    assert (status, sent) == (413, 0)
    assert_still_serving(server)


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain"])
def test_a_photo_must_be_declared_an_image(server: Server, photo: bytes, content_type: str) -> None:
    status, answer = post(server, PHOTO, photo, content_type)
    assert status == 415
    assert "Content-Type image/jpeg, image/png or image/webp" in answer["error"]


def test_an_empty_body_is_no_photo(server: Server) -> None:
    status, answer = post(server, PHOTO, b"", "image/png")
    assert status == 400
    assert "no photo" in answer["error"]


def _announced_too_large(server: Server) -> tuple[int, dict[str, Any]]:
    """A photo request whose length says it is over the limit (nothing of it sent): the
    status and the JSON answer."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("POST", PHOTO)
        connection.putheader("Content-Type", "image/png")
        connection.putheader("Content-Length", str(MAX_PHOTO_BYTES + 1))
        connection.endheaders()
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_every_refusal_of_a_photo_says_it_as_a_phrase_the_page_writes_in_french(
    server: Server, photo: bytes
) -> None:
    """Each refusal carries ``says``, its phrase: its English is the ``error``, and a French
    page writes it in French (the photo referee page uses ``said()``)."""
    french = translator("fr")
    refusals = [
        (post(server, PHOTO, _gif(), "image/png"), 400,
         "une image GIF\u00a0: envoyez une photo en JPEG, PNG ou WebP"),
        (post(server, PHOTO, b"not an image", "image/png"), 400,
         "ce n'est pas une image\u00a0: envoyez une photo en JPEG, PNG ou WebP"),
        (post(server, PHOTO, b"", "image/png"), 400, "la requête ne contient pas de photo"),
        (post(server, PHOTO, photo, "text/plain"), 415,
         "envoyez la photo comme corps de la requête avec Content-Type image/jpeg, image/png "
         "ou image/webp, pas 'text/plain'"),
        (_announced_too_large(server), 413,
         "la photo dépasse 20\u00a0Mo\u00a0: envoyez-en une plus petite"),
        (post(server, "/api/referee/close-calls", b"{}", "text/plain"), 415,
         "envoyez du JSON avec Content-Type\u00a0: application/json, pas 'text/plain'"),
        (post(server, PHOTO, photo, ""), 415,
         "envoyez la photo comme corps de la requête avec Content-Type image/jpeg, image/png "
         "ou image/webp\u00a0: la requête ne déclare aucun type"),
        (post(server, "/api/referee/close-calls", b"{}", ""), 415,
         "envoyez du JSON avec Content-Type\u00a0: application/json\u00a0: la requête ne "
         "déclare aucun type"),
    ]  # fmt: skip
    for (status, answer), expected_status, expected in refusals:
        assert status == expected_status, answer
        said = Phrase.from_json(answer["says"])
        assert said.text() == answer["error"]
        assert said.text(french) == expected
    assert_still_serving(server)


def test_the_photo_is_decoded_upright_as_its_exif_orientation_says() -> None:
    wide = np.zeros((10, 30), np.uint8)
    out = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to show
    Image.fromarray(wide).save(out, "JPEG", exif=exif)
    assert decode_photo(out.getvalue()).shape == (30, 10)


CLOSE_CALLS = "/api/referee/close-calls"


def _uncertainty(answer: dict[str, object]) -> dict[str, dict[str, float]]:
    cards = answer["cards"]
    assert isinstance(cards, list)
    return {c["id"]: {"sigma_mm": c["sigma_mm"], "sigma_deg": c["sigma_deg"]} for c in cards}


def test_the_close_calls_of_a_corrected_table_are_measured_again(
    server: Server, photo: bytes
) -> None:
    status, answer = post(server, PHOTO, photo, "image/png")
    assert status == 200, answer
    [call] = answer["close_calls"]  # this layout has one (tests/_photo_shots.py)
    body = {"table": answer["table"], "uncertainty": _uncertainty(answer)}
    # The photo's table as it was: the same close call and battle.
    status, same = post(server, CLOSE_CALLS, orjson.dumps(body))
    assert status == 200, same
    assert same["close_calls"] == answer["close_calls"]
    assert same["result"] == answer["result"]
    # The card the close call's laser may hit instead, moved 10 cm away: no close call.
    others = {o["target"] for o in call["outcomes"][1:] if o["target"]}
    others.discard(call["outcomes"][0]["target"])
    moved = {**answer["table"], "cards": [dict(c) for c in answer["table"]["cards"]]}
    for card in moved["cards"]:
        if card["id"] in others or (not others and card["id"] == call["outcomes"][0]["target"]):
            card["y"] += 400.0
    status, again = post(server, CLOSE_CALLS, orjson.dumps({**body, "table": moved}))
    assert status == 200, again
    assert [c for c in again["close_calls"] if c["ship"] == call["ship"]] == []
    # Every card taken as exact: no close call at all.
    status, exact = post(server, CLOSE_CALLS, orjson.dumps({**body, "uncertainty": {}}))
    assert (status, exact["close_calls"]) == (200, [])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{", "JSON"),
        (b'{"table": {}}', 'send {"table"'),
        (
            b'{"table": {"ruleset": "lightspeed", "players": ["red", "blue"], "cards": []},'
            b' "uncertainty": {"red-moth": {"sigma_mm": -1, "sigma_deg": 0}}}',
            "the uncertainty of 'red-moth': sigma_mm must be a number from 0 to 50",
        ),
        (
            b'{"table": {"ruleset": "lightspeed", "cards": 3}, "uncertainty": {}}',
            "'players' must be a list of 2 to 4 names",
        ),
        (  # the games whose tables the photo referee reads, from the registry
            b'{"table": {"ruleset": "ftl"}, "uncertainty": {}}',
            "<a Light Speed table file or a Stellar Conflict table file>",
        ),
    ],
    ids=["malformed JSON", "no uncertainty", "a negative sigma", "a bad table", "not a photo game"],
)
def test_a_bad_close_calls_request_gets_a_400_naming_why(
    server: Server, body: bytes, message: str
) -> None:
    status, answer = post(server, CLOSE_CALLS, body)
    assert status == 400, answer
    assert message in answer["error"]
    status, answer = post(server, CLOSE_CALLS, b"{}", "text/plain")
    assert status == 415 and "application/json" in answer["error"]
