"""The issue's targets of accuracy on fixed photos of the bench's corpus (``spacetable bench
--photo``, 12 megapixels, the printed cards' own faces): the steepest crowded photo (seed 7:
39 cards at 56 degrees off vertical, the one whose card the first pass cannot read), and the
photo that took longest to read before (seed 17: 31 cards on a busy cloth); the close calls
of the photos whose battle differs from the truth's (seeds 5 and 8)."""

from __future__ import annotations

import functools
import math
import statistics

import cv2
import pytest

from spacetable.lab.photo_bench import measure_photo, printed_faces
from spacetable.photo import synth
from spacetable.photo.closecalls import K_SIGMA
from spacetable.photo.table import PhotoTable, decode, photo_table


@functools.cache
def _photo(seed: int) -> tuple[synth.Shot, bytes]:
    faces = printed_faces()
    if faces is None:  # pragma: no cover - pypdfium2 is a development dependency
        pytest.skip("pypdfium2 is not installed: the corpus's faces are the printed PDF's")
    shot = synth.render(seed, faces=faces)
    ok, encoded = cv2.imencode(".jpg", shot.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return shot, encoded.tobytes()


def _read(seed: int) -> tuple[synth.Shot, PhotoTable]:
    """The photo of ``seed`` read as ``spacetable photo`` reads it."""
    shot, data = _photo(seed)
    return shot, photo_table(decode(data, f"seed {seed}"))


def test_every_card_of_a_steep_crowded_photo_is_found_within_the_targets() -> None:
    # Also the first of the 12-megapixel photos whose every card is read (read once here).
    shot, found = _read(7)
    assert shot.image.shape[:2] == (3000, 4000)
    assert shot.tilt_deg > 55 and len(shot.cards) == 39
    # green-wiss-glint's markers are 19 px across here: read only on a second look.
    assert len(found.cards) == len(shot.cards)
    assert {c.key for c in found.cards} == {c.key for c in shot.cards}
    truth = {c.key: c for c in synth.truth_in_frame(shot)}
    centre = [math.hypot(c.x - truth[c.key].x, c.y - truth[c.key].y) for c in found.cards]
    turn = [
        abs((c.rotation_deg - truth[c.key].rotation_deg + 180.0) % 360.0 - 180.0)
        for c in found.cards
    ]
    assert statistics.median(centre) < 1.0
    assert max(centre) < 3.0
    assert statistics.median(turn) < 0.3


@pytest.mark.parametrize("seed", [17])  # seed 7: the steep crowded photo's test above
def test_every_card_of_a_12_megapixel_photo_is_read(seed: int) -> None:
    # How long a photo takes (target: under 2 processor seconds of one core) is measured
    # by `spacetable bench --photo` (cpu_s_per_photo_median / _max), not asserted here: a
    # test's timing on a machine busy with the rest of the suite says little.
    shot, found = _read(seed)
    assert shot.image.shape[:2] == (3000, 4000)
    assert len(found.cards) == len(shot.cards)


@pytest.mark.parametrize("seed", [5, 8])
def test_close_calls_flag_every_flip_on_an_honest_uncertainty(seed: int) -> None:
    # Seeds 5 and 8 (52 and 59 degrees off vertical): one shot each whose outcome on the
    # photo's table differs from the truth's.
    row = measure_photo(seed, printed_faces())
    assert row["flips"] == 1
    assert row["flips_flagged"] == row["flips"]
    # The uncertainty is neither inflated nor too small: the error across each laser's ray
    # is about one standard deviation typically (a normal law's median: 0.67), and within
    # the band of K_SIGMA of them everywhere.
    across = row["across_sigmas"]
    assert 0.4 < statistics.median(across) < 1.0
    assert max(across) < K_SIGMA
    # Few false flags: most shots of the battle are no close call.
    assert row["close_calls"] <= row["shots"] / 10
