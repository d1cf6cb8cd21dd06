"""Synthetic photos of printed cards for the photo referee's server and browser tests:
small (1400 x 1050 px, 6 cards) so that they are quick to render and to read, each
fixed by its seed (:mod:`spacetable.photo.synth`)."""

from __future__ import annotations

import io
from typing import Any

import cv2
import numpy as np
from PIL import Image

from spacetable.photo.synth import Shot, photograph, render

#: A small photo's size (px): enough for 6 cards' markers at 30 degrees off vertical.
SIZE = (1400, 1050)
#: A Light Speed table of 6 cards (red and blue) whose photo has one close call (a shot
#: 0.7 mm from an edge, the band across it 4.5 x 0.17 mm).
CLOSE_CALL_SEED = 24
#: A Light Speed table of 6 cards with red's Intruder (cut off, and copied, below).
LAYOUT_SEED = 3
TILT_DEG = 30.0
#: A Light Speed table of 6 cards of two fleets, red and blue, no close call: red wins
#: 4-1 (a tournament's table of two settled from its photo).
TWO_FLEETS_SEED = 8
#: A Stellar Conflict table of 6 cards (red, green and purple).
STELLAR_SEED = 4


def shot(seed: int = CLOSE_CALL_SEED) -> Shot:
    """The synthetic photo of ``seed``: 6 cards seen from 30 degrees off vertical."""
    return render(seed, count=6, tilt_deg=TILT_DEG, size=SIZE)


def encoded(image: Any, fmt: str = "PNG", **options: Any) -> bytes:
    """A BGR (or grayscale) image as the bytes of an image file of format ``fmt``."""
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB) if image.ndim == 3 else image
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, fmt, **options)
    return out.getvalue()


def photo_bytes(seed: int = CLOSE_CALL_SEED, fmt: str = "PNG") -> bytes:
    """The photo of ``seed`` as a PNG (or ``fmt``) file."""
    return encoded(shot(seed).image, fmt)


def cut_off_bytes() -> bytes:
    """A photo cropped through a card's middle (the left of red's Intruder goes): that card
    is cut off at the frame, and one of its markers is still in the photo."""
    full = shot(LAYOUT_SEED)
    card = next(c for c in full.cards if c.key.card_id == "red-intruder")
    point = full.homography @ np.array([card.x, card.y, 1.0])
    x = int(point[0] / point[2])
    return encoded(full.image[:, x:])


def same_marker_twice_bytes() -> bytes:
    """A photo of two copies of one printed card (the same markers twice)."""
    cards = list(shot(LAYOUT_SEED).cards)
    first, second = cards[1], cards[2]
    twin = type(first)(first.key, second.x, second.y, second.rotation_deg)
    cards[2] = twin
    rng = np.random.default_rng(LAYOUT_SEED)
    return encoded(photograph(cards, "lightspeed", TILT_DEG, rng, SIZE).image)


def no_markers_bytes() -> bytes:
    """A photo of an empty table cloth (no card in it)."""
    ys, xs = np.mgrid[0:600, 0:800]
    cloth = (127 + 60 * np.sin(xs / 9.0) * np.cos(ys / 13.0)).astype(np.uint8)
    return encoded(cloth)
